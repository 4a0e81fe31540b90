-- Correspondence play: time per move, deadlines, reminders; settings; ratings; the match record of events.
ALTER TABLE matches ADD COLUMN time_per_move INTEGER;         -- seconds; NULL = casual (unrated, no deadline)
ALTER TABLE matches ADD COLUMN deadline_at TEXT;              -- the player to move forfeits then
ALTER TABLE matches ADD COLUMN remind_at TEXT;                -- they are reminded then (NULL once reminded)
ALTER TABLE matches ADD COLUMN expires_at TEXT;               -- an open challenge expires then
ALTER TABLE matches ADD COLUMN ranks TEXT;                    -- final rank per seat ('1,2'), once finished
ALTER TABLE matches ADD COLUMN rematch_of INTEGER REFERENCES matches (id);
ALTER TABLE participants ADD COLUMN preset_seat INTEGER;      -- a rematch fixes the seats in advance

CREATE INDEX matches_due ON matches (status, deadline_at);

CREATE TABLE guild_settings (
    guild_id              INTEGER PRIMARY KEY,
    default_time_per_move INTEGER,                            -- seconds; 0 = casual by default
    threads               INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE guild_channels (                                 -- empty for a server = play anywhere
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    notify  TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm', 'off'))
);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    losses   INTEGER NOT NULL DEFAULT 0,
    draws    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE TABLE rating_changes (                                 -- applied in seq order; a rebuild replays it
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw'))
);
CREATE INDEX rating_changes_by_match ON rating_changes (match_id);

CREATE TABLE match_events (                                   -- the match record: admin actions, timeouts
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    at       TEXT    NOT NULL,
    actor_id INTEGER,                                         -- NULL = the bot itself (scheduler)
    action   TEXT    NOT NULL,
    detail   TEXT
);
