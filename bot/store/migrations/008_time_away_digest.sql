-- Time away (a player's clocks paused in one server) and the daily digest of matches where it is one's turn.

-- A server's yearly allowance of time away, in days; NULL = the default, 0 = time away not allowed.
ALTER TABLE guild_settings ADD COLUMN away_allowance_days INTEGER;

-- One row per absence: from starts_at until ends_at (moved to the moment of return when back early).
CREATE TABLE away_periods (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    starts_at  TEXT    NOT NULL,
    ends_at    TEXT    NOT NULL
);
CREATE INDEX away_periods_by_user ON away_periods (guild_id, user_id, ends_at);

-- The digest: a player who chose it gets one DM a day at ``hour`` in ``timezone``; next_at is the next
-- time it is due (UTC ISO; NULL = no digest), claimed by a conditional UPDATE so it is sent once.
CREATE TABLE user_digests (
    user_id  INTEGER PRIMARY KEY,
    hour     INTEGER NOT NULL DEFAULT 8,
    timezone TEXT    NOT NULL DEFAULT 'UTC',
    next_at  TEXT
);
CREATE INDEX user_digests_due ON user_digests (next_at);
