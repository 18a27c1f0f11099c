/// 0014: workout records imported from files carry the file's source: `garmin_fit`, `tcx`, `gpx` (besides
/// `apple_health`, `garmin`, `manual`; docs/workout-files.md, `Ingest/WorkoutFileImport.swift`).
///
/// SQLite cannot change a CHECK constraint, so the table is rebuilt as its documentation says (new table, copy,
/// drop, rename), with foreign-key checks deferred to the end of the migration so that dropping the old table does
/// not cascade into `workout_metrics`; its index and migration 0012's triggers are made again.
/// PostgreSQL changes the constraint in place.
package enum Migration0014WorkoutFileSources: StoreMigration {
    package static let identifier = "0014_workout_file_sources"

    // MARK: SQLite

    /// The script rebuilds a table: foreign keys are checked at its end.
    package static let sqliteRebuildsTable = true
    static let sources = ["apple_health", "garmin", "manual", "garmin_fit", "tcx", "gpx"]
    package static let columns = """
        user_id, workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal, avg_hr, max_hr,
        elevation_gain_m, time_zone, samples_json, updated_at_ms, deleted, content_sha256
        """
    package static let sqlite = """
        CREATE TABLE workouts_rebuilt (
            \(MigrationColumns.lines(MigrationColumns.workoutKey)),
            source TEXT NOT NULL CHECK (source IN (\(sources.map { "'\($0)'" }.joined(separator: ","))) ),
            \(MigrationColumns.lines(MigrationColumns.workoutMeasures)),
            samples_json TEXT,
            \(MigrationColumns.lines(MigrationColumns.workoutTail)),
            PRIMARY KEY (user_id, workout_id)
        );
        INSERT INTO workouts_rebuilt (\(columns)) SELECT \(columns) FROM workouts;
        DROP TABLE workouts;
        ALTER TABLE workouts_rebuilt RENAME TO workouts;
        CREATE INDEX workouts_by_user_start ON workouts(user_id, start_ms DESC);

        """
        + Migration0012SyncLog.sqliteTriggers.filter { $0.0 == "workouts" }.map(Migration0012SyncLog.sqliteTrigger)
        .joined()

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        """
        ALTER TABLE workouts DROP CONSTRAINT workouts_source_check,
            ADD CONSTRAINT workouts_source_check CHECK (source IN ('apple_health','garmin','manual','garmin_fit','tcx','gpx'))
        """
    ]
}
