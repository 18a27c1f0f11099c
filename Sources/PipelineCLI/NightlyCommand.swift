import ArgumentParser
import Foundation
import Ingest
import Pipeline
import Store

struct NightlyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly",
        abstract: "Ingest the inbox, analyse new sessions, recompute the stats of the users they touch.",
        discussion: """
            Incremental: the run takes what is new since the watermark of the last successful run (the inbox files the \
            ledger does not hold, sessions without metrics, users marked for recompute) and records the watermark it \
            reached in job_runs; with no earlier successful run it does a full pass. Idempotent and crash-safe: a run killed \
            at any point is finished by the next one. Exit codes: 0 success (also when records were rejected: they are in \
            quarantine); 1 the run failed; 64 usage; 66 the inbox does not exist; 143 (SIGTERM) or 130 (SIGINT) stopped at a \
            safe point and recorded as interrupted.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var metrics: MetricsFileOptions
    @Option(help: "Inbox directory (users/, sessions/<user>/, workouts/).") var inbox: String?
    @Flag(help: "Print the summary as one JSON object.") var json = false
    @Option(
        help: ArgumentHelp(
            "Ingest groups handed to the writer at once (1–8; default 4 with parallel commits, else 2).",
            discussion: "A tuning knob for benchmarks: results are the same for every value.", valueName: "n"))
    var groupsInFlight: Int?
    @Option(
        help: ArgumentHelp(
            "Commit groups of different users side by side: true or false (default: true on PostgreSQL, false on SQLite).",
            valueName: "bool"))
    var parallelCommits: Bool?
    @Option(
        help: ArgumentHelp(
            "Run as of this instant (RFC 3339, e.g. 2026-11-21T12:00:00Z): the run's clock starts there, not now.",
            discussion: """
                Stats, training load and plans count from each user's today, so two runs of the same inbox store the \
                same content only when they run on the same days. With --as-of they do, whenever they run (to \
                reproduce a run or compare two builds). The job run's times are on the same clock.
                """,
            valueName: "instant"))
    var asOf: String?

    func validate() throws {
        if let groupsInFlight, !(1...8).contains(groupsInFlight) {
            throw ValidationError("--groups-in-flight must be between 1 and 8, not \(groupsInFlight)")
        }
        if let asOf, RFC3339.parseMillis(asOf) == nil {
            throw ValidationError("--as-of must be an RFC 3339 instant such as 2026-11-21T12:00:00Z, not \(asOf)")
        }
    }

    /// The run's clock: the system clock, or one that starts at `--as-of` and runs at the same rate.
    var clock: PipelineClock {
        asOf.flatMap(RFC3339.parseMillis).map(PipelineClock.asOf) ?? .system
    }

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.nightly")
            if let inbox, !FileManager.default.fileExists(atPath: inbox) {
                throw CLIError.notFound("inbox not found: \(inbox)")
            }
            let store = try await store.open()
            let line = ProgressLine()
            var tuned = NightlyJob(
                store: store, logger: logger, clock: clock,
                progress: { phase, done, total in
                    line.show("[\(phase.rawValue)] \(done)/\(total)")
                })
            tuned.groupsInFlight = groupsInFlight
            tuned.parallelCommits = parallelCommits
            let job = tuned
            let inboxURL = inbox.map { URL(fileURLWithPath: $0) }
            let summary = try await metrics.recording(job: NightlyJob.jobName) {
                try await JobLifecycle.run(logger: logger) { try await job.run(inbox: inboxURL) }
            }
            line.finish()
            if json { try printJSON(summary) } else { print(Summary.text(summary)) }
        }
    }
}

enum Summary {
    static func counts(_ name: String, _ c: IngestCounts) -> String {
        var s =
            "  \(name.padding(toLength: 9, withPad: " ", startingAt: 0)) received \(c.received) = stored \(c.stored) + duplicates \(c.duplicates)"
        if c.stale > 0 { s += " + stale \(c.stale)" }
        s += " + quarantined \(c.quarantined)"
        if c.droppedDeletedUser > 0 { s += " + dropped (deleted user) \(c.droppedDeletedUser)" }
        s += c.addsUp ? "  ✓" : "  ✗ DOES NOT ADD UP"
        if !c.quarantinedByReason.isEmpty {
            s +=
                "\n"
                + c.quarantinedByReason.sorted { $0.key < $1.key }.map { "      \($0.key.rawValue): \($0.value)" }
                .joined(separator: "\n")
        }
        return s
    }

    static func text(_ s: NightlySummary) -> String {
        var lines = ["nightly run \(s.jobRunID): \(s.status.rawValue) (\(s.startedAt) → \(s.finishedAt))"]
        lines.append(counts("batches", s.ingest.batches))
        lines.append(counts("sessions", s.ingest.sessions))
        lines.append(counts("workouts", s.ingest.workouts))
        lines.append(counts("users", s.ingest.users))
        if s.ingest.files.received > 0 {
            lines.append(counts("files", s.ingest.files))
            if s.ingest.damagedFiles > 0 {
                lines.append("  workout files read in part (imported, flagged): \(s.ingest.damagedFiles)")
            }
        }
        if s.ingest.truncatedBlobs + s.ingest.corruptedBlobs > 0 {
            lines.append(
                "  kept with a damaged recording: \(s.ingest.truncatedBlobs) truncated, \(s.ingest.corruptedBlobs) corrupted (flagged)"
            )
        }
        lines.append("  sessions analysed: \(s.sessionsAnalyzed); users' stats recomputed: \(s.usersRecomputed)")
        if s.sessionsUnreadable > 0 {
            lines.append(
                "  sessions skipped, stored recording unreadable (metrics left as they were; repair or delete the row): "
                    + "\(s.sessionsUnreadable)")
            for u in s.unreadableSessions {
                lines.append("      user \(u.userID) session \(u.sessionID): \(u.reason)")
            }
        }
        lines.append(
            "  workout records measured: \(s.workoutsAnalyzed); training-load days written: \(s.trainingLoadDays)")
        if !s.sessionFlags.isEmpty {
            lines.append(
                "  session flags: "
                    + s.sessionFlags.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !s.plans.isEmpty {
            lines.append(
                "  plans: " + s.plans.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            )
        }
        lines.append("  quarantine holds \(s.quarantineTotal) records in all (pipeline quarantine list)")
        return lines.joined(separator: "\n")
    }
}
