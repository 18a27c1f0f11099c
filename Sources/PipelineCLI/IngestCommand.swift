import ArgumentParser
import Foundation
import Ingest
import Pipeline

struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Ingest an inbox directory only (no analysis), printing where every record ended.",
        discussion: "Exits 0 when records were rejected (they are in quarantine); 1 when the run itself failed.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @Option(help: "Inbox directory (users/, sessions/<user>/, workouts/).") var inbox: String
    @Flag(help: "Print the report as one JSON object.") var json = false

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.ingest")
            guard FileManager.default.fileExists(atPath: inbox) else { throw CLIError.notFound("inbox not found: \(inbox)") }
            let store = try store.open()
            let line = ProgressLine()
            let report = try await InboxIngestor(store: store, logger: logger)
                .ingest(inbox: URL(fileURLWithPath: inbox)) { done, total in line.show("[ingest] \(done)/\(total) files") }
            line.finish()
            if json { try printJSON(report) } else {
                print(["ingest:", Summary.counts("batches", report.batches), Summary.counts("sessions", report.sessions),
                       Summary.counts("workouts", report.workouts), Summary.counts("users", report.users)].joined(separator: "\n"))
            }
        }
    }
}
