import Foundation
import GRDB
import Store

extension SQLiteStore {
    public func putSessionMetrics(_ m: SessionMetricsRecord) async throws {
        try await writer.write { db in try Self.upsertSessionMetrics(m, db) }
    }

    public func putSessionMetrics(_ records: [SessionMetricsRecord]) async throws {
        guard !records.isEmpty else { return }
        try await writer.write { db in for m in records { try Self.upsertSessionMetrics(m, db) } }
    }

    public func sessions(keys: [(UserID, SessionID)]) async throws -> [StoredSession] {
        let rows = try await writer.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT \(Self.summaryColumns), raw_blob FROM sessions WHERE user_id = ? AND session_id = ?")
            return try keys.compactMap { key in
                try Self.firstRow(of: statement, arguments: [key.0.rawValue, key.1.rawValue]) {
                    (session: Self.summary(from: $0), stored: try Self.storedRecording(from: $0))
                }
            }
        }
        // The recordings decoded after the read, on every core (`StoredRecording.decoding`).
        return try StoredRecording.decoding(rows)
    }

    /// Inserts or replaces a session's metrics. An insert is logged here (`logChange`); a replacement by the update
    /// trigger of 0012, when the figures changed.
    static func upsertSessionMetrics(_ m: SessionMetricsRecord, _ db: Database) throws {
        let figures: [(any DatabaseValueConvertible)?] = [
            m.localDate.iso, m.sport, m.durationS, m.distanceM, m.energyKcal, m.avgPowerW, m.avgHRBpm, m.tss,
            m.metricsJSON,
            m.flags.joined(separator: ","), m.computedAt,
        ]
        let key: [(any DatabaseValueConvertible)?] = [m.userID.rawValue, m.sessionID.rawValue]
        try db.cachedStatement(
            sql: """
                INSERT INTO session_metrics (user_id, session_id, local_date, sport, duration_s, distance_m, energy_kcal,
                    avg_power_w, avg_hr_bpm, tss, metrics_json, flags, computed_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id, session_id) DO NOTHING
                """
        ).execute(arguments: StatementArguments(key + figures))
        if db.changesCount > 0 {
            try logChange(.session, user: m.userID.rawValue, item: m.sessionID.rawValue, db)
            return
        }
        try db.cachedStatement(
            sql: """
                UPDATE session_metrics SET local_date = ?, sport = ?, duration_s = ?, distance_m = ?, energy_kcal = ?,
                    avg_power_w = ?, avg_hr_bpm = ?, tss = ?, metrics_json = ?, flags = ?, computed_at_ms = ?
                WHERE user_id = ? AND session_id = ?
                """
        ).execute(arguments: StatementArguments(figures + key))
    }

    public func sessionMetrics(user: UserID) async throws -> [SessionMetricsRecord] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM session_metrics WHERE user_id = ? ORDER BY local_date, session_id"),
                arguments: [user.rawValue]
            ).map(Self.sessionMetrics(from:))
        }
    }

    static func sessionMetrics(from row: Row) throws -> SessionMetricsRecord {
        try SessionMetricsRecord(
            userID: UserID(row["user_id"] as String), sessionID: SessionID(rawValue: row["session_id"]),
            localDate: LocalDate(stored: row["local_date"], column: "session_metrics.local_date"), sport: row["sport"],
            durationS: row["duration_s"],
            distanceM: row["distance_m"],
            energyKcal: row["energy_kcal"], avgPowerW: row["avg_power_w"], avgHRBpm: row["avg_hr_bpm"], tss: row["tss"],
            metricsJSON: row["metrics_json"],
            flags: (row["flags"] as String).split(separator: ",").map(String.init), computedAt: row["computed_at_ms"])
    }

    public func putUserStats(_ s: UserStatsRecord) async throws {
        let json = try Self.json(s.stats)
        try await writer.write { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO user_stats (user_id, stats_json, computed_at_ms) VALUES (?, ?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET stats_json = excluded.stats_json, computed_at_ms = excluded.computed_at_ms
                    """
            ).execute(arguments: [s.userID.rawValue, json, s.computedAt])
        }
    }

    public func userStats(_ user: UserID) async throws -> UserStatsRecord? {
        try await writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM user_stats WHERE user_id = ?"), arguments: [user.rawValue])
            else {
                return nil
            }
            let stats = try JSONDecoder().decode(UserStats.self, from: Data((row["stats_json"] as String).utf8))
            let app = try (row["app_stats_json"] as String?).map {
                try JSONDecoder().decode(UserStats.self, from: Data($0.utf8))
            }
            return UserStatsRecord(
                userID: user, stats: stats, computedAt: row["computed_at_ms"], appReported: app,
                appReportedAt: row["app_reported_at_ms"])
        }
    }

    public func recordAppStats(user: UserID, stats: UserStats, at: EpochMillis) async throws {
        let json = try Self.json(stats)
        try await writer.write { db in
            try db.execute(
                sql: StoreSQL.insertAppStats + " VALUES (?, ?, 0, ?, ?)\n" + StoreSQL.appStatsConflictUpdate,
                arguments: [user.rawValue, try Self.json(UserStats.empty), json, at])
        }
    }

    static func json(_ value: some Encodable) throws -> String { try StoreSQL.json(value) }

    // MARK: Plans

    public func appendPlan(user: UserID, generatedAt: EpochMillis, state: PlanState, documentJSON: String) async throws
        -> Int
    {
        try await writer.write { db in
            let next =
                (try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT MAX(version) FROM plans WHERE user_id = ?"),
                    arguments: [user.rawValue]) ?? 0) + 1
            try db.cachedStatement(
                sql:
                    "INSERT INTO plans (user_id, version, generated_at_ms, state, document_json) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [user.rawValue, next, generatedAt, state.rawValue, documentJSON])
            return next
        }
    }

    static func plan(from row: Row) -> PlanRecord {
        PlanRecord(
            userID: UserID(row["user_id"] as String), version: row["version"], generatedAt: row["generated_at_ms"],
            state: PlanState(rawValue: row["state"]) ?? .error, documentJSON: row["document_json"])
    }

    public func latestPlan(user: UserID) async throws -> PlanRecord? {
        try await writer.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM plans WHERE user_id = ? ORDER BY version DESC LIMIT 1"),
                arguments: [user.rawValue]
            ).map(Self.plan(from:))
        }
    }

    public func planVersions(user: UserID) async throws -> [PlanRecord] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM plans WHERE user_id = ? ORDER BY version"),
                arguments: [user.rawValue]
            ).map(Self.plan(from:))
        }
    }
}
