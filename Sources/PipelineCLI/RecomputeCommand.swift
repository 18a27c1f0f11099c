import ArgumentParser
import Foundation
import Pipeline
import Store

/// `pipeline recompute --user ID`: one user from scratch, deduplicated across processes.
struct RecomputeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recompute",
        abstract:
            "Recompute one user from scratch: every session and workout record measured again, stats, training load, plan refresh.",
        discussion: """
            Holds the user's lock while it works (a PostgreSQL advisory lock on a 64-bit hash of the user id; on SQLite a \
            byte-range lock on <db>-userlocks), the lock that nightly workers and the API's recompute take too: two \
            recomputations of one user never run at once, on any process or machine. When the user is already being \
            recomputed, it exits 75 at once without doing anything (the running one recomputes from the same data), or \
            with --wait waits for it and then recomputes. Clears the user's pending-recompute mark. Exit codes: 0 \
            recomputed (also when sessions whose stored recording cannot be read were \
            skipped: each is logged and listed, its metrics left as they were); 1 failed; 64 usage; 66 unknown user; 75 skipped: already running elsewhere.
            """)

    /// "Skipped: already running" (EX_TEMPFAIL, as `jobs/run-job.sh` uses for an overlapping job).
    static let skippedExitCode: Int32 = 75

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var user: UserOption
    @Flag(help: "Wait for a recomputation of this user running elsewhere, then recompute, instead of exiting 75.")
    var wait = false
    @Flag(help: "Print the outcome as one JSON object.") var json = false

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.recompute")
            let store = try await store.open()
            let id = try await user.existing(in: store)
            let pipeline = UserPipeline(store: store, logger: logger)
            let work: @Sendable () async throws -> UserPipeline.Outcome? = {
                try await pipeline.run(id, force: true, marked: true, reanalyse: true)
            }
            let result =
                wait ? .some(try await UserLock.waiting(store, id, work)) : try await UserLock.ifFree(store, id, work)
            guard let result else {
                logger.notice("recompute skipped: already running elsewhere")
                FileHandle.standardError.write(Data("skipped: a recomputation of this user is already running\n".utf8))
                throw ExitCode(Self.skippedExitCode)
            }
            guard let outcome = result else { throw CLIError.notFound("unknown user: \(id.rawValue)") }
            // always refreshed here (`refreshPlan` defaults to true)
            let plan = outcome.plan?.rawValue ?? "not refreshed"
            let stats = try await store.userStats(id)
            logger.info(
                "user recomputed",
                metadata: [
                    "sessions_analysed": "\(outcome.sessionsAnalysed)",
                    "sessions_unreadable": "\(outcome.sessionsUnreadable)", "plan": "\(plan)",
                ])
            if json {
                try printJSON(RecomputeView(outcome: outcome, stats: stats?.stats))
            } else {
                print("recomputed: \(outcome.sessionsAnalysed) sessions analysed, stats stored, plan \(plan)")
                for skipped in outcome.unreadableSessions {
                    print("  session \(skipped.sessionID) skipped (metrics left as they were): \(skipped.reason)")
                }
            }
        }
    }
}

struct RecomputeView: Encodable {
    var outcome: UserPipeline.Outcome
    var stats: UserStats?
    func encode(to encoder: any Encoder) throws {
        try outcome.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(stats, forKey: .stats)
    }
    enum Key: String, CodingKey { case stats }
}
