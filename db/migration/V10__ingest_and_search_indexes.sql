-- Performance at the scale of a busy team (10,000 runs, 2,000,000 cells): every filter of the run list
-- and search uses an index, and a run's cells can be written before its row.

-- A run's cells are written as they are read (COPY), and the run row last, when its cell count and
-- workload fingerprint are known; the reference from a cell to its run is checked at commit.
alter table cell alter constraint cell_run_id_fkey deferrable initially deferred;

-- Free-text search: lower(column) LIKE '%text%' over title, system, model, engine and harness.
create extension if not exists pg_trgm;
create index run_title_trgm_idx on run using gin (lower(title) gin_trgm_ops);
create index run_system_trgm_idx on run using gin (lower(system_name) gin_trgm_ops);
create index run_model_trgm_idx on run using gin (lower(model_repo) gin_trgm_ops);
create index run_engine_trgm_idx on run using gin (lower(engine_name) gin_trgm_ops);
create index run_harness_trgm_idx on run using gin (lower(harness_name) gin_trgm_ops);

-- Exact filters, each in list order (newest first), so that a page of a large match is read in order.
-- They replace the single-column indexes of V1, which are their prefixes.
create index run_system_uploaded_idx on run (system_name, uploaded_at desc, id);
create index run_model_uploaded_idx on run (model_repo, uploaded_at desc, id);
create index run_harness_uploaded_idx on run (harness_name, uploaded_at desc, id);
create index run_role_uploaded_idx on run (role, uploaded_at desc, id);
drop index run_system_idx;
drop index run_model_idx;
drop index run_harness_idx;

-- A commit, or the start of one (LIKE 'abc%' needs the pattern operators whatever the collation), and
-- the runs like a given run (same commit and workload fingerprint), newest first.
create index run_commit_prefix_idx on run (model_commit varchar_pattern_ops);
create index run_commit_fingerprint_idx on run (model_commit, workload_fingerprint, uploaded_at desc);
drop index run_commit_idx;

-- cell (run_id, position) is already indexed by its unique constraint.
drop index cell_run_idx;
