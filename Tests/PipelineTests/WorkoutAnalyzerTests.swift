import Foundation
import Store
import Testing
import WorkoutMetrics

@testable import Pipeline

/// Workout records measured from their samples or their summary (docs/workout-records.md, "Metrics of a record").
@Suite struct WorkoutAnalyzerTests {
    let user = User(
        id: UserID("runner"), timeZone: "America/New_York",
        profile: TrainingProfile(sex: .female, maxHR: 188, restingHR: 52, lthr: 172), createdAt: 0)

    func record(_ type: String, samples: String?, avgHR: Double? = 160, zone: String? = "Europe/Berlin")
        -> WorkoutRecord
    {
        // 23:30 UTC on 1 March: 2 March in Berlin, 1 March in New York.
        let start = Int64(ISO8601DateFormatter().date(from: "2026-03-01T23:30:00Z")!.timeIntervalSince1970 * 1000)
        return WorkoutRecord(
            userID: user.id, workoutID: WorkoutID("w"), source: .appleHealth, activityType: type,
            startAt: start, endAt: start + 2_700_000, durationS: 2700, distanceM: 9000, energyKcal: 550,
            avgHR: avgHR, maxHR: 181, elevationGainM: nil, timeZone: zone, samplesJSON: samples, updatedAt: 5,
            deleted: false, contentHash: "h")
    }

    func document(_ m: WorkoutMetricsRecord) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(m.metricsJSON.utf8)) as? [String: Any])
    }

    @Test func summaryOnlyRunGivesPaceAndAnHRSSFromTheAverageHeartRate() throws {
        let m = WorkoutAnalyzer().analyze(record("running", samples: nil), user: user, now: 9)
        #expect(m.basis == .summary)
        #expect(m.localDate == LocalDate(iso: "2026-03-02")) // the record's own zone
        #expect(m.workoutUpdatedAt == 5 && m.durationS == 2700 && m.distanceM == 9000 && m.energyKcal == 550)
        // Female 52/188, LTHR 172, 45 min at 160: TRIMP 115.7569127, HRSS 58.2517804 (computed by hand).
        #expect(abs((m.tss ?? 0) - 58.251780395131945) < 1e-9)
        let metrics = try #require(try document(m)["metrics"] as? [String: Any])
        #expect(abs((metrics["trimp_banister"] as? Double ?? 0) - 115.75691268595827) < 1e-9)
        #expect(metrics["avg_pace_s_per_km"] as? Double == 300) // 1000 · 2700 / 9000
        #expect(metrics["np_w"] == nil) // no power: absent, never 0
        // Without the record's zone the user's: still 1 March in New York.
        #expect(
            WorkoutAnalyzer().analyze(record("running", samples: nil, zone: nil), user: user, now: 9).localDate
                == LocalDate(iso: "2026-03-01"))
    }

    @Test func runWithSamplesIsMeasuredOnTheGrid() throws {
        // 601 s at 3 m/s, climbing 0.15 m/s (grade 0.05) with HR 150: distance 1803 m (Σ speed), pace 1000·601/1803.
        let samples =
            "["
            + (0...600).map {
                "{\"t\": \($0), \"speed_mps\": 3, \"hr_bpm\": 150, \"altitude_m\": \(0.15 * Double($0))}"
            }
            .joined(separator: ",") + "]"
        let m = WorkoutAnalyzer().analyze(record("trail_running", samples: samples), user: user, now: 9)
        #expect(m.basis == .samples)
        let doc = try document(m)
        let metrics = try #require(doc["metrics"] as? [String: Any])
        #expect(metrics["distance_m"] as? Double == 1803)
        #expect(abs((metrics["avg_pace_s_per_km"] as? Double ?? 0) - 1000 * 601 / 1803) < 1e-9)
        // Uphill: the grade-adjusted pace is faster than the pace.
        #expect((metrics["gap_pace_s_per_km"] as? Double ?? .infinity) < (metrics["avg_pace_s_per_km"] as? Double ?? 0))
        #expect(metrics["avg_hr_bpm"] as? Double == 150)
        #expect(m.avgHRBpm == 150 && m.tss != nil)
        #expect(doc["samples"] as? [String: Any] != nil)
    }

    @Test func otherTypesAndUnreadableSamples() throws {
        let swim = WorkoutAnalyzer().analyze(record("swimming", samples: "{\"laps\": 40}"), user: user, now: 9)
        #expect(swim.basis == .summary)
        let doc = try document(swim)
        #expect(doc["sport"] is NSNull)
        #expect((doc["flags"] as? [String] ?? []).contains("samples_unreadable"))
        // Without HR nothing gives a load: absent, flagged.
        let noHR = WorkoutAnalyzer().analyze(record("strength", samples: nil, avgHR: nil), user: user, now: 9)
        #expect(noHR.tss == nil)
        #expect((try document(noHR)["flags"] as? [String] ?? []) == ["no_heart_rate", "no_load"])
        #expect(WorkoutAnalyzer.sport(activityType: "treadmill_running") == .treadmill)
        #expect(WorkoutAnalyzer.sport(activityType: "indoor_rowing") == .row)
        #expect(WorkoutAnalyzer.sport(activityType: "elliptical") == nil)
    }
}
