import Foundation

/// The coaching constants the engine plans with (docs/plan-engine.md explains each one).
/// The tests judge plans against the coaching rubric's limits (docs/plan-engine.md, "The external checker"); these
/// are the engine's targets, inside them.
public enum Coaching {
    public static let marathonM = 42195.0
    public static let marathonToleranceM = 50.0
    /// Shortest plan at all (experienced runners with a solid base only) and the normal minimum.
    public static let minWeeks = 8
    public static let normalMinWeeks = 12
    /// Longest plan; a race further away defers the start (DEFERRED_START).
    public static let maxWeeks = 24
    public static let shortBuildMinWeeklyM = 50_000.0
    public static let shortBuildMinLongM = 24_000.0
    public static let minDays = 3
    /// Largest safe peak as a multiple of the baseline, and how it grows with the build length.
    public static let maxPeakGrowth = 2.75
    public static let peakGrowthPerBuildWeek = 0.085
    /// A long run may take at most this share of its week.
    public static let longShareMax = 0.55
    /// The longest run a week of `week` m holds: 55 % of it, within half a metre (a runner at the base line needs the
    /// minimum long run to the metre in the largest week the rules allow).
    public static func longShareCap(week: Double) -> Double { longShareMax * week + 0.5 }
    /// The largest safe peak must carry the minimum long run with 5 % to spare (whole-100 m runs,
    /// cutbacks and a partial first week all take a little from the peak actually placed).
    public static let minLongMargin = 1.05
    /// The long run must reach min(25 km, 2.5 h) and never exceed min(35 km, 3.5 h).
    public static let minLongM = 25_000.0
    public static let minLongS = 9_000.0
    public static let maxLongM = 35_000.0
    public static let maxLongS = 12_600.0
    /// A long day is any day with ≥ 20 km or ≥ 90 min of running at the planned paces (docs/plan-engine.md).
    public static let longDayM = 20_000.0
    public static let longDayS = 5_400.0
    /// Ordinary (non-long) runs stay clearly below a long day: ≤ 19 km and ≤ 85 min at the easy pace.
    public static let ordinaryRunMaxM = 19_000.0
    public static let ordinaryRunMaxS = 5_100.0
    /// A recovery run: ≤ 60 % of the week's long run and ≤ 45 min at the easy pace.
    public static let recoveryShareOfLong = 0.60
    public static let recoveryMaxS = 2_700.0
    /// No run of the last 6 days before the race is longer (the rubric's 16 km, less a rounding step).
    public static let finalDaysRunMaxM = 15_900.0
    /// After a break the week may grow by this much over the biggest of the last three real weeks (the rubric's
    /// + 3 km, which lets a return after weeks of zeros begin), with an acute:chronic ratio of at most this.
    public static let returnStepM = 3_000.0
    public static let returnAcuteChronicMax = 1.45
    /// Long runs grow by at most this much over the longest of the previous three weeks.
    public static let longStepM = 3_000.0
    /// The long-run step of the faster build (runners near the base line).
    public static let fastLongStepM = 3_900.0
    /// Weekly ramp: ≤ 10 % over the biggest of the previous three, ≤ 1.3 × the previous four's average.
    public static let rampFactor = 1.10
    public static let acuteChronicFactor = 1.30
    /// The faster ramp for a runner near the base line (inside the rubric's 1.2 × or + 3 km, H11).
    public static let fastRampFactor = 1.18
    public static let fastRampStepM = 2_900.0
    /// The last build tried before a refusal (a short build near the base line): the rubric's own limits — 1.2 × the
    /// biggest of the three weeks before or + 3 km (H11), acute:chronic 1.5 (H12) — less a few metres' rounding.
    public static let edgeRampFactor = 1.199
    public static let edgeRampStepM = 2_990.0
    public static let edgeAcuteChronicMax = 1.495
    public static let cutbackFactor = 0.80
    /// Below this the plan warns LOW_BASE.
    public static let lowBaseM = 30_000.0
    /// A goal more than 5 % faster than the current prediction warns GOAL_AGGRESSIVE.
    public static let goalAggressiveFactor = 0.95
    /// A goal more than 5 % slower than the current prediction warns GOAL_CONSERVATIVE (and names the prediction).
    public static let goalConservativeFactor = 1.05

    /// The largest peak a base of `base` m/week can reach in `buildWeeks` weeks before the taper:
    /// max(1.1 × base, min(base + min(40 km, 3.5 km × weeks), 2.75 × base)) — Higdon Novice 1's 15 → 40 mi and
    /// Pfitzinger's +40 km builds are the calibration (docs/plan-engine.md, "Volume").
    public static func peakBound(base: Double, buildWeeks: Int) -> Double {
        let gain = min(peakMaxGainM, peakGainPerBuildWeekM * Double(max(1, buildWeeks)))
        return max(1.1 * base, min(base + gain, maxPeakGrowth * base))
    }
    public static let peakMaxGainM = 40_000.0
    /// The smallest base whose `peakBound` over `buildWeeks` carries a week of `peak` m.
    public static func baseNeeded(peak: Double, buildWeeks: Int) -> Double {
        let gain = min(peakMaxGainM, peakGainPerBuildWeekM * Double(max(1, buildWeeks)))
        return max(peak - gain, peak / maxPeakGrowth)
    }
    /// The base plan's own growth rule, week by week: baseline × min(2.75, 1 + 0.085 × weeks so far).
    public static func baseGrowthCap(weeks p: Int) -> Double {
        min(maxPeakGrowth, 1 + peakGrowthPerBuildWeek * Double(max(0, p)))
    }
    public static let peakGainPerBuildWeekM = 3_500.0

    public static func taperWeeks(totalWeeks n: Int, mode: PlanRequest.Mode) -> Int {
        if mode == .adapt { return min(n, 3) }
        return n >= normalMinWeeks ? 3 : 2
    }

    /// min(25 km, 2.5 h at the middle of the easy range).
    public static func minimumLongRun(easyMidSPerKm e: Double) -> Double {
        min(minLongM, minLongS / e * 1000)
    }

    /// min(35 km, 3.5 h at the middle of the easy range).
    public static func maximumLongRun(easyMidSPerKm e: Double) -> Double {
        min(maxLongM, maxLongS / e * 1000)
    }

    /// "Weeks available" = ⌈(race − start + 1 day) / 7⌉.
    public static func weeksAvailable(start: LocalDate, race: LocalDate) -> Int {
        let days = start.days(to: race) + 1
        return days <= 0 ? 0 : (days + 6) / 7
    }
}

enum Fmt {
    // Plain string building (String(format:) dominated plan generation time in debug builds).
    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    static func fixed1(_ x: Double) -> String {
        let t = Int((x * 10).rounded()); return "\(t / 10).\(abs(t % 10))"
    }
    static func pace(_ s: Double) -> String {
        let t = Int(s.rounded()); return "\(t / 60):" + pad2(t % 60)
    }
    static func range(_ r: PaceRange) -> String { "\(pace(r.minSPerKm))–\(pace(r.maxSPerKm))/km" }
    static func km(_ m: Double) -> String {
        let k = m / 1000
        return k == k.rounded() ? "\(Int(k)) km" : fixed1(k) + " km"
    }
    static func dist(_ m: Double) -> String { m < 1000 ? "\(Int(m.rounded())) m" : km(m) }
    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded()); let h = t / 3600, m = (t % 3600) / 60, sec = t % 60
        return h > 0 ? "\(h):" + pad2(m) + ":" + pad2(sec) : "\(m):" + pad2(sec)
    }
}
