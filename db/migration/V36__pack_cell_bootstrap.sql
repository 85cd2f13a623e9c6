-- Bootstrap medians packed (cell_bootstrap, V30): a cell's 1,000 medians take few distinct values (each is a sample
-- value, or the mean of two neighbouring ones), so they are stored as those values once and an index per median —
-- about 1.5 KB instead of an 8 KB float8[] that PostgreSQL moved out of line (TOAST) and a comparison of two 400-cell
-- runs read back as 25 MB. The numbers are the same, bit for bit; rows stored before keep their float8[] (a row
-- holds one form or the other), so nothing stored is changed.
alter table cell_bootstrap add column packed bytea;
alter table cell_bootstrap alter column medians drop not null;
alter table cell_bootstrap add constraint cell_bootstrap_one_form check ((medians is null) <> (packed is null));
-- Kept in the row (compressed if need be) rather than out of line.
alter table cell_bootstrap alter column packed set storage main;
