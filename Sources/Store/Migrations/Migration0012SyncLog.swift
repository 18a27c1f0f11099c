/// 0012: `sync_log`, what changed for each user and in which order, for the apps' delta sync (`GET /v1/me/changes`,
/// `PipelineStore.changes(user:after:limit:)`).
///
/// One row per changed item of a user — a session (stored, or measured by the nightly), a workout record (stored,
/// updated or deleted: workouts are soft-deleted, so a deletion is a change like any other), the user's stats (when
/// their figures change, not when the same figures are recomputed), a plan version — keyed by the item, so an item
/// changed twice holds one row with its last position. Triggers write it in the transaction that changes the item,
/// whichever process writes. (Since 0019 the inserts of sessions, their metrics and workout records are logged by the
/// store's insert functions instead, which saves every such insert a statement journal.)
///
/// SQLite: the position is a counter bumped by every logged change (`sync_state`). SQLite runs one write transaction at
/// a time, so positions are handed out in commit order: a reader that has seen position `p` has seen every change
/// committed before it, and whatever commits later gets a larger position. The log goes with the user (foreign key, `ON
/// DELETE CASCADE`). (Delete-then-insert rather than `INSERT OR REPLACE`: see 0006 on conflict clauses in triggers.)
///
/// PostgreSQL: several processes commit concurrently, so a counter handed out at write time is not in commit order: a
/// change could take position 10, commit after a reader has seen 11, and be skipped. Each row therefore carries the id
/// of the transaction that wrote it (`xid8`, which never wraps) beside a sequence number, and a reader returns only
/// rows of transactions older than the oldest one still running (`pg_snapshot_xmin` of its snapshot): those are all
/// finished, so nothing can later appear below the reader's cursor (`PostgresStore.changes`, keyset on `(xid, seq)`). A
/// long transaction delays the changes after it; it never loses one.
package enum Migration0012SyncLog: StoreMigration {
    package static let identifier = "0012_sync_log"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE sync_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            position INTEGER NOT NULL
        );
        INSERT INTO sync_state (id, position) VALUES (1, 0);
        CREATE TABLE sync_log (
            user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('session', 'workout', 'stats', 'plan')),
            item_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (user_id, kind, item_id)
        ) WITHOUT ROWID;
        CREATE INDEX sync_log_by_position ON sync_log(user_id, position);

        """ + sqliteTriggers.map(sqliteTrigger).joined()

    static func sqliteTrigger(
        _ table: String, _ event: String, _ kind: String, _ item: String, _ condition: String
    ) -> String {
        """
        CREATE TRIGGER \(table)_sync_\(event.lowercased()) AFTER \(event) ON \(table)\(condition.isEmpty ? "" : " WHEN \(condition)") BEGIN
            UPDATE sync_state SET position = position + 1 WHERE id = 1;
            DELETE FROM sync_log WHERE user_id = NEW.user_id AND kind = '\(kind)' AND item_id = \(item);
            INSERT INTO sync_log (user_id, kind, item_id, position)
                VALUES (NEW.user_id, '\(kind)', \(item), (SELECT position FROM sync_state WHERE id = 1));
        END;

        """
    }

    /// (table, event, kind, the item's id, a condition on the change). Workouts are updated by delete and insert
    /// (`upsertWorkout`), so their insert covers updates and soft deletions.
    static let sqliteTriggers: [(String, String, String, String, String)] = [
        ("sessions", "INSERT", "session", "NEW.session_id", ""),
        ("session_metrics", "INSERT", "session", "NEW.session_id", ""),
        ("session_metrics", "UPDATE", "session", "NEW.session_id", "OLD.metrics_json IS NOT NEW.metrics_json"),
        ("workouts", "INSERT", "workout", "NEW.workout_id", ""),
        ("workouts", "UPDATE", "workout", "NEW.workout_id", ""),
        ("user_stats", "INSERT", "stats", "''", ""),
        (
            "user_stats", "UPDATE", "stats", "''",
            "OLD.stats_json IS NOT NEW.stats_json OR OLD.app_stats_json IS NOT NEW.app_stats_json"
        ),
        ("plans", "INSERT", "plan", "CAST(NEW.version AS TEXT)", ""),
        ("plans", "UPDATE", "plan", "CAST(NEW.version AS TEXT)", ""),
    ]

    // MARK: PostgreSQL

    package static let postgres: [String] =
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
        + postgresFunctions.map { name, kind, item in
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
        + postgresTriggers.map { name, table, events, function, condition in
            """
            CREATE TRIGGER \(name) AFTER \(events) ON \(table) FOR EACH ROW\(condition.isEmpty ? "" : " WHEN (\(condition))")
            EXECUTE FUNCTION \(function)()
            """
        }

    static let postgresFunctions = [
        ("pipeline_sync_session", "session", "NEW.session_id"),
        ("pipeline_sync_workout", "workout", "NEW.workout_id"),
        ("pipeline_sync_stats", "stats", "''"),
        ("pipeline_sync_plan", "plan", "NEW.version::text"),
    ]

    /// (trigger, table, events, function, condition). A `WHEN` naming `OLD` cannot be on an `INSERT` trigger, so the
    /// updates that count only when the figures change have triggers of their own.
    static let postgresTriggers = [
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
