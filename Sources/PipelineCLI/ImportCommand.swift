import ArgumentParser
import Foundation
import Ingest
import Pipeline
import Store

/// `pipeline import --user ID FILE…`: a user's workout files into the store (docs/workout-files.md).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import workout files of one user: Garmin/Wahoo/Zwift FIT, TCX, GPX, an Apple Health export (export.zip or export.xml).",
        discussion: """
            Formats are recognised by content, not by name (.gz is inflated). Every activity becomes a workout record with \
            its samples, measured by the next nightly run (or at once with --recompute); the same file imported again is a \
            duplicate. A file that cannot be read is kept in quarantine with its reason code (`pipeline quarantine list`); \
            one read in part gives what could be read and is flagged. The other files go on. Exit codes: 0 every file \
            imported (or already imported); 2 some file quarantined or dropped (the others were imported); 1 failed; 64 \
            usage; 66 unknown user or a file that does not exist.
            """)

    /// "Done, but some input was refused": scripts can tell it from a failure.
    static let someRefusedExitCode: Int32 = 2

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @Option(help: "The user the files belong to.") var user: String
    @Flag(help: "Recompute the user afterwards (metrics, stats, training load, plan), as `pipeline recompute` does.")
    var recompute = false
    @Flag(help: "Print the report as one JSON object.") var json = false
    @Argument(help: "Workout files.") var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one file") }
        guard UserID.isValid(user) else { throw ValidationError("not a valid user id: \(user)") }
    }

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.import")
            for file in files where !FileManager.default.fileExists(atPath: file) {
                throw CLIError.notFound("no such file: \(file)")
            }
            let store = try await store.open()
            let id = try await UserOption.existing(user, in: store)
            let processor = RecordProcessor(store: store)
            let line = ProgressLine()
            var report = IngestReport()
            let urls = files.map { URL(fileURLWithPath: $0) }
            let inputs = urls.map { url in
                WorkoutFileInput(
                    user: id, sourceKey: "import/\(url.lastPathComponent)", fileName: url.lastPathComponent,
                    contents: .file(url))
            }
            // Each file is read and validated while the one before it is written (`importWorkoutFiles`).
            try await processor.importWorkoutFiles(inputs, source: "import", receivedAt: { Date().epochMillis }) {
                n, one in
                let url = urls[n]
                logger.info(
                    "file imported",
                    metadata: [
                        "file": "\(url.lastPathComponent)", "activities_stored": "\(one.workouts.stored)",
                        "quarantined": "\(one.files.quarantined + one.workouts.quarantined)",
                        "duplicate": "\(one.files.duplicates > 0)",
                    ])
                report = report + one
                line.show("[import] \(n + 1)/\(files.count) files")
            }
            line.finish()
            var recomputed: UserPipeline.Outcome?
            if recompute, !report.touchedUsers.isEmpty {
                recomputed = try await UserLock.waiting(store, id) {
                    try await UserPipeline(store: store).run(id, force: true, marked: true, reanalyse: true)
                }
            }
            if json {
                try printJSON(ImportView(report: report, recomputed: recomputed != nil))
            } else {
                var lines = [
                    "import:", Summary.counts("files", report.files), Summary.counts("workouts", report.workouts),
                    "  damaged files (read in part, flagged): \(report.damagedFiles)",
                    "  flagged files (imported, partial or with disagreeing dates): \(report.flaggedFiles)",
                ]
                // What each flagged activity is missing (activities counted from 1 in the file).
                for f in report.importFlags {
                    lines.append(
                        "  flag \(f.code): \(f.file)" + (f.activity.map { " activity \($0 + 1)" } ?? "")
                            + ": \(f.detail)")
                }
                lines.append(
                    recomputed != nil ? "  user recomputed" : "  measured by the next nightly run (or use --recompute)")
                print(lines.joined(separator: "\n"))
            }
            if report.files.quarantined + report.files.droppedDeletedUser + report.workouts.quarantined > 0 {
                throw ExitCode(Self.someRefusedExitCode)
            }
        }
    }
}

struct ImportView: Encodable {
    var report: IngestReport
    var recomputed: Bool
    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(recomputed, forKey: .recomputed)
        // Each flag of the files imported (docs/workout-files.md): `partial_import` with what was missing,
        // `dates_disagree`.
        try container.encode(report.importFlags, forKey: .flags)
    }
    enum Key: String, CodingKey { case recomputed, flags }
}
