import Foundation
import Ingest
import Store
import Testing

@testable import Pipeline

/// The nightly's JSON spells its counts as the API and `pipeline recompute --json` do (issue 41): `sessions_analysed`,
/// `workout_records_analysed`; summaries stored before, with `sessions_analyzed` and `workouts_analyzed`, still read.
@Suite struct NightlySummaryKeysTests {
    static let summary = NightlySummary(
        jobRunID: 7, startedAt: "2026-11-28T03:00:00Z", finishedAt: "2026-11-28T03:01:00Z", ingest: IngestReport(),
        sessionsAnalyzed: 219, sessionFlags: [:], usersRecomputed: 12, plans: [:], quarantineTotal: 0,
        status: .succeeded, workoutsAnalyzed: 31, trainingLoadDays: 0, mode: nil, since: nil, watermark: nil,
        phases: nil)

    @Test func countsTakeTheAPIsSpelling() throws {
        let object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.summary)) as? [String: Any])
        #expect(object["sessions_analysed"] as? Int == 219)
        #expect(object["workout_records_analysed"] as? Int == 31)
        #expect(object["sessions_analyzed"] == nil && object["workouts_analyzed"] == nil)
        // A worker of a shared run (`pipeline worker --json`) says the same.
        #expect(WorkerSummary.CodingKeys.sessionsAnalyzed.stringValue == "sessions_analysed")
    }

    @Test func summariesStoredBeforeStillRead() throws {
        var object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.summary)) as? [String: Any])
        object["sessions_analyzed"] = object.removeValue(forKey: "sessions_analysed")
        object["workouts_analyzed"] = object.removeValue(forKey: "workout_records_analysed")
        let old = try JSONDecoder().decode(NightlySummary.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.sessionsAnalyzed == 219 && old.workoutsAnalyzed == 31)
    }
}
