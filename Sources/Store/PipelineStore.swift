import Foundation

/// One atomic unit of ingestion: everything one batch (a file, an API request) adds to the store.
///
/// A backend applies a unit in a single transaction: after a crash the store holds all of it or none of it.
/// When `ledgerKey` is set and the ledger already holds that key with the same `ledgerHash`, nothing is
/// applied and the result says so: the same input processed twice changes nothing.
public struct IngestUnit: Sendable {
    public var ledgerKey: String?
    public var ledgerHash: String?
    /// The input file's size and modification time (`size:mtime_ns`), recorded with the ledger entry for the inbox's
    /// quick check (`IngestLedgerReading.ledgerStamps`); nil for other inputs.
    public var ledgerStamp: String?
    public var users: [User]
    public var sessions: [SessionCandidate]
    public var workouts: [WorkoutCandidate]
    public var quarantine: [QuarantineRecord]
    /// Metrics measured while the sessions' bytes were in memory (one pass from upload to metrics), parallel to
    /// `sessions` (empty: none). A backend stores each one with its session, in the same transaction, when the session
    /// is `.stored`; a duplicate's or conflict's metrics are dropped.
    public var sessionMetrics: [SessionMetricsRecord?] = []
    /// Stored with the ledger entry, so a repeated input can be answered with the first run's report.
    public var reportJSON: String?
    public init(
        ledgerKey: String? = nil, ledgerHash: String? = nil, users: [User] = [], sessions: [SessionCandidate] = [],
        workouts: [WorkoutCandidate] = [], quarantine: [QuarantineRecord] = [], reportJSON: String? = nil
    ) {
        self.ledgerKey = ledgerKey; self.ledgerHash = ledgerHash; self.users = users; self.sessions = sessions
        self.workouts = workouts; self.quarantine = quarantine; self.reportJSON = reportJSON
    }
}

extension IngestUnit {
    /// The users whose data this unit changed, given what the store made of its records.
    public func touchedUsers(sessionOutcomes: [SessionOutcome], workoutOutcomes: [WorkoutOutcome]) -> Set<UserID> {
        var users = Set(self.users.map(\.id))
        for (candidate, outcome) in zip(sessions, sessionOutcomes) where outcome == .stored {
            users.insert(candidate.session.userID)
        }
        for (candidate, outcome) in zip(workouts, workoutOutcomes)
        where [.inserted, .updated, .deleted].contains(outcome) {
            users.insert(candidate.workout.userID)
        }
        return users
    }
}

/// A validated session, its recording as the store keeps it, and, for the conflict case, the payload to quarantine.
public struct SessionCandidate: Sendable {
    public let session: StoredSession
    /// `session.raw` as the `raw_blob` column holds it (`StoredRecording.encode`), made with the candidate: where
    /// sessions are validated, several at once (ingest prepares batches beside the commits), so that the store's
    /// single writer only writes these bytes instead of compressing every recording itself.
    public let storedRecording: [UInt8]?
    /// The quarantine row a conflict leaves; the stores ask for it only on a conflict.
    public var conflictQuarantine: QuarantineRecord { makeConflictQuarantine() }
    private let makeConflictQuarantine: @Sendable () -> QuarantineRecord

    public init(session: StoredSession, conflictQuarantine: QuarantineRecord) {
        self.init(session: session) { conflictQuarantine }
    }

    /// The row made only when a conflict asks for it: its payload, the upload as received, is as large as the
    /// recording, and a candidate waits in memory until its group commits (ingest keeps several groups in flight).
    public init(session: StoredSession, conflictQuarantine make: @escaping @Sendable () -> QuarantineRecord) {
        self.init(
            session: session, storedRecording: session.raw.map { StoredRecording.encode($0) },
            conflictQuarantine: make)
    }

    /// With the stored bytes given: tests hand the writer bytes it would not make itself, to see it writes them as
    /// they are.
    init(
        session: StoredSession, storedRecording: [UInt8]?,
        conflictQuarantine make: @escaping @Sendable () -> QuarantineRecord
    ) {
        self.session = session
        self.storedRecording = storedRecording
        makeConflictQuarantine = make
    }
}

public struct WorkoutCandidate: Sendable {
    public var workout: WorkoutRecord
    /// The quarantine row a conflict leaves; the stores ask for it only on a conflict.
    public var conflictQuarantine: QuarantineRecord { makeConflictQuarantine() }
    private let makeConflictQuarantine: @Sendable () -> QuarantineRecord
    private let sameContentAs: (@Sendable (String) -> Bool)?

    public init(workout: WorkoutRecord, conflictQuarantine: QuarantineRecord) {
        self.workout = workout
        makeConflictQuarantine = { conflictQuarantine }
        sameContentAs = nil
    }

    /// A record whose hash may be of another kind than the stored version's (an imported file's record, hashed from
    /// its columns, meeting a version stored with its text's hash: docs/workout-records.md, "Content hash"):
    /// `sameContentAs(storedHash)` says whether it has that content; it and `conflictQuarantine` are asked for only
    /// when the stored version has the same `updated_at` and another hash, in the writer's transaction.
    public init(
        workout: WorkoutRecord, sameContentAs: @escaping @Sendable (String) -> Bool,
        conflictQuarantine make: @escaping @Sendable () -> QuarantineRecord
    ) {
        self.workout = workout
        makeConflictQuarantine = make
        self.sameContentAs = sameContentAs
    }

    /// Whether the record has the content of the stored version of the same `updated_at`, whose hash is `storedHash`.
    public func hasContent(ofStoredHash storedHash: String) -> Bool {
        storedHash == workout.contentHash || (sameContentAs?(storedHash) ?? false)
    }
}

public enum SessionOutcome: String, Sendable, Codable {
    /// New: stored.
    case stored
    /// The store already had this session id for this user with the same content.
    case duplicate
    /// The store had this id with other content: not overwritten, the new copy quarantined as `conflict`.
    case conflict
}

public enum WorkoutOutcome: String, Sendable, Codable {
    case inserted
    /// A newer version replaced the stored one (last writer wins on `updated_at`).
    case updated
    /// A tombstone replaced the stored record (or was stored first).
    case deleted
    /// Same version and content as stored.
    case duplicate
    /// Older than the stored version (or than its tombstone): ignored, never resurrects.
    case stale
    /// Same `updated_at`, other content: kept the stored one, quarantined the new one as `conflict`.
    case conflict
}

public struct IngestUnitResult: Sendable {
    /// True when the ledger already held this unit: nothing was applied.
    public var alreadyApplied: Bool
    public var previousReportJSON: String?
    public var sessionOutcomes: [SessionOutcome]
    public var workoutOutcomes: [WorkoutOutcome]
    /// Quarantine rows actually added (a row already present for the same source, reason and payload is not added
    /// twice).
    public var quarantineAdded: Int
    public init(
        alreadyApplied: Bool, previousReportJSON: String?, sessionOutcomes: [SessionOutcome],
        workoutOutcomes: [WorkoutOutcome], quarantineAdded: Int
    ) {
        self.alreadyApplied = alreadyApplied; self.previousReportJSON = previousReportJSON
        self.sessionOutcomes = sessionOutcomes; self.workoutOutcomes = workoutOutcomes;
        self.quarantineAdded = quarantineAdded
    }
}

/// Counts of rows per user-owned table, for deletion proofs and operators.
public struct UserFootprint: Sendable, Equatable, Codable {
    public var sessions: Int, workouts: Int, sessionMetrics: Int, stats: Int, plans: Int, quarantine: Int, users: Int
    public var workoutMetrics: Int, trainingLoad: Int
    public init(
        sessions: Int, workouts: Int, sessionMetrics: Int, stats: Int, plans: Int, quarantine: Int, users: Int,
        workoutMetrics: Int = 0, trainingLoad: Int = 0
    ) {
        self.sessions = sessions; self.workouts = workouts; self.sessionMetrics = sessionMetrics; self.stats = stats
        self.plans = plans; self.quarantine = quarantine; self.users = users
        self.workoutMetrics = workoutMetrics; self.trainingLoad = trainingLoad
    }
    public var total: Int {
        sessions + workouts + sessionMetrics + stats + plans + quarantine + users + workoutMetrics + trainingLoad
    }
}

/// The pipeline's storage, whatever the backend. Nothing above this protocol knows which database it is.
///
/// Every user-owned row is keyed by user id; every query that reads user data is scoped to one user.
public protocol PipelineStore: Sendable {
    /// A short name of the backend for logs (`sqlite`, `postgres`); never used for decisions.
    var backendName: String { get }

    // MARK: Users
    func upsertUser(_ user: User) async throws
    func user(_ id: UserID) async throws -> User?
    func userIDs() async throws -> [UserID]

    // MARK: Ingest
    func apply(_ unit: IngestUnit) async throws -> IngestUnitResult
    /// The units one after the other, each as `apply(_:)` would, in one transaction: a writer commits many batches
    /// at once, and after a crash the store holds all of them or none (their ledger entries with them).
    func apply(_ units: [IngestUnit]) async throws -> [IngestUnitResult]

    /// Users whose stats and plan must be recomputed: `apply` marks every user whose data it changed, in the same
    /// transaction as the data, so a run killed before recomputing still finds them.
    func usersPendingRecompute() async throws -> [UserID]
    /// Clears the mark if it is not newer than `markedUpTo` (a mark set by data that arrived during the
    /// recomputation stays for the next run).
    func clearPendingRecompute(_ user: UserID, markedUpTo: EpochMillis) async throws

    // MARK: Sessions
    func session(user: UserID, id: SessionID) async throws -> StoredSession?
    /// The user's sessions, newest first, without their raw blobs.
    func sessionSummaries(user: UserID, offset: Int, limit: Int) async throws -> [StoredSession]
    func sessionCount(user: UserID) async throws -> Int
    /// Keyset paging: up to `limit` of `user`'s sessions without recordings, newest start first (then session id),
    /// after `key` (from the newest when nil). Sessions that arrive meanwhile do not shift the pages.
    func sessionSummaries(user: UserID, after key: SessionPageKey?, limit: Int) async throws -> [StoredSession]
    /// The sessions of `user` with these ids, without recordings, in no particular order; missing ids are left out.
    func sessionSummaries(user: UserID, ids: [SessionID]) async throws -> [StoredSession]
    func sessionMetrics(user: UserID, ids: [SessionID]) async throws -> [SessionMetricsRecord]
    func workouts(user: UserID, ids: [WorkoutID]) async throws -> [WorkoutRecord]
    func plans(user: UserID, versions: [Int]) async throws -> [PlanRecord]

    /// Up to `limit` entries of `user`'s change log after `cursor` (from the start when nil), in commit order — only
    /// entries no later-committing transaction can precede (see migration 0012). `changes(user:after:limit:)` reads
    /// their items.
    func changeLog(user: UserID, after cursor: ChangeCursor?, limit: Int) async throws -> [ChangeLogEntry]
    /// What the user's sessions occupy: how many, and the bytes of their recordings (the quota of `POST
    /// /v1/sessions/batch_upload`).
    func storageUsage(user: UserID) async throws -> StorageUsage
    /// A random 32-byte key the store generates the first time it is asked for `name`, and keeps (every process and
    /// worker over the store then gets the same one).
    func secret(named name: String) async throws -> [UInt8]
    /// The secret kept under `name`, if there is one (none is generated).
    func storedSecret(named name: String) async throws -> [UInt8]?
    /// Forgets the secret kept under `name` (a key moved out of the database).
    func removeSecret(named name: String) async throws
    /// Sessions that have no metrics yet, oldest received first.
    func sessionsWithoutMetrics(limit: Int) async throws -> [(UserID, SessionID)]

    /// Sessions with their raw blobs, in the order of `keys` (missing ones left out).
    func sessions(keys: [(UserID, SessionID)]) async throws -> [StoredSession]

    /// `activityFigures` and `loadEntries` (`FigureRecords.swift`) have default implementations over the full reads;
    /// a backend reads only the columns they need.
    func activityFigures(user: UserID) async throws -> (sessions: [ActivityFigures], workouts: [ActivityFigures])
    func loadEntries(user: UserID) async throws -> [LoadEntry]
    /// The user's activities as the overlap rule and the stats read them (`ActivitySpans.swift`: default over the full
    /// reads, in the order of `activityFigures`).
    func activitySpans(user: UserID) async throws -> (sessions: [ActivitySpan], workouts: [ActivitySpan])

    // MARK: Workouts
    func workouts(user: UserID, includeDeleted: Bool) async throws -> [WorkoutRecord]

    // MARK: Metrics and stats
    func putSessionMetrics(_ metrics: SessionMetricsRecord) async throws
    /// Stores many sessions' metrics in one transaction (insert or replace each).
    func putSessionMetrics(_ records: [SessionMetricsRecord]) async throws
    func sessionMetrics(user: UserID) async throws -> [SessionMetricsRecord]
    func putUserStats(_ stats: UserStatsRecord) async throws
    func userStats(_ user: UserID) async throws -> UserStatsRecord?
    /// Records the app's own figures (`PATCH /users/me/stats`).
    func recordAppStats(user: UserID, stats: UserStats, at: EpochMillis) async throws

    // MARK: Workout metrics and training load (migration 0004)
    /// Workout records (not deleted) without metrics for their current version, oldest start first.
    func workoutsToMeasure(limit: Int) async throws -> [WorkoutRecord]
    func putWorkoutMetrics(_ metrics: WorkoutMetricsRecord) async throws
    /// Stores many workout records' metrics in one transaction (insert or replace each).
    func putWorkoutMetrics(_ records: [WorkoutMetricsRecord]) async throws
    /// Metrics of the user's workouts that are not deleted, measured at their current version, by date.
    func workoutMetrics(user: UserID) async throws -> [WorkoutMetricsRecord]
    /// Removes the metrics of workouts that are deleted (tombstones) or changed since measured; returns rows removed.
    func pruneWorkoutMetrics() async throws -> Int
    /// `pruneWorkoutMetrics()` for one user's rows only (per-user recomputation); returns rows removed.
    func pruneWorkoutMetrics(user: UserID) async throws -> Int
    /// The user's stored daily training-load series, by date, optionally cut to `from` … `to` (inclusive).
    func trainingLoad(user: UserID, from: LocalDate?, to: LocalDate?) async throws -> [TrainingLoadRecord]
    /// The latest stored day strictly before `before` (or the latest of all when nil).
    func latestTrainingLoad(user: UserID, before: LocalDate?) async throws -> TrainingLoadRecord?
    /// In one transaction: removes the user's days from `from` on and stores `days` (all of them on or after `from`).
    func replaceTrainingLoad(user: UserID, from: LocalDate, days: [TrainingLoadRecord]) async throws

    // MARK: Plans
    /// Appends a new version; returns its number (1, 2, …).
    func appendPlan(user: UserID, generatedAt: EpochMillis, state: PlanState, documentJSON: String) async throws -> Int
    func latestPlan(user: UserID) async throws -> PlanRecord?
    func planVersions(user: UserID) async throws -> [PlanRecord]

    // MARK: Quarantine
    /// Quarantined records in the order they were kept (by id); only those with `reason` when one is given.
    func quarantined(reason: QuarantineReason?, offset: Int, limit: Int) async throws -> [QuarantineRecord]
    func quarantineRecord(id: Int64) async throws -> QuarantineRecord?
    func removeQuarantine(id: Int64) async throws
    /// Removes the records quarantined before `before` (retention); returns how many.
    func purgeQuarantine(before: EpochMillis) async throws -> Int
    /// How many records are in quarantine, per reason.
    func quarantineCountsByReason() async throws -> [QuarantineReason: Int]

    // MARK: Jobs
    func startJob(_ job: String, at: EpochMillis) async throws -> Int64
    func finishJob(id: Int64, status: JobStatus, at: EpochMillis, countsJSON: String, watermark: String?) async throws
    func lastJobRun(_ job: String) async throws -> JobRun?
    func jobRuns(_ job: String, limit: Int) async throws -> [JobRun]

    // MARK: Deletion (GDPR)
    /// Deletes every row of the user in one transaction and records an audit row holding only `userHash`.
    /// On failure everything is rolled back and the audit row says `failed`. Without `purge` a user with no row is
    /// `notFound`; with it (an operator's purge of an id whose user row may be gone) every row naming the id is deleted,
    /// users row or not, and the audit says so in its note. Callers name the case: `deleteUser(_:userHash:requestedAt:
    /// completedAt:)`, `purgeUser(_:userHash:requestedAt:completedAt:)`.
    func deleteUser(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis, purge: Bool)
        async throws -> DeletionAudit
    func deletionAudits() async throws -> [DeletionAudit]
    /// Whether a user with this id hash (`deleteUser`'s `userHash`) was deleted: data arriving for them later is
    /// dropped, not kept.
    func wasDeleted(userHash: String) async throws -> Bool
    func footprint(user: UserID) async throws -> UserFootprint

    // MARK: Diagnostics
    /// Row counts of every table.
    func tableCounts() async throws -> [String: Int]
    /// A digest of the domain tables' contents (not job runs), to prove that a rerun changed nothing.
    func contentDigest() async throws -> String

    // MARK: Roles
    // What a backend offers beyond the calls above, as typed values each store gives explicitly (no default, no cast):
    // a role a backend does not have is nil.

    /// The per-user lock every path that works on one user takes (through `UserLock` in the Pipeline module). Every
    /// store has one; a store that serves one process and no concurrent callers may give `NoUserLocks`.
    var userLocks: any UserLocks { get }
    /// Whether independent transactions commit side by side on connections of their own (a server such as
    /// PostgreSQL, whose work on one commit goes on beside its work on another), rather than one after the other
    /// (one writer).
    var commitsInParallel: Bool { get }
    /// Per-user leases of a shared run of several worker processes (`pipeline worker`); nil: the store cannot share
    /// runs.
    var workLeases: (any WorkLeases)? { get }
    /// What the ingest ledger holds for a key, read before an input is validated again; nil: `apply` finds a repeated
    /// input only when it applies it (nothing changes either way).
    var ingestLedger: (any IngestLedgerReading)? { get }
    /// Changes committed by any process on the database, for the caches of an API server; nil: none.
    var changeFeed: (any UserChangeFeed)? { get }
    /// The change feed when it can also be read on demand (SQLite's polled table), for a server to catch up before it
    /// answers; nil when it cannot (PostgreSQL's LISTEN/NOTIFY) or there is no feed.
    var polledChangeFeed: (any PolledUserChangeFeed)? { get }
    /// What `pipeline status` reads beyond this protocol (job runs, quarantine ages, table sizes, migrations); nil:
    /// none.
    var diagnostics: (any StoreDiagnostics)? { get }
}

/// How a user's id appears in a quarantined record that carries no `user_id` column (a user or workout record from a
/// file or the upstream, rejected before its user was known): as its `record_id`, or in its payload as the JSON member
/// `"user_id":"<id>"` (canonical form, or with one space after the colon). Deletion removes those rows too.
public enum QuarantineOwnership {
    public static func payloadNeedles(_ id: UserID) -> [[UInt8]] {
        [Array("\"user_id\":\"\(id.rawValue)\"".utf8), Array("\"user_id\": \"\(id.rawValue)\"".utf8)]
    }
}

extension PipelineStore {
    /// Deletes every row of the user in one transaction and records an audit row holding only `userHash`.
    /// On failure everything is rolled back and the audit row says `failed`; a user with no row is `notFound`.
    public func deleteUser(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis)
        async throws -> DeletionAudit
    {
        try await deleteUser(id, userHash: userHash, requestedAt: requestedAt, completedAt: completedAt, purge: false)
    }

    /// `deleteUser` for an id whose user row may be gone (an operator's purge): every row naming the id is deleted,
    /// users row or not, and the audit says so in its note. Never throws `notFound`.
    public func purgeUser(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis)
        async throws -> DeletionAudit
    {
        try await deleteUser(id, userHash: userHash, requestedAt: requestedAt, completedAt: completedAt, purge: true)
    }

    /// Stores that keep no secrets (test doubles) have none to give or forget.
    public func storedSecret(named name: String) async throws -> [UInt8]? { nil }
    public func removeSecret(named name: String) async throws {}

    public func apply(_ units: [IngestUnit]) async throws -> [IngestUnitResult] {
        var results: [IngestUnitResult] = []
        for unit in units { results.append(try await apply(unit)) }
        return results
    }
    public func sessions(keys: [(UserID, SessionID)]) async throws -> [StoredSession] {
        var out: [StoredSession] = []
        for (user, id) in keys { if let s = try await session(user: user, id: id) { out.append(s) } }
        return out
    }
    public func putSessionMetrics(_ records: [SessionMetricsRecord]) async throws {
        for r in records { try await putSessionMetrics(r) }
    }
    public func putWorkoutMetrics(_ records: [WorkoutMetricsRecord]) async throws {
        for r in records { try await putWorkoutMetrics(r) }
    }
}

/// A failure of the store with the operation it concerned. Private data stays out of the description.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable { case notFound, constraint, migration, io, invalidConfiguration }
    public var code: Code
    public var operation: String
    public var detail: String
    public init(_ code: Code, operation: String, detail: String) {
        self.code = code; self.operation = operation; self.detail = detail
    }
    public var description: String { "store \(code.rawValue) in \(operation): \(detail)" }
}
