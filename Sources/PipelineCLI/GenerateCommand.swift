import ArgumentParser
import Foundation
import SyntheticData

struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a seeded synthetic data set: users, sessions with raw BLE blobs, workout records, faults.",
        discussion:
            "The same options give the same bytes. The output directory is an inbox `nightly` and `ingest` read; manifest.json says what was generated."
    )

    @Option(help: "Number of users.") var users = 20
    @Option(help: "Days of history, ending at --end.") var days = 28
    @Option(help: "Random seed.") var seed: UInt64 = 42
    @Option(help: "Last local date of the data (YYYY-MM-DD), or 'today' / 'yesterday' (UTC).") var end = "2026-11-20"
    @Option(name: .customLong("fault-rate"), help: "Share of sessions with an injected fault (0 to 1).") var faultRate =
        0.06
    @Option(
        help:
            "Recording shape: 'mixed' (bike, rower, treadmill and runners, 15–75 min) or 'one-hour-1hz' (indoor bike with a heart-rate strap, one hour a session)."
    ) var shape = "mixed"
    @Option(help: "Output directory (created if needed).") var out: String

    func validate() throws {
        guard users >= 0, users <= 100_000 else { throw ValidationError("--users must be between 0 and 100000") }
        guard days >= 1, days <= 3660 else { throw ValidationError("--days must be between 1 and 3660") }
        guard (0...1).contains(faultRate) else { throw ValidationError("--fault-rate must be between 0 and 1") }
        guard Generator.Shape(rawValue: shape) != nil else {
            let names = Generator.Shape.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--shape must be one of \(names)")
        }
    }

    static func resolveEnd(_ end: String) -> String {
        guard end == "today" || end == "yesterday" else { return end }
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        f.locale = Locale(identifier: "en_US_POSIX")
        return f.string(from: Date().addingTimeInterval(end == "yesterday" ? -86_400 : 0))
    }

    func run() async throws {
        try await runReportingErrors {
            let config = Generator.Configuration(
                users: users, days: days, seed: seed, endDate: Self.resolveEnd(end), faultRate: faultRate,
                shape: Generator.Shape(rawValue: shape) ?? .mixed)
            let line = ProgressLine()
            let manifest = try Generator(config).generate(into: URL(fileURLWithPath: out)) { done, total in
                // Every 1 % of the users, and the last one (a terminal redraw per user would cost more than a user).
                if done == total || done % max(1, total / 100) == 0 { line.show("[generate] users \(done)/\(total)") }
            }
            line.finish()
            let sessions = manifest.users.reduce(0) { $0 + $1.sessions.count }
            let workouts = manifest.users.reduce(0) { $0 + $1.workouts.count }
            print(
                "generated \(manifest.users.count) users, \(sessions) valid sessions, \(workouts) workouts, \(manifest.faults.count) injected faults in \(manifest.files) files under \(out)"
            )
        }
    }
}
