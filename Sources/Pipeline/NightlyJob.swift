import Foundation
import Ingest
import Logging
import Store
import WorkoutMetrics

/// What a nightly run did. `ingest.addsUp` proves every input record ended in exactly one place.
public struct NightlySummary: Sendable, Codable {
    public var jobRunID: Int64
    public var startedAt: String
    public var finishedAt: String
    public var ingest: IngestReport
    public var sessionsAnalyzed: Int
    public var sessionFlags: [String: Int]
    public var usersRecomputed: Int
    /// Plans generated, adapted, refused or unchanged, over every user with a goal race.
    public var plans: [String: Int]
    public var quarantineTotal: Int
    public var status: JobStatus
    /// Workout records measured (new or changed versions).
    public var workoutsAnalyzed: Int
    /// Days of training load written (recomputed from the first changed day on, through the user's today, for the
    /// users whose data changed; nobody else's: the series' rest days are derived when read).
    public var trainingLoadDays: Int
    /// `full` (no earlier successful run to continue from) or `incremental` (only what is new since `since`).
    public var mode: NightlyMode?
    /// The watermark of the run this one continued from, and the one it reached (see `NightlyWatermark`).
    public var since: String?
    public var watermark: String?
    /// Wall and CPU seconds per phase (`ingest`, `analyse`, `stats`, `load`, `plans`).
    public var phases: PhaseTimes?
    /// Sessions stepped over because their stored recording cannot be read back (`UnreadableSession`), and which.
    public var sessionsUnreadable: Int
    public var unreadableSessions: [UnreadableSession]

    enum CodingKeys: String, CodingKey {
        case jobRunID = "job_run_id", startedAt = "started_at", finishedAt = "finished_at", ingest
        // The counts are spelled as `POST /v1/me/recompute` and `pipeline recompute --json` spell them.
        case sessionsAnalyzed = "sessions_analysed", sessionFlags = "session_flags", usersRecomputed =
            "users_recomputed", plans
        case quarantineTotal = "quarantine_total", status, mode, since, watermark
        case workoutsAnalyzed = "workout_records_analysed", trainingLoadDays = "training_load_days", phases
        case sessionsUnreadable = "sessions_unreadable", unreadableSessions = "unreadable_sessions"
    }

    public init(
        jobRunID: Int64, startedAt: String, finishedAt: String, ingest: IngestReport, sessionsAnalyzed: Int,
        sessionFlags: [String: Int], usersRecomputed: Int, plans: [String: Int], quarantineTotal: Int,
        status: JobStatus, workoutsAnalyzed: Int, trainingLoadDays: Int, mode: NightlyMode?, since: String?,
        watermark: String?, phases: PhaseTimes?, unreadableSessions: [UnreadableSession] = []
    ) {
        self.jobRunID = jobRunID; self.startedAt = startedAt; self.finishedAt = finishedAt; self.ingest = ingest
        self.sessionsAnalyzed = sessionsAnalyzed; self.sessionFlags = sessionFlags
        self.usersRecomputed = usersRecomputed; self.plans = plans; self.quarantineTotal = quarantineTotal
        self.status = status; self.workoutsAnalyzed = workoutsAnalyzed; self.trainingLoadDays = trainingLoadDays
        self.mode = mode; self.since = since; self.watermark = watermark; self.phases = phases
        self.sessionsUnreadable = unreadableSessions.count; self.unreadableSessions = unreadableSessions
    }

    /// The keys of summaries recorded before the counts took the API's spelling.
    enum LegacyKeys: String, CodingKey {
        case sessionsAnalyzed = "sessions_analyzed", workoutsAnalyzed = "workouts_analyzed"
    }

    /// Older stored summaries may lack the unreadable sessions, and may spell two counts with a z
    /// (`sessions_analyzed`, `workouts_analyzed`): both still read.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let legacy = try decoder.container(keyedBy: LegacyKeys.self)
        jobRunID = try c.decode(Int64.self, forKey: .jobRunID)
        startedAt = try c.decode(String.self, forKey: .startedAt)
        finishedAt = try c.decode(String.self, forKey: .finishedAt)
        ingest = try c.decode(IngestReport.self, forKey: .ingest)
        sessionsAnalyzed =
            try c.decodeIfPresent(Int.self, forKey: .sessionsAnalyzed)
            ?? legacy.decode(Int.self, forKey: .sessionsAnalyzed)
        sessionFlags = try c.decode([String: Int].self, forKey: .sessionFlags)
        usersRecomputed = try c.decode(Int.self, forKey: .usersRecomputed)
        plans = try c.decode([String: Int].self, forKey: .plans)
        quarantineTotal = try c.decode(Int.self, forKey: .quarantineTotal)
        status = try c.decode(JobStatus.self, forKey: .status)
        workoutsAnalyzed =
            try c.decodeIfPresent(Int.self, forKey: .workoutsAnalyzed)
            ?? legacy.decode(Int.self, forKey: .workoutsAnalyzed)
        trainingLoadDays = try c.decode(Int.self, forKey: .trainingLoadDays)
        mode = try c.decodeIfPresent(NightlyMode.self, forKey: .mode)
        since = try c.decodeIfPresent(String.self, forKey: .since)
        watermark = try c.decodeIfPresent(String.self, forKey: .watermark)
        phases = try c.decodeIfPresent(PhaseTimes.self, forKey: .phases)
        unreadableSessions = try c.decodeIfPresent([UnreadableSession].self, forKey: .unreadableSessions) ?? []
        sessionsUnreadable = try c.decodeIfPresent(Int.self, forKey: .sessionsUnreadable) ?? unreadableSessions.count
    }
}

/// Whether a nightly run started from nothing or continued from an earlier run's watermark (`NightlySummary.mode`).
public enum NightlyMode: String, Sendable, Codable, CaseIterable {
    /// No earlier successful run to continue from: every stored session and user is considered.
    case full
    /// Only what is new since the watermark of the last successful run.
    case incremental
}

/// The nightly run: ingest the inbox, analyse every session that has no metrics yet, recompute the stats of
/// every user the new data touched. Each step is idempotent, so a second run over the same inbox changes nothing.
public struct NightlyJob: Sendable {
    public enum Phase: String, Sendable { case ingest, analyse, stats, plans }

    public var store: any PipelineStore
    public var logger: Logger
    public var limits: IngestLimits
    /// The run's clocks. Run time (`clock.now`): its dates, the day its stats, loads and plans count from
    /// (`pipeline nightly --as-of` sets it). Wall time (`clock.wall`): real time, as the store stamps what it stores
    /// (pending-recompute marks, stored rows): the run's watermark and the marks it answers are read from it, never
    /// from the run time, which `--as-of` may set to another day.
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    /// Told (phase, done, total) as work advances, for a progress display.
    public var progress: (@Sendable (Phase, Int, Int) -> Void)?
    /// Sessions analysed concurrently.
    public var concurrency: Int
    /// Ingest groups handed to the writer and not yet committed (`InboxIngestor.groupsInFlight`); nil: 2 when groups
    /// commit one after the other (one group commits while the next waits for it, so preparing goes on during commits:
    /// on SQLite 3–12 % more sessions/s than 1 in five same-minutes pairs, for ≈ 10 MiB more peak RSS, one group of at
    /// most 64 sessions, whatever the inbox's size), 4 when they commit side by side (`parallelCommits`: groups of
    /// different users on connections of their own, the server's work on them on both cores; the PostgreSQL nightly
    /// 4.37–4.60 s against 4.70–4.97 s with 2; Benchmarks/nightly-results.md).
    public var groupsInFlight: Int?
    /// Whether groups of different users commit side by side, each on its own connection
    /// (`InboxIngestor.parallelCommits`); nil: chosen by the store (true for a database server serving several users
    /// at once). Results are the same either way; only the overlap of the work changes.
    public var parallelCommits: Bool?

    public init(
        store: any PipelineStore, logger: Logger = Logger(label: "pipeline.nightly"), limits: IngestLimits = .init(),
        clock: PipelineClock = .system,
        progress: (@Sendable (Phase, Int, Int) -> Void)? = nil,
        concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    ) {
        self.store = store; self.logger = logger; self.limits = limits; self.clock = clock; self.progress = progress
        self.concurrency = concurrency
    }

    /// Run time read from `now`, wall time the system's.
    public init(
        store: any PipelineStore, logger: Logger = Logger(label: "pipeline.nightly"), limits: IngestLimits = .init(),
        now: @escaping @Sendable () -> Int64,
        progress: (@Sendable (Phase, Int, Int) -> Void)? = nil,
        concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    ) {
        self.init(
            store: store, logger: logger, limits: limits, clock: PipelineClock(now: now), progress: progress,
            concurrency: concurrency)
    }

    public static let jobName = "nightly"

    public func run(inbox: URL?) async throws -> NightlySummary {
        // Sessions are analysed in parallel Swift tasks; OpenBLAS must not add its own threads on top.
        BLASConfiguration.singleThreaded()
        let started = now()
        // Where the last successful run got to; without one this run is a full pass (see `NightlyWatermark`).
        let since = try await NightlyWatermark.last(in: store)
        // The watermark this run reaches if it succeeds: data stored before this instant is all taken by it (real
        // time, like the recompute marks).
        let reached = NightlyWatermark(dataUpTo: clock.wall())
        let runID = try await store.startJob(Self.jobName, at: started)
        logger.info(
            "nightly run started",
            metadata: [
                "job_run_id": "\(runID)", "backend": "\(store.backendName)",
                "mode": "\((since == nil ? NightlyMode.full : .incremental).rawValue)",
            ])
        var phases = PhaseTimes()
        do {
            var report = IngestReport()
            if let inbox {
                // One pass: each valid session is decoded and measured while its upload bytes are in memory, and its
                // metrics are stored in the batch's transaction (the analysis below finds only what came otherwise).
                let analyzer = SessionAnalyzer()
                let now = self.now
                var ingestor = InboxIngestor(
                    store: store, limits: limits, logger: logger, clock: clock,
                    analyze: { session, user in analyzer.analyze(session, user: user, now: now()) })
                // Keep preparing while groups are committed (`InboxIngestor.groupsInFlight`); a store whose commits
                // run side by side (`PipelineStore.commitsInParallel`: a server doing the commits' work beside this
                // process) also commits groups of different users at once, each on its own connection
                // (`parallelCommits`). A store with one writer ingests the workout record files beside the session
                // files (`recordFilesBesideSessions`), instead of on one core after them.
                let server = store.commitsInParallel
                let parallel = parallelCommits ?? server
                ingestor.groupsInFlight = max(1, groupsInFlight ?? (parallel ? 4 : 2))
                ingestor.parallelCommits = parallel
                ingestor.recordFilesBesideSessions = !server
                let progress = self.progress
                report = try await phases.measure("ingest") {
                    try await ingestor.ingest(inbox: inbox) { done, total in progress?(.ingest, done, total) }
                }
                logger.info(
                    "ingest finished",
                    metadata: [
                        "sessions_received": "\(report.sessions.received)",
                        "sessions_stored": "\(report.sessions.stored)",
                        "duplicates": "\(report.sessions.duplicates)", "quarantined": "\(report.sessions.quarantined)",
                    ])
            }
            // Every user's stages (`UserPipeline.Stage`), in their order, for everyone at once: the analysis stages
            // batched across users (the run's speed), the others user by user through `UserPipeline`'s own steps.
            var analysed = 0, workoutsAnalysed = 0, loadDays = 0
            var flags: [String: Int] = [:]
            var unreadable: [UnreadableSession] = []
            var users = report.touchedUsers
            var recomputed: [UserID] = []
            var everyone: [UserID] = []
            var plans: [String: Int] = [:]
            var recomputeStarted: Int64 = 0
            var plansMark = PhaseTimes.Mark()
            // The per-user work below runs for `width` users at once (`UserLocks.userConcurrency`: two users a
            // core on SQLite, whose readers work side by side and whose writes take turns; a few on PostgreSQL, where
            // it mostly waits on round trips); results are taken in user order.
            let width = store.userLocks.userConcurrency
            let store = self.store, progress = self.progress
            let pipeline = UserPipeline(store: store, clock: clock, logger: logger)
            // Plans. Full pass: every runner's plan generated, or adapted once per plan week. Incremental: only the
            // users recomputed here, and only generated (a new runner, a new goal race); the weekly adaptation is
            // the `plans-weekly` job's, on each runner's Sunday evening in their zone (`WeeklyPlanJob`).
            let policy: PlanService.RefreshPolicy = since == nil ? .generateOrAdapt : .generateOnly
            for stage in UserPipeline.Stage.allCases {
                switch stage {
                case .sessions:
                    // The analysis phase starts with what ingest already measured (the rest: sessions that came
                    // otherwise).
                    progress?(.analyse, report.sessionsMeasured, report.sessionsMeasured)
                    let (n, measuredFlags, analysedUsers, skipped) = try await phases.measure("analyse") {
                        try await analysePending()
                    }
                    analysed = n + report.sessionsMeasured
                    flags = measuredFlags.merging(report.measuredFlags, uniquingKeysWith: +)
                    users.formUnion(analysedUsers)
                    unreadable = skipped
                case .workoutRecords:
                    let (n, workoutUsers) = try await phases.measure("analyse") { try await analysePendingWorkouts() }
                    workoutsAnalysed = n
                    users.formUnion(workoutUsers)
                case .stats:
                    // Users to recompute: those this run touched, those an earlier run marked but did not finish (the
                    // mark is written with the data), and those that have never had stats computed. Each user's
                    // training load is brought up to date with their stats, under the same lock
                    // (`UserPipeline.refreshStatsAndLoad`: the two stages in their order).
                    users.formUnion(try await store.usersPendingRecompute())
                    if since == nil {
                        let ids = try await store.userIDs()
                        let withoutStats = try await Self.forEachUser(ids, width: width) { id -> Bool in
                            try await store.userStats(id) == nil
                        }
                        for (id, missing) in zip(ids, withoutStats) where missing { users.insert(id) }
                    }
                    recomputeStarted = clock.wall()
                    let statsMark = PhaseTimes.Mark()
                    let toRecompute = users.sorted()
                    let daysWritten = try await Self.forEachUser(
                        toRecompute, width: width, done: { progress?(.stats, $0, toRecompute.count) }
                    ) { user -> Int? in
                        guard let record = try await store.user(user) else { return nil }
                        return try await UserLock.waiting(store, user) {
                            try await pipeline.refreshStatsAndLoad(record)
                        }
                    }
                    for (user, days) in zip(toRecompute, daysWritten) {
                        guard let days else { continue }
                        loadDays += days
                        recomputed.append(user)
                    }
                    phases.add("stats", since: statsMark)
                case .trainingLoad:
                    // Nobody else's training load is written: a series is extended lazily, its rest days derived by
                    // the readers (`LoadService`), so a night costs what changed, not how many users exist. Only a full
                    // pass looks at everyone, to compute the series of a user who has none yet (a store from before
                    // migration 0004).
                    let loadMark = PhaseTimes.Mark()
                    if since == nil {
                        everyone = try await store.userIDs()
                        let others = everyone.filter { !users.contains($0) }
                        loadDays += try await Self.forEachUser(others, width: width) { user -> Int in
                            guard let record = try await store.user(user),
                                try await store.latestTrainingLoad(user: user, before: nil) == nil
                            else { return 0 }
                            return try await pipeline.updateTrainingLoad(record)
                        }.reduce(0, +)
                    }
                    phases.add("load", since: loadMark)
                case .plan:
                    plansMark = PhaseTimes.Mark()
                    let planned = since == nil ? everyone : recomputed
                    let outcomes = try await Self.forEachUser(
                        planned, width: width, done: { progress?(.plans, $0, planned.count) }
                    ) { user in
                        try await UserLock.waiting(store, user) { try await pipeline.refreshPlan(user, policy: policy) }
                    }
                    for outcome in outcomes.compactMap({ $0 }) where outcome != .noGoal {
                        plans[outcome.rawValue, default: 0] += 1
                    }
                case .clearMark:
                    // A user's mark is cleared only once their stats *and* plan are done: a run killed in between
                    // leaves it for the next run.
                    let markedUpTo = recomputeStarted
                    _ = try await Self.forEachUser(recomputed, width: width) { user in
                        try await pipeline.clearMark(user, markedUpTo: markedUpTo)
                    }
                    phases.add("plans", since: plansMark)
                }
            }
            let quarantineTotal = try await store.quarantineCountsByReason().values.reduce(0, +)
            let finished = now()
            let summary = NightlySummary(
                jobRunID: runID, startedAt: RFC3339.format(millis: started),
                finishedAt: RFC3339.format(millis: finished), ingest: report,
                sessionsAnalyzed: analysed, sessionFlags: flags, usersRecomputed: users.count,
                plans: plans, quarantineTotal: quarantineTotal, status: .succeeded,
                workoutsAnalyzed: workoutsAnalysed, trainingLoadDays: loadDays,
                mode: since == nil ? .full : .incremental, since: since?.text, watermark: reached.text,
                phases: phases, unreadableSessions: unreadable)
            try await store.finishJob(
                id: runID, status: .succeeded, at: finished, countsJSON: try Self.json(summary), watermark: reached.text
            )
            logger.info(
                "nightly run finished",
                metadata: [
                    "job_run_id": "\(runID)", "users_recomputed": "\(users.count)",
                    "sessions_unreadable": "\(unreadable.count)",
                ])
            return summary
        } catch {
            let status = await JobRunEnd.record(error, runID: runID, store: store, at: now())
            logger.error("nightly run \(status.rawValue)", metadata: ["job_run_id": "\(runID)", "error": "\(error)"])
            throw error
        }
    }

    /// Analyses every stored session without metrics, a few at a time. A session whose stored recording cannot be read
    /// back (`UnreadableRecording`) is stepped over, logged and returned: it keeps no metrics, so the next run meets it
    /// again until the row is repaired or deleted; the other sessions of its batch and its user are analysed.
    func analysePending() async throws -> (Int, [String: Int], Set<UserID>, [UnreadableSession]) {
        var analysed = 0
        var flags: [String: Int] = [:]
        var users = Set<UserID>()
        let analyzer = SessionAnalyzer()
        var userCache: [UserID: User] = [:]
        var unreadable: [UnreadableSession] = []
        var skipped = Set<SessionKey>()
        while true {
            try Task.checkCancellation()
            // The skipped sessions stay without metrics and come first again (oldest received first): ask for that
            // many more, so that they never crowd out the rest.
            let pending = try await store.sessionsWithoutMetrics(limit: 64 + skipped.count).filter {
                !skipped.contains(SessionKey($0.0, $0.1))
            }
            if pending.isEmpty { break }
            var sessions: [StoredSession] = []
            do {
                sessions = try await store.sessions(keys: pending)
            } catch is UnreadableRecording {
                // One of the batch is damaged: read them one by one to find which, keeping the others.
                for (user, id) in pending {
                    do {
                        if let session = try await store.session(user: user, id: id) { sessions.append(session) }
                    } catch let error as UnreadableRecording {
                        let report = UnreadableSession(error)
                        report.log(logger)
                        unreadable.append(report)
                        skipped.insert(SessionKey(user, id))
                    }
                }
            }
            var work: [(StoredSession, User)] = []
            for session in sessions {
                if userCache[session.userID] == nil { userCache[session.userID] = try await store.user(session.userID) }
                guard let user = userCache[session.userID] else { continue }
                work.append((session, user))
            }
            let at = now()
            let records = try await withThrowingTaskGroup(of: SessionMetricsRecord.self) { group in
                var results: [SessionMetricsRecord] = []
                var next = 0
                for _ in 0..<min(concurrency, work.count) {
                    let (s, u) = work[next]; next += 1
                    group.addTask { analyzer.analyze(s, user: u, now: at) }
                }
                while let r = try await group.next() {
                    results.append(r)
                    if next < work.count {
                        let (s, u) = work[next]; next += 1
                        group.addTask { analyzer.analyze(s, user: u, now: at) }
                    }
                }
                return results
            }
            try await store.putSessionMetrics(records)
            for record in records {
                users.insert(record.userID)
                for f in record.flags { flags[f, default: 0] += 1 }
            }
            analysed += records.count
            progress?(.analyse, analysed, analysed)
            if records.isEmpty && sessions.count == pending.count { break }
        }
        return (analysed, flags, users, unreadable)
    }

    /// Measures every workout record without metrics for its current version (new, updated), after dropping the
    /// metrics of deleted and changed ones; returns how many and whose.
    func analysePendingWorkouts() async throws -> (Int, Set<UserID>) {
        // Deleted and changed records' users are marked for recomputation by the ingest that changed them.
        _ = try await store.pruneWorkoutMetrics()
        var users = Set<UserID>()
        let analyzer = WorkoutAnalyzer()
        var userCache: [UserID: User] = [:]
        var analysed = 0
        while true {
            try Task.checkCancellation()
            let pending = try await store.workoutsToMeasure(limit: 256)
            var measured: [WorkoutMetricsRecord] = []
            for workout in pending {
                if userCache[workout.userID] == nil { userCache[workout.userID] = try await store.user(workout.userID) }
                guard let user = userCache[workout.userID] else { continue }
                measured.append(analyzer.analyze(workout, user: user, now: now()))
                users.insert(workout.userID)
            }
            try await store.putWorkoutMetrics(measured)
            let stored = measured.count
            analysed += stored
            if pending.count < 256 || stored == 0 { break }
        }
        return (analysed, users)
    }

    /// A job's counts as stored (`job_runs.counts_json`): the package's JSON writer, compact with sorted keys
    /// (`SortedJSON.encoderText`, the bytes `JSONEncoder` with `.sortedKeys` wrote). A summary that cannot be encoded
    /// (a non-finite figure) throws instead of being stored as `{}`.
    static func json(_ value: some Encodable) throws -> String {
        try SortedJSONEncoder.encode(value, numbers: .asEncoded).encoderText
    }
}
