import Foundation
import Ingest
import Store
import Synchronization
import Testing

@testable import Pipeline

/// A user slower than a lease (issue 43): the heartbeat renews the worker's leases while the user works, so no other
/// worker takes the user over and the work is done once; with the heartbeat off, the same slow user loses its lease.
@Suite(.serialized) struct LeaseHeartbeatTests {
    /// A lease of 3 s renewed every 250 ms: the heartbeat may be late by 2.75 s (a loaded machine: the test suite's
    /// other tests, a build beside it) before the lease could lapse. A lease of 1.5 s renewed every 0.5 s (its third,
    /// the default) failed now and then under such load.
    static let leaseMillis: Int64 = 3_000
    static let heartbeatMillis: Int64 = 250
    static let slowMillis = 6_000 // two leases: without the heartbeat, 3 s for the other worker to take the user over

    /// Worker `slow` (with the inbox) takes one user at a time and spends `slowMillis` inside its first user's lock;
    /// worker `fast` starts once that user is under way and does the others, then waits for the slow one's lease.
    /// Both run on a clock that starts at the inbox's "now" and moves in real time.
    static func race(_ backend: Backend, heartbeat: Bool) async throws -> (
        slow: WorkerSummary, fast: WorkerSummary, users: Int, digest: String, reference: String
    ) {
        let inbox = try Inbox(.init(users: 4, days: 4, seed: 4343, endDate: "2026-10-12", faultRate: 0))
        let reference = try await SharedRunTests.referenceDigest(backend, inbox)
        var result: (WorkerSummary, WorkerSummary, Int, String)?
        try await withDatabase(backend, connections: 2) { stores in
            let started = Date().epochMillis, base = inbox.now
            let now: @Sendable () -> Int64 = { base + (Date().epochMillis - started) }
            let slowUserStarted = Atomic<Bool>(false)
            func configuration(_ name: String) -> NightlyWorker.Configuration {
                var configuration = NightlyWorker.Configuration(worker: WorkerID(name), runKey: "heartbeat-run")
                configuration.claimBatch = 1
                configuration.concurrency = 1
                configuration.leaseMillis = Self.leaseMillis
                configuration.pollMillis = 50
                configuration.heartbeatMillis = heartbeat ? Self.heartbeatMillis : 0
                return configuration
            }
            var slowConfiguration = configuration("slow")
            slowConfiguration.beforeUserWork = { _ in
                if !slowUserStarted.exchange(true, ordering: .sequentiallyConsistent) {
                    try await Task.sleep(for: .milliseconds(Self.slowMillis))
                }
            }
            let slow = try NightlyWorker(
                store: stores[0], configuration: slowConfiguration, logger: quietLogger, now: now)
            let fast = try NightlyWorker(
                store: stores[1], configuration: configuration("fast"), logger: quietLogger, now: now)
            let slowRun = Task { try await slow.run(inbox: inbox.root) }
            while !slowUserStarted.load(ordering: .sequentiallyConsistent) {
                try await Task.sleep(for: .milliseconds(10))
            }
            let fastSummary = try await fast.run(inbox: nil)
            let slowSummary = try await slowRun.value
            result = (
                slowSummary, fastSummary, try await stores[0].userIDs().count, try await stores[0].contentDigest()
            )
        }
        let (slow, fast, users, digest) = try #require(result)
        return (slow, fast, users, digest, reference)
    }

    @Test(arguments: Backend.available) func aSlowUserKeepsItsLeaseWhileItWorks(backend: Backend) async throws {
        let r = try await Self.race(backend, heartbeat: true)
        #expect(r.users == 4)
        #expect(r.slow.leasesLost == 0 && r.fast.leasesLost == 0)
        #expect(r.slow.usersTakenOver == 0 && r.fast.usersTakenOver == 0)
        // Each user done exactly once, the slow one by the slow worker, and the fast worker waited for it.
        #expect(r.slow.usersProcessed + r.fast.usersProcessed == r.users)
        #expect(r.slow.usersProcessed >= 1)
        #expect(r.slow.runFinished || r.fast.runFinished)
        #expect(r.digest == r.reference)
    }

    /// The same race with the heartbeat off (leases renewed only as users end): the slow user's lease expires while it
    /// works, the user is claimed again (by the fast worker when it is free, else by the slow worker itself once its
    /// completion is refused) and done a second time. The result is still right (the user's lock keeps the two apart),
    /// but the work is done twice: what the heartbeat prevents.
    @Test(arguments: Backend.available) func withoutTheHeartbeatTheSlowUserLosesItsLeaseAndIsDoneTwice(backend: Backend)
        async throws
    {
        let r = try await Self.race(backend, heartbeat: false)
        #expect(r.slow.leasesLost == 1)
        #expect(r.slow.usersTakenOver + r.fast.usersTakenOver == 1)
        #expect(r.slow.usersProcessed + r.fast.usersProcessed == r.users)
        #expect(r.digest == r.reference)
    }
}
