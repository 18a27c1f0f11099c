import Foundation
import Ingest
import Store
import StoreSQLite
import Testing

@testable import Pipeline

/// The weekly plan job: each runner's Sunday 18:00 in their own zone, found by an hourly run (at :45 UTC).
@Suite struct WeeklyPlanJobTests {
    static func utc(_ s: String) -> Date { ISO8601DateFormatter().date(from: s)! }
    static let slot = WeeklyPlanJob.defaultSlot

    @Test(arguments: [
        // zone, window (since, up to], due?
        ("Pacific/Auckland", "2026-11-22T04:45:00Z", "2026-11-22T05:45:00Z", true), // 18:00 NZDT = 05:00Z
        ("Pacific/Auckland", "2026-11-22T03:45:00Z", "2026-11-22T04:45:00Z", false),
        ("Pacific/Auckland", "2026-11-22T05:45:00Z", "2026-11-22T06:45:00Z", false),
        ("Europe/Berlin", "2026-11-22T16:45:00Z", "2026-11-22T17:45:00Z", true), // 18:00 CET = 17:00Z
        ("Europe/Berlin", "2026-11-22T04:45:00Z", "2026-11-22T05:45:00Z", false),
        ("America/Los_Angeles", "2026-11-23T01:45:00Z", "2026-11-23T02:45:00Z", true), // 18:00 PST = Monday 02:00Z
        ("America/Los_Angeles", "2026-11-22T01:45:00Z", "2026-11-22T02:45:00Z", false), // Saturday evening there
        // A slot exactly at the window's start belongs to the previous run; one exactly at its end to this one.
        ("Europe/Berlin", "2026-11-22T17:00:00Z", "2026-11-22T18:00:00Z", false),
        ("Europe/Berlin", "2026-11-22T16:00:00Z", "2026-11-22T17:00:00Z", true),
        // DST weekends: the slot follows the local clock, so its UTC time moves by an hour.
        ("Europe/Berlin", "2026-03-29T15:45:00Z", "2026-03-29T16:45:00Z", true), // spring forward: 18:00 CEST = 16:00Z
        ("Europe/Berlin", "2026-03-29T16:45:00Z", "2026-03-29T17:45:00Z", false),
        ("Europe/Berlin", "2026-10-25T16:45:00Z", "2026-10-25T17:45:00Z", true), // fall back: 18:00 CET = 17:00Z
        ("Europe/Berlin", "2026-10-25T15:45:00Z", "2026-10-25T16:45:00Z", false),
        // spring forward: 18:00 PDT = 01:00Z
        ("America/Los_Angeles", "2026-03-09T00:45:00Z", "2026-03-09T01:45:00Z", true),
        ("America/Los_Angeles", "2026-03-09T01:45:00Z", "2026-03-09T02:45:00Z", false),
        ("America/Los_Angeles", "2026-11-02T01:45:00Z", "2026-11-02T02:45:00Z", true), // fall back: 18:00 PST = 02:00Z
        ("America/Los_Angeles", "2026-11-02T00:45:00Z", "2026-11-02T01:45:00Z", false),
        ("Pacific/Auckland", "2026-04-05T05:45:00Z", "2026-04-05T06:45:00Z", true), // NZDT ends: 18:00 NZST = 06:00Z
        ("Pacific/Auckland", "2026-04-05T04:45:00Z", "2026-04-05T05:45:00Z", false),
        ("Pacific/Auckland", "2026-09-27T04:45:00Z", "2026-09-27T05:45:00Z", true), // NZDT starts: 18:00 NZDT = 05:00Z
        ("Pacific/Auckland", "2026-09-27T05:45:00Z", "2026-09-27T06:45:00Z", false),
    ])
    func slotInWindow(zone: String, since: String, upTo: String, due: Bool) {
        #expect(
            WeeklyPlanJob.isDue(
                slot: Self.slot, zone: TimeZone(identifier: zone)!, since: Self.utc(since), upTo: Self.utc(upTo)) == due
        )
    }

    static let users: [(UserID, String)] = [
        (UserID("auckland"), "Pacific/Auckland"), (UserID("berlin"), "Europe/Berlin"),
        (UserID("los-angeles"), "America/Los_Angeles"),
    ]

    /// Hourly runs at :45 through a weekend: every user is due exactly once, in the run right after their slot —
    /// on an ordinary weekend and on each zone's DST weekends.
    @Test(arguments: [
        (
            "2026-11-20T00:45:00Z",
            [
                "auckland": "2026-11-22T05:45:00Z", "berlin": "2026-11-22T17:45:00Z",
                "los-angeles": "2026-11-23T02:45:00Z",
            ]
        ),
        (
            "2026-03-27T00:45:00Z",
            [
                "auckland": "2026-03-29T05:45:00Z", "berlin": "2026-03-29T16:45:00Z",
                "los-angeles": "2026-03-30T01:45:00Z",
            ]
        ),
        (
            "2026-10-23T00:45:00Z",
            [
                "auckland": "2026-10-25T05:45:00Z", "berlin": "2026-10-25T17:45:00Z",
                "los-angeles": "2026-10-26T01:45:00Z",
            ]
        ),
        (
            "2026-10-30T00:45:00Z",
            [
                "auckland": "2026-11-01T05:45:00Z", "berlin": "2026-11-01T17:45:00Z",
                "los-angeles": "2026-11-02T02:45:00Z",
            ]
        ),
        (
            "2026-03-06T00:45:00Z",
            [
                "auckland": "2026-03-08T05:45:00Z", "berlin": "2026-03-08T17:45:00Z",
                "los-angeles": "2026-03-09T01:45:00Z",
            ]
        ),
        (
            "2026-04-03T00:45:00Z",
            [
                "auckland": "2026-04-05T06:45:00Z", "berlin": "2026-04-05T16:45:00Z",
                "los-angeles": "2026-04-06T01:45:00Z",
            ]
        ),
        (
            "2026-09-25T00:45:00Z",
            [
                "auckland": "2026-09-27T05:45:00Z", "berlin": "2026-09-27T16:45:00Z",
                "los-angeles": "2026-09-28T01:45:00Z",
            ]
        ),
    ])
    func hourlyRunsFindEachUserOnceAfterTheirSlot(start: String, expected: [String: String]) {
        var found: [String: [String]] = [:]
        var since = Self.utc(start)
        for _ in 0..<(4 * 24) {
            let upTo = since.addingTimeInterval(3600)
            for user in WeeklyPlanJob.due(Self.users, slot: Self.slot, since: since, upTo: upTo) {
                found[user.rawValue, default: []].append(ISO8601DateFormatter().string(from: upTo))
            }
            since = upTo
        }
        #expect(found == expected.mapValues { [$0] })
    }

    @Test func missedRunsAreCaughtUpOncePerUser() {
        // Three weeks without a run: three slots passed for everyone; each user is refreshed once.
        let due = WeeklyPlanJob.due(
            Self.users, slot: Self.slot, since: Self.utc("2026-11-01T00:45:00Z"), upTo: Self.utc("2026-11-23T03:45:00Z")
        )
        #expect(due == Self.users.map { $0.0 })
        // An unknown zone counts as UTC.
        #expect(
            WeeklyPlanJob.due(
                [(UserID("x"), "Mars/Olympus")], slot: Self.slot, since: Self.utc("2026-11-22T17:30:00Z"),
                upTo: Self.utc("2026-11-22T18:30:00Z")) == [UserID("x")])
    }

    /// The job against a store: the watermark it records decides the next run's window.
    @Test func runsRecordTheirWatermarkAndCatchUpOnce() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("weekly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        for (id, zone) in Self.users {
            try await store.upsertUser(
                User(
                    id: id, timeZone: zone,
                    profile: TrainingProfile(
                        sex: .female, maxHR: 182, restingHR: 52,
                        goalRace: GoalRace(date: LocalDate(iso: "2027-04-25")!, goalTimeS: 14_400),
                        availableDays: [.tue, .thu, .sat, .sun], maxRunDays: 4, longRunDay: .sun,
                        experience: .intermediate), createdAt: 0))
        }
        try await store.upsertUser(User(id: UserID("rider"), timeZone: "Europe/Berlin", createdAt: 0)) // no goal race

        func run(at instant: String) async throws -> WeeklyPlanSummary {
            let ms = Self.utc(instant).epochMillis
            return try await WeeklyPlanJob(store: store, now: { ms }).run()
        }
        // First run ever: the week before counts as missed, once — everyone is due (the rider has no plan to make).
        let first = try await run(at: "2026-11-22T05:45:00Z")
        #expect(first.usersDue == 4)
        #expect(first.since == "2026-11-15T05:45:00.000Z")
        #expect(first.plans.values.reduce(0, +) == 3)
        #expect(try await store.lastJobRun(WeeklyPlanJob.jobName)?.watermark == "2026-11-22T05:45:00.000Z")
        for (id, _) in Self.users { #expect(try await store.planVersions(user: id).count == 1) }
        // The next hour: nobody's slot passed.
        #expect(try await run(at: "2026-11-22T06:45:00Z").usersDue == 0)
        // Runs missed until Monday 03:45Z: Berlin's and Los Angeles's slots passed since 06:45Z.
        let monday = try await run(at: "2026-11-23T03:45:00Z")
        #expect(monday.since == "2026-11-22T06:45:00.000Z")
        #expect(monday.usersDue == 3) // berlin, los-angeles, rider (Berlin)
        // Three weeks without a run: one refresh per user, not three.
        let late = try await run(at: "2026-12-14T06:45:00Z")
        #expect(late.usersDue == 4)
        #expect(late.plans.values.reduce(0, +) == 3)
        let runs = try await store.jobRuns(WeeklyPlanJob.jobName, limit: 10)
        #expect(runs.count == 4 && runs.allSatisfy { $0.status == .succeeded })
    }
}
