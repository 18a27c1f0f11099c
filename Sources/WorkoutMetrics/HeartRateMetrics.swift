import Foundation

/// Heart-rate definitions over a 1 Hz HR channel. A second counts when it has a value
/// greater than 0 (a 0 bpm reading is a strap dropout, not a heart rate).
public enum HeartRateMetrics {
    /// Mean and maximum over seconds with HR > 0; nil with no such second.
    public static func summary(_ hr: [Double]) -> (mean: Double, max: Double)? {
        summary(HeartRateHistogram(hr))
    }

    static func summary(_ h: HeartRateHistogram) -> (mean: Double, max: Double)? {
        guard h.seconds > 0, let max = h.max else { return nil }
        return (h.sum { $0 } / Double(h.seconds), max)
    }

    /// Banister's sex-specific weighting constants (a, b) as Morton, Fitz-Clarke & Banister
    /// (1990, *J Appl Physiol* 69:1171) give them: men 0.64 / 1.92, women 0.86 / 1.67.
    public static func banisterConstants(_ sex: Athlete.Sex) -> (a: Double, b: Double) {
        switch sex {
        case .male: return (0.64, 1.92)
        case .female: return (0.86, 1.67)
        }
    }

    /// Banister TRIMP (Banister 1991; Morton et al. 1990), summed second by second:
    /// `Σ (1/60)·HRr·a·e^(b·HRr)` with `HRr = (HR − HRrest)/(HRmax − HRrest)` clipped at 0
    /// below (not above). Needs sex, resting and maximum HR.
    public static func banisterTRIMP(_ hr: [Double], athlete: Athlete) -> Double? {
        banisterTRIMP(HeartRateHistogram(hr), athlete: athlete)
    }

    static func banisterTRIMP(_ h: HeartRateHistogram, athlete: Athlete) -> Double? {
        guard let sex = athlete.sex, let rest = athlete.hrRest, let max = athlete.hrMax, max > rest else { return nil }
        let (a, b) = banisterConstants(sex)
        let inv = 1 / (max - rest)
        let acc = h.sum { v in
            let r = (v - rest) * inv
            return r > 0 ? r * Foundation.exp(b * r) : 0
        }
        return acc * a / 60
    }

    /// Edwards' zones as % of HRmax: lower bounds 50, 60, 70, 80, 90; zone k weighs k.
    public static let edwardsBoundsPct: [Double] = [50, 60, 70, 80, 90]

    /// Seconds in Edwards' five zones, comparing `100·HR ≥ pct·HRmax` (so 114 bpm of 190 is
    /// exactly 60 % and goes up to zone 2). Seconds below 50 % are in no zone.
    public static func timeInEdwardsZones(_ hr: [Double], hrMax: Double?) -> [Int]? {
        timeInEdwardsZones(HeartRateHistogram(hr), hrMax: hrMax)
    }

    static func timeInEdwardsZones(_ h: HeartRateHistogram, hrMax: Double?) -> [Int]? {
        guard let hrMax, hrMax > 0 else { return nil }
        let edges = edwardsBoundsPct.map { $0 * hrMax }
        var zones = [Int](repeating: 0, count: 5)
        func add(_ v: Double, _ count: Int) {
            let x = 100 * v
            var k = 0
            while k < 5 && x >= edges[k] { k += 1 }
            if k > 0 { zones[k - 1] += count }
        }
        for k in 1..<HeartRateHistogram.bins where h.counts[k] > 0 { add(Double(k), h.counts[k]) }
        for v in h.others { add(v, 1) }
        return zones
    }

    /// Edwards TRIMP (Edwards 1993, *The Heart Rate Monitor Book*): minutes in each zone
    /// times its weight 1…5.
    public static func edwardsTRIMP(zones: [Int]?) -> Double? {
        guard let zones else { return nil }
        var acc = 0
        for (k, s) in zones.enumerated() { acc += (k + 1) * s }
        return Double(acc) / 60
    }

    /// HRSS (TrainingPeaks / GoldenCheetah): TRIMP scaled so one hour at LTHR is 100:
    /// `100 × TRIMP / (60 × HRr_LT·a·e^(b·HRr_LT))`.
    public static func hrss(trimp: Double?, athlete: Athlete) -> Double? {
        guard let trimp, let sex = athlete.sex, let rest = athlete.hrRest, let max = athlete.hrMax,
            let lthr = athlete.lthr, max > rest, lthr > rest
        else { return nil }
        let (a, b) = banisterConstants(sex)
        let r = (lthr - rest) / (max - rest)
        return 100 * trimp / (60 * r * a * Foundation.exp(b * r))
    }

    /// Aerobic decoupling as GoldenCheetah computes it (Pw:HR): the grid is cut at n/2
    /// (integer division); in each half r = mean P / mean HR over the seconds that have
    /// both (HR > 0); result `100·(r1 − r2)/r1`. nil if a half has no such second or r1 is 0.
    public static func aerobicDecoupling(power: [Double], hr: [Double]) -> Double? {
        let n = Swift.min(power.count, hr.count)
        guard n >= 2 else { return nil }
        let half = n / 2
        func ratio(_ range: Range<Int>) -> Double? {
            var sp = 0.0, sh = 0.0, c = 0
            for i in range {
                let p = power[i], h = hr[i]
                if !p.isNaN && h > 0 { sp += p; sh += h; c += 1 }
            }
            return c > 0 ? sp / sh : nil // (sp/c)/(sh/c)
        }
        // Seconds past the shorter channel have no pair, so only [0, n) contributes; the
        // cut is at half of the full grid, which the caller passes as equal lengths.
        guard let r1 = ratio(0..<half), let r2 = ratio(half..<n), r1 != 0 else { return nil }
        return 100 * (r1 - r2) / r1
    }
}
