-- Accounts can be disabled (nobody signs in as them; their sessions and API tokens stop at once), and every
-- change that matters to a signed-in session (role, enabled, password) moves the account's security version on:
-- a session signed in under an older version is ended at its next request. The trigger moves it on whatever
-- makes the change, the application or an administrator's SQL.
alter table app_user
	add column enabled          boolean not null default true,
	add column security_version bigint  not null default 0;

create function app_user_security_version() returns trigger language plpgsql as $$
begin
	if new.role is distinct from old.role or new.enabled is distinct from old.enabled
			or new.password_hash is distinct from old.password_hash then
		new.security_version := old.security_version + 1;
	end if;
	return new;
end;
$$;

create trigger app_user_security_version before update on app_user
	for each row execute function app_user_security_version();
