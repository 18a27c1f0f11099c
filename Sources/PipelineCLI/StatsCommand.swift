import ArgumentParser
import Foundation
import Pipeline
import Store

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print one user's stats as JSON (the apps' updated_stats names), recomputed now.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @Option(help: "User id.") var user: String?
    @Flag(help: "Print the stored figures without recomputing.") var stored = false
    @Flag(
        help:
            "List users whose app-reported stats (PATCH /users/me/stats) drift from the pipeline's, one JSON object per line."
    )
    var drift = false

    func validate() throws {
        guard (user == nil) == drift else { throw ValidationError("give --user ID, or --drift alone") }
    }

    func run() async throws {
        try await runReportingErrors {
            _ = logging.bootstrap(label: "pipeline.stats")
            let store = try await store.open()
            if drift {
                for d in try await StatsService(store: store).drifts() { try printLine(d) }
                return
            }
            let user = self.user!
            let id = try await UserOption.existing(user, in: store)
            if stored {
                guard let record = try await store.userStats(id) else {
                    throw CLIError.notFound("no stats stored for \(user)")
                }
                try printJSON(StatsOutput(userID: user, stats: record.stats, appReported: record.appReported))
            } else {
                let stats = try await StatsService(store: store).recompute(id)
                let record = try await store.userStats(id)
                try printJSON(StatsOutput(userID: user, stats: stats, appReported: record?.appReported))
            }
        }
    }
}

struct StatsOutput: Encodable {
    var userID: String
    var stats: UserStats
    var appReported: UserStats?
    func encode(to encoder: any Encoder) throws {
        try stats.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(userID, forKey: .userID)
        if let appReported { try c.encode(appReported, forKey: .app) }
    }
    enum Keys: String, CodingKey { case userID = "user_id", app = "app_reported" }
}
