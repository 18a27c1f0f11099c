/// 0012 (the twin of `StoreSQLite/Migrations/Migration0012SyncLog.swift`; see there): `sync_log`, what changed for each
/// user, for the apps' delta sync.
///
/// Several processes commit concurrently here, so a counter handed out at write time is not in commit order: a change
/// could take position 10, commit after a reader has seen 11, and be skipped. Each row therefore carries the id of the
/// transaction that wrote it (`xid8`, which never wraps) beside a sequence number, and a reader returns only rows of
/// transactions older than the oldest one still running (`pg_snapshot_xmin` of its snapshot): those are all finished,
/// so nothing can later appear below the reader's cursor (`PostgresStore.changes`, keyset on `(xid, seq)`). A long
/// transaction delays the changes after it; it never loses one.
enum Migration0012SyncLog {
    static let identifier = "0012_sync_log"
    static let statements: [String] =
        [
            "CREATE SEQUENCE sync_seq",
            """
            CREATE TABLE sync_log (
                user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('session', 'workout', 'stats', 'plan')),
                item_id TEXT NOT NULL,
                xid xid8 NOT NULL,
                seq BIGINT NOT NULL,
                PRIMARY KEY (user_id, kind, item_id)
            )
            """,
            "CREATE INDEX sync_log_by_position ON sync_log(user_id, xid, seq)",
        ]
        + functions.map { name, kind, item in
            """
            CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO sync_log (user_id, kind, item_id, xid, seq)
                VALUES (NEW.user_id, '\(kind)', \(item), pg_current_xact_id(), nextval('sync_seq'))
                ON CONFLICT (user_id, kind, item_id) DO UPDATE SET xid = excluded.xid, seq = excluded.seq;
                RETURN NULL;
            END
            $$
            """
        }
        + triggers.map { name, table, events, function, condition in
            """
            CREATE TRIGGER \(name) AFTER \(events) ON \(table) FOR EACH ROW\(condition.isEmpty ? "" : " WHEN (\(condition))")
            EXECUTE FUNCTION \(function)()
            """
        }

    static let functions = [
        ("pipeline_sync_session", "session", "NEW.session_id"),
        ("pipeline_sync_workout", "workout", "NEW.workout_id"),
        ("pipeline_sync_stats", "stats", "''"),
        ("pipeline_sync_plan", "plan", "NEW.version::text"),
    ]

    /// (trigger, table, events, function, condition). A `WHEN` naming `OLD` cannot be on an `INSERT` trigger, so the
    /// updates that count only when the figures change have triggers of their own.
    static let triggers = [
        ("sessions_sync", "sessions", "INSERT", "pipeline_sync_session", ""),
        ("session_metrics_sync", "session_metrics", "INSERT", "pipeline_sync_session", ""),
        (
            "session_metrics_sync_update", "session_metrics", "UPDATE", "pipeline_sync_session",
            "OLD.metrics_json IS DISTINCT FROM NEW.metrics_json"
        ),
        ("workouts_sync", "workouts", "INSERT OR UPDATE", "pipeline_sync_workout", ""),
        ("user_stats_sync", "user_stats", "INSERT", "pipeline_sync_stats", ""),
        (
            "user_stats_sync_update", "user_stats", "UPDATE", "pipeline_sync_stats",
            "OLD.stats_json IS DISTINCT FROM NEW.stats_json OR OLD.app_stats_json IS DISTINCT FROM NEW.app_stats_json"
        ),
        ("plans_sync", "plans", "INSERT OR UPDATE", "pipeline_sync_plan", ""),
    ]
}
