-- moves.undone_at held a ply (the match's ply once the row was undone), while every other *_at column holds a
-- time: the name now says what it holds. SQLite 3.25 and later rename a column in place.
ALTER TABLE moves RENAME COLUMN undone_at TO undone_at_ply;
