import TaskManager
import Testing

/// Work that runs until cancelled, without polling: suspends on a never-opened gate and
/// returns through `CancellationError` when its task is cancelled.
@Sendable func untilCancelled() async throws -> Int {
    try await withTaskCancellationHandler {
        try await Task.sleep(for: .seconds(3_600))
        return 0
    } onCancel: {
    }
}

@Suite struct TaskManagerShutdownTests {
    @Test func shutdownCancelsEverythingRunningAndRejectsNewWork() async throws {
        let capture = LogCapture()
        let manager = TaskManager(logger: capture.logger())
        let ids = (0..<50).map { TaskID(.recompute, subject: "u\($0)") }
        let joiners = ids.map { id in Task { try await manager.join(id: id, operation: untilCancelled) } }
        let skipper = Task { await manager.run(id: TaskID(.ingest), operation: untilCancelled) }
        #expect(await eventually { manager.runningTaskIDs.count == 51 })

        await manager.shutdown()

        #expect(manager.runningTaskIDs.isEmpty)
        #expect(manager.isShutDown)
        for joiner in joiners {
            await #expect(throws: CancellationError.self) { try await joiner.value }
        }
        guard case .cancelled = await skipper.value else {
            Issue.record("expected .cancelled")
            return
        }
        #expect(capture.messages("task cancelled").count == 51)
        #expect(capture.messages("task cancelled").contains { $0.metadata["task.id"] == "recompute(u7)" })

        await #expect(throws: TaskManagerError(code: .shutDown, group: .recompute)) {
            try await manager.join(id: ids[0]) { 1 }
        }
        guard case .rejected = await manager.run(id: ids[0], operation: { 1 }) else {
            Issue.record("expected .rejected")
            return
        }
        #expect(await manager.executeTask(id: ids[0]) { 1 } == nil)
    }

    @Test func shutdownWaitsForWorkThatFinishesLate() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        let returned = Counter()
        // This work ignores cancellation until the gate opens.
        let joiner = Task {
            try await manager.join(id: id) { () async -> Int in
                await gate.wait(); return 1
            }
        }
        #expect(await eventually { gate.waitingCount == 1 })
        let shutdown = Task {
            await manager.shutdown()
            returned.increment()
        }
        #expect(await eventually { manager.isShutDown })
        for _ in 0..<1_000 { await Task.yield() }
        #expect(returned.count == 0)
        gate.open()
        await shutdown.value
        #expect(returned.count == 1)
        #expect(try await joiner.value == 1)
        #expect(manager.runningTaskIDs.isEmpty)
    }

    @Test func cancelAllCancelsButKeepsAcceptingWork() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let joiner = Task { try await manager.join(id: id, operation: untilCancelled) }
        #expect(await eventually { manager.waiterCount(id: id) == 1 })
        manager.cancelAll()
        await #expect(throws: CancellationError.self) { try await joiner.value }
        #expect(try await manager.join(id: id) { 3 } == 3)
    }

    @Test func cancelByIdCancelsOnlyThatTask() async throws {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let gate = Gate()
        let a = TaskID(.recompute, subject: "a")
        let b = TaskID(.recompute, subject: "b")
        let joinA = Task { try await manager.join(id: a, operation: untilCancelled) }
        let joinB = Task {
            try await manager.join(id: b) { () async -> Int in
                await gate.wait(); return 2
            }
        }
        #expect(await eventually { manager.waiterCount(id: a) == 1 && manager.waiterCount(id: b) == 1 })
        #expect(manager.cancel(id: a) || !manager.isRunning(id: a))
        await #expect(throws: CancellationError.self) { try await joinA.value }
        #expect(manager.isRunning(id: b))
        gate.open()
        #expect(try await joinB.value == 2)
        #expect(!manager.cancel(id: a))
    }

    @Test func manyRacingStartsAndCancelsLeaveNothingBehind() async {
        // Stress the start/attach/cancel race: cancellations arrive while tasks start.
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<2_000 {
                group.addTask {
                    _ = try? await manager.join(
                        id: TaskID(.recompute, subject: "u\(i % 37)"), operation: untilCancelled)
                }
                if i % 10 == 0 { group.addTask { manager.cancelAll() } }
            }
            group.addTask {
                while !manager.isShutDown {
                    manager.cancelAll()
                    await Task.yield()
                }
            }
            group.addTask { await manager.shutdown() }
        }
        #expect(manager.runningTaskIDs.isEmpty)
    }
}
