import TaskManager
import Testing

@Suite struct TaskManagerSkipTests {
    @Test func runsTheOperationAndReturnsItsValue() async {
        let manager = TaskManager()
        let value = await manager.executeTask(id: TaskID(.recompute, subject: "u1")) { 42 }
        #expect(value == 42)
        #expect(manager.runningTaskIDs.isEmpty)
    }

    @Test func duplicateIsSkippedWithoutCancellingTheRunningOne() async {
        let capture = LogCapture()
        let manager = TaskManager(logger: capture.logger())
        let id = TaskID(.trainingDataRefresh, subject: "u1")
        let gate = Gate()
        let sawCancellation = Counter()

        async let first = manager.executeTask(id: id) { () async -> String in
            await gate.wait()
            if Task.isCancelled { sawCancellation.increment() }
            return "first"
        }
        #expect(await eventually { gate.waitingCount == 1 })

        let second = await manager.run(id: id) { "second" }
        guard case .skipped = second else {
            Issue.record("expected .skipped, got \(second)")
            return
        }
        #expect(await manager.executeTask(id: id) { "third" } == nil)

        gate.open()
        #expect(await first == "first")
        #expect(sawCancellation.count == 0)

        let skips = capture.messages("task already running, skipping duplicate request")
        #expect(skips.count == 2)
        #expect(skips.allSatisfy { $0.metadata["task.id"] == "training_data_refresh(u1)" && $0.level == .info })
    }

    @Test func tenThousandConcurrentSkipCallsRunTheWorkOnce() async {
        let manager = TaskManager(logger: LogCapture().logger(level: .critical))
        let id = TaskID(.recompute, subject: "u1")
        let gate = Gate()
        let executions = Counter()
        let results = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<10_000 {
                group.addTask {
                    await manager.executeTask(id: id) {
                        executions.increment()
                        await gate.wait()
                        return 7
                    }
                }
            }
            // Every call but the one that started the work returns nil at once; then release it.
            var results: [Int?] = []
            for await result in group {
                results.append(result)
                if results.count == 9_999 { gate.open() }
            }
            return results
        }
        #expect(executions.count == 1)
        #expect(results.filter { $0 == 7 }.count == 1)
        #expect(results.filter { $0 == nil }.count == 9_999)
    }

    @Test func sameIdCanRunAgainAfterCompletion() async {
        let manager = TaskManager()
        let id = TaskID(.ingest)
        #expect(await manager.executeTask(id: id) { 1 } == 1)
        #expect(await manager.executeTask(id: id) { 2 } == 2)
    }

    @Test func differentIdsRunConcurrently() async {
        let manager = TaskManager()
        let gate = Gate()
        async let a = manager.executeTask(id: TaskID(.recompute, subject: "a")) {
            await gate.wait(); return "a"
        }
        async let b = manager.executeTask(id: TaskID(.recompute, subject: "b")) {
            await gate.wait(); return "b"
        }
        #expect(await eventually { gate.waitingCount == 2 })
        #expect(Set(manager.runningTaskIDs.compactMap(\.subject)) == ["a", "b"])
        gate.open()
        #expect(await a == "a")
        #expect(await b == "b")
    }

    @Test func outcomeReportsFailureAndLogsIt() async {
        let capture = LogCapture()
        let manager = TaskManager(logger: capture.logger())
        let outcome = await manager.run(id: TaskID(.planGeneration, subject: "u9")) { () throws -> Int in
            throw TestFailure(code: 3)
        }
        guard case .failed(let error) = outcome else {
            Issue.record("expected .failed, got \(outcome)")
            return
        }
        #expect(error as? TestFailure == TestFailure(code: 3))
        let failed = capture.messages("task failed")
        #expect(failed.count == 1)
        #expect(failed.first?.metadata["task.id"] == "plan_generation(u9)")
        #expect(failed.first?.level == .warning)
    }

    @Test func successIsLoggedWithTheId() async {
        let capture = LogCapture()
        let manager = TaskManager(logger: capture.logger())
        await manager.executeTask(id: TaskID(.recompute, subject: "u1")) { () }
        #expect(capture.all.map(\.message) == ["task started", "task completed"])
        let completed = capture.messages("task completed")
        #expect(completed.count == 1)
        #expect(completed.first?.metadata["task.id"] == "recompute(u1)")
    }

    @Test func redactedSubjectsStayOutOfLogs() async {
        let capture = LogCapture()
        let manager = TaskManager(
            configuration: .init(subjectLogging: .redacted, completionLogLevel: .info), logger: capture.logger())
        await manager.executeTask(id: TaskID(.recompute, subject: "secret-user")) { () }
        #expect(!capture.all.isEmpty)
        #expect(capture.all.allSatisfy { !$0.metadata.values.contains { $0.contains("secret-user") } })
        #expect(capture.messages("task completed").first?.metadata["task.id"] == "recompute(<redacted>)")
    }
}
