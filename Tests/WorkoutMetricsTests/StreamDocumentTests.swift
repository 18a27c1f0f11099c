import Foundation
import Testing

@testable import WorkoutMetrics

@Suite struct StreamDocumentTests {
    @Test func parsesTheSpecExample() throws {
        let json = """
            {"sport": "bike",
             "athlete": {"ftp_w": 250, "cp_w": 260, "wprime_j": 20000, "sex": "male",
                         "hr_rest": 50, "hr_max": 190, "lthr": 170, "mass_kg": 72},
             "stream_1hz": {"power_w": [200, null, 210.5], "hr_bpm": [120, 121, null]}}
            """
        let (sport, athlete, stream) = try SessionMetricsCalculator.parseStreamDocument(Data(json.utf8))
        #expect(sport == .bike)
        #expect(
            athlete
                == Athlete(
                    ftpW: 250, cpW: 260, wprimeJ: 20000, sex: .male, hrRest: 50, hrMax: 190, lthr: 170, massKg: 72))
        #expect(
            stream.powerW.count == 3 && stream.powerW[0] == 200 && stream.powerW[1].isNaN && stream.powerW[2] == 210.5)
        #expect(stream.hrBpm[2].isNaN)
        #expect(stream.speedMps.isEmpty)
    }

    @Test func athleteIsOptional() throws {
        let (sport, athlete, stream) = try StreamDocument.parse(
            Data(#"{"sport":"treadmill","stream_1hz":{"speed_mps":[3,3]}}"#.utf8))
        #expect(sport == .treadmill && athlete == Athlete() && stream.speedMps == [3, 3])
    }

    private func error(_ json: String) -> StreamDocumentError? {
        do {
            _ = try StreamDocument.parse(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func rejectsWithSpecificErrors() {
        #expect(error("not json")?.code == .malformedJSON)
        #expect(error("[1,2]")?.code == .malformedJSON)
        #expect(error(#"{"stream_1hz":{}}"#)?.code == .missingField)
        #expect(error(#"{"sport":"bike"}"#)?.code == .missingField)
        #expect(error(#"{"sport":"swim","stream_1hz":{}}"#)?.code == .unknownSport)
        #expect(error(#"{"sport":3,"stream_1hz":{}}"#)?.code == .invalidValue)
        #expect(error(#"{"sport":"bike","stream_1hz":{"powr_w":[1]}}"#)?.code == .unknownChannel)
        #expect(error(#"{"sport":"bike","stream_1hz":{"power_w":[1,"x"]}}"#)?.code == .invalidValue)
        #expect(error(#"{"sport":"bike","stream_1hz":{"power_w":[1,true]}}"#)?.code == .invalidValue)
        #expect(error(#"{"sport":"bike","stream_1hz":{"power_w":5}}"#)?.code == .invalidValue)
        #expect(error(#"{"sport":"bike","athlete":{"sex":"x"},"stream_1hz":{}}"#)?.code == .invalidValue)
        #expect(error(#"{"sport":"bike","athlete":{"ftp_w":"250"},"stream_1hz":{}}"#)?.code == .invalidValue)
        let unequal = error(#"{"sport":"bike","stream_1hz":{"power_w":[1,2,3],"hr_bpm":[1,2]}}"#)
        #expect(unequal?.code == .unequalChannelLengths)
        #expect(unequal?.detail == "power_w=3, hr_bpm=2")
    }

    /// Each number is read as its nearest double: Swift prints the shortest text that reads back as the same double,
    /// so `"\(x)"` must come back as `x`, bit for bit, at every magnitude (Foundation's `JSONSerialization` on Linux,
    /// read here before, missed about four in ten of these by an ulp).
    @Test func decimalsAreReadExactly() throws {
        var state: UInt64 = 11
        var values: [Double] = []
        for k in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mantissa = Double(state >> 11) / Double(1 << 53)
            values.append(k % 3 == 0 ? mantissa * 1000 : k % 3 == 1 ? mantissa / 1000 : -mantissa * 1e9)
        }
        let text = values.map { "\($0)" }.joined(separator: ",")
        let (_, athlete, stream) = try StreamDocument.parse(
            Data(#"{"sport":"bike","athlete":{"ftp_w":\#(values[1])},"stream_1hz":{"power_w":[\#(text)]}}"#.utf8))
        #expect(stream.powerW.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(athlete.ftpW?.bitPattern == values[1].bitPattern)
        #expect(values.allSatisfy { Double("\($0)")?.bitPattern == $0.bitPattern })
    }

    @Test func errorsNameTheElementAndTheReason() {
        let element = error(#"{"sport":"bike","stream_1hz":{"power_w":[1,null,"x"]}}"#)
        #expect(element?.detail == "power_w[2] is not a number or null")
        #expect(error(#"{"sport":"bike","stream_1hz":{"hr_bpm":{"a":1}}}"#)?.detail == "hr_bpm is not an array")
        #expect(error(#"{"sport":"bike","stream_1hz":[1]}"#)?.detail == "stream_1hz is not an object")
        #expect(error(#"{"sport":null,"stream_1hz":{}}"#)?.code == .missingField)
        #expect(error(#"{"sport":"bike","stream_1hz":null}"#)?.detail == "stream_1hz")
        #expect(error(#"{"sport":"bike","athlete":[],"stream_1hz":{}}"#)?.detail == "athlete is not an object")
        let lthr = error(#"{"sport":"bike","athlete":{"lthr":true},"stream_1hz":{}}"#)
        #expect(lthr?.detail == "athlete.lthr is not a number")
        #expect(error(#"{"sport":"bike","stream_1hz":{"power_w":[1e400]}}"#)?.code == .invalidValue)
        #expect(error(#"{"sport":"bike","stream_1hz":{}"#)?.code == .malformedJSON)
        #expect(error(#""bike""#)?.detail == "top level is not an object")
        // JSONDecoder's depth bound (512 levels) holds in keys that are otherwise ignored.
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(error(#"{"sport":"bike","x":\#(deep),"stream_1hz":{}}"#)?.code == .malformedJSON)
        let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(error(#"{"sport":"bike","x":\#(nested),"stream_1hz":{}}"#) == nil)
        // Nulls are gaps, unknown athlete and top-level keys are ignored, a null athlete is none.
        let parsed = try? StreamDocument.parse(
            Data(#"{"sport":"run","athlete":null,"note":1,"stream_1hz":{"hr_bpm":[null,140],"grade":null}}"#.utf8))
        #expect(parsed?.1 == Athlete())
        #expect(parsed?.2.hrBpm.first?.isNaN == true && parsed?.2.hrBpm.last == 140 && parsed?.2.grade == [])
    }

    @Test func endToEndJSONUsesSpecKeys() throws {
        let json = """
            {"sport":"bike","athlete":{"ftp_w":200},"stream_1hz":{"power_w":[\(Array(repeating: "200", count: 3600).joined(separator: ","))]}}
            """
        let (sport, athlete, stream) = try StreamDocument.parse(Data(json.utf8))
        let metrics = SessionMetricsCalculator.compute(sport: sport, athlete: athlete, stream: stream)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metrics)) as! [String: Any]
        #expect(object["np_w"] as? Double == 200)
        #expect(object["if"] as? Double == 1)
        #expect(object["tss"] as? Double == 100)
        #expect(object["duration_s"] as? Int == 3600)
        let mmp = object["mmp_w"] as? [String: Any]
        #expect(mmp?.keys.sorted(by: { Int($0)! < Int($1)! }) == MeanMaximalPower.durations.map(String.init))
        #expect(object["time_in_power_zones_s"] as? [Int] == [0, 0, 0, 3600, 0, 0, 0])
    }
}

@Suite struct SessionMetricsEncodingTests {
    @Test func absurdInputStillEncodes() throws {
        let n = 60
        let m = SessionMetricsCalculator.compute(
            sport: .bike,
            athlete: Athlete(ftpW: 250, cpW: 250, wprimeJ: 20000, sex: .male, hrRest: 50, hrMax: 190, lthr: 170),
            stream: Stream1Hz(powerW: Array(repeating: 1e308, count: n), hrBpm: Array(repeating: 1e6, count: n)))
        #expect(m.workKj == nil) // Σ overflows: undefined, not inf
        #expect(m.trimpBanister == nil)
        #expect(m.maxPowerW == 1e308)
        #expect(m.npW == nil)
        #expect(m.doubleFieldsAreFinite)
        _ = try JSONEncoder().encode(m)
    }

    @Test func mmpNullsAreExplicitAndRoundTrip() throws {
        let mmp = PowerMetrics.meanMaximalPower(Array(repeating: 250, count: 45))
        let data = try JSONEncoder().encode(mmp)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""30":250"#))
        #expect(text.contains(#""60":null"#))
        #expect(text.contains(#""3600":null"#))
        #expect(try JSONDecoder().decode(MeanMaximalPower.self, from: data) == mmp)
    }

    @Test func everyKeyIsDescribedAndRoundTrips() throws {
        // A session that fills every key the calculator can produce for a run and a row.
        let n = 3600
        var rng = SeededGenerator(seed: 7)
        let power = (0..<n).map { _ in Double(Int.random(in: 150...350, using: &rng)) }
        let hr = (0..<n).map { 120 + Double($0) / 100 }
        let athlete = Athlete(
            ftpW: 250, cpW: 270, wprimeJ: 20000, sex: .male, hrRest: 50, hrMax: 190, lthr: 170, massKg: 70)
        let run = SessionMetricsCalculator.compute(
            sport: .run, athlete: athlete,
            stream: Stream1Hz(
                powerW: power, hrBpm: hr, cadenceRpm: Array(repeating: 85, count: n),
                speedMps: Array(repeating: 3.2, count: n), grade: Array(repeating: 0.02, count: n)))
        let row = SessionMetricsCalculator.compute(
            sport: .row, athlete: athlete,
            stream: Stream1Hz(
                powerW: power, totalDistanceM: (1...n).map { Double($0) * 4 },
                strokeRateSpm: Array(repeating: 24, count: n)))

        var keys = Set<String>()
        for m in [run, row] {
            let data = try JSONEncoder().encode(m)
            keys.formUnion((try JSONSerialization.jsonObject(with: data) as! [String: Any]).keys)
            #expect(try JSONDecoder().decode(SessionMetrics.self, from: data) == m)
        }
        let codingKeys = Set(MetricDescriptor.all.map(\.symbol.rawValue))
        #expect(keys == codingKeys)
        // The spec's per-session, rowing and treadmill keys are all there.
        let spec: Set<String> = [
            "duration_s", "power_seconds", "avg_power_w", "max_power_w", "work_kj", "np_w", "if", "tss",
            "vi", "ef", "aerobic_decoupling_pct", "avg_hr_bpm", "max_hr_bpm", "avg_cadence_rpm",
            "max_cadence_rpm", "trimp_banister", "trimp_edwards", "hrss", "mmp_w",
            "time_in_power_zones_s", "wbal_min_j", "wbal_integral_min_j", "distance_m",
            "avg_split_s_per_500m", "watts_from_avg_split_w", "avg_stroke_rate_spm",
            "concept2_kcal_per_hour_at_avg_split", "moving_time_s", "avg_pace_s_per_km",
            "gap_pace_s_per_km", "kcal_acsm",
        ]
        #expect(spec.isSubset(of: codingKeys))
        #expect(MetricDescriptor.descriptor(for: "np_w")?.unit == "W")
        #expect(MetricDescriptor.descriptor(for: "avg_split_s_per_500m")?.applies(to: .bike) == false)
    }
}

extension SessionMetrics {
    /// Every number present, and every entry of MMP, is finite.
    var doubleFieldsAreFinite: Bool {
        present.allSatisfy {
            switch $0.value {
            case .number(let v): v.isFinite
            case .meanMaximal(let v): v.values.allSatisfy { $0?.isFinite ?? true }
            case .count, .counts: true
            }
        }
    }
}
