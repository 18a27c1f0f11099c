import Foundation

/// Energy cost of running on grades and the ACSM oxygen-cost equations, for treadmill and
/// run sessions (docs/metrics.md "Treadmill").
public enum RunningEnergetics {
    /// Grade limits of Minetti's measurements; grades are clamped to ±0.45 before use.
    public static let gradeLimit = 0.45

    /// Energy cost of running, J·kg⁻¹·m⁻¹, at grade `i` (a fraction): Minetti, Moia, Roi,
    /// Susta & Ferretti (2002), *J Appl Physiol* 93:1039–1046:
    /// `C(i) = 155.4i⁵ − 30.4i⁴ − 43.3i³ + 46.3i² + 19.5i + 3.6`, i clamped to ±0.45.
    public static func minettiCost(grade: Double) -> Double {
        let i = Swift.min(Swift.max(grade, -gradeLimit), gradeLimit)
        return ((((155.4 * i - 30.4) * i - 43.3) * i + 46.3) * i + 19.5) * i + 3.6
    }

    /// ACSM speed at which the running equation replaces the walking one: 134 m/min.
    public static let acsmRunningThresholdMPerMin = 134.0

    /// ACSM gross oxygen cost, ml·kg⁻¹·min⁻¹ (ACSM's Guidelines for Exercise Testing and
    /// Prescription, metabolic equations): running (≥ 134 m/min) `0.2·S + 0.9·S·G + 3.5`,
    /// walking `0.1·S + 1.8·S·G + 3.5`, S in m/min, G the grade; the vertical term only
    /// uphill (G = max(0, grade), clamped at 0.45).
    public static func acsmVO2(speedMps: Double, grade: Double) -> Double {
        let s = speedMps * 60
        let g = Swift.min(Swift.max(grade.isNaN ? 0 : grade, 0), gradeLimit)
        if s >= acsmRunningThresholdMPerMin {
            return 0.2 * s + 0.9 * s * g + 3.5
        }
        return 0.1 * s + 1.8 * s * g + 3.5
    }

    /// kcal per litre of oxygen used by the ACSM energy estimate.
    public static let kcalPerLitreO2 = 5.0

    /// Treadmill/run values of docs/metrics.md over a speed channel and an optional grade
    /// channel (a missing grade second counts as level).
    public struct Summary: Sendable, Equatable {
        /// Σ speed over valid seconds, m.
        public var distanceM: Double
        /// Seconds with speed > 0.
        public var movingTimeS: Int
        /// Max speed over valid seconds, m/s.
        public var maxSpeedMps: Double
        /// Σ speed·C(grade)/C(0) over moving seconds, m (level-equivalent distance).
        public var gradeAdjustedDistanceM: Double
        /// ACSM oxygen cost summed over moving seconds, ml/kg.
        public var acsmOxygenMlPerKg: Double

        /// `1000 × moving_time / distance`, s/km.
        public var avgPaceSPerKm: Double? { distanceM > 0 ? 1000 * Double(movingTimeS) / distanceM : nil }
        /// `1000 × moving_time / Σ speed·C(grade)/C(0)`, s/km.
        public var gapPaceSPerKm: Double? {
            gradeAdjustedDistanceM > 0 ? 1000 * Double(movingTimeS) / gradeAdjustedDistanceM : nil
        }
        /// Mean speed while moving, m/s.
        public var avgMovingSpeedMps: Double? { movingTimeS > 0 ? distanceM / Double(movingTimeS) : nil }
        /// ACSM energy, kcal, for a body mass.
        public func kcal(massKg: Double?) -> Double? {
            guard let massKg, massKg > 0 else { return nil }
            return acsmOxygenMlPerKg * massKg / 1000 * kcalPerLitreO2
        }
    }

    /// What `summary` computes: distance and speed only (any sport), or also the running
    /// energetics (grade-adjusted distance, ACSM oxygen) that only runs use.
    public enum Scope: Sendable {
        case distance
        case runningEnergetics
    }

    public static func summary(speedMps: [Double], grade: [Double], scope: Scope = .runningEnergetics) -> Summary? {
        guard !speedMps.isEmpty else { return nil }
        if scope == .distance {
            let stats = ChannelStatistics(speedMps)
            guard stats.validCount > 0 else { return nil }
            // Σ speed over valid seconds; speeds are ≥ 0, so Σ positive = Σ valid.
            return Summary(
                distanceM: stats.validSum, movingTimeS: stats.positiveCount, maxSpeedMps: stats.validMax,
                gradeAdjustedDistanceM: 0, acsmOxygenMlPerKg: 0)
        }
        let c0 = minettiCost(grade: 0)
        let energetics = scope == .runningEnergetics
        var distance = 0.0, moving = 0, maxSpeed = -Double.infinity, gap = 0.0, oxygen = 0.0
        var valid = 0
        speedMps.withUnsafeBufferPointer { s in
            grade.withUnsafeBufferPointer { gr in
                for i in 0..<s.count {
                    let v = s[i]
                    if v.isNaN { continue }
                    valid += 1
                    distance += v
                    maxSpeed = Swift.max(maxSpeed, v)
                    guard v > 0 else { continue }
                    moving += 1
                    guard energetics else { continue }
                    var g = i < gr.count ? gr[i] : 0
                    if g.isNaN { g = 0 }
                    gap += v * minettiCost(grade: g) / c0
                    oxygen += acsmVO2(speedMps: v, grade: g) / 60
                }
            }
        }
        guard valid > 0 else { return nil }
        return Summary(
            distanceM: distance, movingTimeS: moving, maxSpeedMps: maxSpeed,
            gradeAdjustedDistanceM: gap, acsmOxygenMlPerKg: oxygen)
    }
}
