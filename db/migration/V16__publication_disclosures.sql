-- What a publication says about itself beyond its numbers: why it was published with settings other than the
-- server's defaults, and that its author confirmed publishing a comparison with no comparable cell. Both are null
-- for publications made before the questions were asked (and in backups made before them).
alter table publication add column settings_reason text check (length(settings_reason) between 1 and 10000);
alter table publication add column no_comparable_confirmed boolean;
