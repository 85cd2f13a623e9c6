-- The record of what was claimed and what was taken back: caveats, hypotheses and their status
-- changes, published comparisons, retractions and supersessions. Every action is a new row;
-- the database refuses to change or remove any of them.

-- A note written by a person about a run, a cell of a run, a comparison, or one cell × metric of a
-- comparison. A hypothesis is a caveat with a status (its history is hypothesis_status) and the
-- experiment that would settle it. A caveat never un-greys anything.
create table caveat (
	id                  varchar(12)  primary key,
	-- the run, for a caveat on a run or on one of its cells
	run_id              varchar(16)  references run (id),
	-- the two runs, for a caveat on a comparison or on one cell × metric of it
	baseline_id         varchar(16)  references run (id),
	contender_id        varchar(16)  references run (id),
	cell_anchor         text,
	metric              text,
	text                text         not null check (length(text) between 1 and 10000),
	kind                varchar(20)  not null check (kind in ('caveat', 'hypothesis')),
	deciding_experiment text,
	created_at          timestamptz  not null default now(),
	created_by          varchar(100) not null,
	check ((run_id is not null and baseline_id is null and contender_id is null and metric is null)
		or (run_id is null and baseline_id is not null and contender_id is not null)),
	check (metric is null or cell_anchor is not null),
	check (kind = 'caveat' or deciding_experiment is not null)
);

create index caveat_run_idx on caveat (run_id, created_at);
create index caveat_pair_idx on caveat (baseline_id, contender_id, created_at);

create table hypothesis_status (
	id            bigserial    primary key,
	caveat_id     varchar(12)  not null references caveat (id),
	status        varchar(20)  not null check (status in ('suspected', 'confirmed', 'refuted')),
	reason        text         not null,
	decided_by    varchar(16)  references run (id),
	created_at    timestamptz  not null default now(),
	created_by    varchar(100) not null
);

create index hypothesis_status_idx on hypothesis_status (caveat_id, id);

-- A comparison saved under its own permalink: the result computed at publication is stored,
-- with the version of the rules that computed it, and is what the permalink shows for ever.
create table publication (
	id            varchar(12)  primary key,
	baseline_id   varchar(16)  not null references run (id),
	contender_id  varchar(16)  not null references run (id),
	settings      jsonb        not null,
	title         varchar(200) not null,
	caption       text         not null,
	result        jsonb        not null,
	rules_version varchar(40)  not null,
	created_at    timestamptz  not null default now(),
	created_by    varchar(100) not null
);

create index publication_pair_idx on publication (baseline_id, contender_id);
create index publication_created_idx on publication (created_at desc);

-- A run or a publication retracted (taken back) or superseded (replaced by another).
create table retraction (
	id              bigserial    primary key,
	subject_kind    varchar(20)  not null check (subject_kind in ('run', 'publication')),
	subject_id      varchar(16)  not null,
	kind            varchar(20)  not null check (kind in ('retracted', 'superseded')),
	reason          text         not null check (length(reason) between 1 and 10000),
	replacement_id  varchar(16),
	created_at      timestamptz  not null default now(),
	created_by      varchar(100) not null,
	check ((kind = 'superseded') = (replacement_id is not null))
);

create index retraction_subject_idx on retraction (subject_kind, subject_id);
create index retraction_replacement_idx on retraction (subject_kind, replacement_id);

create trigger caveat_append_only before update or delete on caveat
	for each row execute function parity_refuse_change();
create trigger caveat_append_only_truncate before truncate on caveat
	for each statement execute function parity_refuse_change();
create trigger hypothesis_status_append_only before update or delete on hypothesis_status
	for each row execute function parity_refuse_change();
create trigger hypothesis_status_append_only_truncate before truncate on hypothesis_status
	for each statement execute function parity_refuse_change();
create trigger publication_append_only before update or delete on publication
	for each row execute function parity_refuse_change();
create trigger publication_append_only_truncate before truncate on publication
	for each statement execute function parity_refuse_change();
create trigger retraction_append_only before update or delete on retraction
	for each row execute function parity_refuse_change();
create trigger retraction_append_only_truncate before truncate on retraction
	for each statement execute function parity_refuse_change();
