/// The figures of one session or workout record that the stats need (`StatsService`): when it started, in which zone
/// (a workout's own; nil for sessions, which count in the user's), how long, how much energy and distance — without
/// the detail, the recording or the samples, which the stats never read.
public struct ActivityFigures: Sendable, Equatable {
    public var startMillis: EpochMillis
    public var timeZone: String?
    public var durationS: Double
    public var energyKcal: Double
    public var distanceM: Double
    public init(startMillis: EpochMillis, timeZone: String?, durationS: Double, energyKcal: Double, distanceM: Double) {
        self.startMillis = startMillis; self.timeZone = timeZone; self.durationS = durationS
        self.energyKcal = energyKcal; self.distanceM = distanceM
    }
}

/// One analysed session's or measured workout record's load on its local date (`tss`: TSS, else HRSS; nil without
/// either) — what the daily training load sums (`LoadService.dailyLoads`).
public struct LoadEntry: Sendable, Equatable {
    public var localDate: LocalDate
    public var load: Double?
    public init(localDate: LocalDate, load: Double?) { self.localDate = localDate; self.load = load }
}

extension PipelineStore {
    /// The user's sessions' figures newest first (the order of `sessionSummaries`), then their workout records' that
    /// are not deleted, by start (the order of `workouts`): the order the stats sum them in.
    public func activityFigures(user: UserID) async throws -> (sessions: [ActivityFigures], workouts: [ActivityFigures])
    {
        var sessions: [ActivityFigures] = []
        let count = try await sessionCount(user: user)
        while sessions.count < count {
            let page = try await sessionSummaries(user: user, offset: sessions.count, limit: 1000)
            if page.isEmpty { break }
            sessions += page.map {
                ActivityFigures(
                    startMillis: $0.startedAt, timeZone: nil, durationS: $0.durationS, energyKcal: $0.totalEnergyKcal,
                    distanceM: $0.totalDistanceM)
            }
        }
        let workouts = try await workouts(user: user, includeDeleted: false).map {
            ActivityFigures(
                startMillis: $0.startAt, timeZone: $0.timeZone, durationS: $0.durationS, energyKcal: $0.energyKcal ?? 0,
                distanceM: $0.distanceM ?? 0)
        }
        return (sessions, workouts)
    }

    /// The loads of the user's analysed sessions (by date, then id), then of their measured workout records at their
    /// current version (by date, then id): the order `sessionMetrics` and `workoutMetrics` give.
    public func loadEntries(user: UserID) async throws -> [LoadEntry] {
        try await sessionMetrics(user: user).map { LoadEntry(localDate: $0.localDate, load: $0.tss) }
            + workoutMetrics(user: user).map { LoadEntry(localDate: $0.localDate, load: $0.tss) }
    }
}
