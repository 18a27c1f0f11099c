import CivilDate
import Foundation
import Logging
import Store

/// Where a batch came from and when it arrived.
public struct BatchContext: Sendable {
    public var userID: UserID
    /// `inbox` or `api`.
    public var source: String
    /// File and line, or request id: where to find the input again.
    public var sourceKey: String
    public var receivedAt: Int64
    public init(userID: UserID, source: String, sourceKey: String, receivedAt: Int64) {
        self.userID = userID; self.source = source; self.sourceKey = sourceKey; self.receivedAt = receivedAt
    }
}

/// A failed session in the apps' answer: `{session_id, error, message}` (plus the stable `code`).
public struct FailedSession: Sendable, Codable, Equatable {
    public var sessionID: String?
    public var error: String
    public var message: String
    public var code: String
    public init(sessionID: String?, error: String, message: String, code: String) {
        self.sessionID = sessionID; self.error = error; self.message = message; self.code = code
    }
    enum CodingKeys: String, CodingKey { case sessionID = "session_id", error, message, code }
}

/// The answer of `POST /sessions/batch_upload`, exactly in the apps' shape.
public struct BatchAnswer: Sendable, Codable, Equatable {
    public var successCount: Int
    public var duplicateCount: Int
    public var failedSessions: [FailedSession]
    public var updatedStats: UserStats?
    public init(successCount: Int, duplicateCount: Int, failedSessions: [FailedSession], updatedStats: UserStats?) {
        self.successCount = successCount; self.duplicateCount = duplicateCount; self.failedSessions = failedSessions
        self.updatedStats = updatedStats
    }
    enum CodingKeys: String, CodingKey {
        case successCount = "success_count", duplicateCount = "duplicate_count", failedSessions = "failed_sessions"
        case updatedStats = "updated_stats"
    }
}

public enum BatchOutcome: Sendable {
    /// The batch was read; each session has its result in the answer.
    case processed(BatchAnswer, IngestReport)
    /// The batch was refused as a whole (and kept in quarantine).
    case rejected(Rejection, IngestReport)
    /// This exact input was processed before (inbox ledger); nothing changed.
    case alreadyProcessed(IngestReport)

    public var report: IngestReport {
        switch self {
        case .processed(_, let r), .rejected(_, let r), .alreadyProcessed(let r): r
        }
    }
}

/// The one code path for session batches, whether they come from the inbox or the HTTP API.
public struct BatchProcessor: Sendable {
    public var store: any PipelineStore
    public var validator: SessionValidator
    public var logger: Logger
    /// Computes a user's stats after a batch (the `updated_stats` of the answer); nil leaves it out.
    public var statsProvider: (@Sendable (UserID) async throws -> UserStats)?
    /// The run time batches are received and stored at (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    /// Measures a valid session while its bytes are in memory (decode and metrics; the nightly passes
    /// `SessionAnalyzer`): the metrics are stored with the session in the batch's transaction, so nothing reads the
    /// blob back to analyse it. Nil: sessions are stored without metrics, for a later analysis pass.
    public var analyze: (@Sendable (StoredSession, User) -> SessionMetricsRecord)?

    public init(
        store: any PipelineStore, limits: IngestLimits = .init(), logger: Logger = Logger(label: "ingest"),
        statsProvider: (@Sendable (UserID) async throws -> UserStats)? = nil,
        clock: PipelineClock = .system,
        analyze: (@Sendable (StoredSession, User) -> SessionMetricsRecord)? = nil
    ) {
        self.store = store; self.validator = SessionValidator(limits: limits); self.logger = logger
        self.statsProvider = statsProvider; self.clock = clock; self.analyze = analyze
    }

    var limits: IngestLimits { validator.limits }

    /// Validates and stores one batch body atomically. With a `ledgerKey`, the same bytes under the same key
    /// are recognised on a second run and change nothing.
    public func process(
        body: [UInt8], context: BatchContext, ledgerKey: String? = nil,
        ledgerStamp: String? = nil
    ) async throws -> BatchOutcome {
        try await commit(
            try await prepare(body: body, context: context, ledgerKey: ledgerKey, ledgerStamp: ledgerStamp))
    }

    /// A batch read and validated but not yet stored (`prepare` is CPU work and may run beside the previous
    /// batch's `commit`; only `commit` writes).
    public struct PreparedBatch: Sendable {
        var context: BatchContext
        var ledgerKey: String?
        var ledgerStamp: String?
        /// The body's fingerprint for the ledger (`Hashing.ledgerFingerprint`, or the SHA-256 an older entry matched):
        /// nil without a ledger key (an API request), where nothing reads it.
        var bodyHash: String?
        var report: IngestReport
        var wholeRejection: (Rejection, QuarantineRecord)?
        var sessions: [JSONValue] = []
        var userKnown = false
        var candidates: [SessionCandidate] = []
        /// Each candidate's metrics when `analyze` is set (parallel to `candidates`).
        var metrics: [SessionMetricsRecord?] = []
        var candidateIndex: [Int] = [] // index in `sessions` of each candidate
        var failures: [Int: FailedSession] = [:]
        var quarantine: [QuarantineRecord] = []
        /// The ledger already holds this key with these bytes: nothing to validate or store.
        var alreadyApplied = false
        /// Sessions to store.
        public var sessionCount: Int { candidates.count }
    }

    /// What a caller already read from the store for a batch (the inbox reads the ledger and the users once for all
    /// its files), so that `prepare` need not ask again; `.ask`: look it up.
    public enum Known<Value: Sendable>: Sendable {
        case ask
        case known(Value)
    }

    /// - Parameters:
    ///   - ledgerHash: the hash the ledger holds for `ledgerKey` (nil: none), when the caller knows it.
    ///   - user: the batch's user as stored (nil: unknown user), when the caller knows it.
    public func prepare(
        body: [UInt8], context: BatchContext, ledgerKey: String? = nil, ledgerStamp: String? = nil,
        ledgerHash: Known<String?> = .ask, user knownUser: Known<User?> = .ask
    ) async throws -> PreparedBatch {
        var report = IngestReport()
        report.batches.received = 1
        var prepared = PreparedBatch(
            context: context, ledgerKey: ledgerKey, ledgerStamp: ledgerStamp, bodyHash: nil, report: report)
        // An input applied before (same key, same bytes) is recognised here, before the costly validation.
        if let ledgerKey {
            let recorded: String?
            switch ledgerHash {
            case .known(let hash): recorded = hash
            case .ask: recorded = try await store.ingestLedger?.ledgerHash(ledgerKey)
            }
            let fingerprint = Hashing.ledgerFingerprint(body)
            if let recorded, Hashing.ledgerEntry(recorded, matches: body, fingerprint: fingerprint) {
                // An entry from before the fingerprint keeps its SHA-256 (the store compares the unit's hash with it).
                prepared.bodyHash = recorded
                prepared.alreadyApplied = true
                return prepared
            }
            prepared.bodyHash = fingerprint
        }

        func rejectWhole(_ rejection: Rejection) -> PreparedBatch {
            prepared.report.batches.quarantine(rejection.code)
            let record = QuarantineRecord(
                userID: context.userID, source: context.source, sourceKey: context.sourceKey,
                recordID: nil, reasonCode: .rejected(rejection.code), message: rejection.message,
                payload: body, receivedAt: context.receivedAt, quarantinedAt: now()
            )
            .bounded(to: limits.maxQuarantinePayloadBytes)
            prepared.wholeRejection = (rejection, record)
            return prepared
        }

        guard body.count <= limits.maxBatchBytes else {
            return rejectWhole(
                Rejection(.payloadTooLarge, "Batch of \(body.count) bytes exceeds the limit of \(limits.maxBatchBytes)")
            )
        }
        // The batch reader handles well-formed batches within the depth limit without Foundation; anything it
        // leaves (too deep, malformed, rare valid corners) is checked as before: depth first, then JSONDecoder.
        let sessions: [BatchJSONReader.Session]
        switch body.withUnsafeBytes({ BatchJSONReader.read($0, maxDepth: limits.maxJSONDepth) }) {
        case .sessions(let list)?:
            sessions = list
        case .otherShape?:
            return rejectWhole(Rejection(.invalidBatchShape, "Batch must be an object with a \"sessions\" array"))
        case nil:
            guard JSONValue.nestingDepth(of: body) <= limits.maxJSONDepth else {
                return rejectWhole(
                    Rejection(.jsonTooDeep, "Batch JSON nests deeper than \(limits.maxJSONDepth) levels"))
            }
            let document: JSONValue
            do {
                document = try JSONDecoder().decode(JSONValue.self, from: Data(body))
            } catch {
                return rejectWhole(Rejection(.malformedJSON, "Batch is not valid JSON"))
            }
            guard let list = document["sessions"]?.arrayValue else {
                return rejectWhole(Rejection(.invalidBatchShape, "Batch must be an object with a \"sessions\" array"))
            }
            sessions = list.map { BatchJSONReader.Session(value: $0, rawRange: nil) }
        }
        guard sessions.count <= limits.maxSessionsPerBatch else {
            return rejectWhole(
                Rejection(
                    .batchTooLarge,
                    "Batch has \(sessions.count) sessions; at most \(limits.maxSessionsPerBatch) are allowed"))
        }

        prepared.sessions = sessions.map(\.value)
        prepared.report.batches.stored = 1
        prepared.report.sessions.received = sessions.count
        let user: User?
        switch knownUser {
        case .known(let stored): user = stored
        case .ask: user = try await store.user(context.userID)
        }
        prepared.userKnown = user != nil
        // Sessions of a user whose account was deleted are dropped (counted), not kept as `unknown_user` with their
        // recordings under an id nobody could purge any more.
        let deletedUser =
            user == nil ? try await IdentifierHasher.resolve(store: store).wasDeleted(context.userID, in: store) : false
        let quarantinedAt = now()

        for (index, session) in sessions.enumerated() {
            let value = session.value
            let rawText = session.rawRange.map { body[$0] }
            let idText = SessionValidator.sessionIDText(of: value)
            let key = "\(context.sourceKey)#\(index)"
            func reject(_ r: Rejection) {
                // The session as received, `raw` included, in canonical form.
                var whole = value
                if let rawText, case .object(var object) = value {
                    object["raw"] = .string(String(decoding: rawText, as: UTF8.self))
                    whole = .object(object)
                }
                let payload = Array(whole.canonicalText.utf8)
                prepared.report.sessions.quarantine(r.code)
                prepared.failures[index] = FailedSession(
                    sessionID: idText, error: r.code.category, message: r.message, code: r.code.rawValue)
                prepared.quarantine.append(
                    QuarantineRecord(
                        userID: context.userID, source: context.source, sourceKey: key, recordID: idText,
                        reasonCode: .rejected(r.code), message: r.message, payload: payload,
                        receivedAt: context.receivedAt, quarantinedAt: quarantinedAt
                    )
                    .bounded(to: limits.maxQuarantinePayloadBytes))
            }
            guard !deletedUser else {
                prepared.report.sessions.droppedDeletedUser += 1
                continue
            }
            guard prepared.userKnown else {
                reject(Rejection(.unknownUser, "Unknown user"))
                continue
            }
            do {
                let upload = try validator.validate(value, rawText: rawText, receivedAt: context.receivedAt)
                // The canonical serialisation is the content hash, and the payload kept on a conflict: made again
                // then (`canonicalBytesOnDemand`), not held for every candidate until its group commits.
                let stored = upload.stored(
                    user: context.userID, source: context.source, receivedAt: context.receivedAt,
                    contentHash: upload.contentHash)
                let payload = upload.canonicalBytesOnDemand()
                let (owner, source, receivedAt, maxBytes) = (
                    context.userID, context.source, context.receivedAt, limits.maxQuarantinePayloadBytes
                )
                prepared.candidates.append(
                    SessionCandidate(session: stored) {
                        QuarantineRecord(
                            userID: owner, source: source, sourceKey: key, recordID: idText,
                            reasonCode: .rejected(.conflict),
                            message: "Session id already stored with different content; the stored copy was kept",
                            payload: payload(), receivedAt: receivedAt, quarantinedAt: quarantinedAt
                        )
                        .bounded(to: maxBytes)
                    })
                prepared.candidateIndex.append(index)
                if let analyze, let user { prepared.metrics.append(analyze(stored, user)) }
            } catch {
                reject(error)
            }
        }
        return prepared
    }

    /// Stores a prepared batch in one transaction and answers in the apps' shape.
    public func commit(_ p: PreparedBatch) async throws -> BatchOutcome {
        try await commit([p])[0]
    }

    /// Stores prepared batches, in order, in one transaction (each batch atomic with its ledger entry, and the group
    /// with them: one commit for many small batches); answers each as `commit(_:)` would.
    public func commit(_ batches: [PreparedBatch]) async throws -> [BatchOutcome] {
        var units: [IngestUnit] = []
        var unitOf: [Int?] = []
        for p in batches {
            if p.alreadyApplied {
                unitOf.append(nil)
            } else {
                unitOf.append(units.count)
                units.append(unit(for: p))
            }
        }
        let results = try await store.apply(units)
        var outcomes: [BatchOutcome] = []
        for (p, index) in zip(batches, unitOf) {
            guard let index, !results[index].alreadyApplied else {
                outcomes.append(.alreadyProcessed(Self.alreadyProcessedReport()))
                continue
            }
            outcomes.append(try await outcome(of: p, result: results[index]))
        }
        return outcomes
    }

    /// The batch as one unit for the store: its whole rejection, or its sessions (with their metrics) and rejections.
    func unit(for p: PreparedBatch) -> IngestUnit {
        var unit: IngestUnit
        if let (_, record) = p.wholeRejection {
            unit = IngestUnit(
                ledgerKey: p.ledgerKey, ledgerHash: p.bodyHash, quarantine: [record], reportJSON: Self.json(p.report))
        } else {
            unit = IngestUnit(
                ledgerKey: p.ledgerKey, ledgerHash: p.bodyHash, sessions: p.candidates, quarantine: p.quarantine)
            unit.sessionMetrics = p.metrics
        }
        unit.ledgerStamp = p.ledgerStamp
        return unit
    }

    /// The answer for a batch the store applied.
    func outcome(of p: PreparedBatch, result: IngestUnitResult) async throws -> BatchOutcome {
        var report = p.report
        let context = p.context
        if let (rejection, _) = p.wholeRejection {
            logger.info(
                "batch rejected",
                metadata: ["source_key": "\(context.sourceKey)", "reason": "\(rejection.code.rawValue)"])
            return .rejected(rejection, report)
        }
        var failures = p.failures
        var success = 0, duplicates = 0
        for (i, outcome) in result.sessionOutcomes.enumerated() {
            let index = p.candidateIndex[i]
            switch outcome {
            case .stored:
                success += 1
                report.sessions.stored += 1
                if i < p.metrics.count, let metrics = p.metrics[i] {
                    report.sessionsMeasured += 1
                    for flag in metrics.flags { report.measuredFlags[flag, default: 0] += 1 }
                }
                switch p.candidates[i].session.blobStatus {
                case .truncated: report.truncatedBlobs += 1
                case .corrupted: report.corruptedBlobs += 1
                case .none, .complete: break
                }
            case .duplicate:
                duplicates += 1
                report.sessions.duplicates += 1
            case .conflict:
                report.sessions.quarantine(.conflict)
                failures[index] = FailedSession(
                    sessionID: SessionValidator.sessionIDText(of: p.sessions[index]), error: "conflict",
                    message: "Session id already stored with different content", code: "conflict")
            }
        }
        if success > 0 { report.touchedUsers.insert(context.userID) }

        let stats: UserStats?
        if let statsProvider, p.userKnown { stats = try await statsProvider(context.userID) } else { stats = nil }
        let answer = BatchAnswer(
            successCount: success, duplicateCount: duplicates,
            failedSessions: failures.keys.sorted().map { failures[$0]! }, updatedStats: stats)
        logger.debug(
            "batch processed",
            metadata: [
                "source_key": "\(context.sourceKey)", "stored": "\(success)", "duplicates": "\(duplicates)",
                "failed": "\(answer.failedSessions.count)",
            ])
        return .processed(answer, report)
    }

    static func alreadyProcessedReport() -> IngestReport {
        var r = IngestReport()
        r.batches.received = 1
        r.batches.duplicates = 1
        return r
    }

    /// The report as the ledger and the job runs keep it: `JSONEncoder`'s compact text with sorted keys, written by
    /// the package's JSON writer (`SortedJSON.encoderText`).
    static func json(_ report: IngestReport) -> String {
        (try? SortedJSONEncoder.encode(report, numbers: .asEncoded).encoderText) ?? "{}"
    }
}
