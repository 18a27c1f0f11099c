import Foundation
import Ingest
import Store
import Testing

@testable import Pipeline

/// One order for a user's work (`UserPipeline.Stage`), the same rows whichever driver takes the users through it, and
/// the run time a nightly computes "today" from is the injected clock's.
@Suite(.serialized) struct UserPipelineTests {
    @Test func theStagesRunInTheDocumentedOrder() {
        #expect(
            UserPipeline.Stage.allCases.map(\.rawValue) == [
                "sessions", "workout_records", "stats", "training_load", "plan", "clear_mark",
            ])
    }

    /// The nightly (analysis batched across users) and `UserPipeline.run` user by user after a plain ingest (what
    /// `pipeline recompute` and a worker do) leave the same rows.
    @Test(arguments: Backend.available)
    func theNightlyAndARunPerUserLeaveTheSameRows(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 4, days: 5, seed: 41, endDate: "2026-05-20", faultRate: 0))
        let clock = PipelineClock(now: { [now = inbox.now] in now })
        var nightlyDigest = ""
        try await withDatabase(backend, connections: 1) { stores in
            let summary = try await NightlyJob(store: stores[0], logger: quietLogger, clock: clock).run(
                inbox: inbox.root)
            #expect(summary.ingest.addsUp)
            nightlyDigest = try await stores[0].contentDigest()
        }
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            let report = try await InboxIngestor(store: store, logger: quietLogger, clock: clock).ingest(
                inbox: inbox.root)
            #expect(report.sessions.stored > 0)
            let marked = Set(try await store.usersPendingRecompute())
            let pipeline = UserPipeline(store: store, clock: clock, logger: quietLogger)
            var analysed = 0
            for user in try await store.userIDs().sorted() {
                let outcome = try #require(
                    try await UserLock.waiting(store, user) {
                        try await pipeline.run(user, force: false, marked: marked.contains(user))
                    })
                #expect(outcome.statsRecomputed)
                analysed += outcome.sessionsAnalysed
            }
            #expect(analysed == report.sessions.stored)
            #expect(try await store.usersPendingRecompute().isEmpty)
            #expect(try await store.contentDigest() == nightlyDigest)
        }
    }

    /// A nightly given a clock reads its run time from it: the job run's times, and each user's training-load series
    /// through that instant's day in the user's zone.
    @Test(arguments: Backend.available)
    func theNightlyReadsTheInjectedClock(backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 3, days: 4, seed: 43, endDate: "2026-02-10", faultRate: 0))
        // Nine days after the inbox's end, at 23:30 UTC: a different day in zones east of UTC.
        let at = RFC3339.parseMillis("2026-02-19T23:30:00Z")!
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            let summary = try await NightlyJob(store: store, logger: quietLogger, clock: PipelineClock(now: { at }))
                .run(inbox: inbox.root)
            #expect(summary.startedAt == "2026-02-19T23:30:00.000Z")
            #expect(summary.finishedAt == summary.startedAt)
            let users = try await store.userIDs()
            #expect(users.count == 3)
            for id in users {
                let user = try #require(try await store.user(id))
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.calendar = Calendar(identifier: .gregorian)
                formatter.timeZone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
                formatter.dateFormat = "yyyy-MM-dd"
                let today = formatter.string(from: Date(timeIntervalSince1970: Double(at) / 1000))
                let last = try #require(try await store.latestTrainingLoad(user: id, before: nil))
                #expect(last.date.iso == today)
            }
        }
    }
}
