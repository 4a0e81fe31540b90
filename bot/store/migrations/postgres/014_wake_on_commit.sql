-- PostgreSQL twin of ../014_wake_on_commit.sql (which changes nothing: SQLite runs in one process).
-- Every process listens on the channel boardgames_wake (bot/store/postgres_db.py) and wakes its dispatcher
-- and scheduler when a NOTIFY comes. A trigger sends it from the transaction that adds announcements (or puts
-- one off: a retry moves due_at) or sets a deadline, a reminder, a challenge's expiry or a digest's time, so
-- it goes out when that transaction commits and never for one rolled back. Statement-level: a transaction's
-- identical notifications are folded into one.
CREATE FUNCTION boardgames_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('boardgames_wake', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER outbox_wakes AFTER INSERT OR UPDATE OF due_at ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION boardgames_wake();
CREATE TRIGGER deadlines_wake AFTER INSERT OR UPDATE OF deadline_at, remind_at, expires_at ON matches
    FOR EACH STATEMENT EXECUTE FUNCTION boardgames_wake();
CREATE TRIGGER digests_wake AFTER INSERT OR UPDATE OF next_at ON user_digests
    FOR EACH STATEMENT EXECUTE FUNCTION boardgames_wake();
