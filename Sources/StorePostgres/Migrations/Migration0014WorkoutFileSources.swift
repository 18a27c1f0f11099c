/// 0014 (the twin of `StoreSQLite/Migrations/Migration0014WorkoutFileSources.swift`; see there): the sources of
/// workout records imported from files.
enum Migration0014WorkoutFileSources {
    static let identifier = "0014_workout_file_sources"
    static let statements: [String] = [
        """
        ALTER TABLE workouts DROP CONSTRAINT workouts_source_check,
            ADD CONSTRAINT workouts_source_check CHECK (source IN ('apple_health','garmin','manual','garmin_fit','tcx','gpx'))
        """
    ]
}
