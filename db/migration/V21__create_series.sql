-- History (HISTORY.md): a series is the measured runs that share a key (system, model, engine, harness, declared
-- workload, branch). Membership follows from a run's provenance, which never changes: it is append-only.
-- The analysis (segments, greyed points, change points) is derived from the runs and recomputed for one series
-- when a run joins it; it is a cache of a pure function, replaced whole, never a record.

create table series (
	-- the first 12 hex characters of the SHA-256 of the canonical key: short, stable, derived from the key
	id           varchar(16)  primary key,
	system_name  text         not null,
	model_repo   text         not null,
	engine_name  text         not null,
	harness_name text         not null,
	branch       text         not null,
	-- the declared workload, canonically serialised (WorkloadFingerprint.declared)
	workload     jsonb        not null,
	created_at   timestamptz  not null default now()
);

create index series_system_idx on series (system_name);
create index series_model_idx on series (model_repo);
create index series_harness_idx on series (harness_name);
create index series_branch_idx on series (branch);

create table series_run (
	series_id varchar(16) not null references series (id),
	run_id    varchar(16) not null unique references run (id),
	primary key (series_id, run_id)
);

create trigger series_append_only before update or delete on series
	for each row execute function parity_refuse_change();
create trigger series_append_only_truncate before truncate on series
	for each statement execute function parity_refuse_change();
create trigger series_run_append_only before update or delete on series_run
	for each row execute function parity_refuse_change();
create trigger series_run_append_only_truncate before truncate on series_run
	for each statement execute function parity_refuse_change();

-- Per-series settings (server defaults where a column is null); changed by admins.
create table series_settings (
	series_id          varchar(16)  primary key references series (id),
	window_size        integer      check (window_size >= 2),
	max_pvalue         double precision check (max_pvalue > 0 and max_pvalue < 1),
	alert_magnitude    double precision check (alert_magnitude >= 0),
	confirm_after      integer      check (confirm_after >= 0),
	vary               varchar(20)  check (vary in ('engine', 'checkpoint', 'flags', 'environment')),
	alert_improvements boolean,
	updated_at         timestamptz  not null default now(),
	updated_by         varchar(100) not null
);

-- The latest analysis of a series, as JSON (the API's shape), with the facts lists need.
create table series_analysis (
	series_id   varchar(16)  primary key references series (id),
	run_count   integer      not null,
	last_run    varchar(16),
	analysis    jsonb        not null,
	computed_at timestamptz  not null default now()
);
