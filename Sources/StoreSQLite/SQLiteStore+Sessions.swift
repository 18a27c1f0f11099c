import Foundation
import GRDB
import Store

extension SQLiteStore {
    /// A session's columns but its recording (`StoreSQL.sessionSummaryColumns`).
    static let summaryColumns = StoreSQL.sessionSummaryColumns

    /// Where each of `summaryColumns` sits in a row that selects them first, in their order, and `raw_blob` right
    /// after them. The rows are read by position, not by name: GRDB's lookup by name lowercases and compares the
    /// column names for every value it reads, and a copied row (`fetchOne`, `fetchAll`) carries every name again.
    /// In a batch read of one-hour recordings that was about a tenth of the read's CPU (Benchmarks/recordings-
    /// results.md, 2026-12-01). `SessionColumnsTests` holds these positions against `StoreSQL.sessionSummaryColumns`.
    enum SummaryColumn: Int, CaseIterable {
        case userID, sessionID, startedAtText, endedAtText, startedAt, endedAt, durationS, totalEnergyKcal
        case totalDistanceM, detailJSON, machine, blobStatus, blobNote, contentHash, source, receivedAt, rawBlob
    }

    /// A session from its row (`SummaryColumn`) with its recording decoded (`StoredRecording`), or
    /// `UnreadableRecording` naming the session when its stored frame is corrupt.
    static func session(withRecordingFrom row: Row) throws -> StoredSession {
        var session = summary(from: row)
        if let stored = try storedRecording(from: row) {
            do { session.raw = try StoredRecording.decode(stored) } catch {
                throw UnreadableRecording(userID: session.userID, sessionID: session.sessionID, reason: error)
            }
        }
        return session
    }

    /// A session's columns but its recording, from its row (`SummaryColumn`).
    static func summary(from row: Row) -> StoredSession {
        func at(_ column: SummaryColumn) -> Int { column.rawValue }
        return StoredSession(
            userID: UserID(row[at(.userID)] as String), sessionID: SessionID(rawValue: row[at(.sessionID)]),
            startedAtText: row[at(.startedAtText)], endedAtText: row[at(.endedAtText)],
            startedAt: row[at(.startedAt)], endedAt: row[at(.endedAt)], durationS: row[at(.durationS)],
            totalEnergyKcal: row[at(.totalEnergyKcal)], totalDistanceM: row[at(.totalDistanceM)],
            detailJSON: row[at(.detailJSON)], raw: nil, machine: row[at(.machine)],
            blobStatus: BlobStatus(rawValue: row[at(.blobStatus)]) ?? .none, blobNote: row[at(.blobNote)],
            contentHash: row[at(.contentHash)], source: row[at(.source)], receivedAt: row[at(.receivedAt)])
    }

    /// The stored frame of a row that selects `raw_blob` after `summaryColumns`, copied once out of SQLite's buffer.
    static func storedRecording(from row: Row) throws -> [UInt8]? {
        try row.withUnsafeData(atIndex: SummaryColumn.rawBlob.rawValue) { $0.map { [UInt8]($0) } }
    }

    /// `body` of the statement's first row, read in place (not copied into a `Row` of its own first), or nil when
    /// there is none. The row is only valid while its cursor lives: the cursor resets the statement when it goes.
    static func firstRow<T>(
        of statement: Statement, arguments: StatementArguments, _ body: (Row) throws -> T
    ) throws -> T? {
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        return try withExtendedLifetime(cursor) { try cursor.next().map(body) }
    }

    public func session(user: UserID, id: SessionID) async throws -> StoredSession? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.summaryColumns), raw_blob FROM sessions WHERE user_id = ? AND session_id = ?",
                arguments: [user.rawValue, id.rawValue]
            ).map(Self.session(withRecordingFrom:))
        }
    }

    public func sessionSummaries(user: UserID, offset: Int, limit: Int) async throws -> [StoredSession] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.summaryColumns) FROM sessions WHERE user_id = ?
                    ORDER BY started_at_ms DESC, session_id LIMIT ? OFFSET ?
                    """, arguments: [user.rawValue, limit, offset]
            ).map(Self.summary(from:))
        }
    }

    public func sessionCount(user: UserID) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM sessions WHERE user_id = ?"), arguments: [user.rawValue])
                ?? 0
        }
    }

    public func secret(named name: String) async throws -> [UInt8] {
        if let existing = try await writer.read({ db in
            try Data.fetchOne(db, sql: "SELECT value FROM pipeline_secrets WHERE name = ?", arguments: [name])
        }) {
            return [UInt8](existing)
        }
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO pipeline_secrets (name, value, created_at_ms) VALUES (?, ?, ?)",
                arguments: [name, Data(fresh), Date().epochMillis])
            // Another process may have created it first: the stored one wins.
            return [UInt8](
                try Data.fetchOne(db, sql: "SELECT value FROM pipeline_secrets WHERE name = ?", arguments: [name])
                    ?? Data(fresh))
        }
    }

    public func storedSecret(named name: String) async throws -> [UInt8]? {
        try await writer.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM pipeline_secrets WHERE name = ?", arguments: [name])
        }.map { [UInt8]($0) }
    }

    public func removeSecret(named name: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM pipeline_secrets WHERE name = ?", arguments: [name])
        }
        // The row's pages are zeroed (`secure_delete`); the log's frames go with the next checkpoint.
        _ = try? await writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    public func storageUsage(user: UserID) async throws -> StorageUsage {
        try await writer.read { db in
            // `raw_size` is the uploaded recording's size (0020: the stored bytes are compressed), before the
            // recording.
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) AS n, COALESCE(SUM(raw_size), 0) AS bytes,
                            (SELECT COALESCE(SUM(length(payload)), 0) FROM quarantine WHERE user_id = ?) AS quarantined
                        FROM sessions WHERE user_id = ?
                        """), arguments: [user.rawValue, user.rawValue])
            return StorageUsage(
                sessions: row?["n"] ?? 0, recordingBytes: row?["bytes"] ?? 0,
                quarantineBytes: row?["quarantined"] ?? 0)
        }
    }

    public func sessionsWithoutMetrics(limit: Int) async throws -> [(UserID, SessionID)] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT s.user_id, s.session_id FROM sessions s
                        LEFT JOIN session_metrics m ON m.user_id = s.user_id AND m.session_id = s.session_id
                        WHERE m.session_id IS NULL ORDER BY s.received_at_ms, s.user_id, s.session_id LIMIT ?
                        """), arguments: [limit]
            ).map { (UserID($0["user_id"] as String), SessionID(rawValue: $0["session_id"])) }
        }
    }

    // MARK: Workouts

    public func workouts(user: UserID, includeDeleted: Bool) async throws -> [WorkoutRecord] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM workouts WHERE user_id = ? \(includeDeleted ? "" : "AND deleted = 0") ORDER BY start_ms, workout_id
                    """, arguments: [user.rawValue]
            ).map(Self.workout(from:))
        }
    }

    static func workout(from row: Row) -> WorkoutRecord {
        var record = WorkoutRecord(
            userID: UserID(row["user_id"] as String), workoutID: WorkoutID(row["workout_id"] as String),
            source: WorkoutSource(rawValue: row["source"]) ?? .manual, activityType: row["activity_type"],
            startAt: row["start_ms"], endAt: row["end_ms"], durationS: row["duration_s"], distanceM: row["distance_m"],
            energyKcal: row["energy_kcal"], avgHR: row["avg_hr"], maxHR: row["max_hr"],
            elevationGainM: row["elevation_gain_m"], timeZone: row["time_zone"], samplesJSON: nil,
            updatedAt: row["updated_at_ms"], deleted: (row["deleted"] as Int) != 0, contentHash: row["content_sha256"])
        record.samples = samples(row["samples_json"])
        return record
    }

    /// A row's samples (`StoredSamples`): a BLOB since migration 0021, the JSON text itself in a row stored before.
    static func samples(_ value: DatabaseValue) -> StoredSamples.Value? {
        switch value.storage {
        case .blob(let stored): StoredSamples.read([UInt8](stored))
        case .string(let text): .json(text)
        default: nil
        }
    }
}
