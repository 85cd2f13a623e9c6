-- The run list filtered by a commit prefix, page by page: the matching runs' ids in upload order read from the
-- index alone (a one-digit prefix matches a sixteenth of all runs, whose rows were read and sorted).
create index run_commit_uploaded_idx on run (model_commit, uploaded_at desc, id);
