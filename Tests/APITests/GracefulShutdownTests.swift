import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Store
import Synchronization
import TaskManager
import Testing

@testable import HTTPAPI

@Suite struct GracefulShutdownTests {
    /// SIGTERM-like graceful shutdown while a request is in flight: the request still gets its
    /// answer, and only after the server has drained is the task manager shut down.
    @Test func inFlightRequestsFinishThenTasksAreShutDown() async throws {
        let h = try await APIHarness()
        let gate = Gate()
        var configuration = APIConfiguration(jwtSecret: APIHarness.secret)
        configuration.port = 0
        let clock = h.clock
        let services = APIServices(
            store: GatedStore(base: h.store, gate: gate), configuration: configuration, now: { clock.now })
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = buildApplication(services: services) { port in portContinuation.yield(port ?? 0) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            #expect(port > 0)
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
            client.connect()
            let auth = h.auth()
            async let inFlight = client.get("/v1/me/sessions", headers: auth)
            await gate.waitUntilEntered()
            await group.triggerGracefulShutdown()
            try await Task.sleep(for: .milliseconds(300))
            #expect(!services.taskManager.isShutDown, "the task manager must outlive the requests in flight")
            gate.open()
            let response = try await inFlight
            #expect(response.status == .ok)
            try await client.shutdown()
            try await tasks.waitForAll()
        }
        #expect(services.taskManager.isShutDown)
    }

    /// The task manager service cancels what still runs when the group shuts down.
    @Test func taskManagerServiceCancelsRunningTasksOnShutdown() async throws {
        let manager = TaskManager()
        let group = ServiceGroup(
            configuration: .init(
                services: [TaskManagerService(taskManager: manager, logger: Logger(label: "test"))],
                logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let outcome = Task {
                await manager.run(id: TaskID(.recompute, subject: "alice")) { () async throws -> Int in
                    try await Task.sleep(for: .seconds(600))
                    return 1
                }
            }
            while !manager.isRunning(id: TaskID(.recompute, subject: "alice")) {
                try await Task.sleep(for: .milliseconds(5))
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            if case .cancelled = await outcome.value {} else { Issue.record("the running task was not cancelled") }
        }
        #expect(manager.isShutDown)
        #expect(manager.runningTaskIDs.isEmpty)
    }
}

/// A latch: callers of `pass()` wait until `open()`.
final class Gate: Sendable {
    struct State {
        var isOpen = false
        var entered = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var watchers: [CheckedContinuation<Void, Never>] = []
    }
    let state = Mutex(State())

    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (passNow, watchers) = state.withLock { state in
                state.entered += 1
                let watchers = state.watchers
                state.watchers = []
                if !state.isOpen { state.waiting.append(continuation) }
                return (state.isOpen, watchers)
            }
            for item in watchers { item.resume() }
            if passNow { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.entered > 0 { return true }
                state.watchers.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for item in waiting { item.resume() }
    }
}

/// The SQLite store with `sessionCount` held at a gate.
struct GatedStore: PipelineStore {
    let base: any PipelineStore
    let gate: Gate
    var backendName: String { base.backendName }

    func upsertUser(_ user: User) async throws {
        try await base.upsertUser(user)
    }
    func user(_ id: UserID) async throws -> User? {
        try await base.user(id)
    }
    func userIDs() async throws -> [UserID] {
        try await base.userIDs()
    }
    func apply(_ unit: IngestUnit) async throws -> IngestUnitResult {
        try await base.apply(unit)
    }
    func usersPendingRecompute() async throws -> [UserID] {
        try await base.usersPendingRecompute()
    }
    func clearPendingRecompute(_ user: UserID, markedUpTo: EpochMillis) async throws {
        try await base.clearPendingRecompute(user, markedUpTo: markedUpTo)
    }
    func session(user: UserID, id: SessionID) async throws -> StoredSession? {
        try await base.session(user: user, id: id)
    }
    func sessionSummaries(user: UserID, offset: Int, limit: Int) async throws -> [StoredSession] {
        try await base.sessionSummaries(user: user, offset: offset, limit: limit)
    }
    func sessionCount(user: UserID) async throws -> Int {
        await gate.pass()
        return try await base.sessionCount(user: user)
    }
    func storageUsage(user: UserID) async throws -> StorageUsage { try await base.storageUsage(user: user) }
    func sessionSummaries(user: UserID, after key: SessionPageKey?, limit: Int) async throws -> [StoredSession] {
        try await base.sessionSummaries(user: user, after: key, limit: limit)
    }
    func sessionSummaries(user: UserID, ids: [SessionID]) async throws -> [StoredSession] {
        try await base.sessionSummaries(user: user, ids: ids)
    }
    func sessionMetrics(user: UserID, ids: [SessionID]) async throws -> [SessionMetricsRecord] {
        try await base.sessionMetrics(user: user, ids: ids)
    }
    func workouts(user: UserID, ids: [WorkoutID]) async throws -> [WorkoutRecord] {
        try await base.workouts(user: user, ids: ids)
    }
    func plans(user: UserID, versions: [Int]) async throws -> [PlanRecord] {
        try await base.plans(user: user, versions: versions)
    }
    func changeLog(user: UserID, after cursor: ChangeCursor?, limit: Int) async throws -> [ChangeLogEntry] {
        try await base.changeLog(user: user, after: cursor, limit: limit)
    }
    func secret(named name: String) async throws -> [UInt8] { try await base.secret(named: name) }
    func sessionsWithoutMetrics(limit: Int) async throws -> [(UserID, SessionID)] {
        try await base.sessionsWithoutMetrics(limit: limit)
    }
    func workouts(user: UserID, includeDeleted: Bool) async throws -> [WorkoutRecord] {
        try await base.workouts(user: user, includeDeleted: includeDeleted)
    }
    func putSessionMetrics(_ metrics: SessionMetricsRecord) async throws {
        try await base.putSessionMetrics(metrics)
    }
    func sessionMetrics(user: UserID) async throws -> [SessionMetricsRecord] {
        try await base.sessionMetrics(user: user)
    }
    func putUserStats(_ stats: UserStatsRecord) async throws {
        try await base.putUserStats(stats)
    }
    func userStats(_ user: UserID) async throws -> UserStatsRecord? {
        try await base.userStats(user)
    }
    func recordAppStats(user: UserID, stats: UserStats, at: EpochMillis) async throws {
        try await base.recordAppStats(user: user, stats: stats, at: at)
    }
    func workoutsToMeasure(limit: Int) async throws -> [WorkoutRecord] {
        try await base.workoutsToMeasure(limit: limit)
    }
    func putWorkoutMetrics(_ metrics: WorkoutMetricsRecord) async throws {
        try await base.putWorkoutMetrics(metrics)
    }
    func workoutMetrics(user: UserID) async throws -> [WorkoutMetricsRecord] {
        try await base.workoutMetrics(user: user)
    }
    func pruneWorkoutMetrics() async throws -> Int {
        try await base.pruneWorkoutMetrics()
    }
    func pruneWorkoutMetrics(user: UserID) async throws -> Int {
        try await base.pruneWorkoutMetrics(user: user)
    }
    func trainingLoad(user: UserID, from: LocalDate?, to: LocalDate?) async throws -> [TrainingLoadRecord] {
        try await base.trainingLoad(user: user, from: from, to: to)
    }
    func latestTrainingLoad(user: UserID, before: LocalDate?) async throws -> TrainingLoadRecord? {
        try await base.latestTrainingLoad(user: user, before: before)
    }
    func replaceTrainingLoad(user: UserID, from: LocalDate, days: [TrainingLoadRecord]) async throws {
        try await base.replaceTrainingLoad(user: user, from: from, days: days)
    }
    func appendPlan(user: UserID, generatedAt: EpochMillis, state: PlanState, documentJSON: String) async throws -> Int
    {
        try await base.appendPlan(user: user, generatedAt: generatedAt, state: state, documentJSON: documentJSON)
    }
    func latestPlan(user: UserID) async throws -> PlanRecord? {
        try await base.latestPlan(user: user)
    }
    func planVersions(user: UserID) async throws -> [PlanRecord] {
        try await base.planVersions(user: user)
    }
    func quarantined(reason: QuarantineReason?, offset: Int, limit: Int) async throws -> [QuarantineRecord] {
        try await base.quarantined(reason: reason, offset: offset, limit: limit)
    }
    func quarantineRecord(id: Int64) async throws -> QuarantineRecord? {
        try await base.quarantineRecord(id: id)
    }
    func removeQuarantine(id: Int64) async throws {
        try await base.removeQuarantine(id: id)
    }
    func purgeQuarantine(before: EpochMillis) async throws -> Int { try await base.purgeQuarantine(before: before) }
    func quarantineCountsByReason() async throws -> [QuarantineReason: Int] {
        try await base.quarantineCountsByReason()
    }
    func startJob(_ job: String, at: EpochMillis) async throws -> Int64 {
        try await base.startJob(job, at: at)
    }
    func finishJob(id: Int64, status: JobStatus, at: EpochMillis, countsJSON: String, watermark: String?) async throws {
        try await base.finishJob(id: id, status: status, at: at, countsJSON: countsJSON, watermark: watermark)
    }
    func lastJobRun(_ job: String) async throws -> JobRun? {
        try await base.lastJobRun(job)
    }
    func jobRuns(_ job: String, limit: Int) async throws -> [JobRun] {
        try await base.jobRuns(job, limit: limit)
    }
    func deleteUser(_ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis, purge: Bool)
        async throws -> DeletionAudit
    {
        try await base.deleteUser(
            id, userHash: userHash, requestedAt: requestedAt, completedAt: completedAt, purge: purge)
    }
    func deletionAudits() async throws -> [DeletionAudit] {
        try await base.deletionAudits()
    }
    func wasDeleted(userHash: String) async throws -> Bool { try await base.wasDeleted(userHash: userHash) }
    func footprint(user: UserID) async throws -> UserFootprint {
        try await base.footprint(user: user)
    }
    func tableCounts() async throws -> [String: Int] {
        try await base.tableCounts()
    }
    func contentDigest() async throws -> String {
        try await base.contentDigest()
    }
    // No roles, as before (the casts found none on this wrapper): no lock, one writer, no leases, ledger, change feed
    // or diagnostics.
    var userLocks: any UserLocks { NoUserLocks() }
    var commitsInParallel: Bool { false }
    var workLeases: (any WorkLeases)? { nil }
    var ingestLedger: (any IngestLedgerReading)? { nil }
    var changeFeed: (any UserChangeFeed)? { nil }
    var polledChangeFeed: (any PolledUserChangeFeed)? { nil }
    var diagnostics: (any StoreDiagnostics)? { nil }
}
