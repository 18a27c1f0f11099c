import Foundation
import Testing

@testable import WorkoutMetrics

/// Workout-record samples on the 1 Hz grid (metrics.md "Resampling"), and Banister's TRIMP over an average HR.
@Suite struct WorkoutSamplesTests {
    static func samples(_ json: String) throws -> WorkoutSamples {
        try #require(WorkoutSamples.parse(json: json))
    }

    @Test func holdsTheLastSampleAndLeavesLongGapsAsGaps() throws {
        // HR at 0, 3 and 20 s: 0–2 hold 100, 3 holds 110 only at its own second (the next sample is 17 s later,
        // longer than 10 s), 4–19 are a gap, 20 is 120. Power at 0 and 5 (5 s apart) holds through.
        let s = try Self.samples(
            """
            [{"t": 0, "hr_bpm": 100, "power_w": 200}, {"t": 3, "hr_bpm": 110}, {"t": 5, "power_w": 0},
             {"t": 20, "hr_bpm": 120}]
            """)
        #expect(s.gridCount == 21)
        let hr = s.held(.hrBpm)
        #expect(hr.count == 21)
        #expect(Array(hr[0...3]) == [100, 100, 100, 110])
        #expect(hr[4...19].allSatisfy { $0.isNaN })
        #expect(hr[20] == 120)
        let power = s.held(.powerW)
        #expect(Array(power[0...4]) == [200, 200, 200, 200, 200])
        // Power's last sample is at 5 and the grid ends 15 s later: a gap after its own second.
        #expect(power[5] == 0)
        #expect(power[6...].allSatisfy { $0.isNaN })
        #expect(s.held(.cadenceRpm).isEmpty)
    }

    @Test func samplesOutOfOrderAndAtFractionalTimesAreSortedAndHeld() throws {
        let s = try Self.samples(
            """
            [{"t": 2.5, "hr_bpm": 130}, {"t": 0.5, "hr_bpm": 120}]
            """)
        // Grid from 0.5 to 2.5: seconds at 0.5, 1.5, 2.5.
        #expect(s.gridCount == 3)
        #expect(s.held(.hrBpm) == [120, 120, 130])
    }

    @Test func speedFromCumulativeDistanceAddsUpToTheDistance() throws {
        // 0 m at 0 s, 30 m at 10 s, 90 m at 20 s: 3 m/s then 6 m/s, second 0 a gap.
        let s = try Self.samples(
            """
            [{"t": 0, "distance_m": 0}, {"t": 10, "distance_m": 30}, {"t": 20, "distance_m": 90}]
            """)
        let stream = s.stream()
        #expect(stream.speedMps.count == 21)
        #expect(stream.speedMps[0].isNaN)
        for k in 1...10 { #expect(abs(stream.speedMps[k] - 3) < 1e-12) }
        for k in 11...20 { #expect(abs(stream.speedMps[k] - 6) < 1e-12) }
        let sum = stream.speedMps.filter { !$0.isNaN }.reduce(0, +)
        #expect(abs(sum - 90) < 1e-9)
    }

    @Test func gradeFromAltitudeOverTenSecondsAndTenMetres() throws {
        // 4 m/s and +0.2 m/s of altitude: over any 10 s, 40 m ahead and 2 m up, grade 0.05; before 10 s none.
        var items: [String] = []
        for t in 0...30 { items.append("{\"t\": \(t), \"speed_mps\": 4, \"altitude_m\": \(100 + 0.2 * Double(t))}") }
        let stream = try Self.samples("[" + items.joined(separator: ",") + "]").stream()
        #expect(stream.grade.count == 31)
        #expect(stream.grade[0..<10].allSatisfy { $0.isNaN })
        for k in 10...30 { #expect(abs(stream.grade[k] - 0.05) < 1e-9) }
    }

    @Test func rowingUsesTheDistanceAsTheRowersTotal() throws {
        let stream = try Self.samples(
            """
            [{"t": 0, "distance_m": 0, "hr_bpm": 120}, {"t": 4, "distance_m": 20}]
            """
        ).stream(totalDistanceForRowing: true)
        #expect(stream.totalDistanceM == [0, 5, 10, 15, 20])
        #expect(stream.speedMps.isEmpty)
    }

    /// A 28.7-hour ride's samples (issue 40: files may last 7 days) were refused as "not samples" past 24 h, and the
    /// record was flagged `samples_unreadable`; they are read to the end now.
    @Test func samplesOfAMultiDayFileAreRead() throws {
        let json = "[{\"t\": 0, \"hr_bpm\": 120}, {\"t\": 103320, \"hr_bpm\": 110}, {\"t\": 604800, \"hr_bpm\": 90}]"
        let samples = try #require(WorkoutSamples.parse(json: json))
        #expect(samples.samples.map(\.t) == [0, 103_320, 604_800])
        #expect(samples.gridCount == 604_801)
    }

    @Test func otherShapesAreNotSamples() {
        #expect(WorkoutSamples.parse(json: "{\"t\": 0}") == nil) // not an array
        #expect(WorkoutSamples.parse(json: "[]") == nil) // no sample
        #expect(WorkoutSamples.parse(json: "[{\"hr_bpm\": 100}]") == nil) // no time
        #expect(WorkoutSamples.parse(json: "[{\"t\": -1, \"hr_bpm\": 100}]") == nil)
        #expect(WorkoutSamples.parse(json: "[{\"t\": 0, \"hr_bpm\": true}]") == nil)
        #expect(WorkoutSamples.parse(json: "[{\"t\": 0, \"hr_bpm\": \"100\"}]") == nil)
        #expect(WorkoutSamples.parse(json: "not json") == nil)
        #expect(WorkoutSamples.parse(json: "[{\"t\": 0}, 1]") == nil) // an element not an object
        #expect(WorkoutSamples.parse(json: "[{\"t\": true}]") == nil)
        #expect(WorkoutSamples.parse(json: "[{\"t\": 0, \"power_w\": 1e400}]") == nil) // beyond a double
        // Past the 7 days a workout file may last.
        #expect(WorkoutSamples.parse(json: "[{\"t\": 0}, {\"t\": 604801, \"hr_bpm\": 100}]") == nil)
        // null is no value, unknown keys are ignored.
        #expect(WorkoutSamples.parse(json: "[{\"t\": 0, \"hr_bpm\": null, \"note\": \"x\"}]")?.channels == [])
    }

    @Test func banisterTRIMPOverTheAverageHeartRateByHand() {
        // Male, 50/190 bpm, one hour at 150: HRr = 100/140; 60 · HRr · 0.64 · e^(1.92·HRr) = 108.0953593…
        let male = Athlete(sex: .male, hrRest: 50, hrMax: 190, lthr: 172)
        let trimp = HeartRateMetrics.banisterTRIMP(averageHR: 150, durationS: 3600, athlete: male)
        #expect(abs((trimp ?? 0) - 108.09535934022335) < 1e-9)
        // HRSS: 100 · TRIMP / (60 · HRr_LT · 0.64 · e^(1.92·HRr_LT)), HRr_LT = 122/140 → 60.6187979…
        #expect(abs((HeartRateMetrics.hrss(trimp: trimp, athlete: male) ?? 0) - 60.61879791119518) < 1e-9)
        // Female constants 0.86 / 1.67: 45 min at 160 of 52/188 → 115.7569127…
        let female = Athlete(sex: .female, hrRest: 52, hrMax: 188, lthr: 172)
        #expect(
            abs(
                (HeartRateMetrics.banisterTRIMP(averageHR: 160, durationS: 2700, athlete: female) ?? 0)
                    - 115.75691268595827) < 1e-9)
        // Below rest counts 0; missing parameters or no duration: undefined, not 0.
        #expect(HeartRateMetrics.banisterTRIMP(averageHR: 45, durationS: 600, athlete: male) == 0)
        #expect(
            HeartRateMetrics.banisterTRIMP(averageHR: 150, durationS: 3600, athlete: Athlete(hrRest: 50, hrMax: 190))
                == nil)
        #expect(HeartRateMetrics.banisterTRIMP(averageHR: 150, durationS: 0, athlete: male) == nil)
    }
}
