import Foundation

/// Running fitness from a race or time trial (docs/metrics.md, "Running fitness"): VDOT,
/// equivalent race times, Riegel predictions and Daniels training paces.
///
/// VDOT follows Daniels & Gilbert, *Oxygen Power* (1979), as used in *Daniels' Running
/// Formula*: with v in m/min and t in minutes,
/// `VO2(v) = −4.60 + 0.182258·v + 0.000104·v²`,
/// `%max(t) = 0.8 + 0.1894393·e^(−0.012778·t) + 0.2989558·e^(−0.1932605·t)`,
/// `VDOT = VO2(d/t) / %max(t)`.
public enum RunningFitness {
    /// Oxygen cost of running at `v` m/min, ml·kg⁻¹·min⁻¹ (Daniels–Gilbert).
    public static func oxygenCost(metresPerMinute v: Double) -> Double {
        -4.60 + 0.182258 * v + 0.000104 * v * v
    }

    /// Fraction of VO2max sustainable for `t` minutes (Daniels–Gilbert).
    public static func fractionOfMax(minutes t: Double) -> Double {
        0.8 + 0.1894393 * Foundation.exp(-0.012778 * t) + 0.2989558 * Foundation.exp(-0.1932605 * t)
    }

    /// VDOT of running `distanceM` in `timeS`; nil for non-positive inputs.
    public static func vdot(distanceM: Double, timeS: Double) -> Double? {
        guard distanceM > 0, timeS > 0 else { return nil }
        let t = timeS / 60
        return oxygenCost(metresPerMinute: distanceM / t) / fractionOfMax(minutes: t)
    }

    /// The time t (s) with `vdot(distance, t) = vdot`: the equivalent race time. VDOT falls
    /// monotonically with t for race durations, so bisection on [1 s, 2 days] finds it.
    public static func predictedTime(distanceM: Double, vdot target: Double) -> Double? {
        guard distanceM > 0, target > 0 else { return nil }
        var lo = 1.0, hi = 172_800.0
        guard let fast = vdot(distanceM: distanceM, timeS: lo), let slow = vdot(distanceM: distanceM, timeS: hi),
            fast >= target, slow <= target
        else { return nil }
        for _ in 0..<100 {
            let mid = 0.5 * (lo + hi)
            if vdot(distanceM: distanceM, timeS: mid)! > target { lo = mid } else { hi = mid }
            if hi - lo < 1e-9 { break }
        }
        return 0.5 * (lo + hi)
    }

    /// Riegel (1981, *American Scientist* 69:285): `T2 = T1·(D2/D1)^1.06`.
    public static func riegel(timeS: Double, distanceM: Double, targetDistanceM: Double) -> Double {
        timeS * Foundation.pow(targetDistanceM / distanceM, 1.06)
    }

    /// The race distances reported, m (mile 1609.344, half 21097.5, marathon 42195).
    public enum Race: String, CaseIterable, Sendable {
        case m1500 = "1500m", mile, k5 = "5k", k10 = "10k", half, marathon

        public var metres: Double {
            switch self {
            case .m1500: return 1500
            case .mile: return 1609.344
            case .k5: return 5000
            case .k10: return 10000
            case .half: return 21097.5
            case .marathon: return 42195
            }
        }
    }

    /// Daniels training paces, s/km.
    public struct TrainingPaces: Sendable, Equatable {
        public var easyFast: Double
        public var easySlow: Double
        public var marathon: Double
        public var threshold: Double
        public var interval: Double
        public var repetition: Double
    }

    /// Fractions of VDOT at which each training pace's oxygen cost sits, fitted (least
    /// squares, linear in VDOT) to the training-intensity table of *Daniels' Running
    /// Formula*, 3rd ed. (2014), VDOT 30–85; they reproduce that table to within ±2.1 s/km
    /// (its rounding is ±0.5 s). Outside 30–85 they extrapolate.
    public enum PaceFraction {
        public static func easyFast(_ v: Double) -> Double { 0.7158 + 0.000297 * v }
        public static func easySlow(_ v: Double) -> Double { 0.6353 - 0.0000984 * v }
        public static func threshold(_ v: Double) -> Double { 0.8798 }
        public static func interval(_ v: Double) -> Double { 0.9816 - 0.000115 * v }
        public static func repetition(_ v: Double) -> Double { 1.1052 - 0.000952 * v }
    }

    /// Pace (s/km) whose Daniels–Gilbert oxygen cost is `fraction × vdot`.
    public static func pace(atFraction fraction: Double, of vdot: Double) -> Double? {
        let a = 0.000104, b = 0.182258, c = -4.60 - fraction * vdot
        let disc = b * b - 4 * a * c
        guard disc >= 0 else { return nil }
        let v = (-b + disc.squareRoot()) / (2 * a)
        guard v > 0 else { return nil }
        return 60_000 / v
    }

    /// Training paces for a VDOT: M is the predicted marathon pace (pred_marathon / 42.195,
    /// as docs/metrics.md defines it); E, T, I, R from `PaceFraction`.
    public static func trainingPaces(vdot: Double) -> TrainingPaces? {
        guard let marathon = predictedTime(distanceM: 42195, vdot: vdot),
            let ef = pace(atFraction: PaceFraction.easyFast(vdot), of: vdot),
            let es = pace(atFraction: PaceFraction.easySlow(vdot), of: vdot),
            let t = pace(atFraction: PaceFraction.threshold(vdot), of: vdot),
            let i = pace(atFraction: PaceFraction.interval(vdot), of: vdot),
            let r = pace(atFraction: PaceFraction.repetition(vdot), of: vdot)
        else { return nil }
        return TrainingPaces(
            easyFast: ef, easySlow: es, marathon: marathon / 42.195, threshold: t, interval: i, repetition: r)
    }

    /// The full report of docs/metrics.md for one performance.
    public struct Report: Sendable, Codable, Equatable {
        public var vdot: Double
        public var pred1500mS, predMileS, pred5kS, pred10kS, predHalfS, predMarathonS: Double
        public var riegel1500mS, riegelMileS, riegel5kS, riegel10kS, riegelHalfS, riegelMarathonS: Double
        public var paceMSPerKm, paceTSPerKm, paceISPerKm, paceEFastSPerKm, paceESlowSPerKm, paceRSPerKm: Double

        enum CodingKeys: String, CodingKey {
            case vdot
            case pred1500mS = "pred_1500m_s", predMileS = "pred_mile_s", pred5kS = "pred_5k_s"
            case pred10kS = "pred_10k_s", predHalfS = "pred_half_s", predMarathonS = "pred_marathon_s"
            case riegel1500mS = "riegel_1500m_s", riegelMileS = "riegel_mile_s", riegel5kS = "riegel_5k_s"
            case riegel10kS = "riegel_10k_s", riegelHalfS = "riegel_half_s", riegelMarathonS = "riegel_marathon_s"
            case paceMSPerKm = "pace_m_s_per_km", paceTSPerKm = "pace_t_s_per_km", paceISPerKm = "pace_i_s_per_km"
            case paceEFastSPerKm = "pace_e_fast_s_per_km", paceESlowSPerKm = "pace_e_slow_s_per_km"
            case paceRSPerKm = "pace_r_s_per_km"
        }
    }

    /// VDOT, predictions, Riegel times and paces from a performance; nil for invalid input.
    public static func report(distanceM: Double, timeS: Double) -> Report? {
        guard let v = vdot(distanceM: distanceM, timeS: timeS), let paces = trainingPaces(vdot: v) else { return nil }
        var pred: [Race: Double] = [:]
        for race in Race.allCases {
            guard let t = predictedTime(distanceM: race.metres, vdot: v) else { return nil }
            pred[race] = t
        }
        func rg(_ race: Race) -> Double { riegel(timeS: timeS, distanceM: distanceM, targetDistanceM: race.metres) }
        return Report(
            vdot: v,
            pred1500mS: pred[.m1500]!, predMileS: pred[.mile]!, pred5kS: pred[.k5]!, pred10kS: pred[.k10]!,
            predHalfS: pred[.half]!, predMarathonS: pred[.marathon]!,
            riegel1500mS: rg(.m1500), riegelMileS: rg(.mile), riegel5kS: rg(.k5), riegel10kS: rg(.k10),
            riegelHalfS: rg(.half), riegelMarathonS: rg(.marathon),
            paceMSPerKm: pred[.marathon]! / 42.195, paceTSPerKm: paces.threshold, paceISPerKm: paces.interval,
            paceEFastSPerKm: paces.easyFast, paceESlowSPerKm: paces.easySlow, paceRSPerKm: paces.repetition)
    }
}
