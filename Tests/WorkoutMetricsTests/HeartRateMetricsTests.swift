import Foundation
import Testing

@testable import WorkoutMetrics

@Suite struct HeartRateMetricsTests {
    let male = Athlete(sex: .male, hrRest: 50, hrMax: 190, lthr: 170)

    @Test func banisterTRIMPByHand() {
        // One hour at 150 bpm: HRr = 100/140; per minute HRr·0.64·e^(1.92·HRr); 60 minutes.
        let hrr = 100.0 / 140.0
        let perMinute = hrr * 0.64 * exp(1.92 * hrr)
        let hr = Array(repeating: 150.0, count: 3600)
        #expect(approx(HeartRateMetrics.banisterTRIMP(hr, athlete: male), 60 * perMinute, tol: 1e-12))
        // 60 × 0.714286 × 0.64 × e^1.371429 = 108.0 (to 0.1, worked on paper)
        #expect(abs(HeartRateMetrics.banisterTRIMP(hr, athlete: male)! - 108.07) < 0.05)

        var female = male
        female.sex = .female
        let perMinuteF = hrr * 0.86 * exp(1.67 * hrr)
        #expect(approx(HeartRateMetrics.banisterTRIMP(hr, athlete: female), 60 * perMinuteF, tol: 1e-12))
    }

    @Test func trimpClipsBelowRestAndSkipsGapsAndDropouts() {
        // 40 bpm (below rest) contributes 0; 0 bpm dropouts and gaps are skipped.
        let hr: [Double] = [40, 0, .nan, 120]
        let hrr = 70.0 / 140.0
        let expected = (1.0 / 60) * hrr * 0.64 * exp(1.92 * hrr)
        #expect(approx(HeartRateMetrics.banisterTRIMP(hr, athlete: male), expected, tol: 1e-12))
        #expect(HeartRateMetrics.banisterTRIMP(hr, athlete: Athlete(hrRest: 50, hrMax: 190)) == nil) // no sex
    }

    @Test func hrssIsHundredForAnHourAtLTHR() {
        let hr = Array(repeating: 170.0, count: 3600)
        let m = SessionMetricsCalculator.compute(sport: .run, athlete: male, stream: Stream1Hz(hrBpm: hr))
        #expect(approx(m.hrss, 100, tol: 1e-12))
        #expect(m.trainingLoad == m.hrss) // no power → HR-based load
    }

    @Test func edwardsZonesAndBoundaries() {
        // HRmax 190: 50 % = 95, 60 % = 114, 70 % = 133, 80 % = 152, 90 % = 171.
        // 114 of 190 is exactly 60 % and goes up to zone 2.
        let hr: [Double] =
            Array(repeating: 94, count: 60) + Array(repeating: 95, count: 60)
            + Array(repeating: 113, count: 60) + Array(repeating: 114, count: 60)
            + Array(repeating: 152, count: 60) + Array(repeating: 171, count: 120) + [.nan, 0]
        let zones = HeartRateMetrics.timeInEdwardsZones(hr, hrMax: 190)
        #expect(zones == [120, 60, 0, 60, 120])
        // minutes × weight: 2·1 + 1·2 + 1·4 + 2·5 = 18
        #expect(HeartRateMetrics.edwardsTRIMP(zones: zones) == 18)
        let m = SessionMetricsCalculator.compute(sport: .bike, athlete: male, stream: Stream1Hz(hrBpm: hr))
        #expect(m.trimpEdwards == 18)
        #expect(m.timeInHrZonesS == [120, 60, 0, 60, 120])
    }

    @Test func averagesIgnoreDropouts() {
        let hr: [Double] = [0, 0, 120, 140, .nan, 160]
        let m = SessionMetricsCalculator.compute(sport: .bike, athlete: Athlete(), stream: Stream1Hz(hrBpm: hr))
        #expect(m.avgHrBpm == 140)
        #expect(m.maxHrBpm == 160)
        #expect(m.trimpBanister == nil) // athlete parameters missing
        #expect(m.trimpEdwards == nil)
    }

    @Test func decouplingAndEfficiencyFactor() {
        // First half 200 W at 140 bpm, second half 200 W at 150 bpm.
        let n = 1200
        let power = Array(repeating: 200.0, count: n)
        let hr = Array(repeating: 140.0, count: n / 2) + Array(repeating: 150.0, count: n / 2)
        let m = SessionMetricsCalculator.compute(
            sport: .bike, athlete: male, stream: Stream1Hz(powerW: power, hrBpm: hr))
        let r1 = 200.0 / 140, r2 = 200.0 / 150
        #expect(approx(m.aerobicDecouplingPct, 100 * (r1 - r2) / r1))
        #expect(approx(m.aerobicDecouplingPct, 100.0 / 15)) // = 6.67 %
        #expect(approx(m.ef, 200.0 / 145))
    }

    @Test func decouplingCutsAtHalfTheGridAndUsesPairedSeconds() {
        // n = 7 → cut at 3. First half pairs: (100,100), (200, 0 → dropped), (gap, 120).
        let p: [Double] = [100, 200, .nan, 300, 300, 300, 300]
        let h: [Double] = [100, 0, 120, 150, 150, .nan, 150]
        // r1 = 100/100 = 1; r2 over seconds 3, 4, 6: (900/3)/(450/3) = 2 → −100 %.
        #expect(approx(HeartRateMetrics.aerobicDecoupling(power: p, hr: h), -100))
        #expect(HeartRateMetrics.aerobicDecoupling(power: [0, 0, 100, 100], hr: [120, 120, 130, 130]) == nil) // r1 = 0
    }

    @Test func cadenceExcludesZerosFromAverageOnly() {
        let m = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(),
            stream: Stream1Hz(cadenceRpm: [0, 0, 80, 100, .nan]))
        #expect(m.avgCadenceRpm == 90)
        #expect(m.maxCadenceRpm == 100)
        let coasting = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(), stream: Stream1Hz(cadenceRpm: [0, 0]))
        #expect(coasting.avgCadenceRpm == nil)
        #expect(coasting.maxCadenceRpm == 0)
    }

    @Test func nonIntegerAndOutOfRangeHeartRatesAreHandledOneByOne() {
        // Whole bpm go through the histogram; 150.5 and 300 are summed directly. Reference:
        // the definition applied second by second.
        let hr: [Double] = [150.5, 300, 120, 120, 0, .nan, 189.999, 95]
        var expected = 0.0
        for v in hr where v > 0 {
            let r = max(0, (v - 50) / 140)
            expected += r * 0.64 * exp(1.92 * r) / 60
        }
        #expect(approx(HeartRateMetrics.banisterTRIMP(hr, athlete: male), expected, tol: 1e-12))
        let s = HeartRateMetrics.summary(hr)
        #expect(approx(s?.mean, (150.5 + 300 + 240 + 189.999 + 95) / 6, tol: 1e-12))
        #expect(s?.max == 300)
        // 95 = 50 % (zone 1); 120 = 63 % (zone 2, twice); 150.5 = 79.2 % (zone 3);
        // 189.999 and 300 ≥ 90 % (zone 5).
        #expect(HeartRateMetrics.timeInEdwardsZones(hr, hrMax: 190) == [1, 2, 1, 0, 2])
    }
}
