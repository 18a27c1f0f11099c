import Foundation
import Testing

@testable import WorkoutMetrics

@Suite struct RowingTests {
    @Test func concept2Conversions() {
        // 2:00 /500 m → pace 0.24 s/m → 2.80 / 0.013824 = 202.546… W
        #expect(approx(Rowing.watts(fromSplit: 120), 2.80 / 0.013824, tol: 1e-12))
        #expect(abs(Rowing.watts(fromSplit: 120)! - 202.546) < 0.001)
        #expect(approx(Rowing.split(fromWatts: Rowing.watts(fromSplit: 105)!), 105, tol: 1e-12))
        #expect(Rowing.watts(fromSplit: 0) == nil)
        #expect(Rowing.split(fromWatts: 0) == nil)
        #expect(approx(Rowing.concept2KcalPerHour(watts: 210), 4 * 3.6 * 210 / 4.2 + 300)) // 1020
        #expect(approx(Rowing.concept2KcalPerHour(watts: 210), 1020))
    }

    @Test func sessionUsesTotalTimeOverTotalDistance() {
        // 480 s: first 240 s at 2:00/500 m, then 240 s at 1:36/500 m → 1000 + 1250 = 2250 m.
        let n = 480
        let pace = Array(repeating: 120.0, count: 240) + Array(repeating: 96.0, count: 240)
        var total = [Double]()
        var d = 0.0
        for s in pace { d += 500 / s; total.append(d) }
        total[479] = .nan // the last sample is a gap: the last valid value counts
        let stroke = Array(repeating: 0.0, count: 10) + Array(repeating: 28.0, count: n - 10)
        let power = pace.map { 2.80 / pow($0 / 500, 3) }
        let m = SessionMetricsCalculator.compute(
            sport: .row, athlete: Athlete(),
            stream: Stream1Hz(powerW: power, paceSPer500m: pace, totalDistanceM: total, strokeRateSpm: stroke))
        let distance = 1000 + 239 * 500 / 96.0
        #expect(approx(m.distanceM, distance))
        let split = 500 * 480 / distance
        #expect(approx(m.avgSplitSPer500m, split))
        // Not the mean of the splits (108 s).
        #expect(abs(m.avgSplitSPer500m! - 108) > 1)
        #expect(approx(m.wattsFromAvgSplitW, 2.80 / pow(split / 500, 3)))
        // The mean of per-second power differs from the watts of the average split.
        #expect(approx(m.avgPowerW, (202.546_296_296 + 2.80 / pow(96.0 / 500, 3)) / 2, tol: 1e-9))
        #expect(abs(m.avgPowerW! - m.wattsFromAvgSplitW!) > 5)
        #expect(m.avgStrokeRateSpm == 28)
        #expect(approx(m.concept2KcalPerHourAtAvgSplit, 4 * 3.6 * m.wattsFromAvgSplitW! / 4.2 + 300))
        #expect(m.avgPaceSPerKm == nil && m.movingTimeS == nil) // treadmill keys do not apply
    }

    @Test func distanceFromPaceWhenNoTotalDistanceChannel() {
        let m = SessionMetricsCalculator.compute(
            sport: .row, athlete: Athlete(),
            stream: Stream1Hz(paceSPer500m: Array(repeating: 100, count: 200)))
        #expect(approx(m.distanceM, 1000))
        #expect(approx(m.avgSplitSPer500m, 100))
    }
}

@Suite struct TreadmillTests {
    @Test func levelRunByHand() {
        // 600 s at 3 m/s, level: 1800 m, pace 333.3 s/km, GAP = pace.
        // ACSM running (180 m/min ≥ 134): 0.2·180 + 3.5 = 39.5 ml/kg/min × 10 min × 70 kg
        // = 27.65 L O2 × 5 = 138.25 kcal.
        let m = SessionMetricsCalculator.compute(
            sport: .treadmill, athlete: Athlete(massKg: 70),
            stream: Stream1Hz(speedMps: Array(repeating: 3, count: 600), grade: Array(repeating: 0, count: 600)))
        #expect(approx(m.distanceM, 1800))
        #expect(m.movingTimeS == 600)
        #expect(approx(m.avgPaceSPerKm, 1000.0 / 3))
        #expect(approx(m.gapPaceSPerKm, 1000.0 / 3))
        #expect(approx(m.kcalAcsm, 138.25))
    }

    @Test func uphillGradeAdjustedPaceAndWalking() {
        // Minetti C(0.1) = 155.4e-5 − 30.4e-4 − 43.3e-3 + 46.3e-2 + 1.95 + 3.6 = 5.968214
        #expect(approx(RunningEnergetics.minettiCost(grade: 0.1), 5.968214, tol: 1e-12))
        #expect(RunningEnergetics.minettiCost(grade: 0.9) == RunningEnergetics.minettiCost(grade: 0.45))
        // Walking 1.5 m/s (90 m/min) at 10 %: 0.1·90 + 1.8·90·0.1 + 3.5 = 28.7 ml/kg/min.
        #expect(approx(RunningEnergetics.acsmVO2(speedMps: 1.5, grade: 0.1), 28.7))
        // Downhill: no vertical term.
        #expect(approx(RunningEnergetics.acsmVO2(speedMps: 1.5, grade: -0.1), 12.5))

        let speed: [Double] = Array(repeating: 1.5, count: 300) + [0, 0, .nan]
        let grade: [Double] = Array(repeating: 0.1, count: 300) + [0.1, .nan, 0.1]
        let m = SessionMetricsCalculator.compute(
            sport: .treadmill, athlete: Athlete(massKg: 80),
            stream: Stream1Hz(speedMps: speed, grade: grade))
        #expect(m.movingTimeS == 300)
        #expect(approx(m.distanceM, 450))
        #expect(approx(m.avgPaceSPerKm, 1000 * 300 / 450.0))
        #expect(approx(m.gapPaceSPerKm, 1000 * 300 / (450 * 5.968214 / 3.6), tol: 1e-12))
        #expect(approx(m.kcalAcsm, 28.7 * 5 * 80 / 1000 * 5)) // 5 min × 80 kg × 5 kcal/L
    }

    @Test func noMassNoKcalAndBikeHasNoPace() {
        let s = Stream1Hz(speedMps: Array(repeating: 8, count: 100))
        let run = SessionMetricsCalculator.compute(sport: .run, athlete: Athlete(), stream: s)
        #expect(run.kcalAcsm == nil && run.avgPaceSPerKm != nil && run.gapPaceSPerKm == run.avgPaceSPerKm)
        let bike = SessionMetricsCalculator.compute(sport: .bike, athlete: Athlete(massKg: 70), stream: s)
        #expect(bike.distanceM == 800 && bike.avgPaceSPerKm == nil && bike.kcalAcsm == nil && bike.avgSpeedMps == 8)
        let stopped = SessionMetricsCalculator.compute(
            sport: .treadmill, athlete: Athlete(),
            stream: Stream1Hz(speedMps: [0, 0, 0]))
        #expect(stopped.distanceM == 0 && stopped.movingTimeS == 0 && stopped.avgPaceSPerKm == nil)
    }
}
