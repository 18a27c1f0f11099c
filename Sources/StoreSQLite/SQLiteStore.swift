import Crypto
import Foundation
import GRDB
import Store

/// The embedded default store: SQLite through GRDB, in WAL mode, with foreign keys on.
public final class SQLiteStore: PipelineStore {
    public let backendName = "sqlite"
    let writer: any DatabaseWriter
    /// Checkpoints after each batch write, beside the writer (`WALCheckpointer`).
    let checkpointer: WALCheckpointer

    /// The migrations, in order; each lives in its own file under `Migrations/`.
    static let migrations: [(String, String)] = [
        (Migration0001Initial.identifier, Migration0001Initial.sql),
        (Migration0002Indexes.identifier, Migration0002Indexes.sql),
        (Migration0003PendingRecompute.identifier, Migration0003PendingRecompute.sql),
        (Migration0004TrainingLoad.identifier, Migration0004TrainingLoad.sql),
        (Migration0005WorkLeases.identifier, Migration0005WorkLeases.sql),
        (Migration0006ChangeNotify.identifier, Migration0006ChangeNotify.sql),
        (Migration0007LedgerStamp.identifier, Migration0007LedgerStamp.sql),
        (Migration0010JobRunOwner.identifier, Migration0010JobRunOwner.sql),
        (Migration0011Secrets.identifier, Migration0011Secrets.sql),
        (Migration0012SyncLog.identifier, Migration0012SyncLog.sql),
        (Migration0014WorkoutFileSources.identifier, Migration0014WorkoutFileSources.sql),
        (Migration0015QuarantineLZ4.identifier, Migration0015QuarantineLZ4.sql),
        (Migration0017SyncLogStatementTriggers.identifier, Migration0017SyncLogStatementTriggers.sql),
        (Migration0018LargeColumnsLast.identifier, Migration0018LargeColumnsLast.sql),
        (Migration0019SyncLogFromInserts.identifier, Migration0019SyncLogFromInserts.sql),
        (Migration0020CompressedRecordings.identifier, Migration0020CompressedRecordings.sql),
        (Migration0021StoredSamples.identifier, Migration0021StoredSamples.sql),
    ]

    /// The migrations that rebuild a table (SQLite's way of changing a constraint or the order of columns).
    static let rebuildingMigrations: Set<String> = [
        Migration0014WorkoutFileSources.identifier, Migration0018LargeColumnsLast.identifier,
        Migration0020CompressedRecordings.identifier,
    ]

    /// The page size of a new database file: 16 KiB rather than SQLite's 4 KiB default. A session's recording (≈ 93 KB
    /// for an hour at 1 Hz) then spans 6 pages instead of 23, each written once to the WAL and once by the checkpoint,
    /// so the writer makes a quarter of the system calls: storing one-hour recordings took ≈ 35 % less wall time and
    /// ≈ 45 % less CPU in the same run (Benchmarks/nightly-results.md, the writer's round of 2026-11-27). The pragma
    /// runs before the pool turns on WAL, so it takes effect only when the file is created; an existing store keeps its
    /// page size (a `VACUUM` would change it).
    public static let pageSizePragma = "PRAGMA page_size = 16384"

    /// Temporary storage in memory, not in files under `/var/tmp`. Every write to a table with triggers (stats, plans,
    /// and before migration 0019 every insert of a session, its metrics or a workout record) runs with a statement
    /// journal, SQLite's copy of each page the statement changes, kept to undo that statement alone; past 64 KiB (four
    /// 16 KiB pages) it went to a temporary file: for a nightly of 5,500 recordings, ≈ 110,000 page writes through the
    /// kernel, and people's data in files outside the store. In memory the same nightly used ≈ 7 % less CPU (perf
    /// samples of two runs each, Benchmarks/nightly-results.md). Temporary tables and sorts are kept in memory too; the
    /// store's queries sort one user's rows at most.
    public static let tempStorePragma = "PRAGMA temp_store = MEMORY"

    /// Opens (creating if needed) the database file at `path` and migrates it.
    public init(path: String) throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.label = "pipeline.sqlite"
        // Deleted content is overwritten with zeros in the file, whatever the SQLite library's own default (Debian's
        // is on, upstream's off): a deleted user's recordings do not stay readable in free pages (`delete`).
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: Self.tempStorePragma)
            try db.execute(sql: Self.pageSizePragma)
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.backstopPages)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        checkpointer = WALCheckpointer(path: path)
        let pool: DatabasePool
        let unknown: [String]
        do {
            pool = try DatabasePool(path: path, configuration: config)
            unknown = try pool.read { db in try Self.unknownMigrations(db) }
        } catch {
            throw StoreError(.migration, operation: "open", detail: "\(error)")
        }
        // A store a newer pipeline migrated may rest on code this binary does not have: since 0019 the change log of
        // sessions and workout records is written by the store's insert functions, so an older binary's inserts would
        // go unlogged and the apps' delta sync would miss them. Such a store is refused rather than written wrongly.
        guard unknown.isEmpty else {
            throw StoreError(
                .migration, operation: "open",
                detail:
                    "the store was migrated by a newer pipeline (\(unknown.joined(separator: ", ")) unknown to this "
                    + "binary, which knows up to \(Self.migrations.last!.0)); run the newer pipeline")
        }
        writer = pool
        do {
            try Self.migrator().migrate(pool)
        } catch {
            throw StoreError(.migration, operation: "open", detail: "\(error)")
        }
    }

    /// Migrations applied to the store that this binary does not have, sorted.
    static func unknownMigrations(_ db: Database) throws -> [String] {
        let known = Set(migrations.map(\.0))
        return try migrator().appliedIdentifiers(db).subtracting(known).sorted()
    }

    /// Identifiers of the migrations applied to this database, in order.
    public func appliedMigrations() async throws -> [String] {
        try await writer.read { db in try Self.migrator().appliedIdentifiers(db) }.sorted()
    }

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, sql) in migrations {
            // A migration that rebuilds a table checks foreign keys at its end, not while the old table is dropped.
            let checks: DatabaseMigrator.ForeignKeyChecks =
                rebuildingMigrations.contains(identifier) ? .deferred : .immediate
            migrator.registerMigration(identifier, foreignKeyChecks: checks) { db in try db.execute(sql: sql) }
        }
        return migrator
    }

    // MARK: Users

    public func upsertUser(_ user: User) async throws {
        try await writer.write { db in try Self.upsertUser(user, db) }
    }

    static func upsertUser(_ user: User, _ db: Database) throws {
        let goal = try user.profile.goalRace.map { try Self.json($0) }
        try db.cachedStatement(
            sql: """
                INSERT INTO users (user_id, time_zone, sex, birth_year, max_hr, resting_hr, ftp_w, threshold_pace_s_per_km,
                                   goal_race_json, available_days, max_run_days, long_run_day, experience, bound_device_id, created_at_ms,
                                   lthr)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id) DO UPDATE SET time_zone = excluded.time_zone, sex = excluded.sex,
                    birth_year = excluded.birth_year, max_hr = excluded.max_hr, resting_hr = excluded.resting_hr,
                    ftp_w = excluded.ftp_w, threshold_pace_s_per_km = excluded.threshold_pace_s_per_km,
                    goal_race_json = excluded.goal_race_json, available_days = excluded.available_days,
                    max_run_days = excluded.max_run_days, long_run_day = excluded.long_run_day,
                    experience = excluded.experience, bound_device_id = excluded.bound_device_id, lthr = excluded.lthr
                """
        ).execute(
            arguments: [
                user.id.rawValue, user.timeZone, user.profile.sex?.rawValue, user.profile.birthYear, user.profile.maxHR,
                user.profile.restingHR, user.profile.ftpW, user.profile.thresholdPaceSPerKm, goal,
                user.profile.availableDays.map(\.rawValue).joined(separator: ","), user.profile.maxRunDays,
                user.profile.longRunDay?.rawValue, user.profile.experience?.rawValue, user.boundDeviceID,
                user.createdAt,
                user.profile.lthr,
            ])
    }

    public func user(_ id: UserID) async throws -> User? {
        try await writer.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM users WHERE user_id = ?")
            return try Row.fetchOne(statement, arguments: [id.rawValue]).map(Self.user(from:))
        }
    }

    static func user(from row: Row) throws -> User {
        let days = (row["available_days"] as String? ?? "").split(separator: ",").compactMap {
            Weekday(rawValue: String($0))
        }
        let goal = try (row["goal_race_json"] as String?).map {
            try JSONDecoder().decode(GoalRace.self, from: Data($0.utf8))
        }
        let profile = TrainingProfile(
            sex: (row["sex"] as String?).flatMap(Sex.init(rawValue:)), birthYear: row["birth_year"],
            maxHR: row["max_hr"],
            restingHR: row["resting_hr"], ftpW: row["ftp_w"], thresholdPaceSPerKm: row["threshold_pace_s_per_km"],
            goalRace: goal, availableDays: days, maxRunDays: row["max_run_days"],
            longRunDay: (row["long_run_day"] as String?).flatMap(Weekday.init(rawValue:)),
            experience: (row["experience"] as String?).flatMap(Experience.init(rawValue:)), lthr: row["lthr"])
        return User(
            id: UserID(row["user_id"] as String), timeZone: row["time_zone"], profile: profile,
            boundDeviceID: row["bound_device_id"], createdAt: row["created_at_ms"])
    }

    public func userIDs() async throws -> [UserID] {
        try await writer.read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT user_id FROM users ORDER BY user_id")).map {
                UserID($0)
            }
        }
    }

    // MARK: Ingest

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
            let outcome = try Self.insertSession(candidate.session, db)
            if outcome == .conflict { added += try Self.insertQuarantine(candidate.conflictQuarantine, db) }
            if outcome == .stored, i < unit.sessionMetrics.count, let metrics = unit.sessionMetrics[i] {
                try Self.upsertSessionMetrics(metrics, db)
            }
            sessionOutcomes.append(outcome)
        }
        var workoutOutcomes: [WorkoutOutcome] = []
        for candidate in unit.workouts {
            let outcome = try Self.upsertWorkout(candidate.workout, db)
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

    static func insertSession(_ s: StoredSession, _ db: Database) throws -> SessionOutcome {
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
            s.totalEnergyKcal, s.totalDistanceM, s.detailJSON, s.raw.map { Data(StoredRecording.encode($0)) },
            s.raw?.count, s.machine, s.blobStatus.rawValue, s.blobNote, s.contentHash, s.source, s.receivedAt,
        ])
        try logChange(.session, user: s.userID.rawValue, item: s.sessionID.rawValue, db)
        return .stored
    }

    static func upsertWorkout(_ w: WorkoutRecord, _ db: Database) throws -> WorkoutOutcome {
        if let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT updated_at_ms, content_sha256, deleted FROM workouts WHERE user_id = ? AND workout_id = ?"),
            arguments: [w.userID.rawValue, w.workoutID.rawValue])
        {
            let storedVersion: Int64 = row["updated_at_ms"]
            let storedHash: String = row["content_sha256"]
            if w.updatedAt < storedVersion { return .stale }
            if w.updatedAt == storedVersion { return storedHash == w.contentHash ? .duplicate : .conflict }
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

    // MARK: Sessions

    static let summaryColumns = """
        user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s, total_energy_kcal,
        total_distance_m, detail_json, machine, blob_status, blob_note, content_sha256, source, received_at_ms
        """

    /// A session from its row; with its recording decoded (`StoredRecording`) when `withRaw`, or `UnreadableRecording`
    /// naming the session when its stored frame is corrupt.
    static func session(from row: Row, withRaw: Bool) throws -> StoredSession {
        var raw: [UInt8]?
        if withRaw, let stored = row["raw_blob"] as Data? {
            do { raw = try StoredRecording.decode([UInt8](stored)) } catch {
                throw UnreadableRecording(
                    userID: UserID(row["user_id"] as String), sessionID: SessionID(rawValue: row["session_id"]),
                    reason: error)
            }
        }
        return StoredSession(
            userID: UserID(row["user_id"] as String), sessionID: SessionID(rawValue: row["session_id"]),
            startedAtText: row["started_at_text"], endedAtText: row["ended_at_text"], startedAt: row["started_at_ms"],
            endedAt: row["ended_at_ms"], durationS: row["duration_s"], totalEnergyKcal: row["total_energy_kcal"],
            totalDistanceM: row["total_distance_m"], detailJSON: row["detail_json"],
            raw: raw, machine: row["machine"],
            blobStatus: BlobStatus(rawValue: row["blob_status"]) ?? .none, blobNote: row["blob_note"],
            contentHash: row["content_sha256"], source: row["source"], receivedAt: row["received_at_ms"])
    }

    public func session(user: UserID, id: SessionID) async throws -> StoredSession? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.summaryColumns), raw_blob FROM sessions WHERE user_id = ? AND session_id = ?",
                arguments: [user.rawValue, id.rawValue]
            ).map { try Self.session(from: $0, withRaw: true) }
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
            ).map { try Self.session(from: $0, withRaw: false) }
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

    // MARK: Metrics and stats

    public func putSessionMetrics(_ m: SessionMetricsRecord) async throws {
        try await writer.write { db in try Self.upsertSessionMetrics(m, db) }
    }

    public func putSessionMetrics(_ records: [SessionMetricsRecord]) async throws {
        guard !records.isEmpty else { return }
        try await writer.write { db in for m in records { try Self.upsertSessionMetrics(m, db) } }
    }

    public func sessions(keys: [(UserID, SessionID)]) async throws -> [StoredSession] {
        try await writer.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT \(Self.summaryColumns), raw_blob FROM sessions WHERE user_id = ? AND session_id = ?")
            return try keys.compactMap { key in
                try Row.fetchOne(statement, arguments: [key.0.rawValue, key.1.rawValue]).map {
                    try Self.session(from: $0, withRaw: true)
                }
            }
        }
    }

    /// Inserts or replaces a session's metrics. An insert is logged here (`logChange`); a replacement by the update
    /// trigger of 0012, when the figures changed.
    static func upsertSessionMetrics(_ m: SessionMetricsRecord, _ db: Database) throws {
        let figures: [(any DatabaseValueConvertible)?] = [
            m.localDate, m.sport, m.durationS, m.distanceM, m.energyKcal, m.avgPowerW, m.avgHRBpm, m.tss, m.metricsJSON,
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

    static func sessionMetrics(from row: Row) -> SessionMetricsRecord {
        SessionMetricsRecord(
            userID: UserID(row["user_id"] as String), sessionID: SessionID(rawValue: row["session_id"]),
            localDate: row["local_date"], sport: row["sport"], durationS: row["duration_s"],
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
                sql: """
                    INSERT INTO user_stats (user_id, stats_json, computed_at_ms, app_stats_json, app_reported_at_ms)
                    VALUES (?, ?, 0, ?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET app_stats_json = excluded.app_stats_json,
                        app_reported_at_ms = excluded.app_reported_at_ms
                    """, arguments: [user.rawValue, try Self.json(UserStats.empty), json, at])
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

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

    // MARK: Quarantine

    static func quarantine(from row: Row) -> QuarantineRecord {
        QuarantineRecord(
            id: row["id"], userID: (row["user_id"] as String?).map { UserID($0) }, source: row["source"],
            sourceKey: row["source_key"], recordID: row["record_id"],
            reasonCode: QuarantineReason(rawValue: row["reason_code"]),
            message: row["message"], payload: [UInt8](row["payload"] as Data), receivedAt: row["received_at_ms"],
            quarantinedAt: row["quarantined_at_ms"])
    }

    public func quarantined(reason: QuarantineReason?, offset: Int, limit: Int) async throws -> [QuarantineRecord] {
        try await writer.read { db in
            if let reason {
                return try Row.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT * FROM quarantine WHERE reason_code = ? ORDER BY id LIMIT ? OFFSET ?"),
                    arguments: [reason.rawValue, limit, offset]
                ).map(Self.quarantine(from:))
            }
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM quarantine ORDER BY id LIMIT ? OFFSET ?"),
                arguments: [limit, offset]
            ).map(Self.quarantine(from:))
        }
    }

    public func quarantineRecord(id: Int64) async throws -> QuarantineRecord? {
        try await writer.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM quarantine WHERE id = ?"), arguments: [id]).map(
                Self.quarantine(from:))
        }
    }

    public func removeQuarantine(id: Int64) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM quarantine WHERE id = ?", arguments: [id]) }
    }

    public func purgeQuarantine(before: EpochMillis) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM quarantine WHERE quarantined_at_ms < ?", arguments: [before])
            return db.changesCount
        }
    }

    public func quarantineCountsByReason() async throws -> [QuarantineReason: Int] {
        try await writer.read { db in
            var counts: [QuarantineReason: Int] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(sql: "SELECT reason_code, COUNT(*) AS n FROM quarantine GROUP BY reason_code"))
            {
                counts[QuarantineReason(rawValue: row["reason_code"])] = row["n"]
            }
            return counts
        }
    }

    // MARK: Jobs

    /// Records the run with this process as its owner, then records as `abandoned` the runs whose process died.
    public func startJob(_ job: String, at: EpochMillis) async throws -> Int64 {
        let owner = ProcessIdentity.current
        let id = try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO job_runs (job, started_at_ms, status, host, pid, process_start) VALUES (?, ?, 'running', ?, ?, ?)
                    """, arguments: [job, at, owner.host, owner.pid, owner.processStart])
            return db.lastInsertedRowID
        }
        try await recordAbandonedJobRuns(at: at)
        return id
    }

    public func finishJob(id: Int64, status: JobStatus, at: EpochMillis, countsJSON: String, watermark: String?)
        async throws
    {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE job_runs SET status = ?, ended_at_ms = ?, counts_json = ?, watermark = ? WHERE id = ?",
                arguments: [status.rawValue, at, countsJSON, watermark, id])
        }
    }

    static func jobRun(from row: Row) -> JobRun {
        JobRun(
            id: row["id"], job: row["job"], startedAt: row["started_at_ms"], endedAt: row["ended_at_ms"],
            status: JobStatus(rawValue: row["status"]) ?? .failed, countsJSON: row["counts_json"],
            watermark: row["watermark"],
            owner: (row["host"] as String?).map {
                ProcessIdentity(host: $0, pid: row["pid"] ?? 0, processStart: row["process_start"] ?? "")
            })
    }

    public func lastJobRun(_ job: String) async throws -> JobRun? {
        try await jobRuns(job, limit: 1).first
    }

    public func jobRuns(_ job: String, limit: Int) async throws -> [JobRun] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM job_runs WHERE job = ? ORDER BY id DESC LIMIT ?"),
                arguments: [job, limit]
            ).map(Self.jobRun(from:))
        }
    }

    // MARK: Deletion

    public func deleteUser(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis)
        async throws -> DeletionAudit
    {
        try await delete(id, userHash: userHash, requestedAt: requestedAt, completedAt: completedAt, purge: false)
    }

    public func purgeUser(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis)
        async throws -> DeletionAudit
    {
        try await delete(id, userHash: userHash, requestedAt: requestedAt, completedAt: completedAt, purge: true)
    }

    func delete(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis, purge: Bool)
        async throws -> DeletionAudit
    {
        do {
            let audit = try await writer.write { db in
                let exists =
                    try Int.fetchOne(
                        db.cachedStatement(sql: "SELECT COUNT(*) FROM users WHERE user_id = ?"),
                        arguments: [id.rawValue])
                    == 1
                guard exists || purge else {
                    throw StoreError(.notFound, operation: "deleteUser", detail: "no such user")
                }
                let note: String? = exists ? nil : "purged by id: no user row"
                // Children first (the cascade would do it; explicit deletes make the order and the proof obvious).
                for table in [
                    "session_metrics", "sessions", "workout_metrics", "workouts", "training_load", "user_stats",
                    "plans",
                    "quarantine", "pending_recompute", "work_leases", "user_changes", "sync_log",
                ] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id.rawValue])
                }
                try db.execute(
                    sql: "DELETE FROM quarantine WHERE \(Self.unownedQuarantineOf)",
                    arguments: Self.unownedArguments(id))
                try db.execute(sql: "DELETE FROM users WHERE user_id = ?", arguments: [id.rawValue])
                try db.execute(
                    sql: """
                        INSERT INTO deletion_audit (user_sha256, requested_at_ms, completed_at_ms, status, note) VALUES (?, ?, ?, 'completed', ?)
                        """, arguments: [userHash, requestedAt, completedAt, note])
                return DeletionAudit(
                    id: db.lastInsertedRowID, userHash: userHash, requestedAt: requestedAt,
                    completedAt: completedAt, status: .completed, note: note)
            }
            // The deletion zeroed the rows' pages (`secure_delete`), but the write-ahead log still holds the frames
            // written before it, with the person's data. A TRUNCATE checkpoint copies the zeroed pages into the
            // database file and empties the log (it waits for readers up to the busy timeout; if one still holds an
            // older snapshot, the next checkpoints overwrite those frames). A checkpoint already under way holds the
            // lock and the TRUNCATE would fail at once: none of this process's starts meanwhile, and one of another
            // process's is waited out.
            let writer = self.writer
            await checkpointer.withoutBackgroundCheckpoint {
                for _ in 0..<500 {
                    do {
                        _ = try await writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
                        return
                    } catch {
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
            return audit
        } catch {
            // The deletion transaction rolled back; the audit says it failed, in a transaction of its own.
            let note =
                (error as? StoreError)?.code == .notFound ? "no such user" : "deletion failed and was rolled back"
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO deletion_audit (user_sha256, requested_at_ms, completed_at_ms, status, note) VALUES (?, ?, NULL, 'failed', ?)
                        """, arguments: [userHash, requestedAt, note])
            }
            throw error
        }
    }

    public func wasDeleted(userHash: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM deletion_audit WHERE user_sha256 = ? AND status = 'completed')"),
                arguments: [userHash]) ?? false
        }
    }

    public func deletionAudits() async throws -> [DeletionAudit] {
        try await writer.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM deletion_audit ORDER BY id")).map { row in
                DeletionAudit(
                    id: row["id"], userHash: row["user_sha256"], requestedAt: row["requested_at_ms"],
                    completedAt: row["completed_at_ms"], status: DeletionStatus(rawValue: row["status"]) ?? .failed,
                    note: row["note"])
            }
        }
    }

    /// Quarantine rows of the user that have no `user_id` (`QuarantineOwnership`).
    static let unownedQuarantineOf =
        "user_id IS NULL AND (record_id = ? OR instr(payload, ?) > 0 OR instr(payload, ?) > 0)"
    static func unownedArguments(_ id: UserID) -> StatementArguments {
        let needles = QuarantineOwnership.payloadNeedles(id)
        return [id.rawValue, Data(needles[0]), Data(needles[1])]
    }

    public func footprint(user: UserID) async throws -> UserFootprint {
        try await writer.read { db in
            func count(_ table: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE user_id = ?", arguments: [user.rawValue])
                    ?? 0
            }
            let unowned =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM quarantine WHERE \(Self.unownedQuarantineOf)",
                    arguments: Self.unownedArguments(user)) ?? 0
            return UserFootprint(
                sessions: try count("sessions"), workouts: try count("workouts"),
                sessionMetrics: try count("session_metrics"), stats: try count("user_stats"),
                plans: try count("plans"), quarantine: try count("quarantine") + unowned, users: try count("users"),
                workoutMetrics: try count("workout_metrics"), trainingLoad: try count("training_load"))
        }
    }

    // MARK: Diagnostics

    static let domainTables: [(String, String)] = [
        ("users", "user_id"), ("sessions", "user_id, session_id"), ("workouts", "user_id, workout_id"),
        ("session_metrics", "user_id, session_id"), ("user_stats", "user_id"), ("plans", "user_id, version"),
        ("quarantine", "source_key, reason_code, payload_sha256"), ("deletion_audit", "id"),
        ("workout_metrics", "user_id, workout_id"), ("training_load", "user_id, local_date"),
    ]

    public func tableCounts() async throws -> [String: Int] {
        try await writer.read { db in
            var counts: [String: Int] = [:]
            for (table, _) in Self.domainTables + [("ingest_ledger", ""), ("job_runs", "")] {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            return counts
        }
    }

    /// The columns of the tables whose SQLite layout is not the canonical one, in the canonical order (the order the
    /// table was created in, which PostgreSQL's keeps): migration 0018 moved the large values to the end of their rows,
    /// and the digest covers values, not layout — the same on both backends and before and after that migration.
    static let digestColumnOrder: [String: String] = [
        "sessions": """
        user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s, total_energy_kcal,
        total_distance_m, detail_json, raw_blob, machine, blob_status, blob_note, content_sha256, source, received_at_ms
        """,
        // The order migration 0014 rebuilt the table in.
        "workouts": Migration0014WorkoutFileSources.columns,
    ]

    /// The tables whose digested rows are not all of them (see `DigestedRows`).
    static let digestedRows: [String: String] = ["training_load": DigestedRows.trainingLoad]

    /// SHA-256 over every domain row in key order. Columns that record *when* the pipeline did something
    /// (`computed_at_ms`, `quarantined_at_ms`, `received_at_ms`) are left out: a rerun at another time that
    /// changes nothing else has the same digest.
    public func contentDigest() async throws -> String {
        try await writer.read { db in
            var hasher = SHA256()
            let volatile: Set<String> = [
                "computed_at_ms", "quarantined_at_ms", "received_at_ms", "id", "generated_at_ms",
                // Layout, not values: the training-load recursion's state is kept on a series' last day
                // only, and its values are the row's own columns and the days before it.
                "state_json",
            ]
            for (table, order) in Self.domainTables {
                hasher.update(data: Data("table \(table)\n".utf8))
                let columns = Self.digestColumnOrder[table] ?? "*"
                let rows = try Row.fetchCursor(
                    db, sql: Self.digestedRows[table] ?? "SELECT \(columns) FROM \(table) ORDER BY \(order)")
                while let row = try rows.next() {
                    for (column, value) in row where !volatile.contains(column) {
                        // A recording counts as what was uploaded, however it is stored (0020).
                        if column == "raw_blob", case .blob(let stored) = value.storage {
                            let recording = try StoredRecording.decode([UInt8](stored))
                            hasher.update(data: Data("\(column)=\(DatabaseValue.Storage.blob(Data(recording)));".utf8))
                            continue
                        }
                        // Samples count as their JSON text, however they are stored (`StoredSamples`).
                        if column == "samples_json", case .blob(let stored) = value.storage {
                            let text = try StoredSamples.decode([UInt8](stored)).json
                            hasher.update(data: Data("\(column)=\(DatabaseValue.Storage.string(text));".utf8))
                            continue
                        }
                        hasher.update(data: Data("\(column)=\(value.storage);".utf8))
                    }
                    hasher.update(data: Data("\n".utf8))
                }
            }
            return lowercaseHex(hasher.finalize())
        }
    }
}
