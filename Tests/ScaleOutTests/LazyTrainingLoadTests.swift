import CivilDate
import Foundation
import Report
import Store
import Testing
import WorkoutMetrics

@testable import Pipeline

/// Issue 43, item 1: the training-load series is extended lazily. A night with nothing new writes nothing for idle
/// users, and every read — `pipeline plan load` and the report's load series (`LoadService.series`), `GET
/// /v1/me/stats`' training load (`LoadService.latest`), the report's figures (`ReportService.input`, rendered) — answers
/// exactly what it answered when the nightly wrote a row per user per day (the "eager" store, rebuilt here by the old
/// extension step, verbatim), on each backend.
@Suite struct LazyTrainingLoadTests {
    static let alice = User(
        id: UserID("alice"), timeZone: "Europe/Berlin",
        profile: TrainingProfile(sex: .male, maxHR: 190, restingHR: 50, lthr: 172), createdAt: 0)
    static let bob = User(
        id: UserID("bob"), timeZone: "America/New_York",
        profile: TrainingProfile(sex: .female, maxHR: 185, restingHR: 55, lthr: 165), createdAt: 0)
    /// No workouts: no series.
    static let carol = User(id: UserID("carol"), timeZone: "Asia/Tokyo", createdAt: 0)
    static let users = [alice, bob, carol]

    static func millis(_ text: String) -> Int64 {
        Int64(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1000)
    }

    /// A summary-only run at 12:00 UTC on `date` (the same local date in Berlin and New York).
    static func run(_ user: User, _ id: String, on date: String, avgHR: Double, seconds: Double) -> WorkoutRecord {
        let start = millis(date + "T12:00:00Z")
        return WorkoutRecord(
            userID: user.id, workoutID: WorkoutID(id), source: .garmin, activityType: "running",
            startAt: start, endAt: start + Int64(seconds * 1000), durationS: seconds, distanceM: seconds * 3,
            energyKcal: seconds / 6, avgHR: avgHR, maxHR: nil, elevationGainM: nil,
            timeZone: user.timeZone, samplesJSON: nil, updatedAt: 1, deleted: false, contentHash: "\(id)-1")
    }

    static func arrive(_ store: any PipelineStore, _ workouts: [WorkoutRecord]) async throws {
        _ = try await store.apply(
            IngestUnit(
                workouts: workouts.map {
                    WorkoutCandidate(
                        workout: $0,
                        conflictQuarantine: QuarantineRecord(
                            userID: $0.userID, source: "test", sourceKey: $0.workoutID.rawValue, recordID: nil,
                            reasonCode: .rejected(.conflict), message: "", payload: [], receivedAt: 0,
                            quarantinedAt: 0))
                }))
    }

    /// The night's run at 22:00 UTC (23:00 in Berlin, 17:00/18:00 in New York: the same local date in both).
    static func nightAt(_ date: String) -> Int64 { millis(date + "T22:00:00Z") }

    /// What the nightly did for every user nobody touched before issue 43 (`LoadService.extend`, removed): rest days
    /// from the last stored day's state through the user's today, written. Kept here to build the eager store.
    static func eagerExtend(_ store: any PipelineStore, _ user: User, at millis: Int64) async throws -> Int {
        let today = LoadService.today(for: user, at: millis)
        guard let last = try await store.latestTrainingLoad(user: user.id, before: nil),
            let state = try? JSONDecoder().decode(TrainingLoad.State.self, from: Data(last.stateJSON.utf8))
        else { return 0 }
        let lastDate = last.date
        guard lastDate < today else { return 0 }
        let records = try LoadService.records(
            TrainingLoad.steps(after: state, dailyLoads: [:], through: today), user: user.id, computedAt: millis)
        try await store.replaceTrainingLoad(user: user.id, from: lastDate.adding(days: 1), days: records)
        return records.count
    }

    /// Three weeks of nights: workouts for Alice and Bob in the first week, one more for Bob on the 11th, nothing
    /// else. `eager`: after each night every user the night did not recompute gets the old rest-day extension.
    /// Returns the rows written by the nightly on each night with nothing new.
    static func fill(_ store: any PipelineStore, eager: Bool) async throws -> [Int] {
        for user in users { try await store.upsertUser(user) }
        try await arrive(
            store,
            [
                run(alice, "a1", on: "2026-03-01", avgHR: 150, seconds: 3600),
                run(alice, "a2", on: "2026-03-03", avgHR: 160, seconds: 1800),
                run(alice, "a3", on: "2026-03-05", avgHR: 165, seconds: 2400),
                run(bob, "b1", on: "2026-03-02", avgHR: 150, seconds: 3000),
                run(bob, "b2", on: "2026-03-04", avgHR: 140, seconds: 5400),
            ])
        var idleNights: [Int] = []
        var day = LocalDate(iso: "2026-03-05")!
        while day <= LocalDate(iso: "2026-03-20")! {
            if day.iso == "2026-03-11" {
                try await arrive(store, [run(bob, "b3", on: "2026-03-11", avgHR: 155, seconds: 2700)])
            }
            let at = nightAt(day.iso)
            let summary = try await NightlyJob(store: store, logger: quietLogger, now: { at }, concurrency: 1).run(
                inbox: nil)
            #expect(summary.status == .succeeded)
            if summary.usersRecomputed == 0 { idleNights.append(summary.trainingLoadDays) }
            if eager {
                for user in users where day.iso != "2026-03-05" && !(day.iso == "2026-03-11" && user.id == bob.id) {
                    _ = try await eagerExtend(store, user, at: at)
                }
            }
            day = day.adding(days: 1)
        }
        return idleNights
    }

    /// Every answer the issue names, as text, read at `now`.
    static func answers(_ store: any PipelineStore, now: Int64) async throws -> [String: String] {
        let clock: @Sendable () -> Date = { Date(epochMillis: now) }
        let load = LoadService(store: store, now: clock)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func text(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        var out: [String: String] = [:]
        for user in users {
            let id = user.id.rawValue
            let today = LoadService.today(for: user, at: now)
            // `pipeline plan load` without and with a window (into the days after the last workout, and past today).
            out["\(id) series all"] = try text(try await load.series(user.id, from: nil, to: nil))
            out["\(id) series window"] = try text(
                try await load.series(user.id, from: LocalDate(iso: "2026-03-03"), to: LocalDate(iso: "2026-03-17")))
            out["\(id) series past today"] = try text(
                try await load.series(user.id, from: LocalDate(iso: "2026-03-10"), to: LocalDate(iso: "2026-04-30")))
            // GET /v1/me/stats' training_load: today's values.
            let latest = try await load.latest(user.id, today: today)
            out["\(id) latest"] = try latest.map { try text($0.day) + " \($0.sessionsWithLoad)" } ?? "none"
            // The report (its load chart, the calendar's year of loads, the stats): input and rendered page.
            let report = ReportService(store: store, now: clock)
            let input = try await report.input(user.id)
            out["\(id) report load days"] = "\(input.loadDays)"
            out["\(id) report year loads"] = "\(input.yearLoads)"
            out["\(id) report html"] = ReportPage.html(input)
            let old = try await report.input(user.id, from: "2026-02-01", to: "2026-03-31")
            out["\(id) report window html"] = ReportPage.html(old)
        }
        return out
    }

    @Test(arguments: Backend.available) func readsAreTheEagerStoresAndIdleNightsWriteNothing(_ backend: Backend)
        async throws
    {
        let now = Self.nightAt("2026-03-20") + 600_000
        var eager: (answers: [String: String], digest: String, rows: Int) = ([:], "", 0)
        try await withDatabase(backend, connections: 1) { stores in
            _ = try await Self.fill(stores[0], eager: true)
            eager = (
                try await Self.answers(stores[0], now: now), try await stores[0].contentDigest(),
                try await stores[0].tableCounts()["training_load"] ?? 0
            )
        }
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            let idle = try await Self.fill(store, eager: false)
            // Fourteen nights of the sixteen touched nobody (the first is a full pass, the 11th recomputes Bob): no
            // training-load row written on any of them.
            #expect(idle.count == 14)
            #expect(idle.allSatisfy { $0 == 0 })
            let lazy = try await Self.answers(store, now: now)
            #expect(lazy.keys.sorted() == eager.answers.keys.sorted())
            for key in eager.answers.keys.sorted() {
                #expect(lazy[key] == eager.answers[key], "\(key)")
            }
            // The digest covers the rows through each user's last day with load: the same for both stores.
            #expect(try await store.contentDigest() == eager.digest)
            // Stored: Alice 1–5 March, Bob 2–11 March (the night of the 11th recomputed him through his today);
            // the eager store had both through the 20th.
            let rows = try await store.tableCounts()["training_load"] ?? 0
            #expect(rows == 5 + 10)
            #expect(eager.rows == 20 + 19)

            // Independently of the pipeline's code: the served days after each user's last stored day follow the
            // recurrence with load 0, run here day by day, bit for bit; TSB is yesterday's CTL − ATL.
            let kCTL = 1 - exp(-1.0 / 42), kATL = 1 - exp(-1.0 / 7)
            for user in [Self.alice, Self.bob] {
                let stored = try await store.trainingLoad(user: user.id, from: nil, to: nil)
                let last = try #require(stored.last)
                let served = try await LoadService(store: store, now: { Date(epochMillis: now) }).series(
                    user.id, from: nil, to: nil
                ).days
                #expect(served.last?.date.iso == "2026-03-20")
                var ctl = last.ctl, atl = last.atl
                let after = served.filter { $0.date > last.date }
                #expect(!after.isEmpty)
                for day in after {
                    #expect(day.tsb == ctl - atl, "\(user.id.rawValue) \(day.date.iso) tsb")
                    ctl = ctl + kCTL * (0 - ctl)
                    atl = atl + kATL * (0 - atl)
                    #expect(day.dailyLoad == 0)
                    #expect(day.ctl == ctl, "\(user.id.rawValue) \(day.date.iso) ctl")
                    #expect(day.atl == atl, "\(user.id.rawValue) \(day.date.iso) atl")
                }
                // The closed form `x·e^(−n/42)` is the same decay up to rounding, not bit for bit: reads use the
                // recurrence.
                let n = Double(after.count)
                #expect(abs(last.ctl * exp(-n / 42) - ctl) <= 1e-12 * last.ctl)
            }
        }
    }
}
