-- PostgreSQL twin of ../012_whole_setting_numbers.sql: the same statements (BIGINT columns never held a
-- fraction here, so they change nothing; kept for one schema history on both backends).
UPDATE user_digests SET hour = CAST(hour AS INTEGER) WHERE hour <> CAST(hour AS INTEGER);
UPDATE guild_settings SET away_allowance_days = CAST(away_allowance_days AS INTEGER)
    WHERE away_allowance_days <> CAST(away_allowance_days AS INTEGER);
