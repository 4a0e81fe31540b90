-- Tournaments (issue [18]): a server's events of many matches (bot/services/tournaments.py).
-- Who may create them per server: 'managers' (default) or 'everyone'.
ALTER TABLE guild_settings ADD COLUMN tournament_creators TEXT NOT NULL DEFAULT 'managers';

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    created_by     INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    game           TEXT    NOT NULL,
    variant        TEXT,
    format         TEXT    NOT NULL,               -- bot.tournaments.model.Format
    table_size     INTEGER NOT NULL DEFAULT 2,
    rounds         INTEGER,                        -- as chosen (a Swiss's, a pod event's); NULL: derived
    schedule       TEXT    NOT NULL,               -- bot.tournaments.model.Schedule
    days_per_move  INTEGER NOT NULL,
    rated          INTEGER NOT NULL DEFAULT 1,
    start_at       TEXT,                           -- NULL: when full (or by hand)
    min_entrants   INTEGER NOT NULL,
    max_entrants   INTEGER NOT NULL,
    round_days     INTEGER,                        -- a round's deadline after it starts; NULL: none
    status         TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    current_round  INTEGER NOT NULL DEFAULT 0,     -- the round being played (the round-once guard writes it)
    pairing_round  INTEGER NOT NULL DEFAULT 0,     -- the last round whose pairing was asked for (asked once)
    total_rounds   INTEGER NOT NULL DEFAULT 0,     -- fixed at the start
    round_deadline TEXT,                           -- when the current round's unfinished games are adjudicated
    card_message_id INTEGER,
    repeat_days    INTEGER,                          -- a league: the next edition starts this many days after
    series_id      INTEGER,                          -- a league's first edition (NULL for the first itself)
    edition        INTEGER NOT NULL DEFAULT 1,
    created_at     TEXT    NOT NULL,
    started_at     TEXT,
    finished_at    TEXT
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_start ON tournaments (status, start_at);
CREATE INDEX tournaments_deadline ON tournaments (status, round_deadline);

CREATE TABLE tournament_entrants (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    name            TEXT    NOT NULL,              -- at join
    rating          REAL    NOT NULL,              -- the server's rating of the game at join: the seed
    joined_round    INTEGER NOT NULL DEFAULT 1,
    withdrawn_round INTEGER,                       -- the first round they no longer play
    half_byes       TEXT    NOT NULL DEFAULT '',   -- rounds asked off (Swiss), joined by ','
    annulled        INTEGER NOT NULL DEFAULT 0,    -- withdrew from a round robin below half: games annulled
    division        INTEGER,                       -- a league: 1 the top division (set at the start)
    seed_order      INTEGER,                       -- a league: the place carried from the last edition
    joined_at       TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)           -- join once
);

CREATE TABLE tournament_tables (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,                -- 1-based within the round
    kind          TEXT    NOT NULL,                -- bot.tournaments.model.TableKind
    seats         TEXT    NOT NULL,                -- user ids in seat order, joined by ','
    teams         TEXT    NOT NULL DEFAULT '',     -- seat indices per team: '0,2;1,3'
    ranks         TEXT,                            -- one per seat once finished, joined by ','
    forfeit       INTEGER NOT NULL DEFAULT 0,
    adjudicated   INTEGER NOT NULL DEFAULT 0,
    annulled      INTEGER NOT NULL DEFAULT 0,      -- a round robin withdrawal below half: not counted
    match_id      INTEGER REFERENCES matches (id),
    UNIQUE (tournament_id, round, number)          -- a round's tables are written once
);
CREATE INDEX tournament_tables_by_match ON tournament_tables (match_id);

-- Pairs a Swiss never pairs (an admin option), the lower user id first.
CREATE TABLE tournament_forbidden (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    first_user    INTEGER NOT NULL,
    second_user   INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, first_user, second_user)
);

-- Tournament matches are ordinary matches, labelled; ``unrated``: a tournament played for no rating.
ALTER TABLE matches ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
ALTER TABLE matches ADD COLUMN tournament_round INTEGER;
ALTER TABLE matches ADD COLUMN unrated INTEGER NOT NULL DEFAULT 0;

-- The one outbox serves tournaments too: a tournament's row has no match but its tournament, and its rows are
-- claimed and delivered in order per tournament as a match's are per match. SQLite cannot drop a NOT NULL: the
-- table is rebuilt with the same columns in the same order, tournament_id last.
CREATE TABLE outbox_017 (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id      INTEGER REFERENCES matches (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    payload       TEXT    NOT NULL DEFAULT '{}',
    created_at    TEXT    NOT NULL,
    due_at        TEXT    NOT NULL,
    expires_at    TEXT,
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_until TEXT,
    claimed_by    TEXT,
    done_at       TEXT,
    result        TEXT,
    message_id    INTEGER,
    tournament_id INTEGER REFERENCES tournaments (id) ON DELETE CASCADE,
    CHECK (match_id IS NOT NULL OR tournament_id IS NOT NULL)
);
INSERT INTO outbox_017 (id, match_id, kind, payload, created_at, due_at, expires_at, attempts, claimed_until,
                        claimed_by, done_at, result, message_id)
    SELECT id, match_id, kind, payload, created_at, due_at, expires_at, attempts, claimed_until, claimed_by,
           done_at, result, message_id FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_017 RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (due_at) WHERE done_at IS NULL;
CREATE INDEX outbox_by_match ON outbox (match_id, id);
CREATE INDEX outbox_by_tournament ON outbox (tournament_id, id);
