import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    public func putSessionMetrics(_ m: SessionMetricsRecord) async throws {
        try await write("putSessionMetrics") { db in try await Self.upsertSessionMetrics(m, db) }
    }

    public func putSessionMetrics(_ records: [SessionMetricsRecord]) async throws {
        guard !records.isEmpty else { return }
        try await write("putSessionMetrics") { db in try await Self.insertSessionMetrics(records, db) }
    }

    /// `upsertSessionMetrics` for many rows in one statement per 200 rows (one round trip instead of one per row). A key
    /// given twice keeps the last one, as one upsert after the other would.
    static func insertSessionMetrics(_ records: [SessionMetricsRecord], _ db: Connection) async throws {
        var last: [SessionKey: Int] = [:]
        for (i, m) in records.enumerated() { last[SessionKey(m.userID, m.sessionID)] = i }
        let unique = records.indices.filter { last[SessionKey(records[$0].userID, records[$0].sessionID)] == $0 }
            .map { records[$0] }
        var start = 0
        while start < unique.count {
            let chunk = unique[start..<min(start + 200, unique.count)]
            var sql = """
                INSERT INTO session_metrics (user_id, session_id, local_date, sport, duration_s, distance_m, energy_kcal,
                    avg_power_w, avg_hr_bpm, tss, metrics_json, flags, computed_at_ms) VALUES
                """
            var bindings = PostgresBindings()
            for (n, m) in chunk.enumerated() {
                sql += sqlValuesRow(n, columns: 13)
                bindings.append(m.userID.rawValue); bindings.append(m.sessionID.rawValue);
                bindings.append(m.localDate.iso)
                bindings.append(m.sport); bindings.append(m.durationS); bindings.append(m.distanceM);
                bindings.append(m.energyKcal)
                bindings.append(m.avgPowerW); bindings.append(m.avgHRBpm); bindings.append(m.tss);
                bindings.append(m.metricsJSON)
                bindings.append(m.flags.joined(separator: ",")); bindings.append(m.computedAt)
            }
            sql += """
                 ON CONFLICT (user_id, session_id) DO UPDATE SET local_date = excluded.local_date, sport = excluded.sport,
                    duration_s = excluded.duration_s, distance_m = excluded.distance_m, energy_kcal = excluded.energy_kcal,
                    avg_power_w = excluded.avg_power_w, avg_hr_bpm = excluded.avg_hr_bpm, tss = excluded.tss,
                    metrics_json = excluded.metrics_json, flags = excluded.flags, computed_at_ms = excluded.computed_at_ms
                """
            try await db.execute(PostgresQuery(unsafeSQL: sql, binds: bindings))
            start += chunk.count
        }
    }

    static func upsertSessionMetrics(_ m: SessionMetricsRecord, _ db: Connection) async throws {
        try await db.execute(
            """
            INSERT INTO session_metrics (user_id, session_id, local_date, sport, duration_s, distance_m, energy_kcal,
                avg_power_w, avg_hr_bpm, tss, metrics_json, flags, computed_at_ms)
            VALUES (\(m.userID.rawValue), \(m.sessionID.rawValue), \(m.localDate.iso), \(m.sport), \(m.durationS), \(m.distanceM),
                \(m.energyKcal), \(m.avgPowerW), \(m.avgHRBpm), \(m.tss), \(m.metricsJSON), \(m.flags.joined(separator: ",")),
                \(m.computedAt))
            ON CONFLICT (user_id, session_id) DO UPDATE SET local_date = excluded.local_date, sport = excluded.sport,
                duration_s = excluded.duration_s, distance_m = excluded.distance_m, energy_kcal = excluded.energy_kcal,
                avg_power_w = excluded.avg_power_w, avg_hr_bpm = excluded.avg_hr_bpm, tss = excluded.tss,
                metrics_json = excluded.metrics_json, flags = excluded.flags, computed_at_ms = excluded.computed_at_ms
            """)
    }

    public func sessionMetrics(user: UserID) async throws -> [SessionMetricsRecord] {
        try await read("sessionMetrics") { db in
            try await db.rows(
                "SELECT * FROM session_metrics WHERE user_id = \(user.rawValue) ORDER BY local_date, session_id"
            )
            .map(Self.sessionMetrics(from:))
        }
    }

    static func sessionMetrics(from row: PostgresRandomAccessRow) throws -> SessionMetricsRecord {
        SessionMetricsRecord(
            userID: UserID(try row.get("user_id", as: String.self)),
            sessionID: SessionID(rawValue: try row.get("session_id")),
            localDate: try LocalDate(stored: row.get("local_date"), column: "session_metrics.local_date"),
            sport: try row.get("sport"), durationS: try row.get("duration_s"),
            distanceM: try row.get("distance_m"), energyKcal: try row.get("energy_kcal"),
            avgPowerW: try row.get("avg_power_w"),
            avgHRBpm: try row.get("avg_hr_bpm"), tss: try row.get("tss"), metricsJSON: try row.get("metrics_json"),
            flags: try row.get("flags", as: String.self).split(separator: ",").map(String.init),
            computedAt: try row.get("computed_at_ms"))
    }

    public func putUserStats(_ s: UserStatsRecord) async throws {
        let json = try Self.json(s.stats)
        try await write("putUserStats") { db in
            try await db.execute(
                """
                INSERT INTO user_stats (user_id, stats_json, computed_at_ms) VALUES (\(s.userID.rawValue), \(json), \(s.computedAt))
                ON CONFLICT (user_id) DO UPDATE SET stats_json = excluded.stats_json, computed_at_ms = excluded.computed_at_ms
                """)
        }
    }

    public func userStats(_ user: UserID) async throws -> UserStatsRecord? {
        let row = try await read("userStats") { db -> (String, Int64, String?, Int64?)? in
            guard let row = try await db.row("SELECT * FROM user_stats WHERE user_id = \(user.rawValue)") else {
                return nil
            }
            return (
                try row.get("stats_json"), try row.get("computed_at_ms"), try row.get("app_stats_json"),
                try row.get("app_reported_at_ms")
            )
        }
        guard let (statsJSON, computedAt, appJSON, appAt) = row else { return nil }
        let stats = try JSONDecoder().decode(UserStats.self, from: Data(statsJSON.utf8))
        let app = try appJSON.map { try JSONDecoder().decode(UserStats.self, from: Data($0.utf8)) }
        return UserStatsRecord(
            userID: user, stats: stats, computedAt: computedAt, appReported: app, appReportedAt: appAt)
    }

    public func recordAppStats(user: UserID, stats: UserStats, at: EpochMillis) async throws {
        let json = try Self.json(stats)
        let empty = try Self.json(UserStats.empty)
        try await write("recordAppStats") { db in
            try await db.execute(
                """
                \(unescaped: StoreSQL.insertAppStats) VALUES (\(user.rawValue), \(empty), 0, \(json), \(at))
                \(unescaped: StoreSQL.appStatsConflictUpdate)
                """)
        }
    }

    /// JSON with sorted keys, byte for byte what the SQLite store writes (`StoreSQL.json`).
    static func json(_ value: some Encodable) throws -> String { try StoreSQL.json(value) }

    // MARK: Plans

    /// Appends the next version. The user's row is locked first (`FOR NO KEY UPDATE`, which does not block inserts of
    /// the user's other rows), so two workers appending at once get versions n and n+1 instead of a key violation.
    public func appendPlan(user: UserID, generatedAt: EpochMillis, state: PlanState, documentJSON: String) async throws
        -> Int
    {
        try await write("appendPlan") { db in
            try await db.execute("SELECT 1 FROM users WHERE user_id = \(user.rawValue) FOR NO KEY UPDATE")
            let next =
                (try await db.scalar("SELECT MAX(version) FROM plans WHERE user_id = \(user.rawValue)", as: Int.self)
                    ?? 0) + 1
            try await db.execute(
                """
                INSERT INTO plans (user_id, version, generated_at_ms, state, document_json)
                VALUES (\(user.rawValue), \(next), \(generatedAt), \(state.rawValue), \(documentJSON))
                """)
            return next
        }
    }

    static func plan(from row: PostgresRandomAccessRow) throws -> PlanRecord {
        PlanRecord(
            userID: UserID(try row.get("user_id", as: String.self)), version: try row.get("version"),
            generatedAt: try row.get("generated_at_ms"), state: PlanState(rawValue: try row.get("state")) ?? .error,
            documentJSON: try row.get("document_json"))
    }

    public func latestPlan(user: UserID) async throws -> PlanRecord? {
        try await read("latestPlan") { db in
            try await db.row("SELECT * FROM plans WHERE user_id = \(user.rawValue) ORDER BY version DESC LIMIT 1").map(
                Self.plan(from:))
        }
    }

    public func planVersions(user: UserID) async throws -> [PlanRecord] {
        try await read("planVersions") { db in
            try await db.rows("SELECT * FROM plans WHERE user_id = \(user.rawValue) ORDER BY version").map(
                Self.plan(from:))
        }
    }
}
