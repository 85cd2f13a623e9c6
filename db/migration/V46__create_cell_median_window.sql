-- Each run's sorted samples around the median, per cell × metric: the values of the ranks first_rank … the exact
-- bootstrap law of the median of sample_count samples needs (dev.parity.stats.MedianLaw), packed like
-- cell_bootstrap.packed. Written in the upload's transaction, so that a comparison of two single runs reads neither
-- their samples nor anything computed later. Only cells with at least 10 samples of a metric have a row.
-- Append-only, like the runs they belong to. cell_bootstrap (V30) is no longer written nor read.
create table cell_median_window (
	run_id       varchar(16) not null references run (id),
	anchor       text        not null,
	metric       text        not null,
	sample_count integer     not null,
	first_rank   integer     not null,
	packed       bytea       not null,
	primary key (run_id, anchor, metric)
);

alter table cell_median_window alter column packed set storage main;

create trigger cell_median_window_append_only before update or delete on cell_median_window
	for each row execute function parity_refuse_change();
create trigger cell_median_window_append_only_truncate before truncate on cell_median_window
	for each statement execute function parity_refuse_change();

-- Runs stored before: their windows are computed from their samples by the bootstrap jobs, after the migration.
insert into bootstrap_job (run_id) select id from run on conflict (run_id) do nothing;
