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
    public var now: @Sendable () -> Int64

    public init(store: any PipelineStore, limits: IngestLimits = .init(), logger: Logger = Logger(label: "ingest"),
                statsProvider: (@Sendable (UserID) async throws -> UserStats)? = nil,
                now: @escaping @Sendable () -> Int64 = { Date().epochMillis }) {
        self.store = store; self.validator = SessionValidator(limits: limits); self.logger = logger
        self.statsProvider = statsProvider; self.now = now
    }

    var limits: IngestLimits { validator.limits }

    /// Validates and stores one batch body atomically. With a `ledgerKey`, the same bytes under the same key
    /// are recognised on a second run and change nothing.
    public func process(body: [UInt8], context: BatchContext, ledgerKey: String? = nil) async throws -> BatchOutcome {
        var report = IngestReport()
        report.batches.received = 1
        let bodyHash = Hashing.sha256Hex(body)

        func rejectWhole(_ rejection: Rejection) async throws -> BatchOutcome {
            report.batches.quarantine(rejection.code)
            let record = QuarantineRecord(userID: context.userID, source: context.source, sourceKey: context.sourceKey,
                                          recordID: nil, reasonCode: rejection.code.rawValue, message: rejection.message,
                                          payload: body, receivedAt: context.receivedAt, quarantinedAt: now())
            let unit = IngestUnit(ledgerKey: ledgerKey, ledgerHash: bodyHash, quarantine: [record],
                                  reportJSON: Self.json(report))
            let result = try await store.apply(unit)
            if result.alreadyApplied { return .alreadyProcessed(Self.alreadyProcessedReport()) }
            logger.info("batch rejected", metadata: ["source_key": "\(context.sourceKey)", "reason": "\(rejection.code.rawValue)"])
            return .rejected(rejection, report)
        }

        guard body.count <= limits.maxBatchBytes else {
            return try await rejectWhole(Rejection(.payloadTooLarge, "Batch of \(body.count) bytes exceeds the limit of \(limits.maxBatchBytes)"))
        }
        guard JSONValue.nestingDepth(of: body) <= limits.maxJSONDepth else {
            return try await rejectWhole(Rejection(.jsonTooDeep, "Batch JSON nests deeper than \(limits.maxJSONDepth) levels"))
        }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            return try await rejectWhole(Rejection(.malformedJSON, "Batch is not valid JSON"))
        }
        guard let sessions = document["sessions"]?.arrayValue else {
            return try await rejectWhole(Rejection(.invalidBatchShape, "Batch must be an object with a \"sessions\" array"))
        }
        guard sessions.count <= limits.maxSessionsPerBatch else {
            return try await rejectWhole(Rejection(.batchTooLarge,
                                                   "Batch has \(sessions.count) sessions; at most \(limits.maxSessionsPerBatch) are allowed"))
        }

        report.batches.stored = 1
        report.sessions.received = sessions.count
        let userKnown = try await store.user(context.userID) != nil
        var candidates: [SessionCandidate] = []
        var candidateIndex: [Int] = []   // index in `sessions` of each candidate
        var failures: [Int: FailedSession] = [:]
        var quarantine: [QuarantineRecord] = []
        let quarantinedAt = now()

        for (index, value) in sessions.enumerated() {
            let idText = SessionValidator.sessionIDText(of: value)
            let key = "\(context.sourceKey)#\(index)"
            let payload = Array(value.canonicalText.utf8)
            func reject(_ r: Rejection) {
                report.sessions.quarantine(r.code)
                failures[index] = FailedSession(sessionID: idText, error: r.code.category, message: r.message, code: r.code.rawValue)
                quarantine.append(QuarantineRecord(userID: context.userID, source: context.source, sourceKey: key, recordID: idText,
                                                   reasonCode: r.code.rawValue, message: r.message, payload: payload,
                                                   receivedAt: context.receivedAt, quarantinedAt: quarantinedAt))
            }
            guard userKnown else {
                reject(Rejection(.unknownUser, "Unknown user"))
                continue
            }
            do {
                let upload = try validator.validate(value, receivedAt: context.receivedAt)
                let stored = StoredSession(
                    userID: context.userID, sessionID: upload.sessionID, startedAtText: upload.startedAtText,
                    endedAtText: upload.endedAtText, startedAt: upload.startedAt, endedAt: upload.endedAt,
                    durationS: upload.duration, totalEnergyKcal: upload.totalEnergy, totalDistanceM: upload.totalDistance,
                    detailJSON: upload.detail.canonicalText, raw: upload.raw, machine: upload.machine,
                    blobStatus: upload.blobStatus, blobNote: upload.blobNote, contentHash: upload.contentHash,
                    source: context.source, receivedAt: context.receivedAt)
                let conflict = QuarantineRecord(
                    userID: context.userID, source: context.source, sourceKey: key, recordID: idText,
                    reasonCode: RejectionCode.conflict.rawValue,
                    message: "Session id already stored with different content; the stored copy was kept",
                    payload: payload, receivedAt: context.receivedAt, quarantinedAt: quarantinedAt)
                candidates.append(SessionCandidate(session: stored, conflictQuarantine: conflict))
                candidateIndex.append(index)
            } catch {
                reject(error)
            }
        }

        // The report stored in the ledger is the one of this first run.
        let unit = IngestUnit(ledgerKey: ledgerKey, ledgerHash: bodyHash, sessions: candidates, quarantine: quarantine)
        let result = try await store.apply(unit)
        if result.alreadyApplied { return .alreadyProcessed(Self.alreadyProcessedReport()) }

        var success = 0, duplicates = 0
        for (i, outcome) in result.sessionOutcomes.enumerated() {
            let index = candidateIndex[i]
            switch outcome {
            case .stored:
                success += 1
                report.sessions.stored += 1
                switch candidates[i].session.blobStatus {
                case .truncated: report.truncatedBlobs += 1
                case .corrupted: report.corruptedBlobs += 1
                case .none, .complete: break
                }
            case .duplicate:
                duplicates += 1
                report.sessions.duplicates += 1
            case .conflict:
                report.sessions.quarantine(.conflict)
                failures[index] = FailedSession(sessionID: SessionValidator.sessionIDText(of: sessions[index]), error: "conflict",
                                                message: "Session id already stored with different content", code: "conflict")
            }
        }
        if success > 0 { report.touchedUsers.insert(context.userID) }

        let stats: UserStats?
        if let statsProvider, userKnown { stats = try await statsProvider(context.userID) } else { stats = nil }
        let answer = BatchAnswer(successCount: success, duplicateCount: duplicates,
                                 failedSessions: failures.keys.sorted().map { failures[$0]! }, updatedStats: stats)
        logger.debug("batch processed", metadata: [
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

    static func json(_ report: IngestReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(report), as: UTF8.self)) ?? "{}"
    }
}
