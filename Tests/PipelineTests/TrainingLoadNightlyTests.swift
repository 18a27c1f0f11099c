import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutMetrics

@testable import Pipeline

/// An independent from-scratch computation of a runner's load series (metrics.md "Training load", HRSS from
/// Banister's TRIMP over the average HR), written out here without the pipeline's types.
enum ReferenceLoad {
    // The runner: male, resting 50, maximum 190, LTHR 172 bpm.
    static let rest = 50.0, max = 190.0, lthr = 172.0, a = 0.64, b = 1.92

    /// HRSS of `seconds` at a constant (or average) heart rate.
    static func hrss(avgHR: Double, seconds: Double) -> Double {
        let r = Swift.max(0, (avgHR - rest) / (max - rest)), rLT = (lthr - rest) / (max - rest)
        let trimp = seconds / 60 * r * a * exp(b * r)
        return 100 * trimp / (60 * rLT * a * exp(b * rLT))
    }

    struct Day: Equatable { var date: String, load: Double, ctl: Double, atl: Double, tsb: Double }

    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
    static let formatter: DateFormatter = {
        let f = DateFormatter()
        f.calendar = calendar
        f.timeZone = calendar.timeZone
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd"
        return f
    }()

    /// Every calendar day from the first day with load through `through`: CTL/ATL with k = 1 − e^(−1/N), TSB from
    /// yesterday's values.
    static func series(loads: [String: Double], through: String) -> [Day] {
        guard let first = loads.keys.min() else { return [] }
        var date = formatter.date(from: first)!
        let end = formatter.date(from: through)!
        var ctl = 0.0, atl = 0.0
        var out: [Day] = []
        while date <= end {
            let key = formatter.string(from: date)
            let load = loads[key] ?? 0
            let tsb = ctl - atl
            ctl += (1 - exp(-1.0 / 42)) * (load - ctl)
            atl += (1 - exp(-1.0 / 7)) * (load - atl)
            out.append(Day(date: key, load: load, ctl: ctl, atl: atl, tsb: tsb))
            date = calendar.date(byAdding: .day, value: 1, to: date)!
        }
        return out
    }
}

@Suite(.serialized) struct TrainingLoadNightlyTests {
    let user = User(
        id: UserID("runner"), timeZone: "Europe/Berlin",
        profile: TrainingProfile(sex: .male, maxHR: 190, restingHR: 50, lthr: 172), createdAt: 0)

    static func millis(_ text: String) -> Int64 {
        Int64(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1000)
    }

    /// A summary-only outdoor run at 07:00 UTC (08:00 in Berlin) on `date`.
    func run(
        _ id: String, on date: String, avgHR: Double, seconds: Double, version: Int64 = 1, deleted: Bool = false,
        samples: String? = nil
    ) -> WorkoutRecord {
        let start = Self.millis(date + "T07:00:00Z")
        return WorkoutRecord(
            userID: user.id, workoutID: WorkoutID(id), source: .garmin, activityType: "running",
            startAt: start, endAt: start + Int64(seconds * 1000), durationS: seconds, distanceM: seconds * 3,
            energyKcal: seconds / 6, avgHR: deleted ? nil : avgHR, maxHR: nil, elevationGainM: nil,
            timeZone: "Europe/Berlin", samplesJSON: samples, updatedAt: version, deleted: deleted,
            contentHash: "\(id)-\(version)-\(deleted)")
    }

    func arrive(_ store: SQLiteStore, _ workouts: [WorkoutRecord]) async throws {
        let unit = IngestUnit(
            workouts: workouts.map {
                WorkoutCandidate(
                    workout: $0,
                    conflictQuarantine: QuarantineRecord(
                        userID: $0.userID, source: "test", sourceKey: $0.workoutID.rawValue, recordID: nil,
                        reasonCode: .rejected(.conflict),
                        message: "", payload: [], receivedAt: 0, quarantinedAt: 0))
            })
        _ = try await store.apply(unit)
    }

    /// The night's run at 22:00 UTC of `date` (23:00 in Berlin, so "today" is `date`).
    func nightly(_ store: SQLiteStore, on date: String) async throws -> NightlySummary {
        let now = Self.millis(date + "T22:00:00Z")
        return try await NightlyJob(store: store, now: { now }, concurrency: 1).run(inbox: nil)
    }

    func expectStored(_ store: SQLiteStore, equals reference: [ReferenceLoad.Day], _ note: Comment) async throws {
        let stored = try await store.trainingLoad(user: user.id, from: nil, to: nil)
        #expect(stored.map(\.date.iso) == reference.map(\.date), note)
        for (s, r) in zip(stored, reference) {
            #expect(abs(s.dailyLoad - r.load) < 1e-9, "\(note) \(r.date) load")
            #expect(abs(s.ctl - r.ctl) < 1e-9, "\(note) \(r.date) ctl")
            #expect(abs(s.atl - r.atl) < 1e-9, "\(note) \(r.date) atl")
            #expect(abs(s.tsb - r.tsb) < 1e-9, "\(note) \(r.date) tsb")
        }
    }

    @Test func storedSeriesAfterOutOfOrderArrivalsEqualsAFromScratchComputation() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        try await store.upsertUser(user)

        // HR samples every 5 s at 150 bpm from 0 to 1800 s: a 1801 s grid, measured second by second.
        let samples =
            "[" + stride(from: 0, through: 1800, by: 5).map { "{\"t\": \($0), \"hr_bpm\": 150}" }.joined(separator: ",")
            + "]"
        var live: [String: (date: String, load: Double)] = [:]

        // Night 1 (5 March): runs on the 1st, 3rd (with samples) and 5th. From scratch: 1–5 March.
        try await arrive(
            store,
            [
                run("a", on: "2026-03-01", avgHR: 150, seconds: 3600),
                run("b", on: "2026-03-03", avgHR: 150, seconds: 1800, samples: samples),
                run("c", on: "2026-03-05", avgHR: 165, seconds: 2400),
            ])
        live["a"] = ("2026-03-01", ReferenceLoad.hrss(avgHR: 150, seconds: 3600))
        live["b"] = ("2026-03-03", ReferenceLoad.hrss(avgHR: 150, seconds: 1801))
        live["c"] = ("2026-03-05", ReferenceLoad.hrss(avgHR: 165, seconds: 2400))
        var night = try await nightly(store, on: "2026-03-05")
        #expect(night.workoutsAnalyzed == 3)
        #expect(night.trainingLoadDays == 5)
        try await expectStored(
            store, equals: ReferenceLoad.series(loads: Self.daily(live), through: "2026-03-05"), "night 1")
        let measured = try await store.workoutMetrics(user: user.id)
        #expect(measured.map(\.basis) == [.summary, .samples, .summary])

        // Night 2 (10 March): a new run on the 9th and a late one from 20 February, before the series began:
        // everything again from 20 February, through today with rest days.
        try await arrive(
            store,
            [
                run("d", on: "2026-03-09", avgHR: 140, seconds: 3000),
                run("e", on: "2026-02-20", avgHR: 155, seconds: 4000),
            ])
        live["d"] = ("2026-03-09", ReferenceLoad.hrss(avgHR: 140, seconds: 3000))
        live["e"] = ("2026-02-20", ReferenceLoad.hrss(avgHR: 155, seconds: 4000))
        night = try await nightly(store, on: "2026-03-10")
        #expect(night.trainingLoadDays == 19) // 20 Feb … 10 Mar
        try await expectStored(
            store, equals: ReferenceLoad.series(loads: Self.daily(live), through: "2026-03-10"), "night 2")

        // Night 3 (12 March): a late run on the 4th, a newer version of the 3rd's (now a harder summary-only run),
        // and the 9th's deleted at the source. The earliest day touched is the 3rd: only 3–12 March are rewritten.
        let beforeThird = try await store.trainingLoad(user: user.id, from: nil, to: LocalDate(iso: "2026-03-02")!)
        try await arrive(
            store,
            [
                run("f", on: "2026-03-04", avgHR: 160, seconds: 1500),
                run("b", on: "2026-03-03", avgHR: 170, seconds: 1800, version: 2),
                run("d", on: "2026-03-09", avgHR: 140, seconds: 3000, version: 2, deleted: true),
            ])
        live["f"] = ("2026-03-04", ReferenceLoad.hrss(avgHR: 160, seconds: 1500))
        live["b"] = ("2026-03-03", ReferenceLoad.hrss(avgHR: 170, seconds: 1800))
        live["d"] = nil
        night = try await nightly(store, on: "2026-03-12")
        #expect(night.workoutsAnalyzed == 2)
        #expect(night.trainingLoadDays == 10) // 3 … 12 March
        try await expectStored(
            store, equals: ReferenceLoad.series(loads: Self.daily(live), through: "2026-03-12"), "night 3")
        // The days before the change were left as they were (same rows, same computation time).
        #expect(
            try await store.trainingLoad(user: user.id, from: nil, to: LocalDate(iso: "2026-03-02")!) == beforeThird)
        #expect(try await store.workoutMetrics(user: user.id).map(\.workoutID.rawValue) == ["e", "a", "b", "f", "c"])

        // Night 4 (20 March): nothing new; nothing is written (issue 43: the series is extended lazily), the rows
        // stay those of night 3, and the readers continue them with rest days, CTL and ATL decaying.
        night = try await nightly(store, on: "2026-03-20")
        #expect(night.trainingLoadDays == 0)
        #expect(night.usersRecomputed == 0)
        try await expectStored(
            store, equals: ReferenceLoad.series(loads: Self.daily(live), through: "2026-03-12"), "night 4")
        let reference = ReferenceLoad.series(loads: Self.daily(live), through: "2026-03-20")
        // A second run the same day changes nothing.
        let digest = try await store.contentDigest()
        night = try await nightly(store, on: "2026-03-20")
        #expect(night.trainingLoadDays == 0)
        #expect(try await store.contentDigest() == digest)

        // Readers: the stored series, and today's values continued with rest days past the last stored day.
        let service = LoadService(store: store, now: { Date(epochMillis: Self.millis("2026-03-20T22:00:00Z")) })
        let series = try await service.series(user.id, from: nil, to: nil)
        #expect(series.days.map(\.date.iso) == reference.map(\.date))
        for (s, r) in zip(series.days, reference) {
            #expect(abs(s.ctl - r.ctl) < 1e-9 && abs(s.atl - r.atl) < 1e-9 && abs(s.tsb - r.tsb) < 1e-9, "\(r.date)")
        }
        // Weekly running volume (ISO weeks from Monday): e on Fri 20 Feb; a on Sun 1 Mar; b, f, c on 3–5 March.
        #expect(series.weeklyVolume.map(\.weekStart.iso) == ["2026-02-16", "2026-02-23", "2026-03-02"])
        #expect(series.weeklyVolume.map(\.sessions) == [1, 1, 3])
        let lastWeekSeconds: Double = 1800 + 1500 + 2400
        #expect(series.weeklyVolume.map(\.durationS) == [4000, 3600, lastWeekSeconds])
        #expect(series.weeklyVolume.map(\.distanceM) == [12000, 10800, 3 * lastWeekSeconds])
        #expect(series.weeklyVolume.allSatisfy { $0.sport == .run })
        let later = ReferenceLoad.series(loads: Self.daily(live), through: "2026-03-25").last!
        let latest = try #require(try await service.latest(user.id, today: .init(iso: "2026-03-25")!))
        #expect(latest.day.date.iso == "2026-03-25")
        #expect(abs(latest.day.ctl - later.ctl) < 1e-9 && abs(latest.day.tsb - later.tsb) < 1e-9)
        #expect(latest.sessionsWithLoad == 5)

        // Deleting the user deletes the series and the workout metrics.
        _ = try await UserDeletion(store: store, now: { 1 }).delete(user.id)
        #expect(try await store.footprint(user: user.id).total == 0)
    }

    static func daily(_ live: [String: (date: String, load: Double)]) -> [String: Double] {
        var out: [String: Double] = [:]
        for (_, entry) in live { out[entry.date, default: 0] += entry.load }
        return out
    }
}
