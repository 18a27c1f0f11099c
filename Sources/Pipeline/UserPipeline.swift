import Foundation
import Logging
import Store

/// A user's work, in one order: the stages of `Stage`, each a method of this type. Every path that works on one user
/// goes through it: `run` takes a user through all of them (a shared-run worker per claimed user, `pipeline recompute
/// --user` with `reanalyse`, `pipeline import --recompute`, and `POST /v1/me/recompute` without the plan:
/// `refreshPlan: false`); `NightlyJob.run` takes every user through the same stages in the same order, the analysis
/// stages batched across users (`NightlyJob.analysePending`, `analysePendingWorkouts`: the nightly's speed) and the
/// others through this type's per-user methods (`refreshStatsAndLoad`, `refreshPlan`, `clearMark`). Either way gives
/// the same rows.
///
/// Not locked by itself: callers hold the user's lock (`UserLock`) so that two processes never work on one user at the
/// same time.
public struct UserPipeline: Sendable {
    /// A user's stages, in the order they run (`allCases`).
    public enum Stage: String, Sendable, CaseIterable {
        /// Sessions without metrics measured (`SessionAnalyzer`).
        case sessions
        /// Workout records (Apple Health, Garmin) measured for their current version (`WorkoutAnalyzer`).
        case workoutRecords = "workout_records"
        /// The user's stats recomputed and stored (`StatsService`), when something changed.
        case stats
        /// The daily training-load series brought up to date from its first changed day (`LoadService`), with the
        /// stats.
        case trainingLoad = "training_load"
        /// The plan generated or adapted (`PlanService`).
        case plan
        /// The user's pending-recompute mark cleared: last, once stats *and* plan are done, so that a run killed in
        /// between leaves it for the next.
        case clearMark = "clear_mark"
    }

    public var store: any PipelineStore
    /// Run time (the user's today, the stamps of what is computed) and wall time (the pending-recompute marks this
    /// work answers are those the store wrote up to its start by the wall clock).
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

    /// Takes `userID` through every stage, in order; nil when there is no such user (deleted meanwhile).
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
        // Marks written up to now are answered by this run (wall clock, as `apply` writes marks).
        let markedUpTo = clock.wall()
        var sessions = SessionsAnalysed()
        var workoutsDone = 0
        var recomputed = false
        var plan: PlanService.Outcome?
        for stage in Stage.allCases {
            // Cancelled, it stops before the next analysis, before the stats and before the plan; the load goes with
            // the stats and the mark with the plan.
            if stage == .workoutRecords || stage == .stats || stage == .plan { try Task.checkCancellation() }
            switch stage {
            case .sessions:
                sessions = try await analyseSessions(user, reanalyse: reanalyse)
            case .workoutRecords:
                workoutsDone = try await analyseWorkoutRecords(user, reanalyse: reanalyse)
            case .stats:
                // Nobody touched this user: nothing is written, their series' rest days are derived when read
                // (`LoadService`).
                let neverComputed = try await store.userStats(userID) == nil
                guard force || marked || sessions.done > 0 || workoutsDone > 0 || neverComputed else { continue }
                guard try await recomputeStats(userID) else { return nil }
                recomputed = true
            case .trainingLoad:
                if recomputed { _ = try await updateTrainingLoad(user) }
            case .plan:
                // Without the refresh the mark stays: the plan it also stands for was not refreshed here.
                guard refreshPlan else { break }
                guard let outcome = try await self.refreshPlan(userID, policy: planPolicy) else { return nil }
                plan = outcome
            case .clearMark:
                if refreshPlan && recomputed { try await clearMark(userID, markedUpTo: markedUpTo) }
            }
        }
        return Outcome(
            sessionsAnalysed: sessions.done, workoutRecordsAnalysed: workoutsDone, sessionFlags: sessions.flags,
            statsRecomputed: recomputed, plan: plan, unreadableSessions: sessions.unreadable)
    }

    /// What the sessions stage did.
    public struct SessionsAnalysed: Sendable {
        public var done = 0
        public var flags: [String: Int] = [:]
        public var unreadable: [UnreadableSession] = []
    }

    /// Stage `sessions`: measures the user's sessions without metrics (every session, `reanalyse`), oldest first, as
    /// the nightly analyses them (the order does not change the rows). A session whose stored recording cannot be read
    /// back is stepped over (its metrics, if any, stay as they are), logged and reported; the others go on.
    public func analyseSessions(_ user: User, reanalyse: Bool) async throws -> SessionsAnalysed {
        let userID = user.id
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
        var result = SessionsAnalysed()
        for id in missing.reversed() {
            try Task.checkCancellation()
            let read: StoredSession?
            do {
                read = try await store.session(user: userID, id: id)
            } catch let error as UnreadableRecording {
                let report = UnreadableSession(error)
                report.log(logger)
                result.unreadable.append(report)
                continue
            }
            guard let session = read else { continue }
            let record = analyser.analyze(session, user: user, now: now())
            try await store.putSessionMetrics(record)
            for flag in record.flags { result.flags[flag, default: 0] += 1 }
            result.done += 1
        }
        return result
    }

    /// Stage `workoutRecords`: the figures of the user's deleted or replaced record versions dropped (this user's rows
    /// only; the nightly prunes everyone's), then each record without metrics for its current version measured (every
    /// record, `reanalyse`). The records measured.
    public func analyseWorkoutRecords(_ user: User, reanalyse: Bool) async throws -> Int {
        let userID = user.id
        _ = try await store.pruneWorkoutMetrics(user: userID)
        let measured =
            reanalyse
            ? [:]
            : Dictionary(
                try await store.workoutMetrics(user: userID).map { ($0.workoutID, $0.workoutUpdatedAt) },
                uniquingKeysWith: { max($0, $1) })
        let workoutAnalyser = WorkoutAnalyzer()
        var done = 0
        for workout in try await store.workouts(user: userID, includeDeleted: false)
        where measured[workout.workoutID] != workout.updatedAt {
            try Task.checkCancellation()
            try await store.putWorkoutMetrics(workoutAnalyser.analyze(workout, user: user, now: now()))
            done += 1
        }
        return done
    }

    /// Stage `stats`: the user's stats recomputed and stored; false when the user is gone (deleted meanwhile).
    public func recomputeStats(_ userID: UserID, activities: Activities? = nil) async throws -> Bool {
        do {
            try await StatsService(store: store, clock: clock).recompute(userID, activities: activities)
            return true
        } catch StatsService.StatsError.unknownUser {
            return false
        }
    }

    /// Stage `trainingLoad`: the user's daily training-load series brought up to date from its first changed day
    /// through their today (run time). The days written.
    public func updateTrainingLoad(_ user: User, duplicates: ActivityDuplicates? = nil) async throws -> Int {
        let today = LoadService.today(for: user, at: now())
        return try await LoadService(store: store, clock: clock).update(
            user.id, today: today, computedAt: now(), duplicates: duplicates
        )
        .daysWritten
    }

    /// Stages `stats` and `trainingLoad` for one user, in that order: what `run` does when the user's stats are due,
    /// and `NightlyJob.run` for each user it recomputes. The load days written; nil when the user is gone. The user's
    /// activities and their duplicate groups are read once for both stages (`Activities`; the caller holds the user's
    /// lock across the two), not once a stage: one store round trip less a user.
    public func refreshStatsAndLoad(_ user: User) async throws -> Int? {
        let activities = try await Activities.read(store: store, user: user.id)
        guard try await recomputeStats(user.id, activities: activities) else { return nil }
        return try await updateTrainingLoad(user, duplicates: activities.duplicates)
    }

    /// Stage `plan`: the plan refreshed with `policy` (`no_goal` for users without a goal race); nil when the user is
    /// gone.
    public func refreshPlan(_ userID: UserID, policy: PlanService.RefreshPolicy) async throws -> PlanService.Outcome? {
        do {
            return try await PlanService(store: store, clock: clock).refresh(userID, policy: policy)
        } catch StatsService.StatsError.unknownUser {
            return nil
        }
    }

    /// Stage `clearMark`: the user's pending-recompute mark cleared, if it was written up to `markedUpTo` (wall time:
    /// a mark written since stays for the next run).
    public func clearMark(_ userID: UserID, markedUpTo: Int64) async throws {
        try await store.clearPendingRecompute(userID, markedUpTo: markedUpTo)
    }
}
