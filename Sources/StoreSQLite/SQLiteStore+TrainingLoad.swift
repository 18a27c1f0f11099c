import Foundation
import GRDB
import Store

/// Workout-record metrics and the stored training-load series (migration 0004).
extension SQLiteStore {
    public func workoutsToMeasure(limit: Int) async throws -> [WorkoutRecord] {
        try await fetchAll(
            """
            SELECT w.* FROM workouts w
            LEFT JOIN workout_metrics m ON m.user_id = w.user_id AND m.workout_id = w.workout_id
            WHERE w.deleted = 0 AND (m.workout_id IS NULL OR m.workout_updated_at_ms <> w.updated_at_ms)
            ORDER BY w.start_ms, w.user_id, w.workout_id LIMIT ?
            """, arguments: [limit], Self.workout(from:))
    }

    public func putWorkoutMetrics(_ m: WorkoutMetricsRecord) async throws {
        try await writer.write { db in try Self.upsertWorkoutMetrics(m, db) }
    }

    public func putWorkoutMetrics(_ records: [WorkoutMetricsRecord]) async throws {
        guard !records.isEmpty else { return }
        try await writer.write { db in for m in records { try Self.upsertWorkoutMetrics(m, db) } }
    }

    static func upsertWorkoutMetrics(_ m: WorkoutMetricsRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO workout_metrics (user_id, workout_id, workout_updated_at_ms, local_date, activity_type, basis,
                    duration_s, distance_m, energy_kcal, avg_hr_bpm, tss, metrics_json, computed_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id, workout_id) DO UPDATE SET workout_updated_at_ms = excluded.workout_updated_at_ms,
                    local_date = excluded.local_date, activity_type = excluded.activity_type, basis = excluded.basis,
                    duration_s = excluded.duration_s, distance_m = excluded.distance_m, energy_kcal = excluded.energy_kcal,
                    avg_hr_bpm = excluded.avg_hr_bpm, tss = excluded.tss, metrics_json = excluded.metrics_json,
                    computed_at_ms = excluded.computed_at_ms
                """
        ).execute(arguments: [
            m.userID.rawValue, m.workoutID.rawValue, m.workoutUpdatedAt, m.localDate.iso, m.activityType,
            m.basis.rawValue,
            m.durationS, m.distanceM, m.energyKcal, m.avgHRBpm, m.tss, m.metricsJSON, m.computedAt,
        ])
    }

    public func workoutMetrics(user: UserID) async throws -> [WorkoutMetricsRecord] {
        try await fetchAll(
            """
            SELECT m.* FROM workout_metrics m
            JOIN workouts w ON w.user_id = m.user_id AND w.workout_id = m.workout_id
            WHERE m.user_id = ? AND w.deleted = 0 AND w.updated_at_ms = m.workout_updated_at_ms
            ORDER BY m.local_date, m.workout_id
            """, arguments: [user.rawValue]
        ) { row in
            WorkoutMetricsRecord(
                userID: UserID(row["user_id"] as String), workoutID: WorkoutID(row["workout_id"] as String),
                workoutUpdatedAt: row["workout_updated_at_ms"],
                localDate: try LocalDate(stored: row["local_date"], column: "workout_metrics.local_date"),
                activityType: row["activity_type"], basis: WorkoutMetricsBasis(rawValue: row["basis"]) ?? .summary,
                durationS: row["duration_s"], distanceM: row["distance_m"], energyKcal: row["energy_kcal"],
                avgHRBpm: row["avg_hr_bpm"], tss: row["tss"], metricsJSON: row["metrics_json"],
                computedAt: row["computed_at_ms"])
        }
    }

    public func pruneWorkoutMetrics() async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM workout_metrics WHERE EXISTS (
                        SELECT 1 FROM workouts w WHERE w.user_id = workout_metrics.user_id AND w.workout_id = workout_metrics.workout_id
                        AND (w.deleted = 1 OR w.updated_at_ms <> workout_metrics.workout_updated_at_ms))
                    """)
            return db.changesCount
        }
    }

    public func pruneWorkoutMetrics(user: UserID) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM workout_metrics WHERE user_id = ? AND EXISTS (
                        SELECT 1 FROM workouts w WHERE w.user_id = workout_metrics.user_id AND w.workout_id = workout_metrics.workout_id
                        AND (w.deleted = 1 OR w.updated_at_ms <> workout_metrics.workout_updated_at_ms))
                    """, arguments: [user.rawValue])
            return db.changesCount
        }
    }

    static func trainingLoad(from row: Row) throws -> TrainingLoadRecord {
        try TrainingLoadRecord(
            userID: UserID(row["user_id"] as String),
            date: LocalDate(stored: row["local_date"], column: "training_load.local_date"),
            dailyLoad: row["daily_load"],
            ctl: row["ctl"],
            atl: row["atl"], tsb: row["tsb"], ramp7d: row["ramp_7d"], acwrRolling: row["acwr_rolling"],
            acwrUncoupled: row["acwr_uncoupled"], acwrEwma: row["acwr_ewma"], convention: row["convention"],
            stateJSON: row["state_json"], computedAt: row["computed_at_ms"])
    }

    public func trainingLoad(user: UserID, from: LocalDate?, to: LocalDate?) async throws
        -> [TrainingLoadRecord]
    {
        try await fetchAll(
            """
            SELECT * FROM training_load WHERE user_id = ? AND (? IS NULL OR local_date >= ?) AND (? IS NULL OR local_date <= ?)
            ORDER BY local_date
            """, arguments: [user.rawValue, from?.iso, from?.iso, to?.iso, to?.iso], Self.trainingLoad(from:))
    }

    public func latestTrainingLoad(user: UserID, before: LocalDate?) async throws -> TrainingLoadRecord? {
        try await writer.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM training_load WHERE user_id = ? AND (? IS NULL OR local_date < ?) ORDER BY local_date DESC LIMIT 1
                        """), arguments: [user.rawValue, before?.iso, before?.iso]
            ).map(Self.trainingLoad(from:))
        }
    }

    public func replaceTrainingLoad(user: UserID, from: LocalDate, days: [TrainingLoadRecord]) async throws {
        guard days.allSatisfy({ $0.userID == user && $0.date >= from }) else {
            throw StoreError(
                .constraint, operation: "replaceTrainingLoad", detail: "a day of another user or before the start")
        }
        try await writer.write { db in
            try db.cachedStatement(sql: "DELETE FROM training_load WHERE user_id = ? AND local_date >= ?").execute(
                arguments: [user.rawValue, from.iso])
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO training_load (user_id, local_date, daily_load, ctl, atl, tsb, ramp_7d, acwr_rolling, acwr_uncoupled,
                        acwr_ewma, convention, state_json, computed_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for d in days {
                try statement.execute(arguments: [
                    d.userID.rawValue, d.date.iso, d.dailyLoad, d.ctl, d.atl, d.tsb, d.ramp7d, d.acwrRolling,
                    d.acwrUncoupled,
                    d.acwrEwma, d.convention, d.stateJSON, d.computedAt,
                ])
            }
        }
    }

    public func activityFigures(user: UserID) async throws -> (sessions: [ActivityFigures], workouts: [ActivityFigures])
    {
        try await writer.read { db in
            let sessions = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT started_at_ms, duration_s, total_energy_kcal, total_distance_m FROM sessions WHERE user_id = ?
                        ORDER BY started_at_ms DESC, session_id
                        """), arguments: [user.rawValue]
            ).map {
                ActivityFigures(
                    startMillis: $0["started_at_ms"], timeZone: nil, durationS: $0["duration_s"],
                    energyKcal: $0["total_energy_kcal"], distanceM: $0["total_distance_m"])
            }
            let workouts = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT start_ms, time_zone, duration_s, energy_kcal, distance_m FROM workouts WHERE user_id = ? AND deleted = 0
                        ORDER BY start_ms, workout_id
                        """), arguments: [user.rawValue]
            ).map {
                ActivityFigures(
                    startMillis: $0["start_ms"], timeZone: $0["time_zone"], durationS: $0["duration_s"],
                    energyKcal: ($0["energy_kcal"] as Double?) ?? 0, distanceM: ($0["distance_m"] as Double?) ?? 0)
            }
            return (sessions, workouts)
        }
    }

    public func loadEntries(user: UserID) async throws -> [LoadEntry] {
        try await writer.read { db in
            let sessions = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT local_date, tss FROM session_metrics WHERE user_id = ? ORDER BY local_date, session_id
                        """), arguments: [user.rawValue])
            let workouts = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT m.local_date, m.tss FROM workout_metrics m
                        JOIN workouts w ON w.user_id = m.user_id AND w.workout_id = m.workout_id
                        WHERE m.user_id = ? AND w.deleted = 0 AND w.updated_at_ms = m.workout_updated_at_ms
                        ORDER BY m.local_date, m.workout_id
                        """), arguments: [user.rawValue])
            return try (sessions + workouts).map {
                LoadEntry(localDate: try LocalDate(stored: $0["local_date"], column: "local_date"), load: $0["tss"])
            }
        }
    }
}
