-- Addresses a user has signed in from with their password (SHA-256 of the user name and the address, as the failure
-- counts key them): a correct password from one of them is never held back by the per-name back-off, which failures
-- spread over other addresses can prolong (issue 23, finding 7). Only a successful sign-in adds a row.
create table sign_in_known_source (
	pair            bytea       primary key,
	last_success_at timestamptz not null
);

create index sign_in_known_source_last_idx on sign_in_known_source (last_success_at);
