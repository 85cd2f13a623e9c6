-- API tokens for scripts and CI: stored as SHA-256 hashes (the token itself is shown once), named,
-- revocable, with the time of last use. Tokens are ordinary records: revoking one updates it.
create table api_token (
	id           bigserial    primary key,
	user_id      bigint       not null references app_user (id),
	name         varchar(100) not null,
	token_hash   varchar(64)  not null unique,
	prefix       varchar(16)  not null,
	created_at   timestamptz  not null default now(),
	last_used_at timestamptz,
	revoked_at   timestamptz
);

create index api_token_user_idx on api_token (user_id, created_at desc);

-- Every write (and every refused one): who, when, what, from where. Append-only.
create table audit_event (
	id         bigserial    primary key,
	at         timestamptz  not null default now(),
	username   varchar(100),
	action     varchar(60)  not null,
	subject    text,
	outcome    varchar(20)  not null check (outcome in ('done', 'refused', 'failed')),
	detail     text,
	remote     varchar(100)
);

create index audit_event_at_idx on audit_event (at desc, id desc);

create trigger audit_event_append_only before update or delete on audit_event
	for each row execute function parity_refuse_change();
create trigger audit_event_append_only_truncate before truncate on audit_event
	for each statement execute function parity_refuse_change();
