import ArgumentParser
import Foundation
import Pipeline
import Store

/// `pipeline worker`: one worker of a nightly run shared by several processes (docs: jobs/README.md, docs/SCALING.md).
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Work on a nightly run shared with other workers: claim users with leases, analyse, recompute, plan.",
        discussion: """
            Start the same command on as many processes or machines as you like, over one database (PostgreSQL for \
            several machines; SQLite works on one). Workers with the same --run-key (default: today's UTC date) share \
            one run: each user is processed by exactly one of them, and together they leave exactly what one `pipeline \
            nightly` leaves. A worker given --inbox ingests it first (the ledger stores each batch once, however many \
            workers ingest the same inbox). Each waits until every user of the run is done; a dead worker's users are \
            taken over once its leases expire (--lease-seconds). SIGTERM/SIGINT: the worker claims no more users, \
            stops at its next safe point, gives its leases back and records its run as interrupted. A worker queues \
            only the users with work (a pending-recompute mark, no stats yet, sessions or workout records to measure; \
            its own ingest's users), so a night costs what changed, not how many users exist; --full queues every \
            user, as the first `pipeline nightly` (a full pass) does, and adapts their plans too (otherwise the weekly \
            `pipeline plans` job's). Exit codes: 0 the run is done; 1 the worker failed; 64 usage; 66 inbox not found; \
            143 (SIGTERM) or 130 (SIGINT) stopped at a safe point, leases given back (its users are left to the other \
            workers or the next run).
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @Option(help: "This worker's name, unique among the run's workers (default: HOSTNAME-PID).") var workerID: String?
    @Option(help: "Inbox directory to ingest before joining the run (optional).") var inbox: String?
    @Option(help: "Name of the shared run (default: today's date in UTC, YYYY-MM-DD).") var runKey: String?
    @Option(help: "Lease length in seconds; renewed while working.") var leaseSeconds: Int = 120
    @Option(help: "Users claimed at a time.") var batch: Int = 8
    @Option(help: "Users processed concurrently by this worker (default: the number of cores).") var concurrency: Int?
    @Flag(
        help: """
            Queue every user of the store, not only those with work, and generate or adapt every plan (a full pass, as \
            the first `pipeline nightly`).
            """) var full = false
    @Flag(help: "Print the summary as one JSON object.") var json = false

    func validate() throws {
        if leaseSeconds < 5 { throw ValidationError("--lease-seconds must be at least 5") }
        if batch < 1 { throw ValidationError("--batch must be at least 1") }
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if let workerID, workerID.isEmpty || workerID.count > 128 {
            throw ValidationError("--worker-id must be 1 to 128 characters")
        }
    }

    static func defaultWorkerID() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.worker")
            if let inbox, !FileManager.default.fileExists(atPath: inbox) {
                throw CLIError.notFound("inbox not found: \(inbox)")
            }
            let store = try await store.open()
            var configuration = NightlyWorker.Configuration(
                worker: WorkerID(workerID ?? Self.defaultWorkerID()), runKey: runKey)
            configuration.leaseMillis = Int64(leaseSeconds) * 1000
            configuration.claimBatch = batch
            configuration.scope = full ? .everyone : .changed
            if let concurrency { configuration.concurrency = concurrency }
            let line = ProgressLine()
            let worker = try NightlyWorker(
                store: store, configuration: configuration, logger: logger,
                progress: { _, done, total in
                    line.show("[users] \(done)/\(total) done")
                })
            let inboxURL = inbox.map { URL(fileURLWithPath: $0) }
            let summary = try await JobLifecycle.run(logger: logger) { try await worker.run(inbox: inboxURL) }
            line.finish()
            if json {
                try printJSON(summary)
            } else {
                print(
                    "worker \(summary.workerID), run \(summary.runKey) (\(summary.openedRun ? "opened" : "joined")): "
                        + "\(summary.usersProcessed) users processed (\(summary.usersTakenOver) taken over), "
                        + "\(summary.sessionsAnalyzed) sessions analysed, \(summary.usersRecomputed) stats recomputed, "
                        + "\(summary.sessionsUnreadable) sessions skipped (stored recording unreadable); "
                        + (summary.runFinished ? "the run is done" : "the run is not done"))
            }
        }
    }
}
