-- A publication of several contenders against one baseline: the ids of all its contenders, in the order published
-- (contender_id is the first of them); null for a publication of one baseline and one contender, which every
-- publication made before this column was.
alter table publication add column contenders jsonb
	check (contenders is null
	       or (jsonb_typeof(contenders) = 'array' and jsonb_array_length(contenders) between 2 and 8));
