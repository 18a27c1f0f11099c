import Foundation

/// SQL text both stores run alike, kept once rather than in each backend's file (as `SharedRunScope.userHasWorkSQL`):
/// where the dialects agree, `SQLiteStore` and `PostgresStore` build their statements from these pieces, and only the
/// parameters (`?` for SQLite, bindings for PostgreSQL) and each backend's own additions are written per backend.
package enum StoreSQL {
    /// The tables holding a user's rows, children first, that a deletion (`deleteUser`, `purgeUser`) empties of the
    /// user before deleting the user's row: the cascade would do it; explicit deletes make the order and the proof
    /// obvious. A backend deletes its own tables besides (SQLite's `user_changes`, migration 0006).
    package static let userTablesChildrenFirst = [
        "session_metrics", "sessions", "workout_metrics", "workouts", "training_load", "user_stats", "plans",
        "quarantine", "pending_recompute", "work_leases", "sync_log",
    ]

    /// The domain tables and the key order `contentDigest` reads their rows in, the same on both backends.
    package static let domainTables: [(String, String)] = [
        ("users", "user_id"), ("sessions", "user_id, session_id"), ("workouts", "user_id, workout_id"),
        ("session_metrics", "user_id, session_id"), ("user_stats", "user_id"), ("plans", "user_id, version"),
        ("quarantine", "source_key, reason_code, payload_sha256"), ("deletion_audit", "id"),
        ("workout_metrics", "user_id, workout_id"), ("training_load", "user_id, local_date"),
    ]

    /// The columns `contentDigest` leaves out: those that record *when* the pipeline did something, and row ids, so
    /// that a rerun at another time that changes nothing else has the same digest.
    package static let digestVolatileColumns: Set<String> = [
        "computed_at_ms", "quarantined_at_ms", "received_at_ms", "id", "generated_at_ms",
        // Layout, not values: the training-load recursion's state is kept on a series' last day
        // only, and its values are the row's own columns and the days before it.
        "state_json",
    ]

    /// A session's columns but its recording (`raw_blob`) and its size, in the order of the table's creation: what
    /// a session's summary reads.
    package static let sessionSummaryColumns = """
        user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s, total_energy_kcal,
        total_distance_m, detail_json, machine, blob_status, blob_note, content_sha256, source, received_at_ms
        """

    /// The insert of a user (`upsertUser`) up to its `VALUES`: 16 values, in this order.
    package static let insertUser = """
        INSERT INTO users (user_id, time_zone, sex, birth_year, max_hr, resting_hr, ftp_w, threshold_pace_s_per_km,
                           goal_race_json, available_days, max_run_days, long_run_day, experience, bound_device_id, created_at_ms,
                           lthr)
        """

    /// What `upsertUser` updates when the user exists: everything but the id and the creation time.
    package static let userConflictUpdate = """
        ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone, sex = excluded.sex,
            birth_year = excluded.birth_year, max_hr = excluded.max_hr, resting_hr = excluded.resting_hr,
            ftp_w = excluded.ftp_w, threshold_pace_s_per_km = excluded.threshold_pace_s_per_km,
            goal_race_json = excluded.goal_race_json, available_days = excluded.available_days,
            max_run_days = excluded.max_run_days, long_run_day = excluded.long_run_day,
            experience = excluded.experience, bound_device_id = excluded.bound_device_id, lthr = excluded.lthr
        """

    /// The insert of the app's reported stats (`recordAppStats`) up to its `VALUES`: the user, empty computed stats at
    /// time 0 (a user the nightly has not measured yet), the app's stats and when it reported them.
    package static let insertAppStats =
        "INSERT INTO user_stats (user_id, stats_json, computed_at_ms, app_stats_json, app_reported_at_ms)"

    /// What `recordAppStats` updates when the user has stats: only the app's figures.
    package static let appStatsConflictUpdate = """
        ON CONFLICT (user_id) DO UPDATE SET app_stats_json = excluded.app_stats_json,
            app_reported_at_ms = excluded.app_reported_at_ms
        """

    /// The insert of a deletion's audit row (`deleteUser`) up to its `VALUES`: the user's hash, when it was asked and
    /// done, its status and note, in this order.
    package static let insertDeletionAudit =
        "INSERT INTO deletion_audit (user_sha256, requested_at_ms, completed_at_ms, status, note)"

    /// JSON with sorted keys: the same value is the same text (and digest) in every run and on both backends. The
    /// package's JSON writer (`SortedJSON.encoderText`), whose bytes are those `JSONEncoder` with `.sortedKeys` wrote
    /// for these documents (the stats, a goal race), so rows written before read and digest the same.
    package static func json(_ value: some Encodable) throws -> String {
        try SortedJSONEncoder.encode(value, numbers: .asEncoded).encoderText
    }
}
