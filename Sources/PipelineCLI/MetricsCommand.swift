import ArgumentParser
import Foundation
import Pipeline
import Store
import WorkoutMetrics

struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Print a session's metrics as JSON: a stored session (--session) or any 1 Hz stream document (--stream).")

    @OptionGroup var store: StoreOptions
    @Option(help: "A stored session id (with --user).") var session: String?
    @Option(help: "The session's user id.") var user: String?
    @Option(help: "A stream document (shared/specs/metrics.md), or - for stdin.") var stream: String?

    func validate() throws {
        guard (session == nil) != (stream == nil) else { throw ValidationError("give exactly one of --session or --stream") }
        if session != nil, user == nil { throw ValidationError("--session needs --user") }
    }

    func run() async throws {
        try await runReportingErrors {
            if let stream {
                let data: Data
                if stream == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else {
                    guard FileManager.default.fileExists(atPath: stream) else { throw CLIError.notFound("no such file: \(stream)") }
                    data = try Data(contentsOf: URL(fileURLWithPath: stream))
                }
                let parsed: (Sport, Athlete, Stream1Hz)
                do { parsed = try StreamDocument.parse(data) } catch { throw CLIError.usage("stream document: \(error)") }
                try printJSON(SessionMetricsCalculator.compute(sport: parsed.0, athlete: parsed.1, stream: parsed.2))
                return
            }
            let store = try await store.open()
            guard let id = SessionID(uuidString: session!), let u = try await store.user(UserID(user!)),
                  let stored = try await store.session(user: UserID(user!), id: id) else {
                throw CLIError.notFound("no such session for this user")
            }
            let record = SessionAnalyzer().analyze(stored, user: u, now: Date().epochMillis)
            print(record.metricsJSON)
        }
    }
}
