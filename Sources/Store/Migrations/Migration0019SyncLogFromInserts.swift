/// 0019: stored sessions, their metrics and workout records are logged in `sync_log` by the store's insert functions
/// (`SQLiteStore.logChange`) instead of 0012's row triggers, which this migration drops.
///
/// A trigger that writes other tables makes its statement a multi-row write that can fail halfway, so SQLite runs every
/// insert into the table with a statement journal: a copy of each page the statement changes, kept to undo that
/// statement alone (https://www.sqlite.org/tempfiles.html, "Statement Journal Files"). For a session's recording that
/// is several pages an insert. The nightly inserts two rows a session this way (the session and its metrics) and one a
/// workout record; without the triggers the same nightly took 7–9 % less wall time in seven alternating pairs
/// (Benchmarks/nightly-results.md, 2026-11-27 11:15). The log is the same: the same positions, in the same order, in
/// the same transaction as the row (`SyncLogModelTests` checks it against the definition, on the old triggers too).
/// A binary older than this migration would insert without logging: binaries from this one on refuse a store migrated
/// by a newer pipeline (`SQLiteStore.init`), but older ones do not check, so every process that opens the store (a
/// running API server too) must run this version or a later one.
///
/// Updates keep their triggers: `session_metrics` (logged when the figures change) and `workouts`, with the stats and
/// plans triggers. An insert into `sessions`, `session_metrics` or `workouts` that does not go through
/// `SQLiteStore.insertSession`, `upsertSessionMetrics` or `insertWorkout` must call `logChange` itself.
///
/// PostgreSQL has no statement journal and logs multi-row inserts once per statement
/// (0017): nothing to change, the migration keeps both stores' lists alike.
package enum Migration0019SyncLogFromInserts: StoreMigration {
    package static let identifier = "0019_sync_log_from_inserts"

    // MARK: SQLite

    package static let sqlite = """
        DROP TRIGGER sessions_sync_insert;
        DROP TRIGGER session_metrics_sync_insert;
        DROP TRIGGER workouts_sync_insert;
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = ["SELECT 1"]
}
