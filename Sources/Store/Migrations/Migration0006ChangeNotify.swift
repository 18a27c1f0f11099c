/// 0006: `pipeline serve` learns which users' cached views changed: from a change table it polls on SQLite, from
/// PostgreSQL's NOTIFY there.
///
/// SQLite: triggers on what the API caches for a user (profile, stats, plans) bump one counter and record, per user,
/// the counter value of the user's last change: a poller asks for users changed since the value it saw last (one row
/// per user, so the table stays as small as `users`). A deleted user's row goes with the user (no id is left behind,
/// GDPR); the deletion bumps `deletions` instead, after which a poller drops all it cached. (The triggers delete and
/// insert rather than `INSERT OR REPLACE`: SQLite applies the conflict clause of the statement that fired a trigger, an
/// UPSERT's, to the trigger's own statements.)
///
/// PostgreSQL: every committed change to what the API caches for a user (profile, stats, plans) sends
/// `NOTIFY pipeline_user_changed, '<user id>'` from the writing transaction, whichever process wrote it (nightly,
/// ingest, recompute, deletion). PostgreSQL delivers it at commit, once per user and transaction, to every
/// `pipeline serve` that LISTENs.
package enum Migration0006ChangeNotify: StoreMigration {
    package static let identifier = "0006_change_notify"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE change_feed_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            version INTEGER NOT NULL,
            deletions INTEGER NOT NULL
        );
        INSERT INTO change_feed_state (id, version, deletions) VALUES (1, 0, 0);
        CREATE TABLE user_changes (
            user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            version INTEGER NOT NULL
        );
        CREATE INDEX user_changes_by_version ON user_changes(version);
        CREATE TRIGGER users_change_delete AFTER DELETE ON users BEGIN
            UPDATE change_feed_state SET version = version + 1, deletions = deletions + 1 WHERE id = 1;
        END;
        """
        + changeTriggers.map { table, event in
            """
            CREATE TRIGGER \(table)_change_\(event.lowercased()) AFTER \(event) ON \(table) BEGIN
                UPDATE change_feed_state SET version = version + 1 WHERE id = 1;
                DELETE FROM user_changes WHERE user_id = NEW.user_id;
                INSERT INTO user_changes (user_id, version) VALUES (NEW.user_id, (SELECT version FROM change_feed_state WHERE id = 1));
            END;

            """
        }.joined()

    /// The writes that change what the API caches for a user: each records the user's change (one trigger each).
    static let changeTriggers = [
        ("users", "INSERT"), ("users", "UPDATE"), ("user_stats", "INSERT"), ("user_stats", "UPDATE"),
        ("plans", "INSERT"),
    ]

    // MARK: PostgreSQL

    static let channel = "pipeline_user_changed"
    package static let postgres: [String] = [
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
