/// 0006: every committed change to what the API caches for a user (profile, stats, plans) sends
/// `NOTIFY pipeline_user_changed, '<user id>'` from the writing transaction, whichever process wrote it (nightly,
/// ingest, recompute, deletion). PostgreSQL delivers it at commit, once per user and transaction, to every
/// `pipeline serve` that LISTENs. The twin of `StoreSQLite/Migrations/Migration0006ChangeNotify.swift` (a polled
/// change table there).
enum Migration0006ChangeNotify {
    static let identifier = "0006_change_notify"
    static let channel = "pipeline_user_changed"
    static let statements: [String] = [
        """
        CREATE FUNCTION pipeline_notify_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                PERFORM pg_notify('pipeline_user_changed', OLD.user_id);
            ELSE
                PERFORM pg_notify('pipeline_user_changed', NEW.user_id);
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER users_notify_change AFTER INSERT OR UPDATE OR DELETE ON users
        FOR EACH ROW EXECUTE FUNCTION pipeline_notify_user_change()
        """,
        """
        CREATE TRIGGER user_stats_notify_change AFTER INSERT OR UPDATE OR DELETE ON user_stats
        FOR EACH ROW EXECUTE FUNCTION pipeline_notify_user_change()
        """,
        """
        CREATE TRIGGER plans_notify_change AFTER INSERT OR UPDATE OR DELETE ON plans
        FOR EACH ROW EXECUTE FUNCTION pipeline_notify_user_change()
        """,
    ]
}
