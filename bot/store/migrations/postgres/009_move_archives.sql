-- PostgreSQL twin of ../009_move_archives.sql: the same change in PostgreSQL's types (BIGINT, BYTEA).
-- Compact records: a finished match's whole move log as ONE compressed blob (bot/store/archive.py describes
-- the format). Its ``moves`` rows are deleted in the transaction that writes the archive, after replaying the
-- archived log reproduced every stored position; position codes are not kept (replay recomputes them).
CREATE TABLE move_archives (
    match_id    BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    format      BIGINT NOT NULL,                   -- 1 = zlib of compact JSON (see bot/store/archive.py)
    log         BYTEA  NOT NULL,
    plies       BIGINT NOT NULL,                   -- rows in the log, taken-back ones included
    archived_at TEXT   NOT NULL
);
