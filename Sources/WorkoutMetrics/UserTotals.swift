import Foundation

/// One workout's contribution to a user's totals: the figures the user saw (the app's own summary).
public struct WorkoutContribution: Sendable, Equatable {
    public var activity: ActivityDay
    public var durationS: Double
    public var energyKcal: Double
    public var distanceM: Double
    public init(activity: ActivityDay, durationS: Double, energyKcal: Double, distanceM: Double) {
        self.activity = activity; self.durationS = durationS; self.energyKcal = energyKcal; self.distanceM = distanceM
    }
}

/// The stats the apps expect (`updated_stats`), exactly named: `workout_total_count`, `workout_total_energy` (kcal),
/// `workout_total_distance` (m), `workout_total_duration` (s), `workout_streak` (days), `last_workout_date`
/// (local `YYYY-MM-DD`), plus `longest_streak`.
public struct UserTotals: Sendable, Equatable {
    public var count: Int
    public var energyKcal: Double
    public var distanceM: Double
    public var durationS: Double
    public var streak: StreakSummary

    /// Totals over every counted workout (deleted and future-dated ones excluded, as for streaks).
    public static func compute(_ workouts: [WorkoutContribution], userZone: TimeZone, nowMillis: Int64) -> UserTotals {
        let counted = workouts.filter { !$0.activity.deleted && $0.activity.startMillis <= nowMillis }
        // Sum in a fixed order so that the same workouts always give bit-identical totals.
        let ordered = counted.sorted {
            ($0.activity.startMillis, $0.durationS) < ($1.activity.startMillis, $1.durationS)
        }
        return UserTotals(
            count: ordered.count,
            energyKcal: ordered.reduce(0) { $0 + $1.energyKcal },
            distanceM: ordered.reduce(0) { $0 + $1.distanceM },
            durationS: ordered.reduce(0) { $0 + $1.durationS },
            streak: Streaks.summary(counted.map(\.activity), userZone: userZone, nowMillis: nowMillis))
    }
}
