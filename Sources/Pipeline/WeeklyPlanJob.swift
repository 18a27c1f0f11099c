import Foundation
import Ingest
import Logging
import Store

/// What a weekly plan run did.
public struct WeeklyPlanSummary: Sendable, Codable, Equatable {
    public var jobRunID: Int64
    /// The window of slots this run covered: `(since, upTo]`.
    public var since: String
    public var upTo: String
    public var usersDue: Int
    /// Plans generated, adapted, refused or unchanged among the users due (users without a goal race not counted).
    public var plans: [String: Int]
    public var status: JobStatus

    enum CodingKeys: String, CodingKey {
        case jobRunID = "job_run_id", since, upTo = "up_to", usersDue = "users_due", plans, status
    }
}

/// Weekly plan generation on each runner's own Sunday evening, in their time zone: run hourly (`pipeline plans
/// --due`), it refreshes — generates or adapts — the plan of exactly the users whose slot (`0 18 * * 0` in their
/// IANA zone by default) passed since the last successful run, and records the instant it covered up to as its
/// watermark in `job_runs`.
///
/// Catch-up policy: when runs were missed, a user whose slot passed once or several times in the gap gets one
/// refresh, not one per missed slot (a plan is adapted to the weeks actually done, whatever their number). The
/// first run ever, with no watermark, looks back `firstRunLookback` (one week): every user's last slot counts as
/// missed once. A run that fails or is stopped leaves the watermark where it was, so the next run covers the same
/// window again; refreshing a plan twice in a plan week changes nothing.
public struct WeeklyPlanJob: Sendable {
    public static let jobName = "plans-weekly"
    /// Sunday 18:00, local time.
    public static let defaultSlot = try! CronSchedule("0 18 * * 0")
    public static let firstRunLookback: TimeInterval = 7 * 86_400

    public var store: any PipelineStore
    public var logger: Logger
    public var slot: CronSchedule
    /// The run time whose slots are due and whose day plans are adapted on (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    public var progress: (@Sendable (Int, Int) -> Void)?

    public init(
        store: any PipelineStore, logger: Logger = Logger(label: "pipeline.plans"),
        slot: CronSchedule = WeeklyPlanJob.defaultSlot,
        clock: PipelineClock = .system, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) {
        self.store = store; self.logger = logger; self.slot = slot; self.clock = clock; self.progress = progress
    }
    /// Run time read from `now`, wall time the system's.
    public init(
        store: any PipelineStore, logger: Logger = Logger(label: "pipeline.plans"),
        slot: CronSchedule = WeeklyPlanJob.defaultSlot,
        now: @escaping @Sendable () -> Int64, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) {
        self.init(store: store, logger: logger, slot: slot, clock: PipelineClock(now: now), progress: progress)
    }

    /// Whether a user in `zone` has a slot in `(since, upTo]`.
    public static func isDue(slot: CronSchedule, zone: TimeZone, since: Date, upTo: Date) -> Bool {
        guard let next = slot.next(after: since, in: zone) else { return false }
        return next <= upTo
    }

    /// Users (with their IANA zone; unknown zones count as UTC) whose slot passed in `(since, upTo]`, each once.
    public static func due(_ users: [(UserID, String)], slot: CronSchedule, since: Date, upTo: Date) -> [UserID] {
        users.filter { _, zone in
            isDue(
                slot: slot, zone: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!, since: since, upTo: upTo)
        }.map { $0.0 }
    }

    /// Where the last successful run got to, nil when there is none.
    public static func lastWatermark(in store: any PipelineStore) async throws -> Date? {
        for run in try await store.jobRuns(jobName, limit: NightlyWatermark.searchDepth) where run.status == .succeeded
        {
            return run.watermark.flatMap(RFC3339.parseMillis).map { Date(epochMillis: $0) }
        }
        return nil
    }

    public func run() async throws -> WeeklyPlanSummary {
        let started = now()
        let upTo = Date(epochMillis: started)
        let since = try await Self.lastWatermark(in: store) ?? upTo.addingTimeInterval(-Self.firstRunLookback)
        let runID = try await store.startJob(Self.jobName, at: started)
        logger.info(
            "weekly plan run started",
            metadata: ["job_run_id": "\(runID)", "since": "\(RFC3339.format(millis: since.epochMillis))"])
        do {
            var users: [(UserID, String)] = []
            for id in try await store.userIDs() {
                try Task.checkCancellation()
                if let user = try await store.user(id) { users.append((id, user.timeZone)) }
            }
            let due = Self.due(users, slot: slot, since: since, upTo: upTo)
            let planner = PlanService(store: store, clock: clock)
            var plans: [String: Int] = [:]
            for (i, user) in due.enumerated() {
                try Task.checkCancellation()
                let outcome = try await planner.refresh(user, policy: .generateOrAdapt)
                if outcome != .noGoal { plans[outcome.rawValue, default: 0] += 1 }
                progress?(i + 1, due.count)
            }
            let summary = WeeklyPlanSummary(
                jobRunID: runID, since: RFC3339.format(millis: since.epochMillis),
                upTo: RFC3339.format(millis: started), usersDue: due.count, plans: plans, status: .succeeded)
            try await store.finishJob(
                id: runID, status: .succeeded, at: now(), countsJSON: try NightlyJob.json(summary),
                watermark: RFC3339.format(millis: started))
            logger.info("weekly plan run finished", metadata: ["job_run_id": "\(runID)", "users_due": "\(due.count)"])
            return summary
        } catch {
            let status = await JobRunEnd.record(error, runID: runID, store: store, at: now())
            logger.error(
                "weekly plan run \(status.rawValue)", metadata: ["job_run_id": "\(runID)", "error": "\(error)"])
            throw error
        }
    }
}
