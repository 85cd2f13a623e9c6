-- The number of runs stored, kept as runs are added (runs are never removed): what the home page and a run list
-- show as their total, and what tells a kept total of a search whether a run was added since — one row read, not
-- every run counted (an index-only count of 100,000 runs took 4-5 ms of every run list page at that size).
create table run_total (
	only_row boolean primary key default true check (only_row),
	runs     bigint  not null
);

insert into run_total (runs) select count(*) from run;

create function parity_count_run() returns trigger
	language plpgsql
as $$
begin
	update run_total set runs = runs + 1;
	return null;
end
$$;

-- Deferred to the commit: the row is locked from then to the end of the commit only, so uploads do not wait for
-- each other's; a run whose transaction rolls back is never counted.
create constraint trigger run_counted
	after insert on run
	deferrable initially deferred
	for each row execute function parity_count_run();
