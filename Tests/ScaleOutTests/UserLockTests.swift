import Foundation
import Ingest
import Store
import Synchronization
import Testing

@testable import Pipeline

/// The user lock keeps two recomputations of one user apart across connections (processes), not other users.
@Suite struct UserLockTests {
    @Test func theLockKeyIsStable() {
        // Fixed forever: processes of different releases must agree on it.
        #expect(userLockKey(UserID("user-0001")) == userLockKey(UserID("user-0001")))
        #expect(userLockKey(UserID("user-0001")) != userLockKey(UserID("user-0002")))
        // FNV-1a 64 of "user:alice", computed independently (Python).
        #expect(userLockKey(UserID("alice")) == 7_591_812_323_833_019_248)
    }

    @Test(arguments: Backend.available)
    func aSecondHolderSkipsOrWaitsAndOtherUsersAreFree(backend: Backend) async throws {
        try await withDatabase(backend, connections: 2) { stores in
            let (a, b) = (stores[0], stores[1])
            let alice = UserID("alice"), bob = UserID("bob")
            let entered = Flag()
            let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
            let (held, heldContinuation) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await a.withUserLock(alice, wait: false) {
                    heldContinuation.yield()
                    for await _ in release { break }
                    return "first"
                }
            }
            for await _ in held { break }
            // Held by the other connection: skipping returns nil at once; another user's lock is free.
            let second = try await b.withUserLock(alice, wait: false) { "second" }
            #expect(second == nil)
            let other = try await b.withUserLock(bob, wait: false) { "bob" }
            #expect(other == "bob")
            // Waiting: enters only after the holder let go.
            let waiter = Task {
                try await b.withUserLock(alice, wait: true) {
                    entered.set()
                    return "waited"
                }
            }
            #expect(entered.value == false)
            releaseContinuation.yield()
            let first = try await holder.value
            let waited = try await waiter.value
            #expect(first == "first")
            #expect(waited == "waited")
            #expect(entered.value)
            // Released after a throwing body too.
            struct Boom: Error {}
            do {
                _ = try await a.withUserLock(alice, wait: false) { () throws -> Int in throw Boom() }
                Issue.record("the body's error was not rethrown")
            } catch is Boom {}
            let free = try await b.withUserLock(alice, wait: false) { 1 }
            #expect(free == 1)
        }
    }

    @Test(arguments: Backend.available)
    func recomputeWhileANightlyWorkerHoldsTheUserIsSkipped(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 2, days: 4, seed: 5, endDate: "2026-03-10", faultRate: 0))
        try await withDatabase(backend, connections: 2) { stores in
            let now = inbox.now
            _ = try await NightlyJob(store: stores[0], logger: quietLogger, now: { now }).run(inbox: inbox.root)
            let user = try await stores[0].userIDs()[0]
            let before = try await stores[0].contentDigest()
            let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
            let (held, heldContinuation) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await stores[0].withUserLock(user, wait: true) {
                    heldContinuation.yield()
                    for await _ in release { break }
                }
            }
            for await _ in held { break }
            // What `pipeline recompute --user` does without --wait: nothing, and says so (exit 75).
            let recomputation = UserPipeline(store: stores[1], now: { now })
            let skipped = try await stores[1].withUserLock(user, wait: false) {
                try await recomputation.run(user, force: true, marked: true)
            }
            #expect(skipped == nil)
            releaseContinuation.yield()
            _ = try await holder.value
            let done = try await stores[1].withUserLock(user, wait: false) {
                try await recomputation.run(user, force: true, marked: true)
            }
            let outcome = try #require(done ?? nil)
            #expect(outcome.statsRecomputed)
            #expect(outcome.sessionsAnalysed == 0)
            // From scratch over the same data: the same rows.
            #expect(try await stores[1].contentDigest() == before)
        }
    }

    @Test(arguments: Backend.available)
    func aNightlyWaitsForARecomputeThatHoldsTheUser(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 2, days: 3, seed: 9, endDate: "2026-03-10", faultRate: 0))
        try await withDatabase(backend, connections: 2) { stores in
            let now = inbox.now
            _ = try await InboxIngestor(store: stores[0], logger: quietLogger, clock: PipelineClock(now: { now }))
                .ingest(inbox: inbox.root)
            let users = try await stores[0].userIDs().sorted()
            #expect(users.count == 2)
            let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
            let (held, heldContinuation) = AsyncStream<Void>.makeStream()
            // `pipeline recompute --user` (or the API's recompute) holds the first user in another process.
            let holder = Task {
                try await stores[0].withUserLock(users[0], wait: true) {
                    heldContinuation.yield()
                    for await _ in release { break }
                }
            }
            for await _ in held { break }
            let statsDone = Flag()
            let nightly = Task {
                try await NightlyJob(
                    store: stores[1], logger: quietLogger, now: { now },
                    progress: { phase, done, total in
                        if phase == .stats, done == total { statsDone.set() }
                    }
                ).run(inbox: nil)
            }
            // Room for the nightly to get as far as it can; it must not recompute the held user meanwhile.
            try await Task.sleep(for: .milliseconds(500))
            #expect(statsDone.value == false)
            #expect(try await stores[1].userStats(users[0]) == nil)
            releaseContinuation.yield()
            _ = try await holder.value
            let summary = try await nightly.value
            #expect(statsDone.value)
            #expect(summary.usersRecomputed == 2)
            #expect(try await stores[1].userStats(users[0]) != nil)
        }
    }

    @Test(arguments: Backend.available)
    func recomputeFromScratchMeasuresEverySessionAgain(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 3, days: 6, seed: 11, endDate: "2026-03-10", faultRate: 0))
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0], now = inbox.now
            _ = try await NightlyJob(store: store, logger: quietLogger, now: { now }).run(inbox: inbox.root)
            // A rider with power-based TSS.
            var rider: (User, [SessionMetricsRecord])?
            for id in try await store.userIDs().sorted() {
                guard let user = try await store.user(id), user.profile.ftpW != nil else { continue }
                let powered = try await store.sessionMetrics(user: id).filter { $0.avgPowerW != nil && $0.tss != nil }
                if !powered.isEmpty { rider = (user, powered); break }
            }
            let (user, before) = try #require(rider)
            var faster = user
            faster.profile.ftpW = user.profile.ftpW! * 2
            try await store.upsertUser(faster)
            let recomputation = UserPipeline(store: store, now: { now })
            // Only what is missing: the stored TSS stays as it was.
            _ = try await recomputation.run(user.id, force: true, marked: false)
            let unchanged = Dictionary(
                uniqueKeysWithValues: try await store.sessionMetrics(user: user.id).map { ($0.sessionID, $0.tss) })
            for m in before { #expect(unchanged[m.sessionID] == m.tss) }
            // From scratch: TSS = t · NP · IF / (FTP · 3600) · 100 with IF = NP / FTP, so doubling FTP quarters it.
            let outcome = try #require(
                try await recomputation.run(user.id, force: true, marked: false, reanalyse: true))
            #expect(outcome.sessionsAnalysed == (try await store.sessionCount(user: user.id)))
            let after = Dictionary(
                uniqueKeysWithValues: try await store.sessionMetrics(user: user.id).map { ($0.sessionID, $0) })
            for m in before {
                let again = try #require(after[m.sessionID])
                #expect(again.avgPowerW == m.avgPowerW)
                #expect(abs(try #require(again.tss) - m.tss! / 4) < 1e-6 * max(1, m.tss!))
            }
        }
    }
}

/// A flag set from another task.
final class Flag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var value: Bool { state.withLock { $0 } }
}
