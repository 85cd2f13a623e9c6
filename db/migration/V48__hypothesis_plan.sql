-- A hypothesis's deciding experiment may be a structured plan as well as text: the same changes as a comparison's
-- control plan ({"changes": [{"rule", "field", "from", "to", "how", "check"}]}), stored with the hypothesis (still
-- append-only: the caveat row is written once). A run declared as a hypothesis's experiment is a status change that
-- names it (the status stays what it was).
alter table caveat add column deciding_plan jsonb;
alter table hypothesis_status add column experiment varchar(16) references run (id);
