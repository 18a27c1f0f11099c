import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutMetrics

@testable import Pipeline

/// CP / W′ across a user's recent sessions and records: the best effort per duration from any of them, then
/// least squares of work on time (metrics.md "Critical power"), checked against points built from known values.
@Suite struct CriticalPowerServiceTests {
    @Test func bestEffortsOfRecentRecordsGiveTheCPAndWPrimeTheyWereBuiltFrom() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let user = UserID("rider")
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))

        // P(t) = CP + W′/t with CP = 250 W and W′ = 20 000 J: 2 min 416.67 W, 5 min 316.67, 10 min 283.33, 20 min 266.67.
        // Ride 1 holds the 2 and 10 min bests, ride 2 the 5 and 20 min ones (each a little under in the other ride);
        // ride 3, 120 days earlier, is far stronger but not recent.
        func p(_ t: Double) -> Double { 250 + 20_000 / t }
        let rides: [(id: String, date: String, mmp: [Int: Double])] = [
            ("r1", "2026-03-10", [120: p(120), 300: p(300) - 5, 600: p(600), 1200: p(1200) - 3]),
            ("r2", "2026-03-12", [120: p(120) - 10, 300: p(300), 600: p(600) - 1, 1200: p(1200)]),
            ("r3", "2025-11-12", [120: 600, 300: 500, 600: 450, 1200: 400]),
        ]
        for ride in rides {
            let start = Int64(ISO8601DateFormatter().date(from: ride.date + "T08:00:00Z")!.timeIntervalSince1970 * 1000)
            let w = WorkoutRecord(
                userID: user, workoutID: WorkoutID(ride.id), source: .garmin, activityType: "cycling",
                startAt: start, endAt: start + 3_600_000, durationS: 3600, distanceM: nil, energyKcal: nil,
                avgHR: nil, maxHR: nil, elevationGainM: nil, timeZone: "UTC", samplesJSON: nil, updatedAt: 1,
                deleted: false, contentHash: ride.id)
            _ = try await store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(
                        workout: w,
                        conflictQuarantine: QuarantineRecord(
                            userID: user, source: "test", sourceKey: ride.id, recordID: nil,
                            reasonCode: .rejected(.conflict),
                            message: "",
                            payload: [], receivedAt: 0, quarantinedAt: 0))
                ]))
            let mmp = ride.mmp.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            try await store.putWorkoutMetrics(
                WorkoutMetricsRecord(
                    userID: user, workoutID: w.workoutID, workoutUpdatedAt: 1, localDate: LocalDate(iso: ride.date)!,
                    activityType: "cycling",
                    basis: .samples, durationS: 3600, distanceM: nil, energyKcal: nil, avgHRBpm: nil, tss: nil,
                    metricsJSON: "{\"metrics\": {\"mmp_w\": {\(mmp)}}}", computedAt: 0))
        }
        let service = LoadService(store: store)
        let fit = try #require(try await service.criticalPower(user, to: nil))
        #expect(fit.points == 4)
        #expect(abs(fit.cpW - 250) < 1e-6)
        #expect(abs(fit.wprimeJ - 20_000) < 1e-4)
        #expect(abs((fit.rSquared ?? 0) - 1) < 1e-12)
        // A window that reaches back to the old ride takes its efforts instead.
        let old = try #require(try await service.criticalPower(user, to: LocalDate(iso: "2025-12-01")!))
        #expect(old.points == 4 && old.cpW < 400)
        #expect(try await service.criticalPower(user, to: LocalDate(iso: "2025-01-01")!) == nil)
        // The load series carries the recent fit.
        #expect(try await service.series(user, from: nil, to: nil).criticalPower == fit)
    }
}
