-- Each run's per-cell sample statistics, computed at ingest in the upload's transaction (and on restore), so that a
-- comparison reads them instead of the cells' per-request samples. One row per cell × metric its samples record (of
-- any status), plus a row 'output_tokens' for the completed samples' output tokens; the values are over completed
-- samples only, in completion order. What depends on a threshold (how many samples lie beyond the outlier z) was
-- counted under the thresholds named by computed_under (e.g. 'outlier_z=5'); a comparison under other thresholds
-- reads the samples. A run's statistics under computed_under are complete when run_statistics has its row.
-- Append-only, like the runs they belong to.
create table cell_statistics (
	run_id         varchar(16) not null references run (id),
	anchor         text        not null,
	metric         text        not null,
	computed_under text        not null,
	position       int         not null, -- first appearance of the metric among the cell's samples (any status)
	ok_position    int,                  -- first appearance among its completed samples; null when none has it
	sample_count   int         not null, -- the cell's samples, of any status
	count          int         not null, -- completed samples with a value
	median         float8,               -- interpolated between the two middle values of an even count
	mean           float8,
	sd             float8,               -- population standard deviation (divided by n)
	mad            float8,               -- median absolute deviation from the median
	min            float8,
	max            float8,
	worst_index    int,                  -- 1-based: the value furthest from the median in robust z (a metric), or
	                                     -- the first longest request among all samples (output_tokens)
	worst_value    float8,
	worst_z        float8,
	beyond         int,                  -- values beyond the outlier z of computed_under
	primary key (run_id, computed_under, anchor, metric)
);

create table run_statistics (
	run_id         varchar(16) not null references run (id),
	computed_under text        not null,
	primary key (run_id, computed_under)
);

create trigger cell_statistics_append_only before update or delete on cell_statistics
	for each row execute function parity_refuse_change();
create trigger cell_statistics_append_only_truncate before truncate on cell_statistics
	for each statement execute function parity_refuse_change();
create trigger run_statistics_append_only before update or delete on run_statistics
	for each row execute function parity_refuse_change();
create trigger run_statistics_append_only_truncate before truncate on run_statistics
	for each statement execute function parity_refuse_change();
