import Foundation
import Testing

@testable import WorkoutMetrics

/// Brute-force NP written from the definition: for every second i ≥ 29, look at the 30
/// seconds ending at i; skip the window if any is a gap; average the 4th powers.
private func referenceNP(_ p: [Double]) -> Double? {
    var fourth: [Double] = []
    if p.count >= 30 {
        for end in 29..<p.count {
            let window = p[(end - 29)...end]
            if window.contains(where: { $0.isNaN }) { continue }
            let mean = window.reduce(0, +) / 30
            fourth.append(mean * mean * mean * mean)
        }
    }
    guard !fourth.isEmpty else { return nil }
    return pow(fourth.reduce(0, +) / Double(fourth.count), 0.25)
}

private func referenceMMP(_ p: [Double], _ d: Int) -> Double? {
    var best: Double?
    guard d <= p.count else { return nil }
    for start in 0...(p.count - d) {
        let w = p[start..<(start + d)]
        if w.contains(where: { $0.isNaN }) { continue }
        let m = w.reduce(0, +) / Double(d)
        if best == nil || m > best! { best = m }
    }
    return best
}

@Suite struct PowerMetricsTests {
    @Test func constantHourAtFTP() {
        let ftp = 200.0
        let stream = Stream1Hz(powerW: Array(repeating: 200, count: 3600))
        let m = SessionMetricsCalculator.compute(sport: .bike, athlete: Athlete(ftpW: ftp), stream: stream)
        #expect(m.npW == 200)
        #expect(m.intensityFactor == 1)
        #expect(m.tss == 100)
        #expect(m.vi == 1)
        #expect(m.avgPowerW == 200)
        #expect(m.workKj == 720)
        #expect(m.powerSeconds == 3600)
        #expect(m.durationS == 3600)
        // 200 W is 100 % of FTP: level 4 (90–105 %).
        #expect(m.timeInPowerZonesS == [0, 0, 0, 3600, 0, 0, 0])
        #expect(m.mmpW?.values.allSatisfy { $0 == 200 } == true)
    }

    @Test func halfHourAtFTPIsFifty() {
        let m = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(ftpW: 250),
            stream: Stream1Hz(powerW: Array(repeating: 250, count: 1800)))
        #expect(approx(m.tss, 50))
    }

    @Test func npMatchesBruteForceWithGapsAndDropouts() {
        for seed in UInt64(1)...5 {
            var p = noisyPower(count: 1500, seed: seed, gapEvery: 97)
            // Dropouts: recorded zeros are zeros, not gaps.
            for i in stride(from: 10, to: 1500, by: 211) { p[i] = 0 }
            let np = PowerMetrics.normalizedPower(p)
            let ref = referenceNP(p)
            #expect(ref != nil)
            #expect(approx(np, ref!, tol: 1e-10))
        }
    }

    @Test func npIsNilWithoutAnUnbrokenThirtySeconds() {
        #expect(PowerMetrics.normalizedPower(Array(repeating: 300, count: 29)) == nil)
        #expect(PowerMetrics.normalizedPower([]) == nil)
        // 29 valid, gap, 29 valid: 58 seconds of power but no 30 s window.
        let broken = Array(repeating: 300.0, count: 29) + [.nan] + Array(repeating: 300.0, count: 29)
        #expect(PowerMetrics.normalizedPower(broken) == nil)
        #expect(PowerMetrics.normalizedPower(Array(repeating: 300, count: 30)) == 300)

        let m = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(ftpW: 250),
            stream: Stream1Hz(powerW: Array(repeating: 300, count: 20)))
        #expect(m.npW == nil)
        #expect(m.intensityFactor == nil)
        #expect(m.tss == nil)
        #expect(m.vi == nil)
        #expect(m.avgPowerW == 300) // still defined
        #expect(m.mmpW?[seconds: 10] == 300)
        #expect(m.mmpW?[seconds: 30] == nil)
    }

    @Test func npDoesNotZeroPadTheStart() {
        // 30 s at 100 W then 30 s at 400 W. Windows end at seconds 29…59: the window ending
        // at 29+k holds (30−k)·100 + k·400, i.e. mean 100 + 10k, k = 0…30.
        let p = Array(repeating: 100.0, count: 30) + Array(repeating: 400.0, count: 30)
        let means = (0...30).map { 100.0 + 10 * Double($0) }
        let expected = pow(means.map { pow($0, 4) }.reduce(0, +) / 31, 0.25)
        #expect(approx(PowerMetrics.normalizedPower(p), expected, tol: 1e-12))
    }

    @Test func allZeroPower() {
        let m = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(ftpW: 200, cpW: 250, wprimeJ: 20000),
            stream: Stream1Hz(powerW: Array(repeating: 0, count: 120)))
        #expect(m.npW == 0)
        #expect(m.avgPowerW == 0)
        #expect(m.vi == nil) // NP / 0
        #expect(m.tss == 0)
        #expect(m.workKj == 0)
        #expect(m.timeInPowerZonesS == [120, 0, 0, 0, 0, 0, 0])
        #expect(m.wbalMinJ == 20000)
        #expect(m.wbalIntegralMinJ == 20000)
    }

    /// Without power, the count `power_seconds` is 0 (a count is defined even when it is zero; issue 17) and every key
    /// that needs a power value is absent.
    @Test func noPowerChannelMeansNoPowerKeysButZeroPowerSeconds() throws {
        let m = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(ftpW: 200, cpW: 250, wprimeJ: 20000),
            stream: Stream1Hz(hrBpm: Array(repeating: 140, count: 600)))
        #expect(m.powerSeconds == 0)
        #expect(m.avgPowerW == nil && m.npW == nil && m.tss == nil && m.mmpW == nil)
        #expect(m.timeInPowerZonesS == nil && m.wbalMinJ == nil && m.ef == nil && m.aerobicDecouplingPct == nil)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(m)) as! [String: Any]
        #expect(json["np_w"] == nil && json["avg_power_w"] == nil && json["tss"] == nil)
        #expect(json["power_seconds"] as? Int == 0)
        #expect(json["avg_hr_bpm"] as? Double == 140)
        // A channel of only gaps is no power either.
        let gaps = SessionMetricsCalculator.compute(
            sport: .bike, athlete: Athlete(ftpW: 200),
            stream: Stream1Hz(powerW: Array(repeating: .nan, count: 60)))
        #expect(gaps.powerSeconds == 0 && gaps.avgPowerW == nil && gaps.durationS == 60)
    }

    @Test func gapsAreNotZeros() {
        // 60 s at 200 W with 20 s of gaps in the middle: average over the 40 valid seconds.
        var p = Array(repeating: 200.0, count: 60)
        for i in 20..<40 { p[i] = .nan }
        let m = SessionMetricsCalculator.compute(sport: .bike, athlete: Athlete(), stream: Stream1Hz(powerW: p))
        #expect(m.powerSeconds == 40)
        #expect(m.durationS == 60)
        #expect(m.avgPowerW == 200)
        #expect(m.workKj == 8)
        #expect(m.npW == nil) // two 20 s runs
    }

    @Test func spikeIsKeptAndDominatesShortMMP() {
        var p = Array(repeating: 150.0, count: 600)
        p[300] = 2000
        let m = SessionMetricsCalculator.compute(sport: .bike, athlete: Athlete(), stream: Stream1Hz(powerW: p))
        #expect(m.maxPowerW == 2000)
        #expect(m.mmpW?[seconds: 1] == 2000)
        #expect(approx(m.mmpW?[seconds: 5], (4 * 150 + 2000) / 5))
        #expect(m.mmpW?[seconds: 1200] == nil)
    }

    @Test func mmpMatchesBruteForce() {
        let p = noisyPower(count: 700, seed: 42, gapEvery: 151)
        let mmp = PowerMetrics.meanMaximal(p, durations: [1, 5, 10, 30, 60, 120, 148, 149, 300])
        for (k, d) in [1, 5, 10, 30, 60, 120, 148, 149, 300].enumerated() {
            let ref = referenceMMP(p, d)
            if let ref { #expect(approx(mmp[k], ref, tol: 1e-12)) } else { #expect(mmp[k] == nil) }
        }
    }

    @Test func powerZoneEdgesAreIntegerSafe() {
        // FTP 200: edges at 110, 150, 180, 210, 240, 300 W. 0.55 × 200 = 110.00000000000001
        // in floating point, so a naive P ≥ 0.55·FTP would put 110 W in level 1.
        #expect(0.55 * 200.0 != 110.0)
        let p: [Double] = [0, 109.999, 110, 149, 150, 180, 209.9, 210, 240, 299, 300, 2000, .nan]
        let zones = PowerMetrics.timeInPowerZones(p, ftp: 200)
        // L1: 0, 109.999 · L2: 110, 149 · L3: 150 · L4: 180, 209.9 · L5: 210 · L6: 240, 299 · L7: 300, 2000
        #expect(zones == [2, 2, 1, 2, 1, 2, 2])
        #expect(PowerMetrics.timeInPowerZones(p, ftp: nil) == nil)
    }

    @Test func wbalDifferentialByHand() {
        // CP 250, W′ 20000: 100 s at 350 W spends 100 J/s → 10000 J left; then 1 s at 0 W
        // recovers (W′ − bal)·CP/W′ = 10000·250/20000 = 125 J.
        let p = Array(repeating: 350.0, count: 100) + [0]
        #expect(PowerMetrics.wbalDifferentialMinimum(p, cp: 250, wprime: 20000) == 10000)
        // A gap counts as 0 W: the same recovery, and the minimum is unchanged.
        // After the gap: 10125 + (20000 − 10125)·250/20000 = 10248.4375; then 1 s at 1250 W
        // spends 1000 J, a new minimum.
        let withGap = p + [.nan, 1250]
        #expect(approx(PowerMetrics.wbalDifferentialMinimum(withGap, cp: 250, wprime: 20000), 10125 + 123.4375 - 1000))
        #expect(PowerMetrics.wbalDifferentialMinimum(p, cp: nil, wprime: 20000) == nil)
    }

    @Test func wbalIntegralAgainstDirectSum() {
        let cp = 250.0, wprime = 20000.0
        var p: [Double] = []
        for block in 0..<6 { p += Array(repeating: block % 2 == 0 ? 400 : 100, count: 60) }
        // τ: seconds below CP are the 180 s at 100 W → D_CP = 150.
        let tau = 546 * exp(-0.01 * 150) + 316
        #expect(approx(PowerMetrics.wbalTau(p, cp: cp), tau))
        // Direct O(n²) sum of the integral definition.
        var minimum = wprime
        for t in 0..<p.count {
            var spent = 0.0
            for u in 0...t where p[u] > cp { spent += (p[u] - cp) * exp(-Double(t - u) / tau) }
            minimum = min(minimum, wprime - spent)
        }
        #expect(approx(PowerMetrics.wbalIntegralMinimum(p, cp: cp, wprime: wprime), minimum, tol: 1e-10))
    }

    @Test func wbalDifferentialMatchesTheSecondBySecondDefinition() {
        // The implementation evaluates the recurrence four seconds at a time; compare with
        // the two-branch definition on lengths that leave every possible tail.
        for n in [1, 2, 3, 5, 102, 1003] {
            let p = noisyPower(count: n, seed: UInt64(n), gapEvery: 41)
            let cp = 280.0, wprime = 15_000.0
            var bal = wprime, low = wprime
            for raw in p {
                let v = raw.isNaN ? 0 : raw
                if v > cp { bal -= v - cp } else { bal += (wprime - bal) * (cp - v) / wprime }
                low = min(low, bal)
            }
            #expect(approx(PowerMetrics.wbalDifferentialMinimum(p, cp: cp, wprime: wprime), low, tol: 1e-11))
        }
    }

    @Test func wbalIntegralTailsMatchDirectSum() {
        for n in [1, 3, 6, 257] {
            let p = noisyPower(count: n, seed: UInt64(100 + n), gapEvery: 29)
            let cp = 250.0, wprime = 20_000.0
            let tau = PowerMetrics.wbalTau(p, cp: cp)
            var minimum = wprime
            for t in 0..<n {
                var spent = 0.0
                for u in 0...t {
                    let v = p[u].isNaN ? 0 : p[u]
                    if v > cp { spent += (v - cp) * exp(-Double(t - u) / tau) }
                }
                minimum = min(minimum, wprime - spent)
            }
            #expect(approx(PowerMetrics.wbalIntegralMinimum(p, cp: cp, wprime: wprime), minimum, tol: 1e-10))
        }
    }
}
