import Foundation

/// Concept2's pace–power relation and the rowing session values of docs/metrics.md.
///
/// Concept2, "Pace to watts calculator": `watts = 2.80 / (split/500)³` with the split in
/// s per 500 m, i.e. 2.80 / pace³ with pace in s/m; the inverse `split = 500·(2.80/W)^(1/3)`.
public enum Rowing {
    /// Watts for a split (s per 500 m); nil for a split ≤ 0.
    public static func watts(fromSplit split: Double) -> Double? {
        guard split > 0 else { return nil }
        let pace = split / 500
        return 2.80 / (pace * pace * pace)
    }

    /// Split (s per 500 m) for watts; nil for watts ≤ 0. Inverse of `watts(fromSplit:)`.
    public static func split(fromWatts watts: Double) -> Double? {
        guard watts > 0 else { return nil }
        return 500 * Foundation.cbrt(2.80 / watts)
    }

    /// Concept2's calorie rate at a power: `4·3.6·W/4.2 + 300` kcal/h (W·3.6 kJ/h of
    /// mechanical work at 25 % efficiency, 4.2 kJ per kcal, plus 300 kcal/h resting).
    public static func concept2KcalPerHour(watts: Double) -> Double {
        4 * 3.6 * watts / 4.2 + 300
    }

    /// Average split, s per 500 m: total time over total distance (`500 × duration /
    /// distance`), never the mean of the per-second splits. nil for distance ≤ 0.
    public static func averageSplit(durationS: Int, distanceM: Double) -> Double? {
        guard distanceM > 0 else { return nil }
        return 500 * Double(durationS) / distanceM
    }

    /// The session distance: the last valid total-distance value; without that channel,
    /// the distance covered at the per-second pace (Σ 500/pace over seconds with a pace).
    public static func distance(totalDistanceM: [Double], paceSPer500m: [Double]) -> Double? {
        if !totalDistanceM.isEmpty {
            return totalDistanceM.last(where: { !$0.isNaN })
        }
        guard !paceSPer500m.isEmpty else { return nil }
        var d = 0.0, any = false
        for s in paceSPer500m where s > 0 { d += 500 / s; any = true }
        return any ? d : nil
    }
}
