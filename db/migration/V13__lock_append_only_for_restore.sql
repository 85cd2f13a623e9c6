-- The application's database role holds only SELECT and INSERT on the append-only tables (ApplicationRoleGrants
-- grants them after every migration), which is not enough for LOCK TABLE ... IN EXCLUSIVE MODE. A restore takes
-- that lock, so that no upload or record lands while it checks that the instance is empty; it does so through this
-- function, which runs as the schema's owner and locks append-only tables of this schema and nothing else.
create function parity_lock_append_only(variadic tables text[]) returns void
	language plpgsql security definer set search_path = pg_catalog, pg_temp
as $$
declare
	name   text;
	target regclass;
begin
	foreach name in array tables loop
		select c.oid into target
		from pg_class c
		where c.relnamespace = '${flyway:defaultSchema}'::regnamespace and c.relname = name
		  and exists (select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
		              where t.tgrelid = c.oid and p.proname = 'parity_refuse_change');
		if target is null then
			raise exception 'parity: % is not an append-only table', name;
		end if;
		execute format('lock table %s in exclusive mode', target);
	end loop;
end
$$;
