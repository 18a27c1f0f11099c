import Foundation
import Testing

@testable import WorkoutMetrics

/// Rows of Daniels' Running Formula (3rd ed.) Table of VDOT race equivalents:
/// VDOT, 1500 m, mile, 5 km, 10 km, half, marathon (seconds).
private let raceTable: [(vdot: Double, times: [Double])] = [
    (30, [t(8, 30), t(9, 11), t(30, 40), t(63, 46), t(2, 21, 4), t(4, 49, 17)]),
    (40, [t(6, 35), t(7, 7), t(24, 8), t(50, 3), t(1, 50, 59), t(3, 49, 45)]),
    (45, [t(5, 56), t(6, 25), t(21, 50), t(45, 16), t(1, 40, 20), t(3, 28, 26)]),
    (50, [t(5, 24), t(5, 50), t(19, 57), t(41, 21), t(1, 31, 35), t(3, 10, 49)]),
    (60, [t(4, 35), t(4, 57), t(17, 3), t(35, 22), t(1, 18, 9), t(2, 43, 25)]),
    (70, [t(4, 0), t(4, 19), t(14, 55), t(31, 0), t(1, 8, 21), t(2, 23, 10)]),
    (85, [t(3, 23.5), t(3, 39.6), t(12, 37.4), t(26, 19), t(57, 50), t(2, 1, 10)]),
]

private func t(_ m: Double, _ s: Double) -> Double { m * 60 + s }
private func t(_ h: Double, _ m: Double, _ s: Double) -> Double { h * 3600 + m * 60 + s }

/// Rows of the 3rd-edition training-intensity table, s/km: E (fast, slow), T, I, R.
private let paceTable: [(vdot: Double, eFast: Double, eSlow: Double, t: Double, i: Double, r: Double)] = [
    (30, 7 * 60 + 27, 8 * 60 + 14, 6 * 60 + 24, 5 * 60 + 52, 5 * 60 + 27),
    (40, 5 * 60 + 56, 6 * 60 + 38, 5 * 60 + 6, 4 * 60 + 42, 4 * 60 + 21),
    (50, 4 * 60 + 56, 5 * 60 + 34, 4 * 60 + 15, 3 * 60 + 55, 3 * 60 + 41),
    (60, 4 * 60 + 15, 4 * 60 + 49, 3 * 60 + 40, 3 * 60 + 23, 3 * 60 + 11),
    (70, 3 * 60 + 44, 4 * 60 + 15, 3 * 60 + 14, 2 * 60 + 59, 2 * 60 + 50),
    (85, 3 * 60 + 11, 3 * 60 + 38, 2 * 60 + 46, 2 * 60 + 33, 2 * 60 + 25),
]

@Suite struct RunningFitnessTests {
    @Test func vdotOfTableRowsIsTheRowsVDOT() {
        // A 5 km in 19:57 and a marathon in 3:10:49 are both VDOT 50 (to the table's rounding).
        for row in raceTable {
            for (race, t) in zip(RunningFitness.Race.allCases, row.times) {
                let v = RunningFitness.vdot(distanceM: race.metres, timeS: t)!
                #expect(abs(v - row.vdot) < 0.25, "VDOT \(row.vdot) \(race.rawValue): \(v)")
            }
        }
    }

    @Test func predictionsReproduceTheRaceTable() {
        for row in raceTable {
            for (race, t) in zip(RunningFitness.Race.allCases, row.times) {
                let p = RunningFitness.predictedTime(distanceM: race.metres, vdot: row.vdot)!
                // The table is rounded to the second; allow 0.3 % (6 s on 3 h, 1 s on 5 min).
                #expect(abs(p - t) <= max(1.5, 0.003 * t), "VDOT \(row.vdot) \(race.rawValue): \(p) vs \(t)")
            }
        }
    }

    @Test func predictionInvertsVDOT() {
        let t = RunningFitness.predictedTime(distanceM: 10000, vdot: 47.3)!
        #expect(approx(RunningFitness.vdot(distanceM: 10000, timeS: t), 47.3, tol: 1e-9))
        #expect(RunningFitness.vdot(distanceM: 0, timeS: 100) == nil)
    }

    @Test func trainingPacesMatchTheTable() throws {
        for row in paceTable {
            let p = try #require(RunningFitness.trainingPaces(vdot: row.vdot))
            #expect(abs(p.easyFast - row.eFast) <= 2.5, "E fast at \(row.vdot): \(p.easyFast)")
            #expect(abs(p.easySlow - row.eSlow) <= 2.5, "E slow at \(row.vdot): \(p.easySlow)")
            #expect(abs(p.threshold - row.t) <= 2.5, "T at \(row.vdot): \(p.threshold)")
            #expect(abs(p.interval - row.i) <= 2.5, "I at \(row.vdot): \(p.interval)")
            #expect(abs(p.repetition - row.r) <= 2.5, "R at \(row.vdot): \(p.repetition)")
        }
    }

    @Test func reportFromAFiveK() throws {
        let r = try #require(RunningFitness.report(distanceM: 5000, timeS: 19 * 60 + 57))
        #expect(abs(r.vdot - 50) < 0.1)
        #expect(approx(r.paceMSPerKm, r.predMarathonS / 42.195))
        // M pace at VDOT 50 in the table: 4:31/km.
        #expect(abs(r.paceMSPerKm - 271) < 1.5)
        #expect(approx(r.riegel10kS, 1197 * pow(2, 1.06)))
        #expect(approx(r.riegelMileS, 1197 * pow(1609.344 / 5000, 1.06)))
        #expect(abs(r.pred5kS - 1197) < 1e-6)
        let keys = Set((try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as! [String: Any]).keys)
        #expect(
            keys.isSuperset(of: [
                "vdot", "pred_1500m_s", "pred_mile_s", "pred_5k_s", "pred_10k_s", "pred_half_s",
                "pred_marathon_s", "riegel_half_s", "pace_m_s_per_km", "pace_t_s_per_km",
                "pace_i_s_per_km", "pace_e_fast_s_per_km", "pace_e_slow_s_per_km", "pace_r_s_per_km",
            ]))
        #expect(keys.count == 19)
    }
}
