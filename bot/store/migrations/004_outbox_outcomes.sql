-- The transactional outbox, outcomes as data, the last turn's bounds, and indexes for the due queries.

-- How a match ended, as data: a termination key and the roles and facts its text needs (JSON).
-- end_reason keeps the prose of matches that ended before this migration.
ALTER TABLE matches ADD COLUMN termination TEXT;
ALTER TABLE matches ADD COLUMN outcome TEXT;
-- Whole turns played (a turn ends when the seat to move changes): the service's turn cap counts them.
ALTER TABLE matches ADD COLUMN whole_turns INTEGER NOT NULL DEFAULT 0;
-- The ply the last turn started from and whose it was: a read needs no replay to show the last turn.
ALTER TABLE matches ADD COLUMN turn_start_ply INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN last_seat INTEGER;

UPDATE matches SET last_seat = (SELECT seat FROM moves WHERE moves.match_id = matches.id ORDER BY ply DESC LIMIT 1);
UPDATE matches SET turn_start_ply = COALESCE((SELECT MAX(ply) FROM moves WHERE moves.match_id = matches.id
                                              AND seat <> matches.last_seat), 0)
 WHERE last_seat IS NOT NULL;
UPDATE matches SET whole_turns = (   -- the runs of one seat's moves, but for a turn still being played
    SELECT COUNT(*) FROM (SELECT seat, LAG(seat) OVER (ORDER BY ply) AS before FROM moves
                          WHERE moves.match_id = matches.id) WHERE before IS NULL OR before <> seat)
    - (CASE WHEN status = 'active' AND to_move = last_seat THEN 1 ELSE 0 END);

CREATE INDEX matches_remind ON matches (status, remind_at);
CREATE INDEX matches_expiry ON matches (status, expires_at);
CREATE INDEX matches_rematch ON matches (rematch_of);
CREATE INDEX match_events_by_match ON match_events (match_id);

-- What must be told, written in the transaction of the change that causes it; the dispatcher delivers
-- each row once (claimed with a lease, so a process that died leaves its rows to another).
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,               -- 'board', 'card', 'reminder', 'bot_turn', 'reply', 'dm'
    payload       TEXT    NOT NULL DEFAULT '{}',  -- JSON: what the delivery needs besides the match
    created_at    TEXT    NOT NULL,
    due_at        TEXT    NOT NULL,               -- not before (a retry moves it later)
    expires_at    TEXT,                           -- pointless after (an interaction token's 15 minutes)
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_until TEXT,                           -- the lease of the process delivering it
    claimed_by    TEXT,
    done_at       TEXT,
    result        TEXT,                           -- 'sent', 'skipped: why', 'failed: why'
    message_id    INTEGER                         -- what was posted
);
CREATE INDEX outbox_pending ON outbox (due_at) WHERE done_at IS NULL;
CREATE INDEX outbox_by_match ON outbox (match_id, id);
