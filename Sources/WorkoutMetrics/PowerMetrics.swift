import Foundation

/// Power-based definitions over a 1 Hz power channel (`Double.nan` = gap, not zero).
///
/// Each function states its source; all return `nil` when the value is undefined
/// (no valid second, no unbroken window, a missing athlete parameter).
public enum PowerMetrics {
    /// Sum, count and maximum of the valid seconds (zeros count, gaps don't).
    public struct Summary: Sendable, Equatable {
        public var seconds: Int
        public var sum: Double
        public var max: Double
        public init(seconds: Int, sum: Double, max: Double) {
            self.seconds = seconds
            self.sum = sum
            self.max = max
        }
        /// Mean over valid seconds, zeros included; nil with no valid second.
        public var mean: Double? { seconds > 0 ? sum / Double(seconds) : nil }
        /// Σ power / 1000 (one value per second, so J → kJ).
        public var workKj: Double { sum / 1000 }
    }

    public static func summary(_ power: [Double]) -> Summary? {
        power.withUnsafeBufferPointer { p in
            var n = 0, s = 0.0, m = -Double.infinity
            for v in p where !v.isNaN {
                n += 1
                s += v
                if v > m { m = v }
            }
            return n > 0 ? Summary(seconds: n, sum: s, max: m) : nil
        }
    }

    /// Normalized Power (Coggan; TrainingPeaks): the 30 s rolling mean from the 30th
    /// second on (no zero padding of the first 29 s), raised to the 4th power, averaged,
    /// 4th root. A window never spans a gap, so only windows of 30 consecutive valid
    /// seconds count. `nil` if there is no such window (a session shorter than 30 s, or one
    /// whose every 30 s contains a gap); 0 for all-zero power.
    ///
    /// Allen & Coggan, *Training and Racing with a Power Meter* (2nd ed., 2010), ch. 7.
    public static func normalizedPower(_ power: [Double]) -> Double? {
        power.withUnsafeBufferPointer { p in
            let w = 30
            var run = 0
            var windowSum = 0.0
            var acc = 0.0
            var windows = 0
            for i in 0..<p.count {
                let v = p[i]
                if v.isNaN {
                    run = 0
                    windowSum = 0
                    continue
                }
                windowSum += v
                run += 1
                if run > w { windowSum -= p[i - w] }
                if run >= w {
                    let m = windowSum / Double(w)
                    let m2 = m * m
                    acc += m2 * m2
                    windows += 1
                }
            }
            guard windows > 0 else { return nil }
            return Foundation.pow(acc / Double(windows), 0.25)
        }
    }

    /// Intensity Factor = NP / FTP (Coggan).
    public static func intensityFactor(np: Double?, ftp: Double?) -> Double? {
        guard let np, let ftp, ftp > 0 else { return nil }
        return np / ftp
    }

    /// Training Stress Score (Coggan; TrainingPeaks):
    /// `power_seconds × NP × IF / (FTP × 3600) × 100`, so one hour at FTP is 100.
    public static func trainingStressScore(powerSeconds: Int, np: Double?, ftp: Double?) -> Double? {
        guard let np, let ftp, ftp > 0 else { return nil }
        let intensity = np / ftp
        return Double(powerSeconds) * np * intensity / (ftp * 3600) * 100
    }

    /// Mean-maximal power for `MeanMaximalPower.durations` (a window never spans a gap).
    public static func meanMaximalPower(_ power: [Double]) -> MeanMaximalPower {
        MeanMaximalPower(values: meanMaximal(power, durations: MeanMaximalPower.durations))
    }

    /// The highest mean over `d` consecutive valid seconds for each `d` in `durations`.
    public static func meanMaximal(_ power: [Double], durations: [Int]) -> [Double?] {
        let n = power.count
        // prefix[i] = Σ power[0..<i] (gaps as 0); run[i] = valid seconds ending at i.
        var prefix = [Double](repeating: 0, count: n + 1)
        var run = [Int32](repeating: 0, count: n)
        var longest = 0
        power.withUnsafeBufferPointer { p in
            prefix.withUnsafeMutableBufferPointer { s in
                run.withUnsafeMutableBufferPointer { r in
                    var acc = 0.0
                    var current: Int32 = 0
                    for i in 0..<n {
                        let v = p[i]
                        if v.isNaN { current = 0 } else { acc += v; current += 1 }
                        s[i + 1] = acc
                        r[i] = current
                        if Int(current) > longest { longest = Int(current) }
                    }
                }
            }
        }
        return prefix.withUnsafeBufferPointer { s in
            run.withUnsafeBufferPointer { r in
                durations.map { d -> Double? in
                    guard d > 0, d <= longest else { return nil }
                    var best = -Double.infinity
                    let d32 = Int32(d)
                    for i in (d - 1)..<n where r[i] >= d32 {
                        let total = s[i + 1] - s[i + 1 - d]
                        if total > best { best = total }
                    }
                    return best / Double(d)
                }
            }
        }
    }

    /// Coggan's power levels 1…7: bounds at 55, 75, 90, 105, 120 and 150 % of FTP; a
    /// second is in level k when lo ≤ P < hi.
    public static let powerZoneBoundsPct: [Double] = [55, 75, 90, 105, 120, 150]

    /// Seconds in each of Coggan's 7 levels over valid seconds, comparing `100·P ≥ pct·FTP`
    /// (so 110 W against FTP 200 is level 2, where `110 ≥ 0.55·200` would say level 1).
    public static func timeInPowerZones(_ power: [Double], ftp: Double?) -> [Int]? {
        guard let ftp, ftp > 0 else { return nil }
        let edges = powerZoneBoundsPct.map { $0 * ftp }
        var zones = [Int](repeating: 0, count: 7)
        power.withUnsafeBufferPointer { p in
            edges.withUnsafeBufferPointer { e in
                for v in p where !v.isNaN {
                    let x = 100 * v
                    var k = 0
                    while k < 6 && x >= e[k] { k += 1 }
                    zones[k] += 1
                }
            }
        }
        return zones
    }

    /// Minimum of W′bal by Skiba's differential model (Skiba, Fulford, Clarke & Jones 2015,
    /// *Eur J Appl Physiol* 115:703–713; the Froncioni–Clarke form): each second,
    /// above CP `W′bal −= (P − CP)`, at or below CP `W′bal += (W′ − W′bal)·(CP − P)/W′`.
    /// Starts full; gaps count as 0 W (recovery).
    public static func wbalDifferentialMinimum(_ power: [Double], cp: Double?, wprime: Double?) -> Double? {
        guard let cp, let wprime, cp > 0, wprime > 0, !power.isEmpty else { return nil }
        return power.withUnsafeBufferPointer { p in
            var bal = wprime
            var low = wprime
            let inv = 1 / wprime
            for raw in p {
                let v = raw.isNaN ? 0 : raw
                if v > cp {
                    bal -= v - cp
                } else {
                    bal += (wprime - bal) * (cp - v) * inv
                }
                if bal < low { low = bal }
            }
            return low
        }
    }

    /// Skiba's recovery time constant, s: τ = 546·e^(−0.01·D_CP) + 316, where D_CP is CP
    /// minus the mean power of the seconds below CP (gaps as 0 W). With no second below CP
    /// the recovery power is taken as 0 W (D_CP = CP).
    public static func wbalTau(_ power: [Double], cp: Double) -> Double {
        var sum = 0.0, n = 0
        for raw in power {
            let v = raw.isNaN ? 0 : raw
            if v < cp { sum += v; n += 1 }
        }
        let recovery = n > 0 ? sum / Double(n) : 0
        return 546 * Foundation.exp(-0.01 * (cp - recovery)) + 316
    }

    /// Minimum of W′bal by Skiba's integral model (Skiba, Chidnok, Vanhatalo & Jones 2012,
    /// *Med Sci Sports Exerc* 44:1526–1532): `W′bal(t) = W′ − Σ_{u≤t} W′exp(u)·e^(−(t−u)/τ)`
    /// with `W′exp(u) = max(0, P(u) − CP)` and τ from the session (`wbalTau`). Gaps as 0 W.
    public static func wbalIntegralMinimum(_ power: [Double], cp: Double?, wprime: Double?) -> Double? {
        guard let cp, let wprime, cp > 0, wprime > 0, !power.isEmpty else { return nil }
        let decay = Foundation.exp(-1 / wbalTau(power, cp: cp))
        return power.withUnsafeBufferPointer { p in
            var expended = 0.0
            var low = wprime
            for raw in p {
                let v = raw.isNaN ? 0 : raw
                expended = expended * decay + (v > cp ? v - cp : 0)
                let bal = wprime - expended
                if bal < low { low = bal }
            }
            return low
        }
    }
}
