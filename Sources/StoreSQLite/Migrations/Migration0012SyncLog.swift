/// 0012: `sync_log`, what changed for each user and in which order, for the apps' delta sync (`GET /v1/me/changes`,
/// `PipelineStore.changes(user:after:limit:)`). The twin of `StorePostgres/Migrations/Migration0012SyncLog.swift`.
///
/// One row per changed item of a user — a session (stored, or measured by the nightly), a workout record (stored,
/// updated or deleted: workouts are soft-deleted, so a deletion is a change like any other), the user's stats (when
/// their figures change, not when the same figures are recomputed), a plan version — keyed by the item, so an item
/// changed twice holds one row with its last position. Triggers write it in the transaction that changes the item,
/// whichever process writes. (Since 0019 the inserts of sessions, their metrics and workout records are logged by the
/// store's insert functions instead, which saves every such insert a statement journal.)
///
/// The position is a counter bumped by every logged change (`sync_state`). SQLite runs one write transaction at a
/// time, so positions are handed out in commit order: a reader that has seen position `p` has seen every change
/// committed before it, and whatever commits later gets a larger position. The log goes with the user (foreign key,
/// `ON DELETE CASCADE`). (Delete-then-insert rather than `INSERT OR REPLACE`: see 0006 on conflict clauses in
/// triggers.)
enum Migration0012SyncLog {
    static let identifier = "0012_sync_log"
    static let sql = """
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

        """ + triggers.map(trigger).joined()

    static func trigger(_ table: String, _ event: String, _ kind: String, _ item: String, _ condition: String) -> String
    {
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
    static let triggers: [(String, String, String, String, String)] = [
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
}
