import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    /// A session's columns but its recording (`StoreSQL.sessionSummaryColumns`).
    static let summaryColumns = StoreSQL.sessionSummaryColumns

    /// A session from its row; with its recording decoded (`StoredRecording`) when `withRaw`, or `UnreadableRecording`
    /// naming the session when its stored frame is corrupt.
    static func session(from row: PostgresRandomAccessRow, withRaw: Bool) throws -> StoredSession {
        var raw: [UInt8]?
        if withRaw, let stored = try row.get("raw_blob", as: Data?.self) {
            do { raw = try StoredRecording.decode([UInt8](stored)) } catch {
                throw UnreadableRecording(
                    userID: UserID(try row.get("user_id", as: String.self)),
                    sessionID: SessionID(rawValue: try row.get("session_id")), reason: error)
            }
        }
        return StoredSession(
            userID: UserID(try row.get("user_id", as: String.self)),
            sessionID: SessionID(rawValue: try row.get("session_id")),
            startedAtText: try row.get("started_at_text"), endedAtText: try row.get("ended_at_text"),
            startedAt: try row.get("started_at_ms"), endedAt: try row.get("ended_at_ms"),
            durationS: try row.get("duration_s"),
            totalEnergyKcal: try row.get("total_energy_kcal"), totalDistanceM: try row.get("total_distance_m"),
            detailJSON: try row.get("detail_json"),
            raw: raw,
            machine: try row.get("machine"),
            blobStatus: BlobStatus(rawValue: try row.get("blob_status")) ?? .none, blobNote: try row.get("blob_note"),
            contentHash: try row.get("content_sha256"), source: try row.get("source"),
            receivedAt: try row.get("received_at_ms"))
    }

    public func session(user: UserID, id: SessionID) async throws -> StoredSession? {
        try await read("session") { db in
            try await db.row(
                """
                SELECT \(unescaped: Self.summaryColumns), raw_blob FROM sessions
                WHERE user_id = \(user.rawValue) AND session_id = \(id.rawValue)
                """
            ).map { try Self.session(from: $0, withRaw: true) }
        }
    }

    /// The sessions of `keys` with their recordings, in the order asked; a key not stored is left out. One statement
    /// for the batch, where the protocol's default makes a round trip per key, and the frames decoded after the read,
    /// a batch on every core (`StoredRecording.decoding`), as on SQLite: the first damaged frame in order is thrown as
    /// `UnreadableRecording`. Re-analysis reads its sessions this way (`NightlyJob`).
    public func sessions(keys: [(UserID, SessionID)]) async throws -> [StoredSession] {
        guard !keys.isEmpty else { return [] }
        let users = keys.map(\.0.rawValue), ids = keys.map(\.1.rawValue)
        let rows = try await read("sessions") { db in
            try await db.rows(
                """
                SELECT \(unescaped: Self.summaryColumns), raw_blob FROM sessions
                WHERE (user_id, session_id) IN (SELECT * FROM unnest(\(users)::text[], \(ids)::text[]))
                """
            ).map {
                (
                    session: try Self.session(from: $0, withRaw: false),
                    stored: try $0.get("raw_blob", as: Data?.self).map { [UInt8]($0) }
                )
            }
        }
        var byKey: [SessionKey: (session: StoredSession, stored: [UInt8]?)] = [:]
        for row in rows { byKey[SessionKey(row.session.userID, row.session.sessionID)] = row }
        return try StoredRecording.decoding(keys.compactMap { byKey[SessionKey($0.0, $0.1)] })
    }

    public func sessionSummaries(user: UserID, offset: Int, limit: Int) async throws -> [StoredSession] {
        try await read("sessionSummaries") { db in
            try await db.rows(
                """
                SELECT \(unescaped: Self.summaryColumns) FROM sessions WHERE user_id = \(user.rawValue)
                ORDER BY started_at_ms DESC, session_id LIMIT \(sqlLimit(limit)) OFFSET \(sqlOffset(offset))
                """
            ).map { try Self.session(from: $0, withRaw: false) }
        }
    }

    public func sessionCount(user: UserID) async throws -> Int {
        try await read("sessionCount") { db in
            try await db.scalar("SELECT COUNT(*) FROM sessions WHERE user_id = \(user.rawValue)", as: Int.self) ?? 0
        }
    }

    public func secret(named name: String) async throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let fresh = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return try await write("secret") { db in
            // Another worker may have created it first: the stored one wins.
            try await db.execute(
                """
                INSERT INTO pipeline_secrets (name, value, created_at_ms) VALUES (\(name), \(fresh), \(Date().epochMillis))
                ON CONFLICT (name) DO NOTHING
                """)
            guard
                let stored = try await db.scalar(
                    "SELECT value FROM pipeline_secrets WHERE name = \(name)", as: Data.self)
            else {
                throw StoreError(.io, operation: "secret", detail: "secret neither inserted nor found")
            }
            return [UInt8](stored)
        }
    }

    public func storedSecret(named name: String) async throws -> [UInt8]? {
        try await read("storedSecret") { db in
            try await db.scalar("SELECT value FROM pipeline_secrets WHERE name = \(name)", as: Data.self)
        }.map { [UInt8]($0) }
    }

    public func removeSecret(named name: String) async throws {
        try await write("removeSecret") { db in
            try await db.execute("DELETE FROM pipeline_secrets WHERE name = \(name)")
        }
    }

    public func storageUsage(user: UserID) async throws -> StorageUsage {
        try await read("storageUsage") { db in
            // `raw_size`: the uploaded recording's size (0020: the stored bytes are compressed); rows older than 0020
            // have none and count their stored length, which is the uploaded one (octet_length of a TOASTed bytea
            // reads its size from the TOAST pointer, without fetching the value).
            let rows = try await db.rows(
                """
                SELECT COUNT(*) AS n, COALESCE(SUM(COALESCE(raw_size, octet_length(raw_blob))), 0)::bigint AS bytes,
                    (SELECT COALESCE(SUM(octet_length(payload)), 0)::bigint FROM quarantine
                     WHERE user_id = \(user.rawValue)) AS quarantined
                FROM sessions WHERE user_id = \(user.rawValue)
                """)
            guard let row = rows.first else { return StorageUsage(sessions: 0, recordingBytes: 0) }
            return StorageUsage(
                sessions: try row.get("n", as: Int.self), recordingBytes: try row.get("bytes", as: Int64.self),
                quarantineBytes: try row.get("quarantined", as: Int64.self))
        }
    }

    public func sessionsWithoutMetrics(limit: Int) async throws -> [(UserID, SessionID)] {
        let pairs = try await read("sessionsWithoutMetrics") { db in
            try await db.rows(
                """
                SELECT s.user_id, s.session_id FROM sessions s
                LEFT JOIN session_metrics m ON m.user_id = s.user_id AND m.session_id = s.session_id
                WHERE m.session_id IS NULL ORDER BY s.received_at_ms, s.user_id, s.session_id LIMIT \(sqlLimit(limit))
                """
            ).map { [try $0.get("user_id", as: String.self), try $0.get("session_id", as: String.self)] }
        }
        return pairs.map { (UserID($0[0]), SessionID(rawValue: $0[1])) }
    }

    // MARK: Workouts

    public func workouts(user: UserID, includeDeleted: Bool) async throws -> [WorkoutRecord] {
        try await read("workouts") { db in
            try await db.rows(
                """
                SELECT * FROM workouts WHERE user_id = \(user.rawValue) \(unescaped: includeDeleted ? "" : "AND NOT deleted")
                ORDER BY start_ms, workout_id
                """
            ).map(Self.workout(from:))
        }
    }

    static func workout(from row: PostgresRandomAccessRow) throws -> WorkoutRecord {
        var record = WorkoutRecord(
            userID: UserID(try row.get("user_id", as: String.self)),
            workoutID: WorkoutID(try row.get("workout_id", as: String.self)),
            source: WorkoutSource(rawValue: try row.get("source")) ?? .manual,
            activityType: try row.get("activity_type"),
            startAt: try row.get("start_ms"), endAt: try row.get("end_ms"), durationS: try row.get("duration_s"),
            distanceM: try row.get("distance_m"), energyKcal: try row.get("energy_kcal"), avgHR: try row.get("avg_hr"),
            maxHR: try row.get("max_hr"), elevationGainM: try row.get("elevation_gain_m"),
            timeZone: try row.get("time_zone"),
            samplesJSON: nil, updatedAt: try row.get("updated_at_ms"),
            deleted: try row.get("deleted"),
            contentHash: try row.get("content_sha256"))
        // `StoredSamples` since 0021; the rows before it hold their JSON text's bytes (the migration's conversion).
        record.samples = try row.get("samples_json", as: Data?.self).map { StoredSamples.read([UInt8]($0)) }
        return record
    }
}
