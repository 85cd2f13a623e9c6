-- Confirmation reruns of alerts: a run that reruns the alert's build or the last good build before it, linked in its
-- run document (context.confirms) or afterwards through the API. A rerun is not a point of its series. Append-only:
-- a link is never taken back, it is part of the alert's record.
create table alert_confirmation (
	id            varchar(16) primary key,
	alert_id      varchar(16) not null references alert (id),
	-- a run reruns one build of one alert
	run_id        varchar(16) not null unique references run (id),
	-- which build it reruns: the alert's ('alert') or the last good one before it ('good')
	build         varchar(10) not null check (build in ('alert', 'good')),
	engine_commit varchar(40) not null,
	linked_in     varchar(10) not null check (linked_in in ('document', 'api')),
	linked_by     text        not null,
	linked_at     timestamptz not null default now()
);

create index alert_confirmation_alert on alert_confirmation (alert_id, linked_at);

create trigger alert_confirmation_append_only before update or delete on alert_confirmation
	for each row execute function parity_refuse_change();
create trigger alert_confirmation_append_only_truncate before truncate on alert_confirmation
	for each statement execute function parity_refuse_change();

-- What the reruns show once both builds have at least 3: {reruns, reproduced, ratio, interval, ...}; null before.
alter table alert add column confirmation jsonb;

-- A delivery says what it announces; an alert's confirmation is announced once per webhook.
alter table webhook_delivery add column event varchar(30) not null default 'alert.raised'
	check (event in ('alert.raised', 'alert.confirmed'));
create unique index webhook_delivery_confirmed on webhook_delivery (webhook_id, alert_id) where event = 'alert.confirmed';
