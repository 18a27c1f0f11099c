import Foundation
import Store
import StoreSQLite
import Testing

@testable import Pipeline

/// `pipeline worker` under SIGTERM and SIGINT (jobs run under swift-service-lifecycle, `JobLifecycle`): the worker
/// claims no more users, gives its leases back, records its run as `interrupted` and exits 143 (SIGTERM) or 130
/// (SIGINT), the codes every job command documents.
@Suite(.serialized) struct JobShutdownTests {
    /// A worker signalled mid-run. Another worker ("ghost", this test) holds one user of the shared run under a long
    /// lease, so the child cannot finish the run by itself before the signal lands: it is either working on its own
    /// share or waiting for the ghost's lease.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func workerStopsGracefullyWithTheDocumentedExitCode(signal: Int32, code: Int32) async throws {
        let fx = try await CLIFixture(users: 4, days: 10, seed: 8_810)
        let db = fx.newDatabase("worker")
        #expect(
            try await fx.run(["ingest", "--db", db, "--inbox", fx.stage2.path])
                == ChildExit(status: 0, bySignal: false))

        let key = "shutdown-test"
        let at = Date().epochMillis
        let run: SharedRun
        do {
            let store = try SQLiteStore(path: db)
            run = try await store.joinRun(
                job: NightlyWorker.sharedJob, key: key, worker: WorkerID("ghost"), scope: .changed, requeue: [],
                at: at)
            let progress = try await store.runProgress(run: run.id, at: at)
            #expect(progress.claimable >= 2, "the run needs users for the ghost and for the worker: \(progress)")
            let held = try await store.claimUsers(
                run: run.id, worker: WorkerID("ghost"), limit: 1, at: at, leaseMillis: 600_000)
            #expect(held.count == 1)
        }

        let (child, _, stderr) = try fx.start([
            "worker", "--db", db, "--run-key", key, "--worker-id", "child", "--batch", "1", "--concurrency", "1",
            "--lease-seconds", "60",
        ])
        // Signal it once it has joined the run (logged after the join, before its first claim).
        while child.isRunning,
            !((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains("run joined")
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(child.isRunning, "the worker ended before it was signalled")
        child.send(signal)
        let exit = await child.wait()
        let log = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(exit == ChildExit(status: code, bySignal: false), "\(log)")
        #expect(log.contains("interrupted:"))

        let store = try SQLiteStore(path: db)
        let now = Date().epochMillis
        // Only the ghost's lease is left: the child gave its own back.
        let progress = try await store.runProgress(run: run.id, at: now)
        #expect(progress.leased == 1, "\(progress)")
        #expect(progress.claimable + progress.leased + progress.done >= 2)
        let last = try await store.lastJobRun(NightlyWorker.jobName)
        #expect(last?.status == .interrupted)
    }
}
