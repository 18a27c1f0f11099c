import Foundation
import Logging
import Store

/// One user's share of a nightly run, on its own: analyse the user's sessions and workout records that have no metrics
/// yet, recompute and store the stats and the training-load series when something changed (or always, `force`), refresh
/// the plan, then clear the user's pending-recompute mark. What a shared-run worker does per claimed user, what `pipeline
/// recompute --user` does (with `reanalyse`: from scratch) and what `POST /v1/me/recompute` does (without the plan
/// refresh: `refreshPlan: false`); the same steps, in the same order per user, as `NightlyJob.run` does for everyone at
/// once, so either way gives the same rows.
///
/// Not locked by itself: callers hold the user's lock (`UserLock`) so that two processes never
/// work on one user at the same time.
public struct UserRecomputation: Sendable {
    public var store: any PipelineStore
    /// Run time (the user's today, the stamps of what is computed) and wall time (the pending-recompute marks this
    /// recomputation answers are those the store wrote up to its start by the wall clock).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    /// Where a session stepped over (`UnreadableSession`) is logged.
    public var logger: Logger

    public init(
        store: any PipelineStore, clock: PipelineClock = .system, logger: Logger = Logger(label: "pipeline.recompute")
    ) {
        self.store = store; self.clock = clock; self.logger = logger
    }

    /// Run time read from `now`, wall time the system's.
    public init(
        store: any PipelineStore, now: @escaping @Sendable () -> Int64,
        logger: Logger = Logger(label: "pipeline.recompute")
    ) {
        self.init(store: store, clock: PipelineClock(now: now), logger: logger)
    }

    /// What one user's recomputation did.
    public struct Outcome: Sendable, Codable, Equatable {
        public var sessionsAnalysed: Int
        /// Workout records (Apple Health, Garmin) measured for their current version.
        public var workoutRecordsAnalysed: Int
        public var sessionFlags: [String: Int]
        public var statsRecomputed: Bool
        /// The plan refresh's outcome (`no_goal` for users without a goal race); nil when the caller asked for no plan
        /// refresh (`refreshPlan: false`), and then absent from the JSON.
        public var plan: PlanService.Outcome?
        /// Sessions stepped over because their stored recording cannot be read back, and which (their metrics are
        /// left as they were).
        public var sessionsUnreadable: Int
        public var unreadableSessions: [UnreadableSession]

        public init(
            sessionsAnalysed: Int, workoutRecordsAnalysed: Int, sessionFlags: [String: Int], statsRecomputed: Bool,
            plan: PlanService.Outcome?, unreadableSessions: [UnreadableSession] = []
        ) {
            self.sessionsAnalysed = sessionsAnalysed; self.workoutRecordsAnalysed = workoutRecordsAnalysed
            self.sessionFlags = sessionFlags; self.statsRecomputed = statsRecomputed; self.plan = plan
            self.sessionsUnreadable = unreadableSessions.count; self.unreadableSessions = unreadableSessions
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                sessionsAnalysed: try c.decode(Int.self, forKey: .sessionsAnalysed),
                workoutRecordsAnalysed: try c.decode(Int.self, forKey: .workoutRecordsAnalysed),
                sessionFlags: try c.decode([String: Int].self, forKey: .sessionFlags),
                statsRecomputed: try c.decode(Bool.self, forKey: .statsRecomputed),
                plan: try c.decodeIfPresent(PlanService.Outcome.self, forKey: .plan),
                unreadableSessions: try c.decodeIfPresent([UnreadableSession].self, forKey: .unreadableSessions) ?? [])
        }

        enum CodingKeys: String, CodingKey {
            case sessionsAnalysed = "sessions_analysed", workoutRecordsAnalysed = "workout_records_analysed",
                sessionFlags = "session_flags", statsRecomputed = "stats_recomputed", plan
            case sessionsUnreadable = "sessions_unreadable", unreadableSessions = "unreadable_sessions"
        }
    }

    /// Recomputes `userID`; nil when there is no such user (deleted meanwhile).
    ///
    /// - Parameters:
    ///   - force: recompute the stats even when nothing says they changed.
    ///   - marked: the user had a pending-recompute mark when the caller looked (stats are recomputed then).
    ///   - reanalyse: measure every session and workout record again, not only those without metrics (`pipeline
    ///     recompute`: from scratch, e.g. after the user's FTP, LTHR or the metric definitions changed).
    ///   - refreshPlan: refresh the plan (generate, or adapt once per plan week) after the stats. `POST /v1/me/recompute`
    ///     passes false: plans are the nightly's (a new runner, a new goal race) and the weekly plan job's (adaptation).
    ///     Without the refresh the user's pending-recompute mark stays, so the next nightly still does what it owes the
    ///     user (stats again — the same rows — and a plan for a new runner or goal race).
    ///   - planPolicy: how the plan is refreshed: generated or adapted (default; `pipeline recompute`, a full pass), or
    ///     only generated for a new runner or goal race (`generateOnly`: an incremental night's worker, as the
    ///     incremental nightly; adaptation is the weekly plan job's).
    public func run(
        _ userID: UserID, force: Bool, marked: Bool, reanalyse: Bool = false,
        refreshPlan: Bool = true, planPolicy: PlanService.RefreshPolicy = .generateOrAdapt
    ) async throws -> Outcome? {
        guard let user = try await store.user(userID) else { return nil }
        // Marks written up to now are answered by this recomputation (wall clock, as `apply` writes marks).
        let markedUpTo = clock.wall()
        let analyser = SessionAnalyzer()
        let analysed = reanalyse ? [] : Set(try await store.sessionMetrics(user: userID).map(\.sessionID))
        let total = try await store.sessionCount(user: userID)
        var missing: [SessionID] = []
        var offset = 0
        while offset < total {
            let page = try await store.sessionSummaries(user: userID, offset: offset, limit: 500)
            if page.isEmpty { break }
            offset += page.count
            missing += page.filter { !analysed.contains($0.sessionID) }.map(\.sessionID)
        }
        var flags: [String: Int] = [:]
        var done = 0
        var unreadable: [UnreadableSession] = []
        // Oldest first, as the nightly run analyses them (the order does not change the rows).
        for id in missing.reversed() {
            try Task.checkCancellation()
            let read: StoredSession?
            do {
                read = try await store.session(user: userID, id: id)
            } catch let error as UnreadableRecording {
                // A damaged stored frame: this session is stepped over (its metrics, if any, stay as they are) and
                // reported; the user's other sessions go on.
                let report = UnreadableSession(error)
                report.log(logger)
                unreadable.append(report)
                continue
            }
            guard let session = read else { continue }
            let record = analyser.analyze(session, user: user, now: now())
            try await store.putSessionMetrics(record)
            for flag in record.flags { flags[flag, default: 0] += 1 }
            done += 1
        }
        try Task.checkCancellation()
        // Workout records (HealthKit, Garmin) measured for their current version, as `NightlyJob.analysePendingWorkouts`
        // does for everyone: first the figures of this user's deleted or replaced versions go (one statement, this
        // user's rows only; the nightly prunes everyone's).
        _ = try await store.pruneWorkoutMetrics(user: userID)
        let measured =
            reanalyse
            ? [:]
            : Dictionary(
                try await store.workoutMetrics(user: userID).map { ($0.workoutID, $0.workoutUpdatedAt) },
                uniquingKeysWith: { max($0, $1) })
        let workoutAnalyser = WorkoutAnalyzer()
        var workoutsDone = 0
        for workout in try await store.workouts(user: userID, includeDeleted: false)
        where measured[workout.workoutID] != workout.updatedAt {
            try Task.checkCancellation()
            try await store.putWorkoutMetrics(workoutAnalyser.analyze(workout, user: user, now: now()))
            workoutsDone += 1
        }
        try Task.checkCancellation()
        var recomputed = false
        let neverComputed = try await store.userStats(userID) == nil
        if force || marked || done > 0 || workoutsDone > 0 || neverComputed {
            guard try await refreshStatsAndLoad(user) != nil else { return nil }
            recomputed = true
        }
        // Nobody touched this user: nothing is written, their series' rest days are derived when read (`LoadService`).
        try Task.checkCancellation()
        guard refreshPlan else {
            // The mark stays: the plan it also stands for was not refreshed here.
            return Outcome(
                sessionsAnalysed: done, workoutRecordsAnalysed: workoutsDone, sessionFlags: flags,
                statsRecomputed: recomputed, plan: nil, unreadableSessions: unreadable)
        }
        let plan: PlanService.Outcome
        do {
            plan = try await PlanService(store: store, clock: clock).refresh(userID, policy: planPolicy)
        } catch StatsService.StatsError.unknownUser {
            return nil
        }
        // The mark goes only once stats *and* plan are done: killed in between, the next run finds it (as the nightly).
        if recomputed { try await store.clearPendingRecompute(userID, markedUpTo: markedUpTo) }
        return Outcome(
            sessionsAnalysed: done, workoutRecordsAnalysed: workoutsDone, sessionFlags: flags,
            statsRecomputed: recomputed, plan: plan, unreadableSessions: unreadable)
    }

    /// The user's stats recomputed and stored, then their daily training-load series brought up to date from its first
    /// changed day: the step `run` takes for its user, and `NightlyJob.run` for each user it recomputes. The load days
    /// written; nil when the user is gone (deleted meanwhile).
    public func refreshStatsAndLoad(_ user: User) async throws -> Int? {
        do {
            try await StatsService(store: store, clock: clock).recompute(user.id)
        } catch StatsService.StatsError.unknownUser {
            return nil
        }
        let today = LoadService.today(for: user, at: now())
        return try await LoadService(store: store, clock: clock).update(user.id, today: today, computedAt: now())
            .daysWritten
    }
}
