-- Saved formats (issue 16): a team's own JSON described once as a field mapping, then imported like a known
-- harness. Every change is a new version; a version, once saved, never changes (runs record the version that
-- read them), so the table is append-only like the other records.

create table saved_format (
	name       varchar(100)  not null,
	version    integer       not null check (version >= 1),
	-- the mapping as its author wrote it, verbatim (its "name" included)
	mapping    text          not null check (length(mapping) <= 1000000),
	created_at timestamptz   not null default now(),
	created_by varchar(100)  not null,
	primary key (name, version)
);

create trigger saved_format_append_only before update or delete on saved_format
	for each row execute function parity_refuse_change();
create trigger saved_format_append_only_truncate before truncate on saved_format
	for each statement execute function parity_refuse_change();
