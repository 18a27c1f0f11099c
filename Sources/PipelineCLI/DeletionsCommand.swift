import ArgumentParser
import Foundation
import Pipeline

struct DeletionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deletions",
        abstract: "Retry the GDPR deletions that failed and are still owed (job gdpr-deletions).",
        discussion: """
            A deletion is owed when the latest audit row of a user id's SHA-256 says failed and the user existed when it \
            was requested and still exists. Exit codes: 0 every owed deletion done (or none owed); 1 a deletion failed \
            again (it stays owed for the next run); 64 usage; 143 (SIGTERM) or 130 (SIGINT) stopped at a safe point.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var metrics: MetricsFileOptions
    @Flag(help: "Retry the failed deletions (required: the one mode of this command).") var retryFailed = false
    @Flag(help: "Print the summary as one JSON object.") var json = false

    func validate() throws {
        guard retryFailed else {
            throw ValidationError("give --retry-failed (to delete one user, use `pipeline delete-user --user ID`)")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.deletions")
            let store = try await store.open()
            let job = DeletionRetryJob(store: store, logger: logger)
            let summary = try await metrics.recording(job: DeletionRetryJob.jobName, failed: { $0.failed > 0 }) {
                try await JobLifecycle.run(logger: logger) { try await job.run() }
            }
            if json {
                try printJSON(summary)
            } else {
                print(
                    "deletion retry run \(summary.jobRunID): owed \(summary.owed), completed \(summary.completed), failed \(summary.failed)"
                )
            }
            if summary.failed > 0 {
                throw CLIError.failed("\(summary.failed) deletions failed again; they stay owed for the next run")
            }
        }
    }
}
