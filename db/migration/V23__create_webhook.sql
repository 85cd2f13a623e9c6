-- Notifications of alerts (HISTORY.md): webhooks registered by admins, an outbox of deliveries written in the
-- transaction that raises the alert, and the log of every attempt (append-only).

create table webhook (
	id             bigserial    primary key,
	-- the URL is a secret: never shown again after registration, never logged (lists show its host only)
	url            text         not null,
	host           text         not null,
	kind           varchar(20)  not null check (kind in ('generic', 'slack')),
	-- the key of the HMAC-SHA256 signature of every payload
	signing_secret varchar(64)  not null,
	created_at     timestamptz  not null default now(),
	created_by     varchar(100) not null
);

create table webhook_delivery (
	id              bigserial    primary key,
	webhook_id      bigint       not null references webhook (id),
	alert_id        varchar(16)  not null references alert (id),
	payload         text         not null,
	status          varchar(20)  not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
	attempts        integer      not null default 0,
	next_attempt_at timestamptz  not null default now(),
	created_at      timestamptz  not null default now()
);

create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at) where status = 'pending';

create table webhook_attempt (
	id          bigserial    primary key,
	delivery_id bigint       not null references webhook_delivery (id),
	attempted_at timestamptz not null default now(),
	http_status integer,
	error       text,
	duration_ms bigint       not null
);

create trigger webhook_attempt_append_only before update or delete on webhook_attempt
	for each row execute function parity_refuse_change();
create trigger webhook_attempt_append_only_truncate before truncate on webhook_attempt
	for each statement execute function parity_refuse_change();
