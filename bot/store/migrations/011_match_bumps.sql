-- When a match's board was last re-posted by its Bump button (UTC ISO): a bump is taken by a conditional
-- write (only if the last one is older than the cooldown), so the cooldown holds across processes.
CREATE TABLE match_bumps (
    match_id  INTEGER PRIMARY KEY REFERENCES matches (id),
    bumped_at TEXT    NOT NULL
);
