-- Match pages on the web (bot/web): per server off | link | listed (default off), whether pages show the
-- players' display names (default: seat names only), and the secret that signs the server's links (NULL until
-- pages are first turned on; a new secret revokes every link signed with the old one).
ALTER TABLE guild_settings ADD COLUMN pages TEXT NOT NULL DEFAULT 'off';
ALTER TABLE guild_settings ADD COLUMN page_names INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN page_secret TEXT;
