-- The code under test and the line it came from (HISTORY.md): a series is keyed by the branch, and ordered
-- along engine commits. Both are also in the provenance jsonb; these columns make them filterable and indexable.
-- Runs stored before these fields existed cannot have them (the validator refused unknown fields), so nothing
-- needs filling in: null = not recorded (engine_commit) and the default line (branch).
alter table run add column engine_commit varchar(40);
alter table run add column branch text;

create index run_engine_commit_idx on run (engine_commit);
create index run_branch_idx on run (branch, uploaded_at desc, id);
