-- Control runs declared for a comparison: the run that removes what greys the comparison of baseline and contender,
-- declared in the control's run document (context.control_of) or afterwards through the API. Append-only: a
-- declaration is never taken back, it is part of the comparison's record.
create table control_link (
	id           varchar(16) primary key,
	control_id   varchar(16) not null references run (id),
	baseline_id  varchar(16) not null references run (id),
	contender_id varchar(16) not null references run (id),
	declared_in  text        not null check (declared_in in ('document', 'api')),
	declared_by  text        not null,
	declared_at  timestamptz not null default now(),
	unique (control_id, baseline_id, contender_id)
);

create index control_link_pair on control_link (baseline_id, contender_id);

create trigger control_link_append_only before update or delete on control_link
	for each row execute function parity_refuse_change();
create trigger control_link_append_only_truncate before truncate on control_link
	for each statement execute function parity_refuse_change();
