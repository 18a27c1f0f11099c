import Foundation
import Store
import WorkoutMetrics

/// Computes a user's stats (`updated_stats`) from everything stored for them: uploaded sessions (the figures
/// the app showed) and workout records that are not deleted.
public struct StatsService: Sendable {
    public var store: any PipelineStore
    public var now: @Sendable () -> Int64
    public init(store: any PipelineStore, now: @escaping @Sendable () -> Int64 = { Date().epochMillis }) {
        self.store = store; self.now = now
    }

    public enum StatsError: Error, CustomStringConvertible {
        case unknownUser
        public var description: String { "unknown user" }
    }

    /// Computes the stats without storing them.
    public func compute(_ userID: UserID) async throws -> UserStats {
        guard let user = try await store.user(userID) else { throw StatsError.unknownUser }
        let zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
        // Sessions newest first, then workout records by start: the order the sums have always been taken in.
        let figures = try await store.activityFigures(user: userID)
        var contributions: [WorkoutContribution] = []
        contributions.reserveCapacity(figures.sessions.count + figures.workouts.count)
        for s in figures.sessions {
            contributions.append(WorkoutContribution(activity: ActivityDay(startMillis: s.startMillis), durationS: s.durationS,
                                                     energyKcal: s.energyKcal, distanceM: s.distanceM))
        }
        for w in figures.workouts {
            contributions.append(WorkoutContribution(
                activity: ActivityDay(startMillis: w.startMillis, timeZone: w.timeZone.flatMap(TimeZone.init(identifier:))),
                durationS: w.durationS, energyKcal: w.energyKcal, distanceM: w.distanceM))
        }
        let totals = UserTotals.compute(contributions, userZone: zone, nowMillis: now())
        return UserStats(workoutTotalCount: totals.count, workoutTotalEnergy: totals.energyKcal,
                         workoutTotalDistance: totals.distanceM, workoutTotalDuration: totals.durationS,
                         workoutStreak: totals.streak.currentStreakDays, longestStreak: totals.streak.longestStreakDays,
                         lastWorkoutDate: totals.streak.lastWorkoutDate?.iso)
    }

    /// Computes and stores the stats.
    @discardableResult
    public func recompute(_ userID: UserID) async throws -> UserStats {
        let stats = try await compute(userID)
        try await store.putUserStats(UserStatsRecord(userID: userID, stats: stats, computedAt: now()))
        return stats
    }
}
