-- The bootstrap medians of a run to compute (cell_bootstrap, V30), written in the upload's transaction (or the
-- restore's) so that none is lost, and done after its commit by one instance (rows claimed FOR UPDATE SKIP LOCKED),
-- apart from the upload: until they are stored, a comparison computes the same medians from the run's samples.
-- A job is deleted once its medians are stored; a failed one waits (not_before) before its next attempt.
create table bootstrap_job (
	run_id      varchar(16) primary key references run (id),
	attempts    integer     not null default 0,
	not_before  timestamptz not null default now(),
	last_error  text,
	enqueued_at timestamptz not null default now()
);

create index bootstrap_job_due_idx on bootstrap_job (not_before, enqueued_at);
