import Foundation
import Ingest
import Store

/// Replays quarantined records after a fix (a user created, a limit raised, a client bug fixed): each one goes
/// through the same validation again; what now passes is stored (or recognised as a duplicate) and leaves the
/// quarantine; what still fails stays, with its original reason.
public struct QuarantineService: Sendable {
    public var store: any PipelineStore
    public var limits: IngestLimits
    /// The run time retried records are received at (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    public init(store: any PipelineStore, limits: IngestLimits = .init(), clock: PipelineClock = .system) {
        self.store = store; self.limits = limits; self.clock = clock
    }
    /// Run time read from `now`, wall time the system's.
    public init(store: any PipelineStore, limits: IngestLimits = .init(), now: @escaping @Sendable () -> Int64) {
        self.init(store: store, limits: limits, clock: PipelineClock(now: now))
    }

    /// What a retry did with one quarantined record (its raw value is the `outcome` of `pipeline quarantine retry`).
    public enum RetryOutcome: String, Sendable, Codable, CaseIterable {
        /// Passed and stored; it left the quarantine.
        case stored
        /// Passed and found already stored with the same content; it left the quarantine.
        case duplicate
        /// A batch refused as a whole, read again: its sessions each found their place; it left the quarantine.
        case reprocessed
        /// Still refused; it stays, with its original reason.
        case stillFailing = "still_failing"
    }

    public struct RetryResult: Sendable, Codable, Equatable {
        public var id: Int64
        public var reason: QuarantineReason
        public var outcome: RetryOutcome
        public var message: String?
    }

    /// Whether a quarantined record is a whole batch refused before any of its sessions was read (the reason codes
    /// whose apps' category is `invalid_batch`), so that a retry reads the batch again.
    static func isWholeBatch(_ reason: QuarantineReason) -> Bool {
        switch reason {
        case .rejected(let code): code.category == "invalid_batch"
        case .other: false // a workout file's code: the file is read again record by record
        }
    }

    public func retry(reason: QuarantineReason?, id: Int64?, limit: Int = 10_000) async throws -> [RetryResult] {
        let records: [QuarantineRecord]
        if let id {
            records = try await store.quarantineRecord(id: id).map { [$0] } ?? []
        } else {
            records = try await store.quarantined(reason: reason, offset: 0, limit: limit)
        }
        var results: [RetryResult] = []
        for record in records {
            guard let rid = record.id else { continue }
            let result = try await retry(record, id: rid)
            results.append(result)
        }
        return results
    }

    func retry(_ record: QuarantineRecord, id: Int64) async throws -> RetryResult {
        func still(_ message: String) -> RetryResult {
            RetryResult(id: id, reason: record.reasonCode, outcome: .stillFailing, message: message)
        }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: Data(record.payload)) } catch {
            return still("payload is not JSON")
        }
        // Workout records: from a workouts file, the upstream, or an activity of an imported workout file (`…#n`).
        let fromWorkoutFile =
            ["files/", "import/", "upload/"].contains { record.sourceKey.hasPrefix($0) }
            && record.sourceKey.contains("#")
        let isWorkoutSource = record.sourceKey.hasPrefix("workouts/") || record.source == "upstream" || fromWorkoutFile
        if Self.isWholeBatch(record.reasonCode), !isWorkoutSource, let user = record.userID {
            // A batch refused as a whole: read it again; its sessions then each find their place.
            let processor = BatchProcessor(store: store, limits: limits, clock: clock)
            let outcome = try await processor.process(
                body: record.payload,
                context: BatchContext(
                    userID: user, source: record.source, sourceKey: record.sourceKey, receivedAt: record.receivedAt))
            guard case .processed = outcome else { return still("batch still refused") }
            try await store.removeQuarantine(id: id)
            return RetryResult(id: id, reason: record.reasonCode, outcome: .reprocessed, message: nil)
        }
        if isWorkoutSource || record.sourceKey.hasPrefix("users/") {
            let processor = RecordProcessor(store: store, limits: limits, clock: clock)
            let kind: RecordProcessor.Kind = record.sourceKey.hasPrefix("users/") ? .users : .workouts
            let validation: Rejection?
            switch kind {
            case .users: do { _ = try UserValidator().validate(value); validation = nil } catch { validation = error }
            case .workouts:
                switch Result(catching: { () throws(Rejection) -> WorkoutRecord in
                    try WorkoutValidator(limits: limits).validate(value, receivedAt: record.receivedAt)
                }) {
                case .failure(let r): validation = r
                case .success(let w):
                    validation = try await store.user(w.userID) == nil ? Rejection(.unknownUser, "Unknown user") : nil
                }
            }
            if let validation { return still(validation.message) }
            let report = try await processor.process(
                kind: kind, records: [(record.sourceKey, .success(value), record.payload)],
                source: record.source, receivedAt: record.receivedAt, ledgerKey: nil, ledgerHash: nil)
            let counts = kind == .users ? report.users : report.workouts
            guard counts.quarantined == 0 else { return still("conflict with the stored version") }
            try await store.removeQuarantine(id: id)
            return RetryResult(
                id: id, reason: record.reasonCode, outcome: counts.stored > 0 ? .stored : .duplicate, message: nil)
        }
        // One session of a batch.
        guard let user = record.userID else { return still("no user") }
        guard try await store.user(user) != nil else { return still("Unknown user") }
        let upload: SessionUpload
        do { upload = try SessionValidator(limits: limits).validate(value, receivedAt: record.receivedAt) } catch {
            return still(error.message)
        }
        let session = upload.stored(user: user, source: record.source, receivedAt: record.receivedAt)
        let result = try await store.apply(
            IngestUnit(sessions: [SessionCandidate(session: session, conflictQuarantine: record)]))
        switch result.sessionOutcomes.first {
        case .stored?, .duplicate?:
            try await store.removeQuarantine(id: id)
            return RetryResult(
                id: id, reason: record.reasonCode,
                outcome: result.sessionOutcomes.first == .stored ? .stored : .duplicate, message: nil)
        default:
            return still("Session id already stored with different content")
        }
    }
}
