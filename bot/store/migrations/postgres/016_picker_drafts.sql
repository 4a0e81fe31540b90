-- PostgreSQL twin of ../016_picker_drafts.sql: the same change in PostgreSQL's types (BIGINT).
-- The picker's partial turns (bot.services.drafts): one row per (match, ply, player), so a turn being built by
-- tapping survives a restart and continues when the next tap reaches another process. Every write is guarded:
-- it happens only while the match is still at that ply, and a pick only if no other pick landed meanwhile
-- (steps = the count it read). A row expires at expires_at and is dropped lazily.
CREATE TABLE picker_drafts (
    match_id   BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply        BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    picks      TEXT    NOT NULL,              -- JSON list of the texts of the options picked, in order
    steps      INTEGER NOT NULL,              -- how many picks: the conditional write's token
    expires_at TEXT    NOT NULL,              -- UTC ISO, like every stored time
    PRIMARY KEY (match_id, ply, user_id)
);
CREATE INDEX picker_drafts_expiry ON picker_drafts (expires_at);
