import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    /// Applies a unit in one transaction, with the same outcomes as `SQLiteStore.apply`.
    ///
    /// Several workers may apply at once: a unit with a ledger key takes a transaction-level advisory lock on that key
    /// first (so the second of two identical units sees the first as already applied), and every check-then-insert
    /// tolerates losing a race to another transaction (it re-reads and answers as if it had come second).
    public func apply(_ unit: IngestUnit) async throws -> IngestUnitResult {
        try await write("apply") { db in try await Self.applyUnit(unit, db) }
    }

    /// The units one after the other in one transaction (one commit for many batches); each answered as `apply(_:)`.
    public func apply(_ units: [IngestUnit]) async throws -> [IngestUnitResult] {
        guard !units.isEmpty else { return [] }
        return try await write("apply") { db in
            if Self.groupable(units) { return try await Self.applyGroup(units, db) }
            var results: [IngestUnitResult] = []
            for unit in units { results.append(try await Self.applyUnit(unit, db)) }
            return results
        }
    }

    static func applyUnit(_ unit: IngestUnit, _ db: Connection) async throws -> IngestUnitResult {
        if let key = unit.ledgerKey {
            // Two statements, not one: the look must take its snapshot after the lock is granted.
            try await db.execute("SELECT pg_advisory_xact_lock(\(ledgerLockClass), hashtext(\(key)))")
            if let row = try await db.row(
                "SELECT content_sha256, report_json FROM ingest_ledger WHERE ledger_key = \(key)"),
                try row.get("content_sha256", as: String.self) == (unit.ledgerHash ?? "")
            {
                return IngestUnitResult(
                    alreadyApplied: true, previousReportJSON: try row.get("report_json"), sessionOutcomes: [],
                    workoutOutcomes: [], quarantineAdded: 0)
            }
        }
        for user in unit.users { try await Self.upsertUser(user, db) }
        // The unit's quarantine rows (conflicting sessions, conflicting records, its own records) in one statement.
        var quarantine: [QuarantineRecord] = []
        let sessionOutcomes = try await Self.insertSessions(unit.sessions, db)
        var measured: [SessionMetricsRecord] = []
        for (i, (candidate, outcome)) in zip(unit.sessions, sessionOutcomes).enumerated() {
            if outcome == .conflict { quarantine.append(candidate.conflictQuarantine) }
            if outcome == .stored, i < unit.sessionMetrics.count, let metrics = unit.sessionMetrics[i] {
                measured.append(metrics)
            }
        }
        try await Self.insertSessionMetrics(measured, db)
        let workoutOutcomes = try await Self.upsertWorkouts(unit.workouts, db)
        for (candidate, outcome) in zip(unit.workouts, workoutOutcomes) where outcome == .conflict {
            quarantine.append(candidate.conflictQuarantine)
        }
        let added = try await Self.insertQuarantine(quarantine + unit.quarantine, db).reduce(0, +)
        for user in unit.touchedUsers(sessionOutcomes: sessionOutcomes, workoutOutcomes: workoutOutcomes) {
            try await db.execute(
                """
                INSERT INTO pending_recompute (user_id, marked_at_ms) VALUES (\(user.rawValue), \(Date().epochMillis))
                ON CONFLICT (user_id) DO UPDATE SET marked_at_ms = GREATEST(pending_recompute.marked_at_ms, excluded.marked_at_ms)
                """)
        }
        if let key = unit.ledgerKey {
            try await db.execute(
                """
                INSERT INTO ingest_ledger (ledger_key, content_sha256, processed_at_ms, report_json, source_stamp)
                VALUES (\(key), \(unit.ledgerHash ?? ""), \(Date().epochMillis), \(unit.reportJSON), \(unit.ledgerStamp))
                ON CONFLICT (ledger_key) DO UPDATE SET content_sha256 = excluded.content_sha256,
                    processed_at_ms = excluded.processed_at_ms, report_json = excluded.report_json,
                    source_stamp = excluded.source_stamp
                """)
        }
        return IngestUnitResult(
            alreadyApplied: false, previousReportJSON: nil, sessionOutcomes: sessionOutcomes,
            workoutOutcomes: workoutOutcomes, quarantineAdded: added)
    }

    public func usersPendingRecompute() async throws -> [UserID] {
        try await read("usersPendingRecompute") { db in
            try await db.rows("SELECT user_id FROM pending_recompute ORDER BY user_id").map {
                UserID(try $0.get("user_id", as: String.self))
            }
        }
    }

    public func clearPendingRecompute(_ user: UserID, markedUpTo: EpochMillis) async throws {
        try await write("clearPendingRecompute") { db in
            try await db.execute(
                "DELETE FROM pending_recompute WHERE user_id = \(user.rawValue) AND marked_at_ms <= \(markedUpTo)")
        }
    }

    /// The first key of the two-key advisory locks on ledger keys (`pg_advisory_xact_lock(int, int)`).
    static let ledgerLockClass: Int32 = 0x4C45_4447 // "LEDG"

    /// Inserts the candidate's session with its recording as the candidate carries it, compressed already.
    static func insertSession(_ candidate: SessionCandidate, _ db: Connection) async throws -> SessionOutcome {
        let s = candidate.session
        // Look first, as SQLite does: a copy of a stored session is answered without touching the row or its checks.
        func existing() async throws -> SessionOutcome? {
            try await db.scalar(
                """
                SELECT content_sha256 FROM sessions WHERE user_id = \(s.userID.rawValue) AND session_id = \(s.sessionID.rawValue)
                """, as: String.self
            ).map { $0 == s.contentHash ? .duplicate : .conflict }
        }
        if let outcome = try await existing() { return outcome }
        let inserted = try await db.rows(
            """
            INSERT INTO sessions (user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s,
                total_energy_kcal, total_distance_m, detail_json, raw_blob, raw_size, machine, blob_status, blob_note,
                content_sha256, source, received_at_ms)
            VALUES (\(s.userID.rawValue), \(s.sessionID.rawValue), \(s.startedAtText), \(s.endedAtText), \(s.startedAt),
                \(s.endedAt), \(s.durationS), \(s.totalEnergyKcal), \(s.totalDistanceM), \(s.detailJSON),
                \(candidate.storedRecording.map { Data($0) }), \(s.raw.map { Int64($0.count) }), \(s.machine), \(s.blobStatus.rawValue), \(s.blobNote), \(s.contentHash), \(s.source), \(s.receivedAt))
            ON CONFLICT (user_id, session_id) DO NOTHING
            RETURNING 1
            """)
        if !inserted.isEmpty { return .stored }
        // Another transaction stored it between our look and our insert.
        guard let outcome = try await existing() else {
            throw StoreError(.io, operation: "apply", detail: "session neither inserted nor found")
        }
        return outcome
    }

    /// `insertSession` for a whole batch in three round trips instead of two per session: one look for every
    /// candidate, one multi-row insert of the new ones (`ON CONFLICT DO NOTHING RETURNING`), and a second look only for a
    /// row that another transaction stored between the two. Outcomes are those of inserting one after the other, as
    /// SQLite does (a second copy of a session in the same batch is its duplicate or conflict).
    static func insertSessions(_ candidates: [SessionCandidate], _ db: Connection) async throws -> [SessionOutcome] {
        if candidates.count <= 1 { return try await candidates.count == 1 ? [insertSession(candidates[0], db)] : [] }
        func key(_ user: String, _ id: String) -> SessionKey { SessionKey(UserID(user), SessionID(id)) }
        var stored: [SessionKey: String] = [:]
        let sessions = candidates.map(\.session)
        let users = sessions.map(\.userID.rawValue), ids = sessions.map(\.sessionID.rawValue)
        for row in try await db.rows(
            """
            SELECT user_id, session_id, content_sha256 FROM sessions
            WHERE (user_id, session_id) IN (SELECT * FROM unnest(\(users)::text[], \(ids)::text[]))
            """)
        {
            stored[key(try row.get("user_id"), try row.get("session_id"))] = try row.get("content_sha256")
        }
        var outcomes = [SessionOutcome?](repeating: nil, count: sessions.count)
        var fresh: [Int] = []
        for (i, s) in sessions.enumerated() {
            let k = SessionKey(s.userID, s.sessionID)
            if let hash = stored[k] {
                outcomes[i] = hash == s.contentHash ? .duplicate : .conflict
            } else {
                stored[k] = s.contentHash
                fresh.append(i)
            }
        }
        for chunk in Self.insertChunks(fresh, bytes: { sessions[$0].raw?.count ?? 0 }) {
            var sql = """
                INSERT INTO sessions (user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s,
                    total_energy_kcal, total_distance_m, detail_json, raw_blob, raw_size, machine, blob_status, blob_note,
                    content_sha256, source, received_at_ms) VALUES
                """
            var bindings = PostgresBindings()
            for (n, i) in chunk.enumerated() {
                let s = sessions[i]
                sql += sqlValuesRow(n, columns: 18)
                bindings.append(s.userID.rawValue); bindings.append(s.sessionID.rawValue);
                bindings.append(s.startedAtText)
                bindings.append(s.endedAtText); bindings.append(s.startedAt); bindings.append(s.endedAt);
                bindings.append(s.durationS)
                bindings.append(s.totalEnergyKcal); bindings.append(s.totalDistanceM); bindings.append(s.detailJSON)
                try bindings.append(candidates[i].storedRecording.map { Data($0) })
                bindings.append(s.raw.map { Int64($0.count) }); bindings.append(s.machine);
                bindings.append(s.blobStatus.rawValue)
                bindings.append(s.blobNote); bindings.append(s.contentHash); bindings.append(s.source);
                bindings.append(s.receivedAt)
            }
            sql += " ON CONFLICT (user_id, session_id) DO NOTHING RETURNING user_id, session_id"
            var inserted = Set<SessionKey>()
            for row in try await db.rows(PostgresQuery(unsafeSQL: sql, binds: bindings)) {
                inserted.insert(key(try row.get("user_id"), try row.get("session_id")))
            }
            for i in chunk {
                let s = sessions[i]
                // Not inserted: another transaction stored it meanwhile; look again, as `insertSession` does.
                outcomes[i] =
                    inserted.contains(SessionKey(s.userID, s.sessionID))
                    ? .stored : try await insertSession(candidates[i], db)
            }
        }
        return outcomes.map { $0! }
    }

    /// Rows per multi-row insert: at most 1,000 (17 parameters each; PostgreSQL takes at most 65,535), and at most
    /// `maxStatementBytes` of recordings, so that neither the bindings nor PostgresNIO's copy of them in the Bind
    /// message grows to tens of MB for a group of long recordings (every chunk has at least one row).
    static func insertChunks(_ rows: [Int], bytes: (Int) -> Int) -> [ArraySlice<Int>] {
        var chunks: [ArraySlice<Int>] = []
        var start = 0, size = 0
        for (n, row) in rows.enumerated() {
            let b = bytes(row)
            if n > start, n - start >= 1000 || size + b > maxStatementBytes {
                chunks.append(rows[start..<n])
                start = n
                size = 0
            }
            size += b
        }
        if start < rows.count { chunks.append(rows[start...]) }
        return chunks
    }

    /// The recordings' bytes one multi-row session insert carries at most (a single longer recording goes alone).
    static let maxStatementBytes = 2 << 20

    /// Last writer wins on `updated_at`, as in SQLite. The stored row is locked (`FOR UPDATE`) and replaced in place
    /// (`UPDATE`, so a writer waiting on the lock re-reads the replacement); a first insert that loses a race to another
    /// transaction's insert looks again and compares with what that one stored.
    static func upsertWorkout(_ candidate: WorkoutCandidate, _ db: Connection) async throws -> WorkoutOutcome {
        let w = candidate.workout
        for _ in 0..<3 {
            if let row = try await db.row(
                """
                SELECT updated_at_ms, content_sha256 FROM workouts
                WHERE user_id = \(w.userID.rawValue) AND workout_id = \(w.workoutID.rawValue) FOR UPDATE
                """)
            {
                let storedVersion = try row.get("updated_at_ms", as: Int64.self)
                let storedHash = try row.get("content_sha256", as: String.self)
                if w.updatedAt < storedVersion { return .stale }
                if w.updatedAt == storedVersion {
                    return candidate.hasContent(ofStoredHash: storedHash) ? .duplicate : .conflict
                }
                try await updateWorkout(w, db)
                return w.deleted ? .deleted : .updated
            }
            let inserted = try await db.rows(
                """
                INSERT INTO workouts (user_id, workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal,
                    avg_hr, max_hr, elevation_gain_m, time_zone, samples_json, updated_at_ms, deleted, content_sha256)
                VALUES (\(w.userID.rawValue), \(w.workoutID.rawValue), \(w.source.rawValue), \(w.activityType), \(w.startAt), \(w.endAt),
                    \(w.durationS), \(w.distanceM), \(w.energyKcal), \(w.avgHR), \(w.maxHR), \(w.elevationGainM), \(w.timeZone),
                    \(w.samples.map { Data(StoredSamples.encode($0)) }), \(w.updatedAt), \(w.deleted), \(w.contentHash))
                ON CONFLICT (user_id, workout_id) DO NOTHING
                RETURNING 1
                """)
            if !inserted.isEmpty { return w.deleted ? .deleted : .inserted }
        }
        throw StoreError(.io, operation: "apply", detail: "workout neither inserted nor found")
    }

    /// `upsertWorkout` for a whole unit in a few round trips instead of two or three per record: one look that locks
    /// every stored row of the unit (`FOR UPDATE`, in key order), the outcomes decided in memory one record after the
    /// other (a later version of a record in the same unit sees the earlier one as stored), one multi-row insert of the
    /// new keys and one update per replaced key. A key that another transaction inserted between the look and the
    /// insert is applied again record by record with `upsertWorkout`, as if it had come second.
    /// Overwrites the stored row of `w`'s (user, workout) with `w`.
    static func updateWorkout(_ w: WorkoutRecord, _ db: Connection) async throws {
        try await db.execute(
            """
            UPDATE workouts SET source = \(w.source.rawValue), activity_type = \(w.activityType), start_ms = \(w.startAt),
                end_ms = \(w.endAt), duration_s = \(w.durationS), distance_m = \(w.distanceM), energy_kcal = \(w.energyKcal),
                avg_hr = \(w.avgHR), max_hr = \(w.maxHR), elevation_gain_m = \(w.elevationGainM), time_zone = \(w.timeZone),
                samples_json = \(w.samples.map { Data(StoredSamples.encode($0)) }), updated_at_ms = \(w.updatedAt), deleted = \(w.deleted),
                content_sha256 = \(w.contentHash)
            WHERE user_id = \(w.userID.rawValue) AND workout_id = \(w.workoutID.rawValue)
            """)
    }

    static func upsertWorkouts(_ candidates: [WorkoutCandidate], _ db: Connection) async throws -> [WorkoutOutcome] {
        if candidates.count <= 1 { return try await candidates.count == 1 ? [upsertWorkout(candidates[0], db)] : [] }
        let workouts = candidates.map(\.workout)
        typealias Key = UserScopedKey<WorkoutID>
        func key(_ w: WorkoutRecord) -> Key { Key(w.userID, w.workoutID) }
        func key(_ row: PostgresRandomAccessRow) throws -> Key {
            Key(UserID(try row.get("user_id", as: String.self)), WorkoutID(try row.get("workout_id", as: String.self)))
        }
        var stored: [Key: (version: Int64, hash: String)] = [:]
        let users = workouts.map(\.userID.rawValue), ids = workouts.map(\.workoutID.rawValue)
        for row in try await db.rows(
            """
            SELECT user_id, workout_id, updated_at_ms, content_sha256 FROM workouts
            WHERE (user_id, workout_id) IN (SELECT * FROM unnest(\(users)::text[], \(ids)::text[]))
            ORDER BY user_id, workout_id FOR UPDATE
            """)
        {
            stored[try key(row)] = (try row.get("updated_at_ms"), try row.get("content_sha256"))
        }
        let existed = Set(stored.keys)
        var outcomes: [WorkoutOutcome] = []
        var written: [Key: Int] = [:] // key → the record whose content the row ends with
        var order: [Key] = [] // keys written, in first-write order
        for (i, w) in workouts.enumerated() {
            let k = key(w)
            if let s = stored[k] {
                if w.updatedAt < s.version { outcomes.append(.stale); continue }
                if w.updatedAt == s.version {
                    outcomes.append(candidates[i].hasContent(ofStoredHash: s.hash) ? .duplicate : .conflict)
                    continue
                }
                outcomes.append(w.deleted ? .deleted : .updated)
            } else {
                outcomes.append(w.deleted ? .deleted : .inserted)
            }
            stored[k] = (w.updatedAt, w.contentHash)
            if written[k] == nil { order.append(k) }
            written[k] = i
        }
        let fresh = order.filter { !existed.contains($0) }.map { written[$0]! }
        var inserted = Set<Key>()
        for chunkStart in stride(from: 0, to: fresh.count, by: 500) {
            let chunk = fresh[chunkStart..<min(chunkStart + 500, fresh.count)]
            var sql = """
                INSERT INTO workouts (user_id, workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal,
                    avg_hr, max_hr, elevation_gain_m, time_zone, samples_json, updated_at_ms, deleted, content_sha256) VALUES
                """
            var bindings = PostgresBindings()
            for (n, i) in chunk.enumerated() {
                let w = workouts[i]
                sql += sqlValuesRow(n, columns: 17)
                bindings.append(w.userID.rawValue); bindings.append(w.workoutID.rawValue);
                bindings.append(w.source.rawValue)
                bindings.append(w.activityType); bindings.append(w.startAt); bindings.append(w.endAt);
                bindings.append(w.durationS)
                bindings.append(w.distanceM); bindings.append(w.energyKcal); bindings.append(w.avgHR);
                bindings.append(w.maxHR)
                bindings.append(w.elevationGainM); bindings.append(w.timeZone);
                try bindings.append(w.samples.map { Data(StoredSamples.encode($0)) })
                bindings.append(w.updatedAt); bindings.append(w.deleted); bindings.append(w.contentHash)
            }
            sql += " ON CONFLICT (user_id, workout_id) DO NOTHING RETURNING user_id, workout_id"
            for row in try await db.rows(PostgresQuery(unsafeSQL: sql, binds: bindings)) {
                inserted.insert(try key(row))
            }
        }
        for k in order where existed.contains(k) {
            try await updateWorkout(workouts[written[k]!], db)
        }
        // Keys another transaction stored meanwhile: their records again, one after the other, against that row.
        let raced = Set(fresh.map { key(workouts[$0]) }).subtracting(inserted)
        if !raced.isEmpty {
            for (i, w) in workouts.enumerated() where raced.contains(key(w)) {
                outcomes[i] = try await upsertWorkout(candidates[i], db)
            }
        }
        return outcomes
    }

    /// Inserts a quarantine row unless the same source, reason and payload is already there; returns rows added.
    ///
    /// SQLite's `INSERT OR IGNORE` also skips a row that breaks a CHECK; the only such row a `QuarantineRecord` can make is
    /// one with an empty reason code, skipped here the same way.
    static func insertQuarantine(_ q: QuarantineRecord, _ db: Connection) async throws -> Int {
        guard !q.reasonCode.rawValue.isEmpty else { return 0 }
        let rows = try await db.rows(
            """
            INSERT INTO quarantine (user_id, source, source_key, record_id, reason_code, message, payload, payload_sha256,
                received_at_ms, quarantined_at_ms)
            VALUES (\(q.userID?.rawValue), \(q.source), \(q.sourceKey), \(q.recordID), \(q.reasonCode.rawValue), \(q.message),
                \(Data(q.payload)), \(sha256Hex(q.payload)), \(q.receivedAt), \(q.quarantinedAt))
            ON CONFLICT (source_key, reason_code, payload_sha256) DO NOTHING
            RETURNING 1
            """)
        return rows.count
    }
}

extension PostgresStore {
    /// `insertQuarantine` for many records in one statement per 1,000 (10 parameters each): how many rows each record
    /// added, in order — the same counts as inserting them one after the other (a record whose source key, reason and
    /// payload an earlier record of the list or a stored row already has adds nothing).
    static func insertQuarantine(_ records: [QuarantineRecord], _ db: Connection) async throws -> [Int] {
        if records.count <= 1 { return try await records.count == 1 ? [insertQuarantine(records[0], db)] : [] }
        var added = [Int](repeating: 0, count: records.count)
        let hashes = records.map { sha256Hex($0.payload) }
        func key(_ sourceKey: String, _ reason: String, _ hash: String) -> String {
            sourceKey + "\u{0}" + reason + "\u{0}" + hash
        }
        // The first record of each key in the list (an empty reason code is skipped, as one at a time).
        var first: [String: Int] = [:]
        var rows: [Int] = []
        for (i, q) in records.enumerated() where !q.reasonCode.rawValue.isEmpty {
            let k = key(q.sourceKey, q.reasonCode.rawValue, hashes[i])
            if first[k] == nil { first[k] = i; rows.append(i) }
        }
        for chunkStart in stride(from: 0, to: rows.count, by: 1000) {
            let chunk = rows[chunkStart..<min(chunkStart + 1000, rows.count)]
            var sql = """
                INSERT INTO quarantine (user_id, source, source_key, record_id, reason_code, message, payload,
                    payload_sha256, received_at_ms, quarantined_at_ms) VALUES
                """
            var bindings = PostgresBindings()
            for (n, i) in chunk.enumerated() {
                let q = records[i]
                sql += sqlValuesRow(n, columns: 10)
                bindings.append(q.userID?.rawValue); bindings.append(q.source); bindings.append(q.sourceKey)
                bindings.append(q.recordID); bindings.append(q.reasonCode.rawValue); bindings.append(q.message)
                try bindings.append(Data(q.payload)); bindings.append(hashes[i]); bindings.append(q.receivedAt)
                bindings.append(q.quarantinedAt)
            }
            sql += " ON CONFLICT (source_key, reason_code, payload_sha256) DO NOTHING"
            sql += " RETURNING source_key, reason_code, payload_sha256"
            for row in try await db.rows(PostgresQuery(unsafeSQL: sql, binds: bindings)) {
                let k = key(try row.get("source_key"), try row.get("reason_code"), try row.get("payload_sha256"))
                if let i = first[k] { added[i] = 1 }
            }
        }
        return added
    }
}
