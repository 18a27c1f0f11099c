import ArgumentParser
import Foundation
import Pipeline
import PipelineVersion
import WorkoutMetrics

@main
struct PipelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Training-plan and workout analytics pipeline: ingest, decode, aggregate, plan.",
        discussion: """
            Exit codes: 0 success (also when individual records were rejected: they are in quarantine); \
            1 the run itself failed; 2 `status`: the checked job's last run failed or is too old; 64 usage error; 65 an input unusable as a whole (a rejected blob in `decode`); \
            66 an input file, directory or user does not exist; 143/130 a job command (nightly, worker, ingest, plans, deletions, demo) stopped \
            by SIGTERM/SIGINT at a safe point; 75 skipped, the same work already runs elsewhere (`recompute`, jobs/run-job.sh).
            The database defaults to $PIPELINE_DB, else ./pipeline.sqlite.
            """,
        version: PipelineVersion.description,
        subcommands: [
            DemoCommand.self, GenerateCommand.self, NightlyCommand.self, IngestCommand.self, StatsCommand.self,
            LoadCommand.self, PlanCommand.self,
            QuarantineCommand.self, DecodeCommand.self, MetricsCommand.self, MigrateCommand.self, ServeCommand.self,
            DeleteUserCommand.self,
            JobsCommand.self, PlansCommand.self, DeletionsCommand.self, ImportCommand.self,
            WorkerCommand.self, RecomputeCommand.self, DigestCommand.self, StatusCommand.self, ReportCommand.self,
            VersionCommand.self,
        ]
    )

    /// Tunes the allocator (`MallocTuning`) and puts OpenBLAS on the calling thread with its idle workers stopped
    /// (`BLASConfiguration.singleThreaded`: every command, the server too, runs its own work in parallel tasks)
    /// before parsing and running the command.
    static func main() async {
        MallocTuning.apply()
        BLASConfiguration.singleThreaded()
        await main(nil)
    }
}

/// `pipeline version`: the same line as `pipeline --version`.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the version and the git revision this binary was built from (as --version does).")

    func run() {
        print(PipelineVersion.description)
    }
}
