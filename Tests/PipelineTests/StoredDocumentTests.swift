import Foundation
import Store
import Testing

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
                workoutTotalDuration: 98_765, workoutStreak: 3, longestStreak: 12, lastWorkoutDate: "2026-11-28"),
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
