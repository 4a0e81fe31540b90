-- PostgreSQL twin of ../006_open_seats.sql: the same change in PostgreSQL's types (BIGINT, identity keys, DOUBLE PRECISION).
-- Open seats: a challenge anyone in the server may join until its seats are taken.
ALTER TABLE matches ADD COLUMN open_seats BIGINT NOT NULL DEFAULT 0;       -- seats still open to anyone
ALTER TABLE participants ADD COLUMN joined BIGINT NOT NULL DEFAULT 0;      -- 1 = took an open seat (not invited)
CREATE INDEX matches_open_seats ON matches (guild_id, status, open_seats);
