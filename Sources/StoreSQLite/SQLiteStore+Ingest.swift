import Foundation
import GRDB
import Store

extension SQLiteStore {
    public func apply(_ unit: IngestUnit) async throws -> IngestUnitResult {
        let result = try await writer.write { db in try Self.applyUnit(unit, db) }
        checkpointer.poke()
        return result
    }

    public func apply(_ units: [IngestUnit]) async throws -> [IngestUnitResult] {
        guard !units.isEmpty else { return [] }
        let results = try await writer.write { db in try units.map { try Self.applyUnit($0, db) } }
        checkpointer.poke()
        return results
    }

    static func applyUnit(_ unit: IngestUnit, _ db: Database) throws -> IngestUnitResult {
        if let key = unit.ledgerKey,
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT content_sha256, report_json FROM ingest_ledger WHERE ledger_key = ?"),
                arguments: [key]),
            (row["content_sha256"] as String?) == (unit.ledgerHash ?? "")
        {
            return IngestUnitResult(
                alreadyApplied: true, previousReportJSON: row["report_json"], sessionOutcomes: [],
                workoutOutcomes: [], quarantineAdded: 0)
        }
        for user in unit.users { try Self.upsertUser(user, db) }
        var added = 0
        var sessionOutcomes: [SessionOutcome] = []
        for (i, candidate) in unit.sessions.enumerated() {
            let outcome = try Self.insertSession(candidate, db)
            if outcome == .conflict { added += try Self.insertQuarantine(candidate.conflictQuarantine, db) }
            if outcome == .stored, i < unit.sessionMetrics.count, let metrics = unit.sessionMetrics[i] {
                try Self.upsertSessionMetrics(metrics, db)
            }
            sessionOutcomes.append(outcome)
        }
        var workoutOutcomes: [WorkoutOutcome] = []
        for candidate in unit.workouts {
            let outcome = try Self.upsertWorkout(candidate, db)
            if outcome == .conflict { added += try Self.insertQuarantine(candidate.conflictQuarantine, db) }
            workoutOutcomes.append(outcome)
        }
        for record in unit.quarantine { added += try Self.insertQuarantine(record, db) }
        for user in unit.touchedUsers(sessionOutcomes: sessionOutcomes, workoutOutcomes: workoutOutcomes) {
            try db.cachedStatement(
                sql: """
                    INSERT INTO pending_recompute (user_id, marked_at_ms) VALUES (?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET marked_at_ms = MAX(marked_at_ms, excluded.marked_at_ms)
                    """
            ).execute(arguments: [user.rawValue, Date().epochMillis])
        }
        if let key = unit.ledgerKey {
            try db.cachedStatement(
                sql: """
                    INSERT INTO ingest_ledger (ledger_key, content_sha256, processed_at_ms, report_json, source_stamp)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(ledger_key) DO UPDATE SET content_sha256 = excluded.content_sha256,
                        processed_at_ms = excluded.processed_at_ms, report_json = excluded.report_json,
                        source_stamp = excluded.source_stamp
                    """
            ).execute(arguments: [key, unit.ledgerHash ?? "", Date().epochMillis, unit.reportJSON, unit.ledgerStamp])
        }
        return IngestUnitResult(
            alreadyApplied: false, previousReportJSON: nil, sessionOutcomes: sessionOutcomes,
            workoutOutcomes: workoutOutcomes, quarantineAdded: added)
    }

    /// Inserts the candidate's session with its recording as the candidate carries it, compressed already.
    static func insertSession(_ candidate: SessionCandidate, _ db: Database) throws -> SessionOutcome {
        let s = candidate.session
        let lookup = try db.cachedStatement(
            sql: "SELECT content_sha256 FROM sessions WHERE user_id = ? AND session_id = ?")
        if let existing = try String.fetchOne(lookup, arguments: [s.userID.rawValue, s.sessionID.rawValue]) {
            return existing == s.contentHash ? .duplicate : .conflict
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO sessions (user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s,
                    total_energy_kcal, total_distance_m, detail_json, raw_blob, raw_size, machine, blob_status, blob_note,
                    content_sha256, source, received_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            s.userID.rawValue, s.sessionID.rawValue, s.startedAtText, s.endedAtText, s.startedAt, s.endedAt,
            s.durationS,
            s.totalEnergyKcal, s.totalDistanceM, s.detailJSON, candidate.storedRecording.map { Data($0) },
            s.raw?.count, s.machine, s.blobStatus.rawValue, s.blobNote, s.contentHash, s.source, s.receivedAt,
        ])
        try logChange(.session, user: s.userID.rawValue, item: s.sessionID.rawValue, db)
        return .stored
    }

    static func upsertWorkout(_ candidate: WorkoutCandidate, _ db: Database) throws -> WorkoutOutcome {
        let w = candidate.workout
        if let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT updated_at_ms, content_sha256, deleted FROM workouts WHERE user_id = ? AND workout_id = ?"),
            arguments: [w.userID.rawValue, w.workoutID.rawValue])
        {
            let storedVersion: Int64 = row["updated_at_ms"]
            let storedHash: String = row["content_sha256"]
            if w.updatedAt < storedVersion { return .stale }
            if w.updatedAt == storedVersion {
                return candidate.hasContent(ofStoredHash: storedHash) ? .duplicate : .conflict
            }
            try db.cachedStatement(sql: "DELETE FROM workouts WHERE user_id = ? AND workout_id = ?")
                .execute(arguments: [w.userID.rawValue, w.workoutID.rawValue])
            try insertWorkout(w, db)
            return w.deleted ? .deleted : .updated
        }
        try insertWorkout(w, db)
        return w.deleted ? .deleted : .inserted
    }

    static func insertWorkout(_ w: WorkoutRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO workouts (user_id, workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal,
                    avg_hr, max_hr, elevation_gain_m, time_zone, samples_json, updated_at_ms, deleted, content_sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                w.userID.rawValue, w.workoutID.rawValue, w.source.rawValue, w.activityType, w.startAt, w.endAt,
                w.durationS,
                w.distanceM, w.energyKcal, w.avgHR, w.maxHR, w.elevationGainM, w.timeZone,
                w.samples.map { Data(StoredSamples.encode($0)) }, w.updatedAt,
                w.deleted ? 1 : 0, w.contentHash,
            ])
        try logChange(.workout, user: w.userID.rawValue, item: w.workoutID.rawValue, db)
    }

    /// Inserts a quarantine row unless the same source, reason and payload is already there; returns rows added.
    static func insertQuarantine(_ q: QuarantineRecord, _ db: Database) throws -> Int {
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO quarantine (user_id, source, source_key, record_id, reason_code, message, payload, payload_sha256,
                    received_at_ms, quarantined_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                q.userID?.rawValue, q.source, q.sourceKey, q.recordID, q.reasonCode.rawValue, q.message,
                Data(q.payload),
                sha256Hex(q.payload), q.receivedAt, q.quarantinedAt,
            ])
        return db.changesCount
    }

    public func usersPendingRecompute() async throws -> [UserID] {
        try await writer.read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT user_id FROM pending_recompute ORDER BY user_id")).map {
                UserID($0)
            }
        }
    }

    public func clearPendingRecompute(_ user: UserID, markedUpTo: EpochMillis) async throws {
        try await writer.write { db in
            try db.cachedStatement(sql: "DELETE FROM pending_recompute WHERE user_id = ? AND marked_at_ms <= ?")
                .execute(arguments: [user.rawValue, markedUpTo])
        }
    }
}
