-- The series list, a page at a time, most recently analysed first (HistoryInWords' order): the latest analyses are
-- read in that order from this index, and the series without one by id (their primary key), so that a page of the
-- list reads its 50 series, not every series of ten years.
create index series_analysis_computed_idx on series_analysis (computed_at desc, series_id);
