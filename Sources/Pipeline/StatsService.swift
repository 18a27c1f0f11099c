import Foundation
import Store
import WorkoutMetrics

/// Computes a user's stats (`updated_stats`) from everything stored for them: uploaded sessions (the figures
/// the app showed) and workout records that are not deleted — each activity once, however many sources recorded it
/// (`ActivityDuplicates`).
public struct StatsService: ClockedService {
    public var store: any PipelineStore
    /// The run time it dates what it writes by (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    public init(store: any PipelineStore, clock: PipelineClock = .system) {
        self.store = store; self.clock = clock
    }

    public enum StatsError: Error, CustomStringConvertible {
        case unknownUser
        public var description: String { "unknown user" }
    }

    /// Computes the stats without storing them.
    public func compute(_ userID: UserID) async throws -> UserStats {
        try await compute(userID, activities: nil)
    }

    /// `compute`, over the user's activities already read (`Activities.read`) when `activities` is given.
    func compute(_ userID: UserID, activities: Activities?) async throws -> UserStats {
        guard let user = try await store.user(userID) else { throw StatsError.unknownUser }
        let zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
        // Sessions newest first, then workout records by start: the order the sums have always been taken in. A
        // recording linked to another of the same activity (`ActivityDuplicates`) is left out: it counts once, with its
        // group's distance when the primary has none (`ActivityDuplicates.distanceM(of:own:)`).
        let read: Activities
        if let activities { read = activities } else { read = try await Activities.read(store: store, user: userID) }
        let (spans, duplicates) = (read.spans, read.duplicates)
        var contributions: [WorkoutContribution] = []
        contributions.reserveCapacity(spans.sessions.count + spans.workouts.count)
        for s in spans.sessions where !duplicates.isLinked(.init(kind: .session, id: s.id)) {
            let f = s.figures
            contributions.append(
                WorkoutContribution(
                    activity: ActivityDay(startMillis: f.startMillis), durationS: f.durationS,
                    energyKcal: f.energyKcal,
                    distanceM: duplicates.distanceM(of: .init(kind: .session, id: s.id), own: f.distanceM) ?? 0))
        }
        for w in spans.workouts where !duplicates.isLinked(.init(kind: .workout, id: w.id)) {
            let f = w.figures
            contributions.append(
                WorkoutContribution(
                    activity: ActivityDay(
                        startMillis: f.startMillis, timeZone: f.timeZone.flatMap(TimeZone.init(identifier:))),
                    durationS: f.durationS, energyKcal: f.energyKcal,
                    distanceM: duplicates.distanceM(of: .init(kind: .workout, id: w.id), own: f.distanceM) ?? 0))
        }
        let totals = UserTotals.compute(contributions, userZone: zone, nowMillis: now())
        return UserStats(
            workoutTotalCount: totals.count, workoutTotalEnergy: totals.energyKcal,
            workoutTotalDistance: totals.distanceM, workoutTotalDuration: totals.durationS,
            workoutStreak: totals.streak.currentStreakDays, longestStreak: totals.streak.longestStreakDays,
            lastWorkoutDate: totals.streak.lastWorkoutDate)
    }

    /// Computes and stores the stats (over `activities` when they were already read).
    @discardableResult
    public func recompute(_ userID: UserID, activities: Activities? = nil) async throws -> UserStats {
        let stats = try await compute(userID, activities: activities)
        try await store.putUserStats(UserStatsRecord(userID: userID, stats: stats, computedAt: now()))
        return stats
    }
}

/// A user's sessions and workout records as spans, and their duplicate groups (`ActivityDuplicates`): what the stats
/// and the training load both start from. `UserPipeline.refreshStatsAndLoad` reads them once for the two stages,
/// which run one after the other under the user's lock.
public struct Activities: Sendable {
    public var spans: (sessions: [ActivitySpan], workouts: [ActivitySpan])
    public var duplicates: ActivityDuplicates

    public static func read(store: any PipelineStore, user: UserID) async throws -> Activities {
        let spans = try await store.activitySpans(user: user)
        let duplicates = try await ActivityDuplicates.resolve(
            store: store, user: user, spans: spans.sessions + spans.workouts)
        return Activities(spans: spans, duplicates: duplicates)
    }
}
