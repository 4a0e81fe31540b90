-- Proposals every other player must accept (draw offers, takebacks; later tournament invitations) as rows of
-- their own. Agreeing is an INSERT the database checks (one row per person: agreeing twice is refused), and a
-- proposal is decided once: its status leaves 'open' by a conditional UPDATE (WHERE status = 'open') in the
-- transaction that acts on it, so of an acceptance and a decline at once exactly one wins.
CREATE TABLE proposals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
    ply         INTEGER NOT NULL,                  -- the position it was made in (a move lets it lapse)
    proposer    INTEGER NOT NULL,                  -- user id
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'declined', 'lapsed')),
    created_at  TEXT    NOT NULL,
    decided_at  TEXT                               -- when it left 'open'
);
CREATE INDEX proposals_by_match ON proposals (match_id, kind, ply);
CREATE UNIQUE INDEX proposals_open ON proposals (match_id, kind) WHERE status = 'open';   -- one open per kind

CREATE TABLE proposal_agreements (
    proposal_id INTEGER NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,                  -- the proposer agrees from the start
    agreed_at   TEXT    NOT NULL,
    PRIMARY KEY (proposal_id, user_id)
);

-- The open offers and requests of the old columns (matches.draw_offer_ply / draw_accepted, takeback_ply /
-- takeback_accepted: user ids joined by ',', the proposer first) become rows; one made at an older ply had
-- lapsed already. When it was made is not stored: the last move's time (or the start) stands for it.
INSERT INTO proposals (match_id, kind, ply, proposer, status, created_at)
    SELECT m.id, 'draw', m.draw_offer_ply, CAST(substr(m.draw_accepted || ',', 1, instr(m.draw_accepted || ',', ',') - 1)
           AS INTEGER), 'open', COALESCE((SELECT MAX(played_at) FROM moves WHERE match_id = m.id), m.started_at,
           m.created_at)
    FROM matches m WHERE m.status = 'active' AND m.draw_offer_ply = m.ply AND m.draw_accepted <> '';
INSERT INTO proposals (match_id, kind, ply, proposer, status, created_at)
    SELECT m.id, 'takeback', m.takeback_ply, CAST(substr(m.takeback_accepted || ',', 1,
           instr(m.takeback_accepted || ',', ',') - 1) AS INTEGER), 'open',
           COALESCE((SELECT MAX(played_at) FROM moves WHERE match_id = m.id), m.started_at, m.created_at)
    FROM matches m WHERE m.status = 'active' AND m.takeback_ply = m.ply AND m.takeback_accepted <> '';
INSERT INTO proposal_agreements (proposal_id, user_id, agreed_at)
    WITH RECURSIVE split (proposal_id, agreed_at, rest, user_id) AS (
        SELECT p.id, p.created_at, (CASE p.kind WHEN 'draw' THEN m.draw_accepted ELSE m.takeback_accepted END) || ',',
               NULL
        FROM proposals p JOIN matches m ON m.id = p.match_id
        UNION ALL
        SELECT proposal_id, agreed_at, substr(rest, instr(rest, ',') + 1),
               CAST(substr(rest, 1, instr(rest, ',') - 1) AS INTEGER)
        FROM split WHERE rest <> '')
    SELECT DISTINCT proposal_id, user_id, agreed_at FROM split WHERE user_id IS NOT NULL;

ALTER TABLE matches DROP COLUMN draw_offer_ply;
ALTER TABLE matches DROP COLUMN draw_accepted;
ALTER TABLE matches DROP COLUMN takeback_ply;
ALTER TABLE matches DROP COLUMN takeback_accepted;
