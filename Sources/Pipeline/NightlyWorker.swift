import Foundation
import Ingest
import Logging
import Store
import WorkoutMetrics

/// What one worker did in a shared nightly run.
public struct WorkerSummary: Sendable, Codable {
    public var jobRunID: Int64
    public var workerID: String
    public var runKey: String
    public var runID: Int64
    /// True for the worker that opened the run.
    public var openedRun: Bool
    public var startedAt: String
    public var finishedAt: String
    public var ingest: IngestReport?
    /// Users this worker completed.
    public var usersProcessed: Int
    /// Of those, users claimed before in this run: taken over from a worker that died or stopped, or queued again
    /// because new data arrived (e.g. another worker's ingest) while or after they were processed.
    public var usersTakenOver: Int
    /// Users whose lease this worker lost before completing them (expired and taken, or queued again).
    public var leasesLost: Int
    public var sessionsAnalyzed: Int
    public var sessionFlags: [String: Int]
    public var usersRecomputed: Int
    public var plans: [String: Int]
    /// True when every user of the run is done (this worker waited for the others).
    public var runFinished: Bool
    public var status: JobStatus
    /// Sessions this worker stepped over because their stored recording cannot be read back, and which.
    public var sessionsUnreadable: Int = 0
    public var unreadableSessions: [UnreadableSession] = []

    enum CodingKeys: String, CodingKey {
        case jobRunID = "job_run_id", workerID = "worker_id", runKey = "run_key", runID = "run_id", openedRun =
            "opened_run"
        case startedAt = "started_at", finishedAt = "finished_at", ingest, usersProcessed = "users_processed"
        case usersTakenOver = "users_taken_over", leasesLost = "leases_lost", sessionsAnalyzed = "sessions_analysed"
        case sessionFlags = "session_flags", usersRecomputed = "users_recomputed", plans, runFinished = "run_finished",
            status
        case sessionsUnreadable = "sessions_unreadable", unreadableSessions = "unreadable_sessions"
    }
}

/// One worker of a shared nightly run (docs/SCALING.md): several of them, in one process or many, on one machine or many,
/// over one database, together do exactly what one `NightlyJob.run` does.
///
/// 1. Ingest the inbox, if this worker was given one (the ledger makes two workers ingesting the same inbox store
///    every batch once).
/// 2. Join the run named by `runKey` (default: the UTC day), opening it if it is the first: the users with work are
///    queued (`SharedRunScope.changed`: a pending-recompute mark, no stats yet, sessions or workout records to
///    measure), or every user with `scope` `.everyone` (`pipeline worker --full`, as the nightly's full pass); users
///    whose data this worker's ingest changed are queued, and queued again if already done. A night costs what
///    changed, not how many users exist: an idle user is not queued.
/// 3. Claim a few users at a time with a lease (`leaseMillis`), and for each, holding the user's lock, do
///    `UserPipeline` (analyse, stats, plan: generated for a new runner or goal race — adapted too in a full run,
///    as the nightly's full pass; the weekly adaptation is the `plans-weekly` job's); while any of them works, a
///    heartbeat renews the worker's leases every `heartbeatMillis` (so a user slower than a lease keeps it); mark
///    each user done.
/// 4. When nothing is left to claim, wait for the other workers' leases: a live lease ends with its user done, an
///    expired one (a dead worker) is claimed again here. Return when every user of the run is done.
///
/// Stopped (cancelled, SIGTERM) or failing, the worker gives its leases back at once and records the run as
/// `interrupted`/`failed`; killed, its leases expire and the other workers (or the next run) take its users over.
public struct NightlyWorker: Sendable {
    public struct Configuration: Sendable {
        public var worker: WorkerID
        /// Workers with the same key share one run. Default: the UTC day of the start, so that workers started by
        /// cron the same night share it; a run that is done is not done again under the same key.
        public var runKey: String?
        /// How long a claim lasts without renewal. The heartbeat renews it while the worker's users work, so it need
        /// not exceed the time one user takes — only the time a live worker may go without renewing (a stall of the
        /// process or the database) before the others take its users over (a user's lock, not the lease, keeps two
        /// workers off one user).
        public var leaseMillis: Int64 = 120_000
        /// How often, in real time, the heartbeat renews the leases while users work; default a third of the lease.
        /// `0` turns the heartbeat off (leases are then renewed only as users end, so a user slower than a lease
        /// loses it: what the heartbeat is there to prevent; used by a test to show it).
        public var heartbeatMillis: Int64?
        /// Called with each claimed user inside its lock, before its work (tests: a slow user).
        public var beforeUserWork: (@Sendable (UserID) async throws -> Void)?
        /// Which users this worker's join queues: those with work (default), or everyone (`pipeline worker --full`).
        /// Workers of different scopes may share a run (each join queues its own scope); a worker of scope `.everyone`
        /// generates or adapts the plans of the users it claims, as the nightly's full pass, one of scope `.changed`
        /// only generates them.
        public var scope: SharedRunScope = .changed
        /// Users claimed at once.
        public var claimBatch: Int = 8
        /// How often an idle worker looks again while others hold leases.
        public var pollMillis: Int64 = 2_000
        /// Users processed concurrently (sessions of one user are analysed one after another).
        public var concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
        public init(worker: WorkerID, runKey: String? = nil) { self.worker = worker; self.runKey = runKey }
    }

    /// The job of each worker's own `job_runs` row (a `nightly` row's counts and watermark stay `NightlyJob`'s).
    public static let jobName = "nightly-worker"
    /// The job of the shared runs in `work_runs`.
    public static let sharedJob = NightlyJob.jobName

    public var store: any PipelineStore
    public var workLeases: any WorkLeases
    public var configuration: Configuration
    public var logger: Logger
    public var limits: IngestLimits
    /// Run time (the users' today, the job run's and the leases' times) and wall time (the pending-recompute marks
    /// its users' work answers).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    /// How the worker waits while others hold leases (injected in tests to move a fake clock instead).
    public var sleep: @Sendable (Int64) async throws -> Void
    public var progress: (@Sendable (NightlyJob.Phase, Int, Int) -> Void)?

    /// Fails with `StoreError(.invalidConfiguration)` when the store cannot coordinate workers.
    public init(
        store: any PipelineStore, configuration: Configuration, logger: Logger = Logger(label: "pipeline.worker"),
        limits: IngestLimits = .init(), clock: PipelineClock = .system,
        sleep: @escaping @Sendable (Int64) async throws -> Void = { try await Task.sleep(for: .milliseconds($0)) },
        progress: (@Sendable (NightlyJob.Phase, Int, Int) -> Void)? = nil
    ) throws {
        guard let workLeases = store.workLeases else {
            throw StoreError(
                .invalidConfiguration, operation: "worker", detail: "the \(store.backendName) store cannot share runs")
        }
        self.store = store; self.workLeases = workLeases; self.configuration = configuration; self.logger = logger
        self.limits = limits; self.clock = clock; self.sleep = sleep; self.progress = progress
    }

    /// Run time read from `now`, wall time the system's.
    public init(
        store: any PipelineStore, configuration: Configuration, logger: Logger = Logger(label: "pipeline.worker"),
        limits: IngestLimits = .init(), now: @escaping @Sendable () -> Int64,
        sleep: @escaping @Sendable (Int64) async throws -> Void = { try await Task.sleep(for: .milliseconds($0)) },
        progress: (@Sendable (NightlyJob.Phase, Int, Int) -> Void)? = nil
    ) throws {
        try self.init(
            store: store, configuration: configuration, logger: logger, limits: limits, clock: PipelineClock(now: now),
            sleep: sleep, progress: progress)
    }

    /// The default run key: the UTC day of `millis` (`2026-11-23`).
    public static func defaultRunKey(at millis: Int64) -> String {
        String(RFC3339.format(millis: millis).prefix(10))
    }

    public func run(inbox: URL?) async throws -> WorkerSummary {
        BLASConfiguration.singleThreaded()
        let started = now()
        let worker = configuration.worker
        let key = configuration.runKey ?? Self.defaultRunKey(at: started)
        let jobRunID = try await store.startJob(Self.jobName, at: started)
        var log = logger
        log[metadataKey: "worker_id"] = "\(worker)"
        log[metadataKey: "job_run_id"] = "\(jobRunID)"
        log.info(
            "worker started",
            metadata: [
                "run_key": "\(key)", "backend": "\(store.backendName)", "scope": "\(configuration.scope.rawValue)",
            ])
        var runID: Int64?
        do {
            var report: IngestReport?
            if let inbox {
                let progress = self.progress
                // One pass, as the nightly: sessions measured while their bytes are in memory, stored with their metrics.
                let analyzer = SessionAnalyzer()
                let now = self.now
                let ingested = try await InboxIngestor(
                    store: store, limits: limits, logger: log, clock: clock,
                    analyze: { session, user in analyzer.analyze(session, user: user, now: now()) }
                )
                .ingest(inbox: inbox) { done, total in progress?(.ingest, done, total) }
                log.info(
                    "ingest finished",
                    metadata: [
                        "sessions_stored": "\(ingested.sessions.stored)",
                        "duplicates": "\(ingested.sessions.duplicates)",
                    ])
                report = ingested
            }
            let run = try await workLeases.joinRun(
                job: Self.sharedJob, key: key, worker: worker, scope: configuration.scope,
                requeue: report?.touchedUsers ?? [], at: now())
            runID = run.id
            log.info(run.created ? "run opened" : "run joined", metadata: ["run_id": "\(run.id)"])
            var tally = try await work(run: run.id, logger: log)
            // Sessions this worker measured while ingesting count as analysed, with their flags.
            tally.analysed += report?.sessionsMeasured ?? 0
            for (flag, n) in report?.measuredFlags ?? [:] { tally.flags[flag, default: 0] += n }
            tally.finished = try await workLeases.finishRunIfDone(run: run.id, at: now())
            let finished = now()
            var summary = WorkerSummary(
                jobRunID: jobRunID, workerID: worker.rawValue, runKey: key, runID: run.id, openedRun: run.created,
                startedAt: RFC3339.format(millis: started), finishedAt: RFC3339.format(millis: finished),
                ingest: report,
                usersProcessed: tally.processed, usersTakenOver: tally.takenOver, leasesLost: tally.lost,
                sessionsAnalyzed: tally.analysed, sessionFlags: tally.flags, usersRecomputed: tally.recomputed,
                plans: tally.plans,
                runFinished: tally.finished, status: .succeeded)
            summary.sessionsUnreadable = tally.unreadable.count
            summary.unreadableSessions = tally.unreadable
            try await store.finishJob(
                id: jobRunID, status: .succeeded, at: finished, countsJSON: try NightlyJob.json(summary), watermark: nil
            )
            log.info(
                "worker finished",
                metadata: [
                    "users_processed": "\(tally.processed)", "run_finished": "\(tally.finished)",
                    "sessions_unreadable": "\(tally.unreadable.count)",
                ])
            return summary
        } catch {
            // Leases go back first, so that the other workers need not wait for their expiry.
            let workLeases = self.workLeases, joined = runID
            let status = await JobRunEnd.record(error, runID: jobRunID, store: store, at: now()) {
                if let runID = joined { try? await workLeases.releaseLeases(run: runID, worker: worker) }
            }
            log.error("worker \(status.rawValue)", metadata: ["error": "\(error)"])
            throw error
        }
    }

    struct Tally {
        var processed = 0, takenOver = 0, lost = 0, analysed = 0, recomputed = 0
        var flags: [String: Int] = [:]
        var plans: [String: Int] = [:]
        var unreadable: [UnreadableSession] = []
        var finished = false

        mutating func add(_ outcome: UserPipeline.Outcome) {
            analysed += outcome.sessionsAnalysed
            for (flag, n) in outcome.sessionFlags { flags[flag, default: 0] += n }
            if outcome.statsRecomputed { recomputed += 1 }
            if let plan = outcome.plan, plan != .noGoal { plans[plan.rawValue, default: 0] += 1 }
            unreadable += outcome.unreadableSessions
        }
    }

    /// What happened to one claimed user.
    enum UserResult: Sendable {
        case completed(UserPipeline.Outcome?, takenOver: Bool)
        case lost
    }

    /// Claims, processes and completes users until every user of the run is done.
    func work(run: Int64, logger: Logger) async throws -> Tally {
        var tally = Tally()
        let worker = configuration.worker, leaseMillis = configuration.leaseMillis
        let pipeline = UserPipeline(store: store, clock: clock, logger: logger)
        let heartbeatMillis = configuration.heartbeatMillis ?? max(1, leaseMillis / 3)
        let beforeUserWork = configuration.beforeUserWork
        // As the nightly: a full pass generates or adapts every plan, an incremental night only generates (a new runner,
        // a new goal race); the weekly adaptation is the `plans-weekly` job's.
        let planPolicy: PlanService.RefreshPolicy = configuration.scope == .everyone ? .generateOrAdapt : .generateOnly
        while true {
            try Task.checkCancellation()
            let leases = try await workLeases.claimUsers(
                run: run, worker: worker, limit: configuration.claimBatch,
                at: now(), leaseMillis: leaseMillis)
            if leases.isEmpty {
                let state = try await workLeases.runProgress(run: run, at: now())
                progress?(.plans, state.done, state.done + state.claimable + state.leased)
                if state.finished { return tally }
                if state.claimable > 0 { continue }
                // Others hold live leases: wait until they complete or their leases expire (a dead worker).
                let untilExpiry = (state.nextExpiry ?? now()) - now() + 1
                try await self.sleep(max(1, min(configuration.pollMillis, untilExpiry)))
                continue
            }
            let marked = Set(try await store.usersPendingRecompute())
            // The heartbeat: renews this worker's leases while its users work, and ends with the batch.
            let heartbeat: Task<Void, Never>? =
                heartbeatMillis > 0
                ? Task { [workLeases = self.workLeases, now = self.now] in
                    while !Task.isCancelled {
                        do {
                            try await Task.sleep(for: .milliseconds(heartbeatMillis))
                            _ = try await workLeases.renewLeases(
                                run: run, worker: worker, at: now(), leaseMillis: leaseMillis)
                        } catch is CancellationError {
                            return
                        } catch {
                            // A failed renewal is tried again at the next beat; a lease lost meanwhile shows as
                            // `leases_lost` when its user ends, and another worker redoes that user.
                            logger.warning("lease renewal failed", metadata: ["error": "\(error)"])
                        }
                    }
                } : nil
            defer { heartbeat?.cancel() }
            try await withThrowingTaskGroup(of: UserResult.self) { group in
                var next = 0
                func start() {
                    let lease = leases[next]; next += 1
                    let workLeases = self.workLeases, store = self.store, now = self.now
                    let takenOver = lease.attempt > 1
                    group.addTask {
                        let outcome = try await UserLock.waiting(store, lease.user) {
                            try await beforeUserWork?(lease.user)
                            return try await pipeline.run(
                                lease.user, force: false, marked: marked.contains(lease.user), planPolicy: planPolicy)
                        }
                        let done = try await workLeases.completeUser(
                            run: run, worker: worker, lease: lease, at: now())
                        return done ? .completed(outcome, takenOver: takenOver) : .lost
                    }
                }
                for _ in 0..<min(configuration.concurrency, leases.count) { start() }
                while let result = try await group.next() {
                    switch result {
                    case .completed(let outcome, let takenOver):
                        tally.processed += 1
                        if takenOver { tally.takenOver += 1 }
                        if let outcome { tally.add(outcome) }
                    case .lost:
                        tally.lost += 1
                        logger.warning("lease lost before completion; another worker redoes the user")
                    }
                    if heartbeatMillis == 0 {
                        _ = try await workLeases.renewLeases(
                            run: run, worker: worker, at: now(), leaseMillis: leaseMillis)
                    }
                    if next < leases.count { start() }
                }
            }
            heartbeat?.cancel()
            await heartbeat?.value
        }
    }
}
