import ArgumentParser
import Foundation
import Pipeline
import Store
import WorkoutMetrics

struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract:
            "Print metrics as JSON: a stored session (--session), a stored workout record (--workout) or any 1 Hz stream document (--stream)."
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "A stored session id (with --user).") var session: String?
    @Option(help: "A stored workout record id (with --user); deleted records have none.") var workout: String?
    @Option(help: "The session's or workout's user id.") var user: String?
    @Option(help: "A stream document (docs/metrics.md), or - for stdin.") var stream: String?

    func validate() throws {
        guard [session, workout, stream].compactMap({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --session, --workout or --stream")
        }
        if session != nil || workout != nil, user == nil {
            throw ValidationError("--session and --workout need --user")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            if let stream {
                let data: Data
                if stream == "-" {
                    data = FileHandle.standardInput.readDataToEndOfFile()
                } else {
                    guard FileManager.default.fileExists(atPath: stream) else {
                        throw CLIError.notFound("no such file: \(stream)")
                    }
                    data = try Data(contentsOf: URL(fileURLWithPath: stream))
                }
                let parsed: (Sport, Athlete, Stream1Hz)
                // The error's description names the document, its code and the field at fault.
                do { parsed = try StreamDocument.parse(data) } catch { throw CLIError.usage("\(error)") }
                try printJSON(SessionMetricsCalculator.compute(sport: parsed.0, athlete: parsed.1, stream: parsed.2))
                return
            }
            let store = try await store.open()
            if let workout {
                guard let u = try await store.user(UserID(user!)),
                    let record = try await store.workouts(user: u.id, includeDeleted: false).first(where: {
                        $0.workoutID.rawValue == workout
                    })
                else {
                    throw CLIError.notFound("no such workout for this user")
                }
                print(WorkoutAnalyzer().analyze(record, user: u, now: Date().epochMillis).metricsJSON)
                return
            }
            guard let id = SessionID(uuidString: session!), let u = try await store.user(UserID(user!)),
                let stored = try await store.session(user: UserID(user!), id: id)
            else {
                throw CLIError.notFound("no such session for this user")
            }
            let record = SessionAnalyzer().analyze(stored, user: u, now: Date().epochMillis)
            print(record.metricsJSON)
        }
    }
}
