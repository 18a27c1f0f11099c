import Foundation
import Ingest
import Logging
import Store

/// What a retry of failed GDPR deletions did.
public struct DeletionRetrySummary: Sendable, Codable, Equatable {
    public var jobRunID: Int64
    /// Deletions still owed (a failed request for a user who existed when it was made and still exists).
    public var owed: Int
    public var completed: Int
    public var failed: Int
    public var status: JobStatus
    enum CodingKeys: String, CodingKey { case jobRunID = "job_run_id", owed, completed, failed, status }
}

/// Retries GDPR deletions that failed. Deletion is immediate (`DELETE /v1/me`, `pipeline delete-user`); when its
/// transaction fails it is rolled back and audited `failed`, with only SHA-256 of the user id. This job finds the
/// deletions still owed without keeping any id: a user whose id hashes to a failed audit that is the latest audit
/// of that hash, and who already existed when that deletion was requested (a user registered afterwards under the
/// same id is not deleted by it). Each is deleted again, which writes a new audit row. Safe to rerun: a completed
/// deletion leaves nothing to match.
public struct DeletionRetryJob: Sendable {
    public static let jobName = "gdpr-deletions"

    public var store: any PipelineStore
    public var logger: Logger
    /// The run time its job run and deletions are stamped with (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }

    public init(
        store: any PipelineStore, logger: Logger = Logger(label: "pipeline.deletions"), clock: PipelineClock = .system
    ) {
        self.store = store; self.logger = logger; self.clock = clock
    }
    /// Run time read from `now`, wall time the system's.
    public init(
        store: any PipelineStore, logger: Logger = Logger(label: "pipeline.deletions"),
        now: @escaping @Sendable () -> Int64
    ) {
        self.init(store: store, logger: logger, clock: PipelineClock(now: now))
    }

    /// The users whose deletion is still owed, from the audit and the users as they are now.
    public func owed() async throws -> [UserID] {
        var latest: [String: DeletionAudit] = [:]
        for audit in try await store.deletionAudits() { latest[audit.userHash] = audit } // in id order: last wins
        let failed = latest.filter { $0.value.status == .failed }
        guard !failed.isEmpty else { return [] }
        var owed: [UserID] = []
        let hasher = try await IdentifierHasher.resolve(store: store)
        for id in try await store.userIDs() {
            try Task.checkCancellation()
            // The keyed hash, or the unkeyed one of audits written before keyed hashes.
            guard let audit = failed[hasher.hash(id)] ?? failed[IdentifierHasher.legacyHash(id)],
                let user = try await store.user(id),
                user.createdAt <= audit.requestedAt
            else { continue }
            owed.append(id)
        }
        return owed
    }

    public func run() async throws -> DeletionRetrySummary {
        let runID = try await store.startJob(Self.jobName, at: now())
        do {
            let owed = try await owed()
            var completed = 0, failed = 0
            let deletion = UserDeletion(store: store, clock: clock)
            for id in owed {
                try Task.checkCancellation()
                do {
                    _ = try await deletion.delete(id)
                    completed += 1
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    failed += 1
                    logger.error("deletion retry failed", metadata: ["error": "\(error)"])
                }
            }
            let summary = DeletionRetrySummary(
                jobRunID: runID, owed: owed.count, completed: completed, failed: failed,
                status: failed == 0 ? .succeeded : .failed)
            try await store.finishJob(
                id: runID, status: failed == 0 ? .succeeded : .failed, at: now(),
                countsJSON: try NightlyJob.json(summary), watermark: nil)
            logger.info(
                "deletion retry finished",
                metadata: ["owed": "\(owed.count)", "completed": "\(completed)", "failed": "\(failed)"])
            return summary
        } catch {
            await JobRunEnd.record(error, runID: runID, store: store, at: now())
            throw error
        }
    }
}
