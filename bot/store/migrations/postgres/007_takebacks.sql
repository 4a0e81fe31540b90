-- PostgreSQL twin of ../007_takebacks.sql: the same change in PostgreSQL's types (BIGINT, identity keys, DOUBLE PRECISION).
-- Takebacks: a request to undo the requester's last turn, answered by the other players. Nothing is deleted:
-- undone moves stay in the log, marked with the takeback that undid them, and every reader skips them.
ALTER TABLE matches ADD COLUMN takeback_ply BIGINT;          -- the ply an open request was made at; NULL = none
ALTER TABLE matches ADD COLUMN takeback_accepted TEXT;        -- user ids who agree so far (the requester first)
ALTER TABLE moves ADD COLUMN undone_by BIGINT;               -- the match_events row of the takeback; NULL = in force
ALTER TABLE moves ADD COLUMN undone_at BIGINT;               -- the match's ply once undone (in force before it)
ALTER TABLE guild_settings ADD COLUMN takebacks BIGINT NOT NULL DEFAULT 0;   -- 1 = allowed in rated matches too
