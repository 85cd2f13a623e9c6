-- Runs are the record of what was measured: once stored they are never changed or removed.
-- The append-only rule is enforced here, in the database, not only by the absence of code.

create function parity_refuse_change() returns trigger
language plpgsql as $$
begin
	raise exception 'parity: % on % is refused: this record is append-only', tg_op, tg_table_name
		using errcode = 'insufficient_privilege';
end;
$$;

create table app_user (
	id            bigserial primary key,
	username      varchar(100) not null unique,
	password_hash varchar(200) not null,
	role          varchar(20)  not null check (role in ('viewer', 'uploader', 'admin')),
	created_at    timestamptz  not null default now()
);

create table run (
	id                   varchar(16)  primary key,
	-- SHA-256 of what was uploaded (the document's bytes); the same bytes give the same run.
	upload_sha256        varchar(64)     not null unique,
	title                varchar(200) not null,
	role                 varchar(20)  not null check (role in ('measured', 'reference')),
	system_name          text         not null,
	model_repo           text         not null,
	model_revision       text,
	-- The resolved checkpoint commit (40 lower-case hex); null = unpinned.
	model_commit         varchar(40),
	engine_name          text         not null,
	engine_version       text,
	harness_name         text         not null,
	harness_version      text,
	source_url           text,
	recorded_at          timestamptz,
	-- SHA-256 of the declared workload plus the grid definition, canonically serialised:
	-- two runs with the same fingerprint intend the same work (whether they did is measured).
	workload_fingerprint varchar(64)     not null,
	-- system, model, engine, harness, workload, source, metric definitions, disclosed caveats
	provenance           jsonb        not null,
	cell_count           integer      not null,
	uploaded_at          timestamptz  not null default now(),
	uploaded_by          varchar(100) not null
);

create index run_uploaded_at_idx on run (uploaded_at desc, id);
create index run_system_idx on run (system_name);
create index run_model_idx on run (model_repo);
create index run_commit_idx on run (model_commit);
create index run_harness_idx on run (harness_name);
create index run_fingerprint_idx on run (workload_fingerprint);

-- The uploaded files, byte for byte (jsonb would reorder keys and could not give them back).
create table run_file (
	id         bigserial    primary key,
	run_id     varchar(16)  not null references run (id),
	position   integer      not null,
	file_name  text         not null,
	media_type text         not null,
	sha256     varchar(64)     not null,
	size_bytes bigint       not null,
	content    bytea        not null,
	unique (run_id, position)
);

create table cell (
	id               bigserial   primary key,
	run_id           varchar(16) not null references run (id),
	position         integer     not null,
	params           jsonb       not null,
	anchor           text        not null,
	exec_order       integer,
	-- null = the harness does not record it (not zero)
	completed        integer,
	failed           integer,
	cancelled        integer,
	output_tokens    jsonb,
	reasoning_tokens jsonb,
	metrics          jsonb       not null,
	-- per-request (or per-repetition) values in completion order, kept compactly per cell
	samples          jsonb,
	unique (run_id, position)
);

create index cell_run_idx on cell (run_id, position);

create trigger run_append_only before update or delete on run
	for each row execute function parity_refuse_change();
create trigger run_append_only_truncate before truncate on run
	for each statement execute function parity_refuse_change();
create trigger run_file_append_only before update or delete on run_file
	for each row execute function parity_refuse_change();
create trigger run_file_append_only_truncate before truncate on run_file
	for each statement execute function parity_refuse_change();
create trigger cell_append_only before update or delete on cell
	for each row execute function parity_refuse_change();
create trigger cell_append_only_truncate before truncate on cell
	for each statement execute function parity_refuse_change();
