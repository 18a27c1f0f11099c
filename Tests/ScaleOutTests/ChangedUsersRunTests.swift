import Foundation
import Store
import Synchronization
import Testing

@testable import Pipeline

/// Issue 43: a shared run's night costs what changed, not how many users exist. A worker's join queues only the users
/// with work (`SharedRunScope.changed`); `--full` (`.everyone`) queues them all; on each backend.
@Suite(.serialized) struct ChangedUsersRunTests {
    static let userCount = 6
    /// Six runners in Berlin, four days a week; the even ones have a goal race (so plans are generated, and can be
    /// adapted).
    static let users: [User] = (0..<userCount).map { i in
        User(
            id: UserID("runner-\(i)"), timeZone: "Europe/Berlin",
            profile: TrainingProfile(
                sex: .male, maxHR: 190, restingHR: 50,
                goalRace: i % 2 == 0 ? GoalRace(date: LocalDate(iso: "2026-10-04")!, distanceM: 42_195) : nil,
                availableDays: [.tue, .thu, .sat, .sun], maxRunDays: 4, longRunDay: .sun, lthr: 172),
            createdAt: 0)
    }
    /// The users whose data changes on the second night.
    static let changed: Set<UserID> = [users[1].id, users[4].id]
    static let firstNight = LazyTrainingLoadTests.nightAt("2026-03-05")
    /// Eight days later: a plan week has passed, so a plan refreshed with `.generateOrAdapt` would be adapted.
    static let secondNight = LazyTrainingLoadTests.nightAt("2026-03-13")

    /// Two weeks later than the first night, with nothing run in between but the changed users' one run the day before:
    /// every goal runner's plan, adapted, changes (a return from a break).
    static let lateNight = LazyTrainingLoadTests.nightAt("2026-03-20")
    static let lateRun = "2026-03-19"

    /// Every user with a week of runs, then the first night: a single-process full pass (everyone computed).
    static func seed(_ store: any PipelineStore) async throws {
        for user in users { try await store.upsertUser(user) }
        var runs: [WorkoutRecord] = []
        for (i, user) in users.enumerated() {
            for day in 1...4 {
                runs.append(
                    LazyTrainingLoadTests.run(
                        user, "\(user.id.rawValue)-\(day)", on: "2026-03-0\(day)", avgHR: 140 + Double(i + day),
                        seconds: 1800 + Double(300 * day)))
            }
        }
        try await LazyTrainingLoadTests.arrive(store, runs)
        let at = firstNight
        let summary = try await NightlyJob(store: store, logger: quietLogger, now: { at }, concurrency: 1).run(
            inbox: nil)
        #expect(summary.mode == .full && summary.status == .succeeded)
        #expect(try await store.usersPendingRecompute().isEmpty)
    }

    /// New runs for the changed users only (as the API or an ingest would store them).
    static func change(_ store: any PipelineStore, day: String = "2026-03-12", users: Set<UserID> = changed)
        async throws
    {
        let runs = Self.users.filter { users.contains($0.id) }.map {
            LazyTrainingLoadTests.run($0, "\($0.id.rawValue)-\(day)", on: day, avgHR: 155, seconds: 2700)
        }
        try await LazyTrainingLoadTests.arrive(store, runs)
    }

    static func worker(
        _ store: CoordinatedStore, _ name: String, key: String, scope: SharedRunScope, now: Int64,
        beforeUserWork: (@Sendable (UserID) async throws -> Void)? = nil
    ) throws -> NightlyWorker {
        var configuration = NightlyWorker.Configuration(worker: WorkerID(name), runKey: key)
        configuration.scope = scope
        configuration.claimBatch = 2
        configuration.concurrency = 2
        configuration.leaseMillis = 60_000
        configuration.beforeUserWork = beforeUserWork
        return try NightlyWorker(
            store: store, configuration: configuration, logger: quietLogger, now: { now },
            sleep: { _ in await Task.yield() })
    }

    @Test(arguments: Backend.available)
    func aRunQueuesOnlyTheChangedUsersAndAFullRunEveryone(_ backend: Backend) async throws {
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            try await Self.seed(store)
            let at = Self.secondNight
            // A night with nothing new: nobody is queued, and the run is done at once.
            let idle = try await store.joinRun(
                job: NightlyWorker.sharedJob, key: "idle", worker: WorkerID("w"), scope: .changed, requeue: [], at: at)
            #expect(
                try await store.runProgress(run: idle.id, at: at)
                    == SharedRunProgress(claimable: 0, leased: 0, done: 0, nextExpiry: nil))
            #expect(try await store.finishRunIfDone(run: idle.id, at: at))

            // Two of six changed: the run has exactly their two leases.
            try await Self.change(store)
            let run = try await store.joinRun(
                job: NightlyWorker.sharedJob, key: "night", worker: WorkerID("w"), scope: .changed, requeue: [],
                at: at)
            #expect(try await store.runProgress(run: run.id, at: at).claimable == Self.changed.count)
            let claimed = try await store.claimUsers(
                run: run.id, worker: WorkerID("w"), limit: 100, at: at, leaseMillis: 60_000)
            #expect(Set(claimed.map(\.user)) == Self.changed)
            try await store.releaseLeases(run: run.id, worker: WorkerID("w"))
            // A worker of that run processes those two and nobody else.
            let night = try await Self.worker(store, "w1", key: "night", scope: .changed, now: at).run(inbox: nil)
            #expect(night.runFinished && night.usersProcessed == Self.changed.count)
            #expect(night.usersRecomputed == Self.changed.count)
            #expect(try await store.usersPendingRecompute().isEmpty)
            #expect(try await store.workoutsToMeasure(limit: 10).isEmpty)

            // A new user, never computed (no stats yet), is queued though nothing of theirs changed.
            let newcomer = User(id: UserID("newcomer"), timeZone: "Europe/Berlin", createdAt: 0)
            try await store.upsertUser(newcomer)
            let next = try await store.joinRun(
                job: NightlyWorker.sharedJob, key: "newcomer", worker: WorkerID("w"), scope: .changed, requeue: [],
                at: at)
            let newcomerLeases = try await store.claimUsers(
                run: next.id, worker: WorkerID("w"), limit: 100, at: at, leaseMillis: 60_000)
            #expect(newcomerLeases.map(\.user) == [newcomer.id])
            try await store.releaseLeases(run: next.id, worker: WorkerID("w"))

            // A full run queues every user of the store.
            let full = try await Self.worker(store, "w2", key: "full", scope: .everyone, now: at).run(inbox: nil)
            #expect(full.runFinished && full.usersProcessed == Self.userCount + 1)
            let progress = try await store.runProgress(run: full.runID, at: at)
            #expect(progress == SharedRunProgress(claimable: 0, leased: 0, done: Self.userCount + 1, nextExpiry: nil))
        }
    }

    /// A night with changes for two users and none for four: two workers leave the rows the single-process incremental
    /// nightly leaves, and adapt no plan (the weekly job's; `aChangedWorkerGeneratesPlansAndAdaptsNone` is the night on
    /// which an adaptation would change the plans).
    @Test(arguments: Backend.available)
    func workersOnANightOfFewChangesLeaveWhatTheNightlyLeaves(_ backend: Backend) async throws {
        let at = Self.secondNight
        var reference = ""
        try await withDatabase(backend, connections: 1) { stores in
            try await Self.seed(stores[0])
            try await Self.change(stores[0])
            let summary = try await NightlyJob(store: stores[0], logger: quietLogger, now: { at }, concurrency: 1)
                .run(inbox: nil)
            #expect(summary.mode == .incremental && summary.usersRecomputed == Self.changed.count)
            #expect(summary.plans["adapted", default: 0] == 0)
            reference = try await stores[0].contentDigest()
        }
        try await withDatabase(backend, connections: 2) { stores in
            try await Self.seed(stores[0])
            try await Self.change(stores[0])
            let summaries = try await withThrowingTaskGroup(of: WorkerSummary.self) { group in
                for (i, store) in stores.enumerated() {
                    let worker = try Self.worker(store, "w\(i + 1)", key: "night", scope: .changed, now: at)
                    group.addTask { try await worker.run(inbox: nil) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(summaries.allSatisfy { $0.runFinished && $0.status == .succeeded })
            #expect(summaries.map(\.usersProcessed).reduce(0, +) == Self.changed.count)
            #expect(summaries.allSatisfy { $0.plans["adapted", default: 0] == 0 })
            #expect(try await stores[0].usersPendingRecompute().isEmpty)
            #expect(try await stores[0].contentDigest() == reference)
        }
    }

    /// The plan policy of a worker night: a `.changed` worker generates missing plans and leaves existing ones as they
    /// are (adaptation is the weekly plan job's), a `--full` worker adapts them. After two weeks without running, an
    /// adaptation changes the schedule (a return from a break): the full worker on an identical store adapts every plan
    /// of a changed runner with a goal race, so a changed worker that adapted would be caught here.
    @Test(arguments: Backend.available)
    func aChangedWorkerGeneratesPlansAndAdaptsNone(_ backend: Backend) async throws {
        let at = Self.lateNight
        let goalRunners = Self.users.filter { Self.changed.contains($0.id) && $0.profile.goalRace != nil }.map(\.id)
        #expect(!goalRunners.isEmpty)
        for scope in SharedRunScope.allCases {
            try await withDatabase(backend, connections: 1) { stores in
                let store = stores[0]
                try await Self.seed(store)
                try await Self.change(store, day: Self.lateRun)
                var versions: [UserID: Int] = [:]
                for user in Self.users { versions[user.id] = try await store.planVersions(user: user.id).count }
                let night = try await Self.worker(store, "w", key: "late-\(scope)", scope: scope, now: at).run(
                    inbox: nil)
                #expect(night.runFinished && night.status == .succeeded)
                for user in Self.users {
                    let after = try await store.planVersions(user: user.id).count
                    let adapted = scope == .everyone && user.profile.goalRace != nil
                    #expect(after == versions[user.id, default: 0] + (adapted ? 1 : 0), "\(scope) \(user.id)")
                }
                switch scope {
                case .changed:
                    #expect(night.usersProcessed == Self.changed.count)
                    #expect(night.plans["adapted", default: 0] == 0)
                    #expect(night.plans["generated", default: 0] == 0)
                case .everyone:
                    #expect(night.usersProcessed == Self.userCount)
                    let goals = Self.users.filter { $0.profile.goalRace != nil }.count
                    #expect(night.plans["adapted", default: 0] == goals)
                }
            }
        }
    }

    /// Data that arrives for an idle user while a run works is taken by the next join of the run; a user already done
    /// whose data changes again is queued again by a join that requeues it (as a worker's own ingest does).
    @Test(arguments: Backend.available)
    func aUserWhoseDataChangesMidRunIsStillProcessed(_ backend: Backend) async throws {
        try await withDatabase(backend, connections: 2) { stores in
            let store = stores[0]
            try await Self.seed(store)
            try await Self.change(store)
            let at = Self.secondNight
            let late = Self.users[2].id
            let arrived = Once()
            let other = stores[1]
            #expect(try await store.latestTrainingLoad(user: late, before: nil)?.date == LocalDate(iso: "2026-03-05"))
            // While the first worker works on its first user, runs arrive for an idle user (not queued).
            let first = try await Self.worker(
                store, "first", key: "night", scope: .changed, now: at,
                beforeUserWork: { _ in
                    guard arrived.first() else { return }
                    try await Self.change(other, day: "2026-03-13", users: [late])
                }
            ).run(inbox: nil)
            #expect(!arrived.first())
            #expect(first.runFinished && first.usersProcessed == Self.changed.count)
            #expect(!(try await store.workoutsToMeasure(limit: 10).isEmpty))
            // The next worker of the run finds that user (it has work and the run did not list it) and only that user.
            let second = try await Self.worker(stores[1], "second", key: "night", scope: .changed, now: at).run(
                inbox: nil)
            #expect(second.runID == first.runID && !second.openedRun)
            #expect(second.runFinished && second.usersProcessed == 1)
            #expect(try await store.workoutsToMeasure(limit: 10).isEmpty)
            #expect(try await store.latestTrainingLoad(user: late, before: nil)?.date == LocalDate(iso: "2026-03-13"))

            // New data for a user already done in the run, requeued by the join that stored it: processed again.
            let again = Self.users[1].id
            try await Self.change(store, day: "2026-03-13", users: [again])
            _ = try await store.joinRun(
                job: NightlyWorker.sharedJob, key: "night", worker: WorkerID("ingester"), scope: .changed,
                requeue: [again], at: at)
            let third = try await Self.worker(store, "third", key: "night", scope: .changed, now: at).run(inbox: nil)
            #expect(third.runFinished && third.usersProcessed == 1 && third.usersRecomputed == 1)
            #expect(try await store.workoutMetrics(user: again).count == 6)
            #expect(try await store.usersPendingRecompute().isEmpty)
            #expect(try await store.workoutsToMeasure(limit: 10).isEmpty)
        }
    }
}

/// True the first time it is asked, false after.
final class Once: Sendable {
    private let asked = Mutex(false)
    func first() -> Bool {
        asked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }
}
