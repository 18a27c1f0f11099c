import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutMetrics

@testable import Pipeline

/// `pipeline load --to` (`LoadService.series`) clamped as the report's window is: a `to` far in the future costs what
/// today does (issue 39: a `to` of 9999-12-30 continued the series with 2.9 million rest days).
@Suite struct LoadWindowTests {
    /// A user in UTC with one ride of load 80 on 10 March 2026 and the series stored through 15 March; the clock at
    /// 20 March 2026 12:00Z.
    static func store(_ dir: URL) async throws -> (SQLiteStore, UserID) {
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let user = UserID("rider")
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))
        let start = Int64(ISO8601DateFormatter().date(from: "2026-03-10T08:00:00Z")!.timeIntervalSince1970 * 1000)
        let w = WorkoutRecord(
            userID: user, workoutID: WorkoutID("ride"), source: .garmin, activityType: "cycling",
            startAt: start, endAt: start + 3_600_000, durationS: 3600, distanceM: nil, energyKcal: nil,
            avgHR: nil, maxHR: nil, elevationGainM: nil, timeZone: "UTC", samplesJSON: nil, updatedAt: 1,
            deleted: false, contentHash: "ride")
        _ = try await store.apply(
            IngestUnit(workouts: [
                WorkoutCandidate(
                    workout: w,
                    conflictQuarantine: QuarantineRecord(
                        userID: user, source: "test", sourceKey: "ride", recordID: nil,
                        reasonCode: .rejected(.conflict), message: "", payload: [], receivedAt: 0, quarantinedAt: 0))
            ]))
        try await store.putWorkoutMetrics(
            WorkoutMetricsRecord(
                userID: user, workoutID: w.workoutID, workoutUpdatedAt: 1, localDate: LocalDate(iso: "2026-03-10")!,
                activityType: "cycling", basis: .summary, durationS: 3600, distanceM: nil, energyKcal: nil,
                avgHRBpm: nil, tss: 80, metricsJSON: "{}", computedAt: 0))
        _ = try await LoadService(store: store).update(user, today: LocalDate(iso: "2026-03-15")!, computedAt: 0)
        return (store, user)
    }

    static let now: @Sendable () -> Date = { ISO8601DateFormatter().date(from: "2026-03-20T12:00:00Z")! }

    @Test func aToFarInTheFutureEndsOnToday() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, user) = try await Self.store(dir)
        let service = LoadService(store: store, now: Self.now)
        #expect(try await store.trainingLoad(user: user, from: nil, to: nil).count == 6) // 10 … 15 March stored

        // 10 … 20 March: the six stored days and five rest days to today, not 2.9 million to 9999-12-30.
        let far = try await service.series(user, from: nil, to: LocalDate(iso: "9999-12-30")!)
        #expect(far.days.count == 11)
        #expect(far.days.first?.date.iso == "2026-03-10")
        #expect(far.days.last?.date.iso == "2026-03-20")
        // The clamped window is the window ending today: the same days, bit for bit.
        let today = try await service.series(user, from: nil, to: LocalDate(iso: "2026-03-20")!)
        #expect(far.days == today.days)
        // On the rest days CTL decays by exactly exp(-1/42) a day (metrics.md, the exponential convention).
        let ctl15 = try #require(far.days.first { $0.date.iso == "2026-03-15" }).ctl
        #expect(abs(far.days.last!.ctl - ctl15 * exp(-5.0 / 42)) < 1e-9)

        // A window wholly in the future holds no day; one that ends before today is not touched.
        #expect(
            try await service.series(user, from: LocalDate(iso: "9999-01-01")!, to: LocalDate(iso: "9999-12-30")!)
                .days.isEmpty)
        let before = try await service.series(user, from: nil, to: LocalDate(iso: "2026-03-18")!)
        #expect(before.days.map(\.date.iso).last == "2026-03-18" && before.days.count == 9)
    }
}
