-- Each stored analysis of a series gets a version that no other ever had (from a sequence, so also across
-- instances): an instance keeps the analysis it read or computed in memory, with its points, and serves it while the
-- stored version is the same, instead of reading and rebuilding it on every page.
create sequence series_analysis_version;

alter table series_analysis add column version bigint not null default nextval('series_analysis_version');
