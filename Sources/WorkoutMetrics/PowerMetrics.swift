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
        let stats = ChannelStatistics(power)
        return stats.validCount > 0 ? Summary(seconds: stats.validCount, sum: stats.validSum, max: stats.validMax) : nil
    }

    /// Normalized Power (Coggan; TrainingPeaks): the 30 s rolling mean from the 30th
    /// second on (no zero padding of the first 29 s), raised to the 4th power, averaged,
    /// 4th root. A window never spans a gap, so only windows of 30 consecutive valid
    /// seconds count. `nil` if there is no such window (a session shorter than 30 s, or one
    /// whose every 30 s contains a gap); 0 for all-zero power.
    ///
    /// Allen & Coggan, *Training and Racing with a Power Meter* (2nd ed., 2010), ch. 7.
    public static func normalizedPower(_ power: [Double]) -> Double? {
        normalizedPower(PowerIndex(power))
    }

    static func normalizedPower(_ index: PowerIndex) -> Double? {
        let (sum, windows) = index.fourthPowerOfWindowMeans(30)
        guard windows > 0 else { return nil }
        return Foundation.pow(sum / Double(windows), 0.25)
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
        MeanMaximalPower(values: meanMaximal(PowerIndex(power), durations: MeanMaximalPower.durations))
    }

    /// The highest mean over `d` consecutive valid seconds for each `d` in `durations`.
    public static func meanMaximal(_ power: [Double], durations: [Int]) -> [Double?] {
        meanMaximal(PowerIndex(power), durations: durations)
    }

    static func meanMaximal(_ index: PowerIndex, durations: [Int]) -> [Double?] {
        durations.map { d in index.maxWindowSum(d).map { $0 / Double(d) } }
    }

    /// Coggan's power levels 1…7: bounds at 55, 75, 90, 105, 120 and 150 % of FTP; a
    /// second is in level k when lo ≤ P < hi.
    public static let powerZoneBoundsPct: [Double] = [55, 75, 90, 105, 120, 150]

    /// Seconds in each of Coggan's 7 levels over valid seconds, comparing `100·P ≥ pct·FTP`
    /// (so 110 W against FTP 200 is level 2, where `110 ≥ 0.55·200` would say level 1).
    public static func timeInPowerZones(_ power: [Double], ftp: Double?) -> [Int]? {
        guard let ftp, ftp > 0 else { return nil }
        let edges = powerZoneBoundsPct.map { $0 * ftp }
        let zones: [Int]
        // Count, for each edge, the seconds at or above it (branch-free SIMD; NaN compares
        // false), then level k = above(edge k−1) − above(edge k).
        var above = [Double](repeating: 0, count: 6)
        var valid = 0.0
        power.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let n = buffer.count
            let e0 = SIMD4<Double>(repeating: edges[0]), e1 = SIMD4<Double>(repeating: edges[1])
            let e2 = SIMD4<Double>(repeating: edges[2]), e3 = SIMD4<Double>(repeating: edges[3])
            let e4 = SIMD4<Double>(repeating: edges[4]), e5 = SIMD4<Double>(repeating: edges[5])
            var c0 = SIMD4<Int64>(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, cv = c0
            var i = 0
            while i + 4 <= n {
                let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                let x = v * 100
                cv &-= (v .== v).lanes
                c0 &-= (x .>= e0).lanes
                c1 &-= (x .>= e1).lanes
                c2 &-= (x .>= e2).lanes
                c3 &-= (x .>= e3).lanes
                c4 &-= (x .>= e4).lanes
                c5 &-= (x .>= e5).lanes
                i += 4
            }
            above = [c0, c1, c2, c3, c4, c5].map { Double($0.wrappedSum()) }
            valid = Double(cv.wrappedSum())
            while i < n {
                let v = buffer[i]
                if !v.isNaN {
                    valid += 1
                    for k in 0..<6 where 100 * v >= edges[k] { above[k] += 1 }
                }
                i += 1
            }
        }
        let a = above.map { Int($0) }
        zones = [Int(valid) - a[0], a[0] - a[1], a[1] - a[2], a[2] - a[3], a[3] - a[4], a[4] - a[5], a[5]]
        return zones
    }

    /// Minimum of W′bal by Skiba's differential model (Skiba, Fulford, Clarke & Jones 2015,
    /// *Eur J Appl Physiol* 115:703–713; the Froncioni–Clarke form): each second,
    /// above CP `W′bal −= (P − CP)`, at or below CP `W′bal += (W′ − W′bal)·(CP − P)/W′`.
    /// Starts full; gaps count as 0 W (recovery).
    public static func wbalDifferentialMinimum(_ power: [Double], cp: Double?, wprime: Double?) -> Double? {
        guard let cp, let wprime, cp > 0, wprime > 0, !power.isEmpty else { return nil }
        return power.withUnsafeBufferPointer { p in
            // Both branches are W′bal_t = a_t·W′bal_{t−1} + (CP − P_t) with
            // a_t = 1 − max(0, CP − P_t)/W′ (a = 1 above CP): a linear recurrence, evaluated
            // four seconds at a time so that the dependency chain is one multiply-add per block.
            let inv = 1 / wprime
            let n = p.count
            var bal = wprime
            var lowV = SIMD4<Double>(repeating: wprime)
            var i = 0
            @inline(__always) func coefficients(_ raw: Double) -> (a: Double, b: Double) {
                let v = raw.isNaN ? 0 : raw
                let b = cp - v
                return (1 - Swift.max(0, b) * inv, b)
            }
            while i + 4 <= n {
                let (a1, b1) = coefficients(p[i])
                let (a2, b2) = coefficients(p[i + 1])
                let (a3, b3) = coefficients(p[i + 2])
                let (a4, b4) = coefficients(p[i + 3])
                let a12 = a2 * a1, a123 = a3 * a12
                let c2 = a2 * b1 + b2, c3 = a3 * c2 + b3, c4 = a4 * c3 + b4
                let values = SIMD4(a1, a12, a123, a4 * a123) * bal + SIMD4(b1, c2, c3, c4)
                lowV.replace(with: values, where: values .< lowV)
                bal = values[3]
                i += 4
            }
            var low = lowV.min()
            while i < n {
                let (a, b) = coefficients(p[i])
                bal = a * bal + b
                low = Swift.min(low, bal)
                i += 1
            }
            return low
        }
    }

    /// Skiba's recovery time constant, s: τ = 546·e^(−0.01·D_CP) + 316, where D_CP is CP
    /// minus the mean power of the seconds below CP (gaps as 0 W). With no second below CP
    /// the recovery power is taken as 0 W (D_CP = CP).
    public static func wbalTau(_ power: [Double], cp: Double) -> Double {
        var sum = 0.0, n = 0.0
        power.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let cpV = SIMD4<Double>(repeating: cp)
            var sv = SIMD4<Double>(), nv = SIMD4<Int64>()
            var i = 0
            while i + 4 <= buffer.count {
                var v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                v.replace(with: 0, where: v .!= v) // gaps as 0 W
                let below = v .< cpV
                sv += v.replacing(with: 0, where: .!below)
                nv &-= below.lanes
                i += 4
            }
            sum = sv.sum()
            n = Double(nv.wrappedSum())
            while i < buffer.count {
                let v = buffer[i].isNaN ? 0 : buffer[i]
                if v < cp { sum += v; n += 1 }
                i += 1
            }
        }
        let recovery = n > 0 ? sum / n : 0
        return 546 * Foundation.exp(-0.01 * (cp - recovery)) + 316
    }

    /// Minimum of W′bal by Skiba's integral model (Skiba, Chidnok, Vanhatalo & Jones 2012,
    /// *Med Sci Sports Exerc* 44:1526–1532): `W′bal(t) = W′ − Σ_{u≤t} W′exp(u)·e^(−(t−u)/τ)`
    /// with `W′exp(u) = max(0, P(u) − CP)` and τ from the session (`wbalTau`). Gaps as 0 W.
    public static func wbalIntegralMinimum(_ power: [Double], cp: Double?, wprime: Double?) -> Double? {
        guard let cp, let wprime, cp > 0, wprime > 0, !power.isEmpty else { return nil }
        let decay = Foundation.exp(-1 / wbalTau(power, cp: cp))
        return power.withUnsafeBufferPointer { p in
            // S_t = decay·S_{t−1} + max(0, P_t − CP), four seconds per dependent multiply-add.
            let d2 = decay * decay, d3 = d2 * decay, d4 = d3 * decay
            let powers = SIMD4(decay, d2, d3, d4)
            @inline(__always) func expended(_ raw: Double) -> Double { Swift.max(0, (raw.isNaN ? 0 : raw) - cp) }
            let n = p.count
            var spent = 0.0
            var highV = SIMD4<Double>(repeating: 0)
            var i = 0
            while i + 4 <= n {
                let x1 = expended(p[i]), x2 = expended(p[i + 1]), x3 = expended(p[i + 2]), x4 = expended(p[i + 3])
                let c2 = decay * x1 + x2, c3 = decay * c2 + x3, c4 = decay * c3 + x4
                let values = powers * spent + SIMD4(x1, c2, c3, c4)
                highV.replace(with: values, where: values .> highV)
                spent = values[3]
                i += 4
            }
            var high = highV.max()
            while i < n {
                spent = decay * spent + expended(p[i])
                high = Swift.max(high, spent)
                i += 1
            }
            let low = wprime - high
            return low
        }
    }
}
