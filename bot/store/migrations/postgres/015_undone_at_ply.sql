-- PostgreSQL twin of ../015_undone_at_ply.sql: moves.undone_at held a ply, not a time; renamed to say so.
ALTER TABLE moves RENAME COLUMN undone_at TO undone_at_ply;
