import Foundation
import Ingest
import Store
import Synchronization
import Testing

@testable import Pipeline

/// Several workers sharing one nightly run over one database leave exactly what one nightly run leaves.
@Suite(.serialized) struct SharedRunTests {
    /// The digest of a plain single-process `NightlyJob.run` over `inbox` on a fresh database of `backend`.
    static func referenceDigest(_ backend: Backend, _ inbox: Inbox) async throws -> String {
        var digest = ""
        try await withDatabase(backend, connections: 1) { stores in
            let now = inbox.now
            let summary = try await NightlyJob(store: stores[0], logger: quietLogger, now: { now }).run(
                inbox: inbox.root)
            #expect(summary.ingest.addsUp)
            digest = try await stores[0].contentDigest()
        }
        return digest
    }

    static func worker(
        _ store: CoordinatedStore, _ name: String, now: @escaping @Sendable () -> Int64,
        sleep: @escaping @Sendable (Int64) async throws -> Void = { _ in await Task.yield() }
    ) throws -> NightlyWorker {
        var configuration = NightlyWorker.Configuration(worker: WorkerID(name), runKey: "test-run")
        configuration.claimBatch = 2
        configuration.concurrency = 2
        configuration.leaseMillis = 60_000
        return try NightlyWorker(
            store: store, configuration: configuration, logger: quietLogger, now: now, sleep: sleep)
    }

    @Test(arguments: Backend.available, [1, 2, 3])
    func workersRacingOverOneDatabaseLeaveWhatOneNightlyRunLeaves(backend: Backend, workers: Int) async throws {
        let inbox = try Inbox(.init(users: 6, days: 6, seed: 808, endDate: "2026-10-30", faultRate: 0.1))
        let reference = try await Self.referenceDigest(backend, inbox)
        try await withDatabase(backend, connections: workers) { stores in
            let now = inbox.now
            // Every worker ingests the same inbox (the ledger stores each batch once), then they share the users.
            let summaries = try await withThrowingTaskGroup(of: WorkerSummary.self) { group in
                for (i, store) in stores.enumerated() {
                    let worker = try Self.worker(store, "w\(i + 1)", now: { now })
                    group.addTask { try await worker.run(inbox: inbox.root) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let users = try await stores[0].userIDs().count
            #expect(users >= 6)
            #expect(summaries.allSatisfy { $0.runFinished && $0.status == .succeeded })
            #expect(summaries.filter(\.openedRun).count == 1)
            #expect(Set(summaries.map(\.runID)).count == 1)
            // Every user completed at least once. While the workers' ingests overlap, a user whose data a later joiner
            // stored after the user was claimed or done is queued again with a new generation (the older claim is lost,
            // or the user is completed once more): each joiner but the run's creator requeues a user at most once, so
            // no user has more than `workers` generations, each ending in one completion or one lost lease.
            let processed = summaries.map(\.usersProcessed).reduce(0, +)
            let lost = summaries.map(\.leasesLost).reduce(0, +)
            #expect(processed >= users)
            #expect(processed + lost <= users * workers)
            if workers == 1 { #expect(processed == users && lost == 0) }
            #expect(summaries.map(\.usersTakenOver).reduce(0, +) >= summaries.map(\.leasesLost).reduce(0, +))
            // Each batch stored once: the sessions stored by all workers add up to one run's.
            let stored = summaries.compactMap(\.ingest).map(\.sessions.stored).reduce(0, +)
            #expect(stored == inbox.manifest.users.reduce(0) { $0 + $1.sessions.count })
            let progress = try await stores[0].runProgress(run: summaries[0].runID, at: now)
            #expect(progress == SharedRunProgress(claimable: 0, leased: 0, done: users, nextExpiry: nil))
            #expect(try await stores[0].usersPendingRecompute().isEmpty)
            #expect(try await stores[0].contentDigest() == reference)
        }
    }

    @Test(arguments: Backend.available, [2, 4])
    func workersSharingTheUsersOfAnIngestedInboxDoEachUserExactlyOnce(backend: Backend, workers: Int) async throws {
        let inbox = try Inbox(.init(users: 8, days: 4, seed: 31, endDate: "2026-06-30", faultRate: 0.05))
        let reference = try await Self.referenceDigest(backend, inbox)
        try await withDatabase(backend, connections: workers) { stores in
            let now = inbox.now
            _ = try await InboxIngestor(store: stores[0], logger: quietLogger, clock: PipelineClock(now: { now }))
                .ingest(inbox: inbox.root)
            let summaries = try await withThrowingTaskGroup(of: WorkerSummary.self) { group in
                for (i, store) in stores.enumerated() {
                    let worker = try Self.worker(store, "w\(i + 1)", now: { now })
                    group.addTask { try await worker.run(inbox: nil) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let users = try await stores[0].userIDs().count
            // Nobody died and no data arrived meanwhile: every user claimed once, by one worker, and completed.
            #expect(summaries.map(\.usersProcessed).reduce(0, +) == users)
            #expect(summaries.map(\.usersTakenOver).reduce(0, +) == 0)
            #expect(summaries.map(\.leasesLost).reduce(0, +) == 0)
            #expect(summaries.allSatisfy { $0.runFinished })
            #expect(try await stores[0].contentDigest() == reference)
        }
    }

    @Test(arguments: Backend.available)
    func aWorkerDyingMidLeaseIsTakenOverAfterExpiryAndTheResultEqualsACleanRun(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 5, days: 6, seed: 4242, endDate: "2026-09-14", faultRate: 0.05))
        let reference = try await Self.referenceDigest(backend, inbox)
        try await withDatabase(backend, connections: 2) { stores in
            let start = inbox.now
            let dead = WorkerID("dead-worker")
            // The dying worker: ingests, opens the run, claims three users, finishes the first of them (its rows are
            // written) but is killed before marking it done, and never comes back for the other two.
            let deadStore = stores[0]
            let report = try await InboxIngestor(
                store: deadStore, logger: quietLogger, clock: PipelineClock(now: { start })
            ).ingest(
                inbox: inbox.root)
            let run = try await deadStore.joinRun(
                job: NightlyWorker.sharedJob, key: "test-run", worker: dead, scope: .changed,
                requeue: report.touchedUsers, at: start)
            #expect(run.created)
            let claimed = try await deadStore.claimUsers(
                run: run.id, worker: dead, limit: 3, at: start, leaseMillis: 60_000)
            #expect(claimed.count == 3)
            let marked = Set(try await deadStore.usersPendingRecompute())
            _ = try await UserPipeline(store: deadStore, now: { start })
                .run(claimed[0].user, force: false, marked: marked.contains(claimed[0].user))

            // The survivor starts a second later on its own connection, does everyone else, then waits; its waits
            // move the clock; once the dead worker's leases have expired it takes those users over.
            let clock = ManualClock(start + 1_000)
            var sleeps: [Int64] = []
            let sleptWhileLeased = SleepLog()
            let survivor = try Self.worker(
                stores[1], "survivor", now: { clock.now },
                sleep: { millis in
                    sleptWhileLeased.record(clock.now)
                    clock.advance(millis)
                })
            let summary = try await survivor.run(inbox: nil)
            sleeps = sleptWhileLeased.times
            let users = try await stores[1].userIDs().count
            #expect(!run.created || summary.openedRun == false)
            #expect(summary.runFinished)
            #expect(summary.usersProcessed == users)
            #expect(summary.usersTakenOver == 3)
            // It waited, and took nothing over before the leases expired.
            #expect(!sleeps.isEmpty)
            #expect(sleeps.allSatisfy { $0 < claimed[0].expiresAt })
            #expect(clock.now >= claimed[0].expiresAt)
            // The dead worker, were it to come back, cannot complete what it lost.
            #expect(
                try await deadStore.completeUser(run: run.id, worker: dead, lease: claimed[0], at: clock.now) == false)
            #expect(try await stores[1].contentDigest() == reference)
        }
    }

    @Test(arguments: Backend.available)
    func aLateJoinerQueuesTheUsersItsIngestAddedOrChanged(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 3, days: 5, seed: 99, endDate: "2026-08-01", faultRate: 0))
        let reference = try await Self.referenceDigest(backend, inbox)
        try await withDatabase(backend, connections: 2) { stores in
            let now = inbox.now
            // A worker without an inbox opens the run on an empty store and finds nothing to do; a worker with the
            // inbox joins the same run later: the users its ingest added are queued and processed.
            let early = try await Self.worker(stores[0], "early", now: { now }).run(inbox: nil)
            #expect(early.usersProcessed == 0 && early.runFinished)
            let late = try await Self.worker(stores[1], "late", now: { now }).run(inbox: inbox.root)
            #expect(late.runID == early.runID && !late.openedRun)
            let users = try await stores[1].userIDs()
            #expect(late.usersProcessed == users.count)
            #expect(try await stores[1].contentDigest() == reference)

            // New data for a user already done (here: a join that says so) queues it again with a new generation;
            // the next worker does that user only, and a lease of the old generation can no longer complete it.
            let again = try await stores[0].joinRun(
                job: NightlyWorker.sharedJob, key: "test-run", worker: WorkerID("ingester"),
                scope: .changed, requeue: [users[0]], at: now)
            #expect(again.id == early.runID && !again.created)
            let third = try await Self.worker(stores[0], "third", now: { now }).run(inbox: nil)
            #expect(third.usersProcessed == 1 && third.runFinished)
            let old = UserLease(user: users[0], generation: 1, expiresAt: now + 60_000, attempt: 1)
            #expect(
                try await stores[0].completeUser(run: early.runID, worker: WorkerID("late"), lease: old, at: now)
                    == false)
            #expect(try await stores[0].contentDigest() == reference)
        }
    }
}

/// Times at which a fake sleep was called.
final class SleepLog: Sendable {
    private let log = Mutex<[Int64]>([])
    func record(_ at: Int64) { log.withLock { $0.append(at) } }
    var times: [Int64] { log.withLock { $0 } }
}
