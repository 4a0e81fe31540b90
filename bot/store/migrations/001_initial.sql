-- Matches, the people in them, and the move log (the source of truth for every position).
CREATE TABLE matches (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game             TEXT    NOT NULL,
    variant          TEXT,
    players          INTEGER NOT NULL,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN
                         ('challenge', 'active', 'finished', 'declined', 'cancelled', 'expired', 'aborted')),
    seed             INTEGER NOT NULL,
    ply              INTEGER NOT NULL DEFAULT 0,   -- moves in the log
    turn             INTEGER NOT NULL DEFAULT 0,   -- submissions in the log
    position         TEXT,                         -- code after the last logged move (a cache of the log)
    to_move          INTEGER,                      -- seat, NULL unless active
    winners          TEXT,                         -- seats joined by ',' once finished
    end_reason       TEXT,
    created_by       INTEGER NOT NULL,
    created_at       TEXT    NOT NULL,
    started_at       TEXT,
    finished_at      TEXT,
    card_message_id  INTEGER,                      -- the challenge card
    board_message_id INTEGER                       -- the latest board posted
);
CREATE INDEX matches_by_place ON matches (guild_id, channel_id, status);

CREATE TABLE participants (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    invited_order INTEGER NOT NULL,                -- 0 = the challenger
    team          INTEGER,                         -- team games: 0 = the challenger's side, 1 = the other
    accepted      INTEGER NOT NULL DEFAULT 0,
    seat          INTEGER,                         -- 0-based, set when the match starts
    PRIMARY KEY (match_id, user_id),
    UNIQUE (match_id, seat)
);
CREATE INDEX participants_by_user ON participants (user_id, match_id);

CREATE TABLE moves (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,                    -- 1-based, one per atomic move
    turn      INTEGER NOT NULL,                    -- which submission it came in
    seat      INTEGER NOT NULL,
    move      TEXT    NOT NULL,                    -- canonical
    position  TEXT    NOT NULL,                    -- code after the move
    played_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, ply)
);
