-- Whole numbers where /settings means them: before it checked its values, a modified client could store a
-- fractional digest hour (SQLite keeps 1.5 in an INTEGER column), which broke that player's digest from then
-- on, or a fractional allowance of time away. Both become the whole number below them.
UPDATE user_digests SET hour = CAST(hour AS INTEGER) WHERE hour <> CAST(hour AS INTEGER);
UPDATE guild_settings SET away_allowance_days = CAST(away_allowance_days AS INTEGER)
    WHERE away_allowance_days <> CAST(away_allowance_days AS INTEGER);
