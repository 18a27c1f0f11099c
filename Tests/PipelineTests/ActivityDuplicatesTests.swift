import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutMetrics

@testable import Pipeline

/// The same activity from several sources counts once (issue 15, item 3) in the stats, the streaks, the daily training
/// load and the plan baseline; a deleted primary hands over to the next recording. Expected figures are sums written
/// out by hand from the records below.
@Suite struct ActivityDuplicatesTests {
    let user = UserID("rider")

    static func millis(_ iso: String) -> Int64 {
        Int64(ISO8601DateFormatter().date(from: iso)!.timeIntervalSince1970 * 1000)
    }

    func workout(
        _ id: String, _ source: WorkoutSource, _ type: String, from: String, to: String, moving: Double, km: Double,
        kcal: Double, samples: String?, version: Int64 = 1, deleted: Bool = false
    ) -> WorkoutRecord {
        WorkoutRecord(
            userID: user, workoutID: WorkoutID(id), source: source, activityType: type, startAt: Self.millis(from),
            endAt: Self.millis(to), durationS: moving, distanceM: km * 1000, energyKcal: kcal, avgHR: 140, maxHR: 170,
            elevationGainM: nil, timeZone: "UTC", samplesJSON: samples, updatedAt: version, deleted: deleted,
            contentHash: "\(id)-\(version)")
    }

    func quarantine(_ key: String) -> QuarantineRecord {
        QuarantineRecord(
            userID: user, source: "test", sourceKey: key, recordID: nil, reasonCode: .rejected(.conflict), message: "",
            payload: [], receivedAt: 0, quarantinedAt: 0)
    }

    func metrics(_ w: WorkoutRecord, date: String, tss: Double) -> WorkoutMetricsRecord {
        WorkoutMetricsRecord(
            userID: user, workoutID: w.workoutID, workoutUpdatedAt: w.updatedAt, localDate: LocalDate(iso: date)!,
            activityType: w.activityType, basis: w.samplesJSON == nil ? .summary : .samples, durationS: w.durationS,
            distanceM: w.distanceM, energyKcal: w.energyKcal, avgHRBpm: 140, tss: tss, metricsJSON: "{}", computedAt: 0)
    }

    @Test func theSameActivityFromSeveralSourcesCountsOnce() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))

        // 10 March, 08:00–09:00 UTC: one ride, recorded three times — the FTMS session with power (primary), the Garmin's
        // FIT with power samples, the Apple Health summary (agrees with the FIT, not with the session's 30 km: a chain).
        let sessionID = SessionID(uuidString: "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a31")!
        let session = StoredSession(
            userID: user, sessionID: sessionID, startedAtText: "2026-03-10T08:00:00Z",
            endedAtText: "2026-03-10T09:00:00Z",
            startedAt: Self.millis("2026-03-10T08:00:00Z"), endedAt: Self.millis("2026-03-10T09:00:00Z"),
            durationS: 3600,
            totalEnergyKcal: 700, totalDistanceM: 30000, detailJSON: "{}", raw: [1, 2, 3], machine: "indoorBike",
            blobStatus: .complete, blobNote: nil, contentHash: String(repeating: "b", count: 64), source: "test",
            receivedAt: 0)
        let power = "[{\"t\": 0, \"power_w\": 200, \"hr_bpm\": 140}, {\"t\": 1, \"power_w\": 210, \"hr_bpm\": 141}]"
        let heart = "[{\"t\": 0, \"hr_bpm\": 140}, {\"t\": 1, \"hr_bpm\": 141}]"
        let fitRide = workout(
            "gf-1", .garminFit, "indoor_cycling", from: "2026-03-10T07:59:00Z", to: "2026-03-10T09:01:00Z",
            moving: 3550, km: 26, kcal: 650, samples: power)
        let healthRide = workout(
            "hk-1", .appleHealth, "cycling", from: "2026-03-10T08:00:30Z", to: "2026-03-10T09:00:30Z",
            moving: 3500, km: 21.5, kcal: 600, samples: nil)
        // Straight after it, a second ride: another activity (no overlap).
        let nextRide = workout(
            "gf-2", .garminFit, "cycling", from: "2026-03-10T09:01:00Z", to: "2026-03-10T10:01:00Z",
            moving: 3600, km: 30, kcal: 640, samples: power)
        // 11 March: a run from the watch's FIT (heart rate) and from Apple Health.
        let fitRun = workout(
            "gf-3", .garminFit, "running", from: "2026-03-11T07:00:00Z", to: "2026-03-11T07:46:00Z",
            moving: 2700, km: 9.1, kcal: 520, samples: heart)
        let healthRun = workout(
            "hk-2", .appleHealth, "running", from: "2026-03-11T07:00:00Z", to: "2026-03-11T07:45:00Z",
            moving: 2700, km: 9, kcal: 500, samples: nil)

        _ = try await store.apply(
            IngestUnit(sessions: [SessionCandidate(session: session, conflictQuarantine: quarantine("s"))]))
        // The Health export before the FIT files: the import order does not matter.
        for w in [healthRun, healthRide, nextRide, fitRun, fitRide] {
            _ = try await store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(workout: w, conflictQuarantine: quarantine(w.workoutID.rawValue))
                ]))
        }
        try await store.putSessionMetrics(
            SessionMetricsRecord(
                userID: user, sessionID: sessionID, localDate: LocalDate(iso: "2026-03-10")!, sport: "bike",
                durationS: 3600,
                distanceM: 30000,
                energyKcal: 700, avgPowerW: 205, avgHRBpm: 140, tss: 80, metricsJSON: "{}", flags: [], computedAt: 0))
        try await store.putWorkoutMetrics([
            metrics(fitRide, date: "2026-03-10", tss: 75), metrics(healthRide, date: "2026-03-10", tss: 60),
            metrics(nextRide, date: "2026-03-10", tss: 70), metrics(fitRun, date: "2026-03-11", tss: 45),
            metrics(healthRun, date: "2026-03-11", tss: 40),
        ])

        let duplicates = try await ActivityDuplicates.resolve(store: store, user: user)
        #expect(
            duplicates.groups.map { $0.members.map(\.id) } == [
                ["session:\(sessionID.rawValue)", "workout:gf-1", "workout:hk-1"], ["workout:gf-3", "workout:hk-2"],
            ])
        #expect(duplicates.primary(of: .workout(WorkoutID("hk-1"))) == .session(sessionID))
        #expect(duplicates.primary(of: .workout(WorkoutID("gf-2"))) == nil)

        // Counted: the session, the next ride, the FIT run.
        let now = Self.millis("2026-03-11T20:00:00Z")
        let stats = try await StatsService(store: store, now: { now }).compute(user)
        #expect(
            stats
                == UserStats(
                    workoutTotalCount: 3, workoutTotalEnergy: 700 + 640 + 520,
                    workoutTotalDistance: 30000 + 30000 + 9100,
                    workoutTotalDuration: 3600 + 3600 + 2700, workoutStreak: 2, longestStreak: 2,
                    lastWorkoutDate: LocalDate(iso: "2026-03-11")!))
        let load = LoadService(store: store)
        let daily = try await load.dailyLoads(user)
        #expect(daily.entries == 3)
        #expect(daily.loads == [LocalDate(iso: "2026-03-10")!: 80 + 70, LocalDate(iso: "2026-03-11")!: 45])
        try await load.update(user, today: LocalDate(iso: "2026-03-11")!, computedAt: 1)
        #expect(try await store.trainingLoad(user: user, from: nil, to: nil).map(\.dailyLoad) == [150, 45])
        let weekly = try await load.weeklyEntries(user, from: nil, to: nil)
        #expect(weekly.map(\.durationS).sorted() == [2700, 3600, 3600])
        let storedUser = try #require(try await store.user(user))
        let runs = try await PlanService(store: store, now: { now }).completedRuns(storedUser)
        #expect(runs.map(\.sport).sorted() == ["bike", "bike", "run"])
        #expect(runs.map(\.distanceM).reduce(0, +) == 69_100)

        // The same FIT file imported again is the same record: a duplicate at ingest, nothing changes.
        let again = try await store.apply(
            IngestUnit(workouts: [WorkoutCandidate(workout: fitRun, conflictQuarantine: quarantine("again"))]))
        #expect(again.workoutOutcomes == [.duplicate])

        // The FIT run deleted at its source: the Health copy becomes the primary and counts.
        let tombstone = workout(
            "gf-3", .garminFit, "running", from: "2026-03-11T07:00:00Z", to: "2026-03-11T07:46:00Z",
            moving: 2700, km: 9.1, kcal: 520, samples: heart, version: 2, deleted: true)
        _ = try await store.apply(
            IngestUnit(workouts: [WorkoutCandidate(workout: tombstone, conflictQuarantine: quarantine("del"))]))
        let after = try await StatsService(store: store, now: { now }).compute(user)
        #expect(after.workoutTotalCount == 3)
        #expect(after.workoutTotalEnergy == 700 + 640 + 500 && after.workoutTotalDistance == 30000 + 30000 + 9000)
        #expect(try await load.dailyLoads(user).loads[LocalDate(iso: "2026-03-11")!] == 40)
        try await load.update(user, today: LocalDate(iso: "2026-03-11")!, computedAt: 2)
        #expect(try await store.trainingLoad(user: user, from: nil, to: nil).map(\.dailyLoad) == [150, 40])
        #expect(try await ActivityDuplicates.resolve(store: store, user: user).groups.count == 1)
    }

    /// Issue 40: a primary without a distance counts its group's. An indoor ride's Edge FIT (power, distance 0: no
    /// speed sensor) stays the primary over the Apple Health summary (29.5 km) and over a watch's heart-rate FIT (no
    /// distance either); the stats, the weekly volume and the plan baseline count Health's 29.5 km once — its energy,
    /// duration and load stay the Edge's. docs/workout-records.md, "The same activity from several sources".
    @Test func aPrimaryWithoutADistanceCountsItsGroups() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))
        let power = "[{\"t\": 0, \"power_w\": 200, \"hr_bpm\": 140}, {\"t\": 1, \"power_w\": 210, \"hr_bpm\": 141}]"
        let heart = "[{\"t\": 0, \"hr_bpm\": 140}, {\"t\": 1, \"hr_bpm\": 141}]"
        let edge = workout(
            "gf-edge", .garminFit, "indoor_cycling", from: "2026-03-10T08:00:00Z", to: "2026-03-10T09:00:00Z",
            moving: 3600, km: 0, kcal: 700, samples: power)
        let watch = workout(
            "gf-watch", .garminFit, "indoor_cycling", from: "2026-03-10T08:00:00Z", to: "2026-03-10T09:00:00Z",
            moving: 3600, km: 0, kcal: 650, samples: heart)
        let health = workout(
            "hk-zwift", .appleHealth, "cycling", from: "2026-03-10T08:00:00Z", to: "2026-03-10T09:00:00Z",
            moving: 3600, km: 29.5, kcal: 710, samples: nil)
        for w in [health, watch, edge] {
            _ = try await store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(workout: w, conflictQuarantine: quarantine(w.workoutID.rawValue))
                ]))
        }
        try await store.putWorkoutMetrics([
            metrics(edge, date: "2026-03-10", tss: 75), metrics(watch, date: "2026-03-10", tss: 50),
            metrics(health, date: "2026-03-10", tss: 60),
        ])
        let duplicates = try await ActivityDuplicates.resolve(store: store, user: user)
        #expect(
            duplicates.groups.map { $0.members.map(\.id) } == [
                ["workout:gf-edge", "workout:gf-watch", "workout:hk-zwift"]
            ])
        #expect(duplicates.groupDistanceM == [.workout(WorkoutID("gf-edge")): 29_500])
        #expect(duplicates.distanceM(of: .workout(WorkoutID("gf-edge")), own: 0) == 29_500)
        #expect(duplicates.distanceM(of: .workout(WorkoutID("gf-edge")), own: 12) == 12)

        let now = Self.millis("2026-03-11T20:00:00Z")
        let stats = try await StatsService(store: store, now: { now }).compute(user)
        #expect(stats.workoutTotalCount == 1)
        #expect(stats.workoutTotalDistance == 29_500 && stats.workoutTotalEnergy == 700)
        #expect(stats.workoutTotalDuration == 3600)
        let load = LoadService(store: store)
        #expect(try await load.dailyLoads(user).loads == [LocalDate(iso: "2026-03-10")!: 75])
        let weekly = try await load.weeklyEntries(user, from: nil, to: nil)
        #expect(weekly.map(\.distanceM) == [29_500])
        let storedUser = try #require(try await store.user(user))
        let runs = try await PlanService(store: store, now: { now }).completedRuns(storedUser)
        #expect(runs.map(\.distanceM) == [29_500])
    }

    @Test func richnessOfSamples() {
        #expect(ActivityDuplicates.recording(samplesJSON: nil) == .summary)
        #expect(ActivityDuplicates.recording(samplesJSON: "{\"laps\": 4}") == .summary)
        #expect(ActivityDuplicates.recording(samplesJSON: "[{\"t\": 0, \"hr_bpm\": 120}]") == .samples)
        #expect(
            ActivityDuplicates.recording(
                samplesJSON: "[{\"t\": 0, \"hr_bpm\": 120, \"power_w\": null}, {\"t\": 1, \"power_w\": 0}]") == .power)
        #expect(ActivityDuplicates.recording(samplesJSON: "[{\"t\": 0, \"power_w\": null}]") == .summary)
        #expect(ActivityKey("workout:gf:1") == ActivityKey(kind: .workout, id: "gf:1"))
        #expect(ActivityKey("ride:1") == nil)
    }
}
