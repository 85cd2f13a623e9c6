-- An alert explained by a caveat or hypothesis links it (HISTORY.md: "explained (by a caveat or hypothesis,
-- linked)"): the status record names the caveat. Records stay append-only; only an `explained` record links one.

alter table alert_status add column caveat_id varchar(12) references caveat (id);
alter table alert_status add constraint alert_status_caveat_explains
	check (caveat_id is null or status = 'explained');
