-- Compact records: a finished match's whole move log as ONE compressed blob (bot/store/archive.py describes
-- the format). Its ``moves`` rows are deleted in the transaction that writes the archive, after replaying the
-- archived log reproduced every stored position; position codes are not kept (replay recomputes them).
CREATE TABLE move_archives (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    format      INTEGER NOT NULL,                  -- 1 = zlib of compact JSON (see bot/store/archive.py)
    log         BLOB    NOT NULL,
    plies       INTEGER NOT NULL,                  -- rows in the log, taken-back ones included
    archived_at TEXT    NOT NULL
);
