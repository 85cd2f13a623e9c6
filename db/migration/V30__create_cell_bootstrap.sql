-- Each run's bootstrap medians per cell × metric (1,000 resampled medians of the cell's per-request samples,
-- seeded from the run id, the anchor and the metric), computed at ingest in the upload's transaction, so that a
-- comparison of two single runs only pairs them. Only cells with at least 10 samples of a metric have a row.
-- Append-only, like the runs they belong to.
create table cell_bootstrap (
	run_id  varchar(16) not null references run (id),
	anchor  text        not null,
	metric  text        not null,
	medians float8[]    not null,
	primary key (run_id, anchor, metric)
);

create trigger cell_bootstrap_append_only before update or delete on cell_bootstrap
	for each row execute function parity_refuse_change();
create trigger cell_bootstrap_append_only_truncate before truncate on cell_bootstrap
	for each statement execute function parity_refuse_change();
