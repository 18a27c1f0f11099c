/// Column definitions that several migrations write alike, kept once so that the copies cannot drift: 0001 creates
/// `sessions` and `workouts`, and 0014, 0018 and 0020 rebuild them on SQLite (SQLite changes a constraint or the order
/// of columns only by making the table again) with the same definitions, in another order or with one more; and
/// 0001's `users` has columns whose definitions are the same text in both dialects. A migration interpolates a group
/// with `lines(_:)`, one definition a line at the indentation of the table's body: each script reads, to the byte, as
/// it did when the definitions were written in it (the SQL of an applied migration never changes, `StoreMigration`).
enum MigrationColumns {
    /// `users` from the time zone to the functional threshold power, alike in both dialects (0001).
    static let userProfile = [
        "time_zone TEXT NOT NULL CHECK (length(time_zone) > 0)",
        "sex TEXT CHECK (sex IN ('male', 'female'))",
        "birth_year INTEGER CHECK (birth_year BETWEEN 1900 AND 2100)",
        "max_hr INTEGER CHECK (max_hr BETWEEN 80 AND 250)",
        "resting_hr INTEGER CHECK (resting_hr BETWEEN 20 AND 150)",
        "ftp_w INTEGER CHECK (ftp_w BETWEEN 20 AND 1000)",
    ]

    /// `users` from the goal race to the bound device: what the plan reads, alike in both dialects (0001).
    static let userPlanning = [
        "goal_race_json TEXT",
        "available_days TEXT NOT NULL DEFAULT ''",
        "max_run_days INTEGER CHECK (max_run_days BETWEEN 0 AND 7)",
        "long_run_day TEXT CHECK (long_run_day IN ('mon','tue','wed','thu','fri','sat','sun'))",
        "experience TEXT CHECK (experience IN ('novice','intermediate','experienced'))",
        "bound_device_id TEXT",
    ]

    /// `sessions` from the user to the upload's detail: 0001's first columns, and the rebuilds' (0018, 0020).
    static let sessionHead = [
        "user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE",
        "session_id TEXT NOT NULL",
        "started_at_text TEXT NOT NULL",
        "ended_at_text TEXT NOT NULL",
        "started_at_ms INTEGER NOT NULL",
        "ended_at_ms INTEGER NOT NULL",
        "duration_s REAL NOT NULL CHECK (duration_s > 0 AND duration_s <= 86400)",
        "total_energy_kcal REAL NOT NULL CHECK (total_energy_kcal >= 0)",
        "total_distance_m REAL NOT NULL CHECK (total_distance_m >= 0)",
        "detail_json TEXT NOT NULL",
    ]

    /// `sessions` from the machine to the receipt time: after the recording in 0001, before it since 0018.
    static let sessionTail = [
        "machine TEXT",
        "blob_status TEXT NOT NULL CHECK (blob_status IN ('none','complete','truncated','corrupted'))",
        "blob_note TEXT",
        "content_sha256 TEXT NOT NULL CHECK (length(content_sha256) = 64)",
        "source TEXT NOT NULL",
        "received_at_ms INTEGER NOT NULL",
    ]

    /// `workouts`' key.
    static let workoutKey = [
        "user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE",
        "workout_id TEXT NOT NULL",
    ]

    /// `workouts` from the activity type to the time zone: after the source (whose allowed values 0014 widens).
    static let workoutMeasures = [
        "activity_type TEXT NOT NULL",
        "start_ms INTEGER NOT NULL",
        "end_ms INTEGER NOT NULL",
        "duration_s REAL NOT NULL CHECK (duration_s >= 0)",
        "distance_m REAL CHECK (distance_m >= 0)",
        "energy_kcal REAL CHECK (energy_kcal >= 0)",
        "avg_hr REAL CHECK (avg_hr > 0)",
        "max_hr REAL CHECK (max_hr > 0)",
        "elevation_gain_m REAL",
        "time_zone TEXT",
    ]

    /// `workouts` from the update time to the content hash: after the samples in 0001 and 0014, before them since 0018.
    static let workoutTail = [
        "updated_at_ms INTEGER NOT NULL",
        "deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))",
        "content_sha256 TEXT NOT NULL",
    ]

    /// The definitions one a line, separated by commas, each line after the first indented as a table's body is: the
    /// text to put where the first definition stands (the caller writes the comma after the last one).
    static func lines(_ definitions: [String]) -> String {
        definitions.joined(separator: ",\n    ")
    }
}
