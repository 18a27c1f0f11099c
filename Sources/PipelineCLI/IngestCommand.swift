import ArgumentParser
import Foundation
import Ingest
import Pipeline

struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Ingest an inbox directory only (no analysis), printing where every record ended.",
        discussion: """
            Every file or page is applied in one transaction and recorded in the ledger, so a run killed at any point is \
            finished by the next one. Exit codes: 0 success (also when records were rejected: they are in quarantine); 1 the \
            run failed; 64 usage; 66 the inbox does not exist; 143 (SIGTERM) or 130 (SIGINT) stopped at a safe point.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var metrics: MetricsFileOptions
    @Option(help: "Inbox directory (users/, sessions/<user>/, workouts/, files/<user>/).") var inbox: String?
    @Option(
        help:
            "Upstream workout API to pull from, page by page, since the last watermark (bearer token from $PIPELINE_UPSTREAM_TOKEN)."
    )
    var upstream: String?
    @Option(help: "Records per upstream page.") var pageSize = 100
    @Flag(help: "Print the report as one JSON object.") var json = false

    func validate() throws {
        guard (inbox == nil) != (upstream == nil) else {
            throw ValidationError("give exactly one of --inbox or --upstream")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.ingest")
            let report: IngestReport = try await metrics.recording(job: upstream == nil ? "ingest" : "upstream") {
                let store = try await store.open()
                let report: IngestReport
                if let upstream {
                    guard let url = URL(string: upstream), url.scheme == "http" || url.scheme == "https" else {
                        throw CLIError.usage("--upstream must be an http(s) URL")
                    }
                    var config = UpstreamPuller.Configuration(baseURL: url)
                    config.pageSize = pageSize
                    config.bearerToken = ProcessInfo.processInfo.environment["PIPELINE_UPSTREAM_TOKEN"]
                    let puller = UpstreamPuller(configuration: config, store: store, logger: logger)
                    report = try await JobLifecycle.run(logger: logger) { try await puller.pull() }
                } else {
                    let inbox = inbox!
                    guard FileManager.default.fileExists(atPath: inbox) else {
                        throw CLIError.notFound("inbox not found: \(inbox)")
                    }
                    let line = ProgressLine()
                    let ingestor = InboxIngestor(store: store, logger: logger)
                    report = try await JobLifecycle.run(logger: logger) {
                        try await ingestor.ingest(inbox: URL(fileURLWithPath: inbox)) { done, total in
                            line.show("[ingest] \(done)/\(total) files")
                        }
                    }
                    line.finish()
                }
                return report
            }
            if json {
                try printJSON(report)
            } else {
                print(
                    [
                        "ingest:", Summary.counts("batches", report.batches),
                        Summary.counts("sessions", report.sessions),
                        Summary.counts("workouts", report.workouts), Summary.counts("users", report.users),
                        Summary.counts("files", report.files),
                    ].joined(separator: "\n"))
            }
        }
    }
}
