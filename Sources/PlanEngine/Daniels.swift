import Foundation

/// The Daniels–Gilbert equations (Daniels' Running Formula; Daniels & Gilbert, *Oxygen Power*, 1979).
///
/// - oxygen cost of running at velocity v (m/min): VO2(v) = −4.60 + 0.182258·v + 0.000104·v²
/// - fraction of VO2max sustainable for t minutes: %max(t) = 0.8 + 0.1894393·e^(−0.012778·t) + 0.2989558·e^(−0.1932605·t)
/// - VDOT = VO2(d/t) / %max(t)
///
/// Training paces are the velocities whose oxygen cost is a fixed fraction of VDOT
/// (E 62–70 %, T 88 %, I 97.5 %, R 106 %); M is the predicted marathon pace.
/// These fractions reproduce Daniels' published tables to within about 2 s/km (see DanielsTableTests).
public enum Daniels {
    public static let marathonM = 42195.0

    public enum Fraction {
        public static let easyFast = 0.70
        public static let easySlow = 0.62
        public static let threshold = 0.88
        public static let interval = 0.975
        public static let repetition = 1.06
    }

    /// Oxygen cost (ml/kg/min) of running at `metresPerMinute`.
    public static func oxygenCost(metresPerMinute v: Double) -> Double {
        -4.60 + 0.182258 * v + 0.000104 * v * v
    }

    /// Fraction of VO2max that can be sustained for `minutes`.
    public static func sustainableFraction(minutes t: Double) -> Double {
        0.8 + 0.1894393 * exp(-0.012778 * t) + 0.2989558 * exp(-0.1932605 * t)
    }

    /// VDOT of a race or time trial; nil for impossible inputs.
    public static func vdot(distanceM: Double, timeS: Double) -> Double? {
        guard distanceM > 0, timeS > 0, distanceM.isFinite, timeS.isFinite else { return nil }
        let minutes = timeS / 60
        let v = oxygenCost(metresPerMinute: distanceM / minutes) / sustainableFraction(minutes: minutes)
        return v.isFinite && v > 0 ? v : nil
    }

    /// Velocity (m/min) whose oxygen cost is `vo2`.
    public static func velocity(forOxygenCost vo2: Double) -> Double {
        let a = 0.000104, b = 0.182258, c = -4.60 - vo2
        return (-b + (b * b - 4 * a * c).squareRoot()) / (2 * a)
    }

    /// Pace (s/km) at `fraction` of `vdot`.
    public static func pace(fraction: Double, vdot: Double) -> Double {
        60_000 / velocity(forOxygenCost: fraction * vdot)
    }

    /// Time (s) a runner of `vdot` is predicted to need for `distanceM` (bisection on the VDOT equation).
    public static func predictedTime(distanceM: Double, vdot: Double) -> Double {
        var lo = 30.0, hi = 100_000.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if (Self.vdot(distanceM: distanceM, timeS: mid) ?? 0) > vdot { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Predicted marathon pace (s/km) for `vdot`.
    public static func marathonPace(vdot: Double) -> Double {
        predictedTime(distanceM: marathonM, vdot: vdot) / (marathonM / 1000)
    }

    /// The five training pace ranges. Paces come from `vdot` (current fitness); a goal only moves
    /// marathon pace within the band between the goal and what fitness supports.
    public static func trainingPaces(vdot: Double, goalTimeS: Double? = nil) -> Paces {
        func r(_ x: Double) -> Double { x.rounded() }
        // Easy bounds round up (slower, by under a second): the minimum long run, 2.5 h at the easy mid pace, is then
        // never longer than the one the base line is drawn with (Daniels' exact paces, docs/plan-engine.md).
        let easy = PaceRange(
            minSPerKm: pace(fraction: Fraction.easyFast, vdot: vdot).rounded(.up),
            maxSPerKm: pace(fraction: Fraction.easySlow, vdot: vdot).rounded(.up))
        let t = r(pace(fraction: Fraction.threshold, vdot: vdot))
        let i = r(pace(fraction: Fraction.interval, vdot: vdot))
        let rep = r(pace(fraction: Fraction.repetition, vdot: vdot))
        let threshold = PaceRange(minSPerKm: t - 3, maxSPerKm: t + 3)
        let interval = PaceRange(minSPerKm: i - 3, maxSPerKm: i + 3)
        let repetition = PaceRange(minSPerKm: rep - 3, maxSPerKm: rep + 3)

        let fit = marathonPace(vdot: vdot)
        var lo: Double, hi: Double
        if let goal = goalTimeS, goal > 0 {
            let g = goal / (marathonM / 1000)
            if g < fit { // goal faster than fitness: train at fitness, reaching toward the goal
                lo = max(g, fit - 6); hi = fit
            } else { // conservative goal: train near the goal, never slower than easy
                hi = min(g, easy.minSPerKm - 6); lo = max(fit, hi - 6)
            }
        } else {
            lo = fit - 3; hi = fit + 3
        }
        lo = max(r(lo), threshold.maxSPerKm + 1)
        hi = max(r(hi), lo)
        hi = min(hi, easy.minSPerKm - 1)
        return Paces(
            easy: easy, marathon: PaceRange(minSPerKm: lo, maxSPerKm: hi), threshold: threshold,
            interval: interval, repetition: repetition)
    }

    /// Daniels' VDOT adjustment after time off (Daniels' Running Formula, time-off table): no change up to
    /// 5 days; then −0.3 % a day without training (0.973 after 14 days, 0.931 after 28, 0.80 from 72 days),
    /// or −0.15 % a day when the runner kept up aerobic cross-training (0.986, 0.965, 0.90).
    public static func timeOffFactor(days: Int, crossTraining: Bool) -> Double {
        guard days > 5 else { return 1 }
        return crossTraining ? max(0.90, 1 - 0.0015 * Double(days - 5)) : max(0.80, 1 - 0.003 * Double(days - 5))
    }
}
