-- Incremental series updates (HISTORY.md): what a series needs of each run (its facts: per cell × metric the value
-- of the statistic in force and the run checks that grey it) and of each consecutive pair of runs (the comparison
-- checks: what breaks the segment, what annotates), computed once and kept, so that a new run costs its own facts
-- and one or two pairs, never a reload of the series' documents. Both are caches of pure functions of runs, which
-- never change: keyed by what they were computed under (facts_key), replaced only by a new key.

create table series_run_facts (
	run_id    varchar(16)  not null references run (id),
	facts_key varchar(100) not null,
	facts     jsonb        not null,
	primary key (run_id, facts_key)
);

create table series_pair (
	run_id      varchar(16)  not null references run (id),
	baseline_id varchar(16)  not null references run (id),
	facts_key   varchar(100) not null,
	pair        jsonb        not null,
	primary key (run_id, baseline_id, facts_key)
);

-- Series updates to do, written in the upload's transaction (so none is lost) and done after its commit, by one
-- instance (rows claimed FOR UPDATE SKIP LOCKED), apart from any request.
create table series_job (
	id          bigserial    primary key,
	series_id   varchar(16)  not null references series (id),
	run_id      varchar(16)  references run (id),
	reason      varchar(40)  not null,
	attempts    integer      not null default 0,
	not_before  timestamptz  not null default now(),
	last_error  text,
	enqueued_at timestamptz  not null default now()
);

create index series_job_due_idx on series_job (not_before, id);
create index series_job_series_idx on series_job (series_id);
