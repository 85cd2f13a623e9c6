-- Whether a run of a series was retracted since its analysis was computed (SeriesRepository.analysisState, read on
-- every view of a series): the retractions of runs since that time, read from this index, are few; without it every
-- retraction of ten years was read (a sequential scan of the table in the statement's generic plan).
create index retraction_kind_created_idx on retraction (subject_kind, created_at);
