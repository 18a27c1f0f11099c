import Foundation
import PlanCheckKit
import PlanEngine
import Store
import StoreSQLite
import Testing

@testable import Pipeline

@Suite struct PlanServiceTests {
    @Test func nightlyGeneratesPlansAndARefreshOnTheSameDayChangesNothing() async throws {
        // A runner with a goal race 20 weeks out and six weeks of runs behind them.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let now: Int64 = 1_780_000_000_000 // 2026-05-28T20:26:40Z
        let user = User(
            id: UserID("runner"), timeZone: "Asia/Tokyo",
            profile: TrainingProfile(
                sex: .male, maxHR: 185, restingHR: 50,
                goalRace: GoalRace(date: LocalDate(iso: "2026-10-18")!, goalTimeS: 12_600),
                availableDays: [.tue, .thu, .sat, .sun], maxRunDays: 4, longRunDay: .sun,
                experience: .intermediate),
            createdAt: 0)
        var workouts: [WorkoutCandidate] = []
        for day in 0..<42 where day % 2 == 0 {
            let start = now - Int64(day + 1) * 86_400_000
            let km = day % 14 == 0 ? 16.0 : 8.0
            let w = WorkoutRecord(
                userID: user.id, workoutID: WorkoutID("hk-\(day)"), source: .appleHealth, activityType: "running",
                startAt: start, endAt: start + Int64(km * 330_000), durationS: km * 330, distanceM: km * 1000,
                energyKcal: km * 70, avgHR: 148, maxHR: 170, elevationGainM: 10, timeZone: "Asia/Tokyo",
                samplesJSON: nil, updatedAt: start, deleted: false, contentHash: "h\(day)")
            workouts.append(
                WorkoutCandidate(
                    workout: w,
                    conflictQuarantine: QuarantineRecord(
                        userID: user.id, source: "t", sourceKey: "k\(day)", recordID: nil,
                        reasonCode: .rejected(.conflict),
                        message: "", payload: [],
                        receivedAt: 0, quarantinedAt: 0)))
        }
        _ = try await store.apply(IngestUnit(users: [user], workouts: workouts))
        let service = PlanService(store: store, now: { now })
        #expect(try await service.refresh(user.id) == .generated)
        let document = try #require(try await service.current(user.id))
        #expect(document.error == nil)
        #expect(PlanRules.violations(of: document).isEmpty)
        // Dates are Tokyo's: the first planned day is tomorrow there.
        #expect(document.request.startDate == LocalDate("2026-05-30"))
        #expect(try await service.refresh(user.id) == .unchanged)
        #expect(try await service.refresh(user.id) == .unchanged)
        #expect(try await store.planVersions(user: user.id).count == 1)
        // A user without a goal race gets no plan.
        try await store.upsertUser(User(id: UserID("rider"), timeZone: "UTC", createdAt: 0))
        #expect(try await service.refresh(UserID("rider")) == .noGoal)
    }
}
