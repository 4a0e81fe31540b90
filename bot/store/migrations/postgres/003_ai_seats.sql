-- PostgreSQL twin of ../003_ai_seats.sql: the same change in PostgreSQL's types (BIGINT, identity keys, DOUBLE PRECISION).
-- Seats played by the bot's AI: a level instead of a person (their user ids are negative, never Discord's).
ALTER TABLE participants ADD COLUMN ai_level BIGINT;
