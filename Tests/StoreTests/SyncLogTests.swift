import Foundation
import PostgresNIO
import Store
import TestKit
import Testing

@testable import StorePostgres
@testable import StoreSQLite

/// The change log of migration 0012 and the keyset paging of sessions, on every backend: what the apps' delta sync
/// (`GET /v1/me/changes`) and list (`GET /v1/me/sessions?cursor=`) rest on.
@Suite struct SyncLogTests {
    static let bob = UserID("bob")

    static func sessionID(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    static func store(_ s: StoredSession) -> IngestUnit {
        IngestUnit(sessions: [
            SessionCandidate(session: s, conflictQuarantine: Fixtures.quarantine(key: s.sessionID.rawValue))
        ])
    }

    /// `changes`, waiting until at least `count` have settled: on PostgreSQL a change is handed out once every
    /// transaction older than it has ended, and other tests' transactions on the same server can hold that back a moment.
    static func changes(
        _ store: any PipelineStore, _ user: UserID = Fixtures.alice, after cursor: ChangeCursor?, limit: Int = 100,
        count: Int
    ) async throws -> [Change] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let changes = try await store.changes(user: user, after: cursor, limit: limit)
            if changes.count >= count || ContinuousClock.now > deadline { return changes }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func stats(count: Int) -> UserStats {
        UserStats(
            workoutTotalCount: count, workoutTotalEnergy: 0, workoutTotalDistance: 0, workoutTotalDuration: 0,
            workoutStreak: 0, longestStreak: 0, lastWorkoutDate: nil)
    }

    /// Every kind of change, each item once at its last change, in commit order; another user's changes never show.
    @Test(arguments: Backend.available) func changesComeInCommitOrderOncePerItem(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let store = t.store
            try await store.upsertUser(Fixtures.user())
            try await store.upsertUser(Fixtures.user(Self.bob))
            #expect(try await store.changes(user: Fixtures.alice, after: nil, limit: 100).isEmpty)

            let s1 = Fixtures.session(Self.sessionID(1), start: 1_766_570_400_000)
            let s2 = Fixtures.session(Self.sessionID(2), start: 1_766_656_800_000)
            _ = try await store.apply(Self.store(s1))
            _ = try await store.apply(Self.store(s2))
            _ = try await store.apply(Self.store(Fixtures.session(Self.sessionID(3), user: Self.bob)))
            _ = try await store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(
                        workout: Fixtures.workout("hk-1", version: 1),
                        conflictQuarantine: Fixtures.quarantine(key: "w"))
                ]))
            try await store.putUserStats(
                UserStatsRecord(userID: Fixtures.alice, stats: Self.stats(count: 2), computedAt: 10))
            _ = try await store.appendPlan(user: Fixtures.alice, generatedAt: 20, state: .ready, documentJSON: "{}")

            let all = try await Self.changes(store, after: nil, count: 5)
            try #require(all.count == 5)
            #expect(all.map(\.kind) == [.session, .session, .workout, .stats, .plan])
            #expect(all.map(\.itemID) == [s1.sessionID.rawValue, s2.sessionID.rawValue, "hk-1", "", "1"])
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
            guard case .session(let first, let metrics) = all[0].item else { Issue.record("not a session"); return }
            #expect(first.sessionID == s1.sessionID && first.raw == nil && metrics == nil)
            #expect(try await Self.changes(store, Self.bob, after: nil, count: 1).map(\.itemID) == [Self.sessionID(3)])

            // Paging: two at a time from the start, then from each page's last cursor, gives the same entries.
            var paged: [Change] = []
            var cursor: ChangeCursor? = nil
            while true {
                let page = try await store.changes(user: Fixtures.alice, after: cursor, limit: 2)
                if page.isEmpty { break }
                paged += page
                cursor = page.last!.cursor
            }
            #expect(paged == all)
            let end = try #require(cursor)

            // The same figures again are no change; new figures, a measured session, a deleted workout and a plan are.
            try await store.putUserStats(
                UserStatsRecord(userID: Fixtures.alice, stats: Self.stats(count: 2), computedAt: 30))
            #expect(try await store.changes(user: Fixtures.alice, after: end, limit: 100).isEmpty)
            let measured = SessionMetricsRecord(
                userID: Fixtures.alice, sessionID: s1.sessionID, localDate: LocalDate(iso: "2025-12-24")!,
                sport: "bike",
                durationS: 1800, distanceM: 15000, energyKcal: 300, avgPowerW: 180, avgHRBpm: 140,
                tss: 45.5, metricsJSON: "{\"tss\":45.5}", flags: [], computedAt: 5)
            try await store.putSessionMetrics(measured)
            _ = try await store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(
                        workout: Fixtures.workout("hk-1", version: 2, deleted: true),
                        conflictQuarantine: Fixtures.quarantine(key: "w2"))
                ]))
            try await store.recordAppStats(user: Fixtures.alice, stats: Self.stats(count: 3), at: 40)
            _ = try await store.appendPlan(user: Fixtures.alice, generatedAt: 50, state: .ready, documentJSON: "{}")
            let later = try await Self.changes(store, after: end, count: 4)
            try #require(later.count == 4)
            #expect(later.map(\.kind) == [.session, .workout, .stats, .plan])
            #expect(later.map(\.itemID) == [s1.sessionID.rawValue, "hk-1", "", "2"])
            if case .session(_, let metrics) = later[0].item {
                #expect(metrics == measured)
            } else {
                Issue.record("not a session")
            }
            if case .workout(let w) = later[1].item { #expect(w.deleted) } else { Issue.record("not a workout") }
            if case .stats(let s) = later[2].item {
                #expect(s.appReported == Self.stats(count: 3))
            } else {
                Issue.record("not stats")
            }
            // Each item is in the log once, at its last change: the whole log has s2, s1, hk-1, stats, plan 1, plan 2.
            let whole = try await Self.changes(store, after: nil, count: 6)
            #expect(whole.map(\.itemID) == [s2.sessionID.rawValue, "1", s1.sessionID.rawValue, "hk-1", "", "2"])

            // Deleting the user takes the log with it.
            _ = try await store.deleteUser(
                Fixtures.alice, userHash: String(repeating: "0", count: 64), requestedAt: 60, completedAt: 61)
            #expect(try await store.changeLog(user: Fixtures.alice, after: nil, limit: 100).isEmpty)
            #expect(try await Self.changes(store, Self.bob, after: nil, count: 1).count == 1)
        }
    }

    /// Keyset pages: newest start first, then id; a page goes on after the last session seen, so sessions stored
    /// between two pages neither shift nor repeat what follows.
    @Test(arguments: Backend.available) func keysetPagesDoNotShiftWhenSessionsArrive(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let store = t.store
            try await store.upsertUser(Fixtures.user())
            // Seven sessions, two of them starting at the same instant (the id breaks the tie).
            let starts: [Int64] = [1_000, 2_000, 3_000, 3_000, 4_000, 5_000, 6_000].map {
                1_766_000_000_000 + $0 * 1_000
            }
            for (n, start) in starts.enumerated() {
                _ = try await store.apply(Self.store(Fixtures.session(Self.sessionID(n + 1), start: start)))
            }
            let expected = try await store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 100).map(
                \.sessionID)
            #expect(expected.map(\.rawValue) == [7, 6, 5, 3, 4, 2, 1].map(Self.sessionID))

            var seen: [SessionID] = []
            var key: SessionPageKey? = nil
            var pages = 0
            while true {
                let page = try await store.sessionSummaries(user: Fixtures.alice, after: key, limit: 3)
                if page.isEmpty { break }
                #expect(page.allSatisfy { $0.raw == nil })
                seen += page.map(\.sessionID)
                key = SessionPageKey(startedAt: page.last!.startedAt, sessionID: page.last!.sessionID)
                pages += 1
                // A newer session arrives after the first page: offset paging would repeat a session, keyset does not.
                if pages == 1 {
                    _ = try await store.apply(
                        Self.store(Fixtures.session(Self.sessionID(99), start: 1_766_100_000_000)))
                }
            }
            #expect(seen == expected)
            let ids = try await store.sessionSummaries(
                user: Fixtures.alice,
                ids: [
                    SessionID(rawValue: Self.sessionID(2)),
                    SessionID(rawValue: Self.sessionID(98)),
                ])
            #expect(ids.map(\.sessionID.rawValue) == [Self.sessionID(2)])
        }
    }

    /// PostgreSQL: a transaction that wrote before another one but commits after it. The reader must not move its
    /// cursor past the later one's change while the earlier one is open, or the earlier change would be skipped.
    @Test(.enabled(if: TestPostgres.included, "PIPELINE_TEST_POSTGRES_URL is not set"))
    func aChangeCommittedLateIsNotSkipped() async throws {
        try await withTestStore(.postgres) { t in
            guard case .postgres(let store, _) = t.kind else { return }
            try await store.upsertUser(Fixtures.user())
            let opened = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            // The slow writer: stores session 1 and stays open until released.
            let slow = Task {
                try await store.write("test slow writer") { db in
                    _ = try await PostgresStore.insertSessions(
                        [
                            SessionCandidate(
                                session: Fixtures.session(Self.sessionID(1)), conflictQuarantine: Fixtures.quarantine())
                        ], db)
                    opened.continuation.yield()
                    for await _ in release.stream { break }
                }
            }
            for await _ in opened.stream { break }
            // A quick writer commits session 2 meanwhile.
            _ = try await store.apply(Self.store(Fixtures.session(Self.sessionID(2), start: 1_766_656_800_000)))
            let during = try await store.changes(user: Fixtures.alice, after: nil, limit: 100)
            #expect(during.isEmpty, "nothing after the open transaction's position may be handed out yet")
            release.continuation.yield()
            try await slow.value
            let after = try await Self.changes(store, after: during.last?.cursor, count: 2)
            #expect(Set(after.map(\.itemID)) == [Self.sessionID(1), Self.sessionID(2)])
            #expect(after.count == 2)
        }
    }
}
