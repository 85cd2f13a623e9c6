-- Alerts of history (HISTORY.md): a confirmed regression change point (with those within ±1 run in the same
-- direction). An alert follows its change point when it moves by up to 2 runs (run_id, changes), so its row may
-- change; its status history is a record: append-only, every change a new row (who, when, why).

create table alert (
	id         varchar(16)  primary key,
	series_id  varchar(16)  not null references series (id),
	-- the run where the change begins (the first run after the shift)
	run_id     varchar(16)  not null references run (id),
	direction  varchar(20)  not null check (direction in ('regression', 'improvement')),
	-- every cell × metric of the alert: [{params, anchor, metric, magnitude, ...}]
	changes    jsonb        not null,
	created_at timestamptz  not null default now(),
	updated_at timestamptz  not null default now()
);

create index alert_series_idx on alert (series_id, created_at);

create table alert_status (
	id         bigserial    primary key,
	alert_id   varchar(16)  not null references alert (id),
	status     varchar(20)  not null check (status in ('open', 'acknowledged', 'explained', 'false-positive', 'withdrawn')),
	reason     text         check (reason is null or length(reason) <= 10000),
	created_at timestamptz  not null default now(),
	created_by varchar(100) not null
);

create index alert_status_alert_idx on alert_status (alert_id, id);

create trigger alert_status_append_only before update or delete on alert_status
	for each row execute function parity_refuse_change();
create trigger alert_status_append_only_truncate before truncate on alert_status
	for each statement execute function parity_refuse_change();
