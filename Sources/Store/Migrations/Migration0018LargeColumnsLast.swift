/// 0018: the large values of a row — a session's recording (`raw_blob`) and a workout record's samples (`samples_json`)
/// — move to the end of their rows. SQLite keeps a row's bytes in column order and spills what does not fit the page
/// into a chain of overflow pages (https://www.sqlite.org/fileformat2.html, "B-tree Cell Format"), so a column stored
/// after a 93 KB recording can only be read by walking its ≈ 23 overflow pages. Reading a user's sessions without their
/// recordings (`activitySpans`: machine and recording status, three times a user per nightly; the session list; the
/// conflict check's content hash) read every recording's pages: 0.21 s against 0.01 s for the same 5,514 rows' leading
/// columns. With the large value last, the other columns sit in the row's first page.
///
/// Both tables are rebuilt as SQLite's documentation says (new table, copy, drop, rename), with foreign-key checks
/// deferred to the end of the migration so that dropping the old table does not cascade into `session_metrics` and
/// `workout_metrics`; their indexes and sync-log triggers are made again. The copy rewrites the store once: 15 s for a
/// 556 MB store of 5,514 recordings on this project's 2-core machine. The old pages stay in the file as free pages,
/// which new rows reuse (`VACUUM` returns them to the file system). PostgreSQL keeps large values out of line (TOAST)
/// whatever the column order: nothing to change there, the migration keeps both stores' lists alike.
package enum Migration0018LargeColumnsLast: StoreMigration {
    package static let identifier = "0018_large_columns_last"

    // MARK: SQLite

    /// The script rebuilds a table: foreign keys are checked at its end.
    package static let sqliteRebuildsTable = true
    static let sessionColumns = """
        user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s, total_energy_kcal,
        total_distance_m, detail_json, machine, blob_status, blob_note, content_sha256, source, received_at_ms, raw_blob
        """
    static let workoutColumns = """
        user_id, workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal, avg_hr, max_hr,
        elevation_gain_m, time_zone, updated_at_ms, deleted, content_sha256, samples_json
        """
    package static let sqlite =
        """
        CREATE TABLE sessions_rebuilt (
            \(MigrationColumns.lines(MigrationColumns.sessionHead)),
            \(MigrationColumns.lines(MigrationColumns.sessionTail)),
            raw_blob BLOB,
            PRIMARY KEY (user_id, session_id),
            CHECK (ended_at_ms >= started_at_ms)
        );
        INSERT INTO sessions_rebuilt (\(sessionColumns)) SELECT \(sessionColumns) FROM sessions;
        DROP TABLE sessions;
        ALTER TABLE sessions_rebuilt RENAME TO sessions;
        CREATE INDEX sessions_by_user_start ON sessions(user_id, started_at_ms DESC);
        CREATE INDEX sessions_by_received ON sessions(received_at_ms);

        CREATE TABLE workouts_rebuilt (
            \(MigrationColumns.lines(MigrationColumns.workoutKey)),
            source TEXT NOT NULL CHECK (source IN (\(Migration0014WorkoutFileSources.sources.map { "'\($0)'" }.joined(separator: ","))) ),
            \(MigrationColumns.lines(MigrationColumns.workoutMeasures)),
            \(MigrationColumns.lines(MigrationColumns.workoutTail)),
            samples_json TEXT,
            PRIMARY KEY (user_id, workout_id)
        );
        INSERT INTO workouts_rebuilt (\(workoutColumns)) SELECT \(workoutColumns) FROM workouts;
        DROP TABLE workouts;
        ALTER TABLE workouts_rebuilt RENAME TO workouts;
        CREATE INDEX workouts_by_user_start ON workouts(user_id, start_ms DESC);

        """
        + Migration0012SyncLog.sqliteTriggers.filter { $0.0 == "sessions" || $0.0 == "workouts" }.map(
            Migration0012SyncLog.sqliteTrigger
        ).joined()

    // MARK: PostgreSQL

    package static let postgres: [String] = ["SELECT 1"]
}
