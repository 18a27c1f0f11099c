import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutMetrics

@testable import Pipeline

/// The store's JSON columns read with types: a damaged row is a named error, never "no metrics"; the report's stats
/// rows are what the untyped reading gave.
@Suite struct StoredDocumentTests {
    @Test func aDamagedMetricsDocumentIsANamedError() throws {
        #expect(try LoadService.MetricsDocument.decode("{}", record: "session:s").metrics == nil)
        #expect(try LoadService.MetricsDocument.decode(#"{"metrics":{"tss":12.5}}"#, record: "s").metrics?.tss == 12.5)
        #expect(throws: LoadService.UnreadableMetricsDocument.self) {
            try LoadService.MetricsDocument.decode(#"{"metrics":"#, record: "workout:w")
        }
        do {
            _ = try LoadService.MetricsDocument.decode(#"{"metrics":{"tss":"high"}}"#, record: "workout:w")
            Issue.record("decoded")
        } catch let error as LoadService.UnreadableMetricsDocument {
            #expect(error.record == "workout:w")
        }
    }

    /// The training-load state is stored as `JSONEncoder` with sorted keys wrote it, reads back whole, and a damaged
    /// one is a named error (before, the resume silently started from scratch and the rest days were silently none).
    @Test func aDamagedTrainingLoadStateIsANamedError() throws {
        let first = LocalDate(iso: "2026-03-01")!
        let loads: [LocalDate: Double] = [first: 87.5, first.adding(days: 2): 0.125, first.adding(days: 3): 312]
        let steps = TrainingLoad.steps(
            after: .initial(before: first), dailyLoads: loads, through: first.adding(days: 40))
        let state = try #require(steps.last?.state)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = try LoadService.stateJSON(state)
        #expect(text == String(decoding: try encoder.encode(state), as: UTF8.self))
        var record = try #require(try LoadService.records(steps, user: UserID("u"), computedAt: 1).last)
        #expect(record.stateJSON == text)
        #expect(record.date == first.adding(days: 40))
        #expect(try LoadService.storedState(record) == state)
        record.stateJSON = #"{"date":"2026-04-10"}"#
        #expect(throws: LoadService.UnreadableTrainingLoadState.self) { try LoadService.storedState(record) }
        do {
            _ = try LoadService.restDays(after: record, through: record.date.adding(days: 3))
            Issue.record("rest days from a damaged state")
        } catch let error as LoadService.UnreadableTrainingLoadState {
            #expect(error.userID == UserID("u") && error.date == record.date)
        }
    }

    /// The report's window reads the current plan's days as dates: a plan ending after today extends it, and a stored
    /// plan whose dates do not read back is a named error, not "no plan".
    @Test func aDamagedPlanDocumentIsANamedError() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plan-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let user = UserID("u")
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))
        let today = LocalDate(iso: "2026-03-01")!
        let report = ReportService(store: store)
        #expect(try await report.latestDay(user, today: today) == today)
        _ = try await store.appendPlan(
            user: user, generatedAt: 1, state: .ready,
            documentJSON: #"{"plan":{"weeks":[{"days":[{"date":"2026-03-08"},{"date":"2026-04-19"}]}]}}"#)
        #expect(try await report.latestDay(user, today: today) == LocalDate(iso: "2026-04-19"))
        _ = try await store.appendPlan(
            user: user, generatedAt: 2, state: .ready,
            documentJSON: #"{"plan":{"weeks":[{"days":[{"date":"2026-02-30"}]}]}}"#)
        await #expect(throws: ReportService.UnreadablePlanDocument.self) {
            try await report.latestDay(user, today: today)
        }
    }

    /// The rows as the report built them before (`JSONSerialization` of the encoded stats, each value described).
    static func untypedRows(_ stats: UserStats) throws -> [(name: String, value: String)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(stats)) as? [String: Any])
        return object.keys.sorted().map { key in
            let value = object[key]!
            if value is NSNull { return (key, "null") }
            if let n = value as? NSNumber {
                let d = n.doubleValue
                return (key, d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(format: "%.2f", d))
            }
            return (key, "\(value)")
        }
    }

    @Test func statRowsAreTheUntypedOnes() throws {
        let cases = [
            UserStats.empty,
            UserStats(
                workoutTotalCount: 41, workoutTotalEnergy: 12_345.678, workoutTotalDistance: 321_000.5,
                workoutTotalDuration: 98_765, workoutStreak: 3, longestStreak: 12,
                lastWorkoutDate: LocalDate(iso: "2026-11-28")!),
            UserStats(
                workoutTotalCount: 1, workoutTotalEnergy: 0.004, workoutTotalDistance: 1e16, workoutTotalDuration: 0.5,
                workoutStreak: 0, longestStreak: 0, lastWorkoutDate: nil),
        ]
        for stats in cases {
            let typed = try ReportService.statRows(stats)
            let untyped = try Self.untypedRows(stats)
            #expect(typed.map(\.name) == untyped.map(\.name))
            #expect(typed.map(\.value) == untyped.map(\.value))
        }
    }
}
