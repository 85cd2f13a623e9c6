-- The metric whose chart a publication draws (its page's preview, its PNG and SVG, its embeds), chosen by its
-- publisher; null draws the metric chosen as before (one named in the title, else the first with a comparable cell).
-- Set once, when published: publications are never updated. Not part of what a publication compares with its live
-- comparison.
alter table publication add column chart_metric varchar(200);
