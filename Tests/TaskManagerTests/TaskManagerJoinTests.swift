import TaskManager
import Testing

@Suite struct TaskManagerJoinTests {
    @Test func tenThousandConcurrentJoinersRunTheWorkOnce() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        let executions = Counter()
        let callers = 10_000
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    try await manager.join(id: id) {
                        executions.increment()
                        await gate.wait()
                        return 99
                    }
                }
            }
            // Hold the work until every caller is registered as a waiter, then release it.
            #expect(await eventually { manager.waiterCount(id: id) == callers })
            gate.open()
            var received = 0
            for try await value in group {
                #expect(value == 99)
                received += 1
            }
            #expect(received == callers)
        }
        #expect(executions.count == 1)
        #expect(!manager.isRunning(id: id))
    }

    @Test func errorReachesEveryJoiner() async {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        let executions = Counter()
        let joiners = 500
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<joiners {
                group.addTask {
                    do {
                        _ = try await manager.join(id: id) { () async throws -> Int in
                            executions.increment()
                            await gate.wait()
                            throw TestFailure(code: 17)
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            #expect(await eventually { manager.waiterCount(id: id) == joiners })
            gate.open()
            var errors: [(any Error)?] = []
            for await error in group { errors.append(error) }
            return errors
        }
        #expect(executions.count == 1)
        #expect(errors.count == joiners)
        #expect(errors.allSatisfy { ($0 as? TestFailure) == TestFailure(code: 17) })
    }

    @Test func cancelledJoinerDoesNotCancelTheOthersWork() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        let workSawCancellation = Counter()
        let work: @Sendable () async -> String = {
            await gate.wait()
            if Task.isCancelled { workSawCancellation.increment() }
            return "done"
        }
        let starter = Task { try await manager.join(id: id, operation: work) }
        let quitter = Task { try await manager.join(id: id, operation: work) }
        #expect(await eventually { manager.waiterCount(id: id) == 2 })

        quitter.cancel()
        // The cancelled joiner returns while the work is still held at the gate.
        await #expect(throws: CancellationError.self) { try await quitter.value }
        #expect(manager.waiterCount(id: id) == 1)
        #expect(manager.isRunning(id: id))

        gate.open()
        #expect(try await starter.value == "done")
        #expect(workSawCancellation.count == 0)
    }

    @Test func workKeepsRunningWhenEveryJoinerHasLeft() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        let finished = Counter()
        let only = Task {
            try await manager.join(id: id) {
                await gate.wait()
                finished.increment()
                return 1
            }
        }
        #expect(await eventually { manager.waiterCount(id: id) == 1 })
        only.cancel()
        await #expect(throws: CancellationError.self) { try await only.value }
        #expect(manager.isRunning(id: id))
        // A new caller joins the still-running work instead of starting a second one.
        let late = Task {
            try await manager.join(id: id) { () -> Int in
                Issue.record("ran twice"); return 2
            }
        }
        #expect(await eventually { manager.waiterCount(id: id) == 1 })
        gate.open()
        #expect(try await late.value == 1)
        #expect(finished.count == 1)
    }

    @Test func alreadyCancelledCallerStartsNothing() async {
        let manager = TaskManager()
        let executions = Counter()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manager.join(id: TaskID(.ingest)) { executions.increment() }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(executions.count == 0)
        #expect(!manager.isRunning(id: TaskID(.ingest)))
    }

    @Test func joinerJoinsWorkStartedBySkipModeCall() async throws {
        let manager = TaskManager()
        let id = TaskID(.planGeneration, subject: "u1")
        let gate = Gate()
        async let started = manager.executeTask(id: id) { () async -> Int in
            await gate.wait(); return 5
        }
        #expect(await eventually { gate.waitingCount == 1 })
        async let joined = manager.join(id: id) { () -> Int in
            Issue.record("ran twice"); return 6
        }
        #expect(await eventually { manager.waiterCount(id: id) == 2 })
        gate.open()
        #expect(await started == 5)
        #expect(try await joined == 5)
    }

    @Test func joiningWithAnotherResultTypeThrows() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        async let running = manager.join(id: id) { () async -> Int in
            await gate.wait(); return 1
        }
        #expect(await eventually { gate.waitingCount == 1 })
        await #expect(throws: TaskManagerError(code: .resultTypeMismatch, group: .recompute)) {
            try await manager.join(id: id) { "text" }
        }
        gate.open()
        #expect(try await running == 1)
    }
}
