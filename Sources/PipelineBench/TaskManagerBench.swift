// TaskManager benchmark: overhead per call and per joiner, in release mode.
//   swift run -c release pipeline-bench taskmanager [--quick] [--joiners N]
// Wall time by ContinuousClock and the process's CPU time (less disturbed when other work
// shares the cores); each figure is the median of several repetitions, and every
// comparison is a ratio between figures measured in the same run.
import Synchronization
import TaskManager

enum TaskManagerBench: TimedBenchSuite {
    static func run(_ args: [String]) async throws {
        let quick = args.contains("--quick")
        let repetitions = quick ? 3 : 9
        let calls = quick ? 20_000 : 100_000
        // `--joiners N`: only the per-joiner table, for N joiners.
        let onlyJoiners = args.firstIndex(of: "--joiners").flatMap {
            args.indices.contains($0 + 1) ? Int(args[$0 + 1]) : nil
        }
        print("TaskManager benchmark (\(repetitions) repetitions, median; \(calls) sequential calls per repetition)")
        print("")
        if let onlyJoiners {
            try await perJoiner(counts: [onlyJoiners], repetitions: repetitions)
            return
        }
        try await perCall(calls: calls, repetitions: repetitions)
        print("")
        try await perJoiner(counts: quick ? [1, 100, 1_000] : [1, 10, 100, 1_000, 10_000], repetitions: repetitions)
    }

    // MARK: - Per call, uncontended

    private static func perCall(calls: Int, repetitions: Int) async throws {
        let manager = TaskManager()
        let actorManager = ActorSingleflight(detached: false)
        let detachedActorManager = ActorSingleflight(detached: true)
        let id = TaskID(.recompute, subject: "bench-user")
        let operation = opaqueOperation()

        let direct = try await median(repetitions) {
            var sum = 0
            for _ in 0..<calls { sum &+= try await operation() }
            precondition(sum == calls)
        }
        let spawned = try await median(repetitions) {
            var sum = 0
            for _ in 0..<calls { sum &+= try await Task { try await operation() }.value }
            precondition(sum == calls)
        }
        let execute = await median(repetitions) {
            var sum = 0
            for _ in 0..<calls { sum &+= await manager.executeTask(id: id, operation: operation) ?? 0 }
            precondition(sum == calls)
        }
        let join = try await median(repetitions) {
            var sum = 0
            for _ in 0..<calls { sum &+= try await manager.join(id: id, operation: operation) }
            precondition(sum == calls)
        }
        let actorJoin = try await median(repetitions) {
            var sum = 0
            for _ in 0..<calls { sum &+= try await actorManager.join(id: id, operation: operation) }
            precondition(sum == calls)
        }
        let detachedActorJoin = try await median(repetitions) {
            var sum = 0
            for _ in 0..<calls { sum &+= try await detachedActorManager.join(id: id, operation: operation) }
            precondition(sum == calls)
        }
        let rows: [(String, BenchSample)] = [
            ("closure called directly", direct),
            ("Task { closure }.value (the floor: one task per call)", spawned),
            ("TaskManager.executeTask (Mutex)", execute),
            ("TaskManager.join (Mutex)", join),
            ("actor singleflight join, work task inherits the actor", actorJoin),
            ("actor singleflight join, work task detached (as TaskManager)", detachedActorJoin),
        ]
        print("Per call, uncontended (one id, sequential calls)")
        table(
            ["variant", "ns/call", "ns over direct", "× Task{}.value", "CPU ns/call", "CPU × Task{}.value"],
            rows.map { name, total in
                let perCall = nanoseconds(total.wall) / Double(calls)
                return [
                    name, format(perCall, 1),
                    format(perCall - nanoseconds(direct.wall) / Double(calls), 1),
                    format(nanoseconds(total.wall) / nanoseconds(spawned.wall), 2),
                    format(nanoseconds(total.cpu) / Double(calls), 1),
                    format(nanoseconds(total.cpu) / nanoseconds(spawned.cpu), 2),
                ]
            })
    }

    // MARK: - Per joiner

    private static func perJoiner(counts: [Int], repetitions: Int) async throws {
        print("Per joiner: N tasks call join on one id; the work is held until all N wait, then released")
        // Unstructured tasks awaited in order, not a task group: the runtime removes a finished
        // child from its group by walking a list, which made groups of 10,000 quadratic and
        // hid everything else (75% of the time in TaskGroup::removeChildTask).
        var rows: [[String]] = []
        for count in counts {
            let id = TaskID(.recompute, subject: "bench-user")
            // Baseline: the same N tasks awaiting one gate, no manager.
            let baseline = try await median(repetitions) {
                let gate = BenchGate()
                let tasks = (0..<count).map { _ in
                    Task {
                        await gate.wait(); return 1
                    }
                }
                while gate.waiting < count { await Task.yield() }
                gate.open()
                try await expectSum(of: tasks, count)
            }
            let manager = TaskManager()
            let joined = try await median(repetitions) {
                let gate = BenchGate()
                let tasks = (0..<count).map { _ in
                    Task {
                        try await manager.join(id: id) {
                            await gate.wait(); return 1
                        }
                    }
                }
                while manager.waiterCount(id: id) < count { await Task.yield() }
                gate.open()
                try await expectSum(of: tasks, count)
            }
            let actorManager = ActorSingleflight(detached: false)
            let actorJoined = try await median(repetitions) {
                let gate = BenchGate()
                let tasks = (0..<count).map { _ in
                    Task {
                        try await actorManager.join(id: id) {
                            await gate.wait(); return 1
                        }
                    }
                }
                while await actorManager.joinerCount(id: id) < count { await Task.yield() }
                gate.open()
                try await expectSum(of: tasks, count)
            }
            let n = Double(count)
            rows.append([
                "\(count)",
                format(nanoseconds(baseline.wall) / n, 0),
                format(nanoseconds(joined.wall) / n, 0),
                format((nanoseconds(joined.wall) - nanoseconds(baseline.wall)) / n, 0),
                format(nanoseconds(joined.wall) / nanoseconds(baseline.wall), 2),
                format((nanoseconds(joined.cpu) - nanoseconds(baseline.cpu)) / n, 0),
                format(nanoseconds(actorJoined.wall) / n, 0),
                format(nanoseconds(actorJoined.wall) / nanoseconds(joined.wall), 2),
                format(nanoseconds(actorJoined.cpu) / nanoseconds(joined.cpu), 2),
            ])
        }
        table(
            [
                "N", "baseline ns/task", "join ns/joiner", "overhead ns/joiner", "× baseline",
                "CPU overhead ns/joiner", "actor ns/joiner", "actor ÷ Mutex", "actor ÷ Mutex, CPU",
            ], rows)
    }

    private static func expectSum(of tasks: [Task<Int, some Error>], _ expected: Int) async throws {
        var sum = 0
        for task in tasks { sum += try await task.value }
        precondition(sum == expected)
    }

    // MARK: - Helpers

    /// The operation under test, behind a call the optimiser cannot see through.
    @inline(never)
    private static func opaqueOperation() -> @Sendable () async throws -> Int {
        { 1 }
    }

}

/// A one-shot gate counting its waiters (the benchmark's own, so the suite stands alone).
private final class BenchGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var waiting: Int { state.withLock { $0.waiters.count } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for item in waiters { item.resume() }
    }
}

/// The obvious actor design, for comparison: a table of running `Task`s; joiners await
/// `task.value` (so, unlike TaskManager, a cancelled joiner keeps waiting). With
/// `detached: false` the work task inherits the actor and tends to run on the caller's thread.
private actor ActorSingleflight {
    private var running: [TaskID: (task: Task<any Sendable, any Error>, joiners: Int)] = [:]
    private let detached: Bool

    init(detached: Bool) { self.detached = detached }

    func joinerCount(id: TaskID) -> Int { running[id]?.joiners ?? 0 }

    func join<T: Sendable>(id: TaskID, operation: @escaping @Sendable () async throws -> T) async throws -> T {
        if let entry = running[id] {
            running[id]!.joiners += 1
            return try await entry.task.value as! T
        }
        let task =
            detached
            ? Task<any Sendable, any Error>.detached { try await operation() }
            : Task<any Sendable, any Error> { try await operation() }
        running[id] = (task, 1)
        defer { running[id] = nil }
        return try await task.value as! T
    }
}
