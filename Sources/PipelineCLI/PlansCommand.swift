import ArgumentParser
import Foundation
import Pipeline

struct PlansCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plans",
        abstract:
            "Generate or adapt the plans of the runners whose weekly slot (Sunday 18:00 in their zone) passed since the last run.",
        discussion: """
            Run hourly (job plans-weekly). Each user's slot is computed in their own IANA zone; a user whose slot passed \
            since the last successful run's watermark is refreshed once, however many slots were missed; the first run \
            looks back one week. Exit codes: 0 success; 1 the run failed; 64 usage; 143 (SIGTERM) or 130 (SIGINT) stopped \
            at a safe point (the next run covers the same window again).
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var metrics: MetricsFileOptions
    @Flag(help: "Refresh the plans that are due (required: the one mode of this command).") var due = false
    @Option(help: "The weekly slot as a crontab schedule in each user's zone.") var slot = "0 18 * * 0"
    @Flag(help: "Print the summary as one JSON object.") var json = false

    func validate() throws {
        guard due else {
            throw ValidationError("give --due (to refresh one user's plan, use `pipeline plan --user ID --refresh`)")
        }
        do { _ = try CronSchedule(slot) } catch { throw ValidationError("--slot: \(error)") }
    }

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.plans")
            let store = try await store.open()
            let line = ProgressLine()
            let job = WeeklyPlanJob(
                store: store, logger: logger, slot: try CronSchedule(slot),
                progress: { done, total in
                    line.show("[plans] \(done)/\(total)")
                })
            let summary = try await metrics.recording(job: WeeklyPlanJob.jobName) {
                try await JobLifecycle.run(logger: logger) { try await job.run() }
            }
            line.finish()
            if json { try printJSON(summary); return }
            print(
                "weekly plans run \(summary.jobRunID): \(summary.status.rawValue), slots in (\(summary.since), \(summary.upTo)]"
            )
            print(
                "  users due: \(summary.usersDue)"
                    + (summary.plans.isEmpty
                        ? ""
                        : "; plans: "
                            + summary.plans.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                                separator: ", ")))
        }
    }
}
