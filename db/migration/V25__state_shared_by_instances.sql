-- State that one instance's memory used to hold, in the database so that any instance of a deployment serves it.

-- Files uploaded for an import preview, held until the uploader stores the run, or until expires_at (30 minutes);
-- expired rows are deleted. Together at most an eighth of one instance's heap (the oldest go first).
create table pending_upload (
	token      char(32)     primary key,
	-- the order previews were held in: the oldest go first when space runs short
	seq        bigint       generated always as identity,
	owner      varchar(100) not null,
	bytes      bigint       not null,
	created_at timestamptz  not null,
	expires_at timestamptz  not null
);

create index pending_upload_expires_idx on pending_upload (expires_at);
create index pending_upload_seq_idx on pending_upload (seq);

create table pending_upload_file (
	token    char(32) not null references pending_upload (token) on delete cascade,
	position integer  not null,
	-- the file name as its UTF-16 code units, so that any name (a NUL, a lone surrogate) comes back as it was
	name     bytea    not null,
	content  bytea    not null,
	primary key (token, position)
);

-- Failed sign-ins, counted per (user name, address) and per user name from anywhere (account/SignInLimiter).
-- Keys are SHA-256 digests: a password typed into the user-name field is never stored. Bounded: the rows least
-- recently failed go first beyond parity.login.max-tracked.
create table sign_in_failure_by_source (
	pair      bytea       primary key,
	failures  integer     not null,
	first_at  timestamptz not null,
	last_at   timestamptz not null
);

create index sign_in_failure_by_source_last_idx on sign_in_failure_by_source (last_at);

create table sign_in_failure_by_name (
	name      bytea       primary key,
	failures  integer     not null,
	first_at  timestamptz not null,
	last_at   timestamptz not null
);

create index sign_in_failure_by_name_last_idx on sign_in_failure_by_name (last_at);

-- How often the record of a run (its caveats, hypothesis statuses, retraction) has changed: moved on in the
-- transaction of each change. A kept rendered comparison page has the versions of its runs in its key, read from here
-- on every request, so that no instance serves a page rendered from an older record than the database holds.
create table run_record_version (
	run_id  varchar(10) primary key,
	version bigint      not null
);
