-- PostgreSQL twin of ../018_match_pages.sql: match pages per server (off | link | listed), display names on
-- them or not, and the secret that signs the server's links.
ALTER TABLE guild_settings ADD COLUMN pages TEXT NOT NULL DEFAULT 'off';
ALTER TABLE guild_settings ADD COLUMN page_names BIGINT NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN page_secret TEXT;
