import ArgumentParser
import Foundation
import Ingest
import Pipeline

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List the scheduled jobs (as installed from jobs/crontab or jobs/systemd) and their next runs.",
        discussion: "Times are UTC, the server's zone. Exit codes: 0 success; 64 usage.")

    @Option(help: "Next runs to show per job.") var count = 3
    @Option(help: "List the runs after this instant (RFC 3339), instead of now.") var after: String?
    @Flag(help: "Print one JSON object.") var json = false

    struct Listing: Codable {
        var name: String
        var schedule: String
        var command: [String]
        var summary: String
        var nextRuns: [String]
        enum CodingKeys: String, CodingKey { case name, schedule, command, summary, nextRuns = "next_runs" }
    }

    func validate() throws {
        guard (1...100).contains(count) else { throw ValidationError("--count must be between 1 and 100") }
        if let after, RFC3339.parseMillis(after) == nil {
            throw ValidationError("--after must be an RFC 3339 instant, e.g. 2026-11-22T00:00:00Z")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let from = after.flatMap(RFC3339.parseMillis).map { Date(epochMillis: $0) } ?? Date()
            let listings = JobDefinition.all.map { job in
                Listing(
                    name: job.name.rawValue, schedule: job.schedule.description, command: job.commandLine,
                    summary: job.summary,
                    nextRuns: job.nextRuns(after: from, count: count).map { RFC3339.format(millis: $0.epochMillis) })
            }
            if json {
                try printJSON(["jobs": listings])
                return
            }
            for job in listings {
                print("\(job.name)  \(job.schedule)  \(job.command.joined(separator: " "))")
                print("  \(job.summary)")
                print("  next: \(job.nextRuns.joined(separator: ", "))")
            }
        }
    }
}
