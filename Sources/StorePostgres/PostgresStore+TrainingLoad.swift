import Foundation
import PostgresNIO
import Store

/// Workout-record metrics and the stored training-load series (migration 0004), as `SQLiteStore` does them.
extension PostgresStore {
    public func workoutsToMeasure(limit: Int) async throws -> [WorkoutRecord] {
        try await read("workoutsToMeasure") { db in
            try await db.rows(
                """
                SELECT w.* FROM workouts w
                LEFT JOIN workout_metrics m ON m.user_id = w.user_id AND m.workout_id = w.workout_id
                WHERE NOT w.deleted AND (m.workout_id IS NULL OR m.workout_updated_at_ms <> w.updated_at_ms)
                ORDER BY w.start_ms, w.user_id, w.workout_id LIMIT \(sqlLimit(limit))
                """
            ).map(Self.workout(from:))
        }
    }

    public func putWorkoutMetrics(_ m: WorkoutMetricsRecord) async throws {
        try await write("putWorkoutMetrics") { db in try await Self.upsertWorkoutMetrics(m, db) }
    }

    public func putWorkoutMetrics(_ records: [WorkoutMetricsRecord]) async throws {
        guard !records.isEmpty else { return }
        try await write("putWorkoutMetrics") { db in try await Self.insertWorkoutMetrics(records, db) }
    }

    /// `upsertWorkoutMetrics` for many rows in one statement per 200 rows (one round trip instead of one per row). A key
    /// given twice keeps the last one, as one upsert after the other would.
    static func insertWorkoutMetrics(_ records: [WorkoutMetricsRecord], _ db: Connection) async throws {
        var last: [UserScopedKey<WorkoutID>: Int] = [:]
        for (i, m) in records.enumerated() { last[UserScopedKey(m.userID, m.workoutID)] = i }
        let unique = records.indices.filter { last[UserScopedKey(records[$0].userID, records[$0].workoutID)] == $0 }
            .map { records[$0] }
        var start = 0
        while start < unique.count {
            let chunk = unique[start..<min(start + 200, unique.count)]
            var sql = """
                INSERT INTO workout_metrics (user_id, workout_id, workout_updated_at_ms, local_date, activity_type, basis,
                    duration_s, distance_m, energy_kcal, avg_hr_bpm, tss, metrics_json, computed_at_ms) VALUES
                """
            var bindings = PostgresBindings()
            for (n, m) in chunk.enumerated() {
                sql += sqlValuesRow(n, columns: 13)
                bindings.append(m.userID.rawValue); bindings.append(m.workoutID.rawValue);
                bindings.append(m.workoutUpdatedAt)
                bindings.append(m.localDate.iso); bindings.append(m.activityType); bindings.append(m.basis.rawValue)
                bindings.append(m.durationS); bindings.append(m.distanceM); bindings.append(m.energyKcal);
                bindings.append(m.avgHRBpm)
                bindings.append(m.tss); bindings.append(m.metricsJSON); bindings.append(m.computedAt)
            }
            sql += """
                 ON CONFLICT (user_id, workout_id) DO UPDATE SET workout_updated_at_ms = excluded.workout_updated_at_ms,
                    local_date = excluded.local_date, activity_type = excluded.activity_type, basis = excluded.basis,
                    duration_s = excluded.duration_s, distance_m = excluded.distance_m, energy_kcal = excluded.energy_kcal,
                    avg_hr_bpm = excluded.avg_hr_bpm, tss = excluded.tss, metrics_json = excluded.metrics_json,
                    computed_at_ms = excluded.computed_at_ms
                """
            try await db.execute(PostgresQuery(unsafeSQL: sql, binds: bindings))
            start += chunk.count
        }
    }

    static func upsertWorkoutMetrics(_ m: WorkoutMetricsRecord, _ db: Connection) async throws {
        try await db.execute(
            """
            INSERT INTO workout_metrics (user_id, workout_id, workout_updated_at_ms, local_date, activity_type, basis,
                duration_s, distance_m, energy_kcal, avg_hr_bpm, tss, metrics_json, computed_at_ms)
            VALUES (\(m.userID.rawValue), \(m.workoutID.rawValue), \(m.workoutUpdatedAt), \(m.localDate.iso), \(m.activityType),
                \(m.basis.rawValue), \(m.durationS), \(m.distanceM), \(m.energyKcal), \(m.avgHRBpm), \(m.tss), \(m.metricsJSON),
                \(m.computedAt))
            ON CONFLICT (user_id, workout_id) DO UPDATE SET workout_updated_at_ms = excluded.workout_updated_at_ms,
                local_date = excluded.local_date, activity_type = excluded.activity_type, basis = excluded.basis,
                duration_s = excluded.duration_s, distance_m = excluded.distance_m, energy_kcal = excluded.energy_kcal,
                avg_hr_bpm = excluded.avg_hr_bpm, tss = excluded.tss, metrics_json = excluded.metrics_json,
                computed_at_ms = excluded.computed_at_ms
            """)
    }

    public func workoutMetrics(user: UserID) async throws -> [WorkoutMetricsRecord] {
        try await read("workoutMetrics") { db in
            try await db.rows(
                """
                SELECT m.* FROM workout_metrics m
                JOIN workouts w ON w.user_id = m.user_id AND w.workout_id = m.workout_id
                WHERE m.user_id = \(user.rawValue) AND NOT w.deleted AND w.updated_at_ms = m.workout_updated_at_ms
                ORDER BY m.local_date, m.workout_id
                """
            ).map { row in
                WorkoutMetricsRecord(
                    userID: UserID(try row.get("user_id", as: String.self)),
                    workoutID: WorkoutID(try row.get("workout_id", as: String.self)),
                    workoutUpdatedAt: try row.get("workout_updated_at_ms"),
                    localDate: try LocalDate(stored: row.get("local_date"), column: "workout_metrics.local_date"),
                    activityType: try row.get("activity_type"),
                    basis: WorkoutMetricsBasis(rawValue: try row.get("basis", as: String.self)) ?? .summary,
                    durationS: try row.get("duration_s"), distanceM: try row.get("distance_m"),
                    energyKcal: try row.get("energy_kcal"),
                    avgHRBpm: try row.get("avg_hr_bpm"), tss: try row.get("tss"),
                    metricsJSON: try row.get("metrics_json"),
                    computedAt: try row.get("computed_at_ms"))
            }
        }
    }

    public func pruneWorkoutMetrics() async throws -> Int {
        try await write("pruneWorkoutMetrics") { db in
            try await db.rows(
                """
                DELETE FROM workout_metrics m USING workouts w
                WHERE w.user_id = m.user_id AND w.workout_id = m.workout_id
                AND (w.deleted OR w.updated_at_ms <> m.workout_updated_at_ms)
                RETURNING 1
                """
            ).count
        }
    }

    public func pruneWorkoutMetrics(user: UserID) async throws -> Int {
        try await write("pruneWorkoutMetrics") { db in
            try await db.rows(
                """
                DELETE FROM workout_metrics m USING workouts w
                WHERE m.user_id = \(user.rawValue) AND w.user_id = m.user_id AND w.workout_id = m.workout_id
                AND (w.deleted OR w.updated_at_ms <> m.workout_updated_at_ms)
                RETURNING 1
                """
            ).count
        }
    }

    static func trainingLoad(from row: PostgresRandomAccessRow) throws -> TrainingLoadRecord {
        TrainingLoadRecord(
            userID: UserID(try row.get("user_id", as: String.self)),
            date: try LocalDate(stored: row.get("local_date"), column: "training_load.local_date"),
            dailyLoad: try row.get("daily_load"), ctl: try row.get("ctl"), atl: try row.get("atl"),
            tsb: try row.get("tsb"),
            ramp7d: try row.get("ramp_7d"), acwrRolling: try row.get("acwr_rolling"),
            acwrUncoupled: try row.get("acwr_uncoupled"),
            acwrEwma: try row.get("acwr_ewma"), convention: try row.get("convention"),
            stateJSON: try row.get("state_json"),
            computedAt: try row.get("computed_at_ms"))
    }

    public func trainingLoad(user: UserID, from: LocalDate?, to: LocalDate?) async throws
        -> [TrainingLoadRecord]
    {
        try await read("trainingLoad") { db in
            try await db.rows(
                """
                SELECT * FROM training_load WHERE user_id = \(user.rawValue)
                AND (\(from?.iso)::text IS NULL OR local_date >= \(from?.iso))
                AND (\(to?.iso)::text IS NULL OR local_date <= \(to?.iso))
                ORDER BY local_date
                """
            ).map(Self.trainingLoad(from:))
        }
    }

    public func latestTrainingLoad(user: UserID, before: LocalDate?) async throws -> TrainingLoadRecord? {
        try await read("latestTrainingLoad") { db in
            try await db.row(
                """
                SELECT * FROM training_load WHERE user_id = \(user.rawValue) AND (\(before?.iso)::text IS NULL OR local_date < \(before?.iso))
                ORDER BY local_date DESC LIMIT 1
                """
            ).map(Self.trainingLoad(from:))
        }
    }

    public func replaceTrainingLoad(user: UserID, from: LocalDate, days: [TrainingLoadRecord]) async throws {
        guard days.allSatisfy({ $0.userID == user && $0.date >= from }) else {
            throw StoreError(
                .constraint, operation: "replaceTrainingLoad", detail: "a day of another user or before the start")
        }
        try await write("replaceTrainingLoad") { db in
            try await db.execute(
                "DELETE FROM training_load WHERE user_id = \(user.rawValue) AND local_date >= \(from.iso)")
            // One INSERT per 500 days keeps the statement count low for a long backfill.
            var start = 0
            while start < days.count {
                let chunk = days[start..<min(start + 500, days.count)]
                var sql = """
                    INSERT INTO training_load (user_id, local_date, daily_load, ctl, atl, tsb, ramp_7d, acwr_rolling, acwr_uncoupled,
                        acwr_ewma, convention, state_json, computed_at_ms) VALUES
                    """
                var bindings = PostgresBindings()
                for (i, d) in chunk.enumerated() {
                    let base = i * 13
                    sql += (i == 0 ? " " : ", ") + "(" + (1...13).map { "$\(base + $0)" }.joined(separator: ", ") + ")"
                    bindings.append(d.userID.rawValue)
                    bindings.append(d.date.iso)
                    bindings.append(d.dailyLoad)
                    bindings.append(d.ctl)
                    bindings.append(d.atl)
                    bindings.append(d.tsb)
                    bindings.append(d.ramp7d)
                    bindings.append(d.acwrRolling)
                    bindings.append(d.acwrUncoupled)
                    bindings.append(d.acwrEwma)
                    bindings.append(d.convention)
                    bindings.append(d.stateJSON)
                    bindings.append(d.computedAt)
                }
                try await db.execute(PostgresQuery(unsafeSQL: sql, binds: bindings))
                start += chunk.count
            }
        }
    }

    public func activityFigures(user: UserID) async throws -> (sessions: [ActivityFigures], workouts: [ActivityFigures])
    {
        try await snapshot("activityFigures") { db in
            let sessions = try await db.rows(
                """
                SELECT started_at_ms, duration_s, total_energy_kcal, total_distance_m FROM sessions WHERE user_id = \(user.rawValue)
                ORDER BY started_at_ms DESC, session_id
                """
            ).map {
                ActivityFigures(
                    startMillis: try $0.get("started_at_ms"), timeZone: nil, durationS: try $0.get("duration_s"),
                    energyKcal: try $0.get("total_energy_kcal"), distanceM: try $0.get("total_distance_m"))
            }
            let workouts = try await db.rows(
                """
                SELECT start_ms, time_zone, duration_s, energy_kcal, distance_m FROM workouts WHERE user_id = \(user.rawValue) AND NOT deleted
                ORDER BY start_ms, workout_id
                """
            ).map {
                ActivityFigures(
                    startMillis: try $0.get("start_ms"), timeZone: try $0.get("time_zone"),
                    durationS: try $0.get("duration_s"),
                    energyKcal: try $0.get("energy_kcal", as: Double?.self) ?? 0,
                    distanceM: try $0.get("distance_m", as: Double?.self) ?? 0)
            }
            return (sessions, workouts)
        }
    }

    public func loadEntries(user: UserID) async throws -> [LoadEntry] {
        try await snapshot("loadEntries") { db in
            let sessions = try await db.rows(
                """
                SELECT local_date, tss FROM session_metrics WHERE user_id = \(user.rawValue) ORDER BY local_date, session_id
                """)
            let workouts = try await db.rows(
                """
                SELECT m.local_date, m.tss FROM workout_metrics m
                JOIN workouts w ON w.user_id = m.user_id AND w.workout_id = m.workout_id
                WHERE m.user_id = \(user.rawValue) AND NOT w.deleted AND w.updated_at_ms = m.workout_updated_at_ms
                ORDER BY m.local_date, m.workout_id
                """)
            return try (sessions + workouts).map {
                LoadEntry(
                    localDate: try LocalDate(stored: $0.get("local_date"), column: "local_date"),
                    load: try $0.get("tss"))
            }
        }
    }
}
