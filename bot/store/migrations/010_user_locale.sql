-- A user's Discord locale as last seen in an interaction ('de', 'en-US', …; NULL = unknown): direct messages
-- speak it, as private replies do (posts in a channel speak the server's).
ALTER TABLE user_settings ADD COLUMN locale TEXT;
