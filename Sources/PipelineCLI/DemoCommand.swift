import ArgumentParser
import Foundation
import Pipeline
import Store
import StoreSQLite
import SyntheticData
import WorkoutMetrics

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Generate a data set and run the nightly job on an embedded database; print a readable summary.",
        discussion:
            "Everything goes into --dir (default ./demo-output): inbox/, pipeline.sqlite. A previous demo folder is replaced."
    )

    @Option(help: "Folder for the demo's inbox and database.") var dir = "demo-output"
    @Option(help: "Number of users.") var users = 12
    @Option(help: "Days of history, ending yesterday (UTC).") var days = 21
    @Option(help: "Random seed.") var seed: UInt64 = 7
    @OptionGroup var logging: LogOptions

    func run() async throws {
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.demo")
            let fm = FileManager.default
            let root = URL(fileURLWithPath: dir)
            let marker = root.appendingPathComponent(".pipeline-demo")
            if fm.fileExists(atPath: root.path) {
                let contents = (try? fm.contentsOfDirectory(atPath: root.path)) ?? []
                guard contents.isEmpty || fm.fileExists(atPath: marker.path) else {
                    throw CLIError.usage("\(dir) exists and is not a demo folder; choose another --dir")
                }
                try fm.removeItem(at: root)
            }
            try fm.createDirectory(at: root, withIntermediateDirectories: true)
            try Data("created by `pipeline demo`\n".utf8).write(to: marker)
            let inbox = root.appendingPathComponent("inbox")
            let dbPath = root.appendingPathComponent("pipeline.sqlite").path
            let clock = ContinuousClock()
            let t0 = clock.now
            let config = Generator.Configuration(
                users: users, days: days, seed: seed, endDate: GenerateCommand.resolveEnd("yesterday"))
            let manifest = try Generator(config).generate(into: inbox)
            let t1 = clock.now
            print(
                "1. generated \(manifest.users.count) users over \(days) days: "
                    + "\(manifest.users.reduce(0) { $0 + $1.sessions.count }) sessions with raw BLE recordings, "
                    + "\(manifest.users.reduce(0) { $0 + $1.workouts.count }) workout records, \(manifest.faults.count) injected faults "
                    + "(\(Self.seconds(t1 - t0)))")
            let store = try SQLiteStore(path: dbPath)
            let line = ProgressLine()
            let job = NightlyJob(
                store: store, logger: logger,
                progress: { phase, done, total in
                    line.show("[\(phase.rawValue)] \(done)/\(total)")
                })
            let summary = try await JobLifecycle.run(logger: logger) { try await job.run(inbox: inbox) }
            line.finish()
            let t2 = clock.now
            print("2. nightly run (\(Self.seconds(t2 - t1))):")
            print(Summary.text(summary))
            print("3. stats per user (workout_total_*, streaks) and today's training load (CTL / ATL / TSB):")
            print(
                "   user        zone                  count  energy kcal  distance km  hours  streak  longest  last          ctl    atl    tsb"
            )
            for id in try await store.userIDs() {
                guard let u = try await store.user(id), let s = try await store.userStats(id)?.stats else { continue }
                let load = try await LoadService(store: store).latest(
                    id, today: LoadService.today(for: u, at: Date().epochMillis))?.day
                print(
                    "   "
                        + [
                            id.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0),
                            u.timeZone.padding(toLength: 20, withPad: " ", startingAt: 0),
                            Self.right("\(s.workoutTotalCount)", 6),
                            Self.right(String(format: "%.0f", s.workoutTotalEnergy), 12),
                            Self.right(String(format: "%.1f", s.workoutTotalDistance / 1000), 12),
                            Self.right(String(format: "%.1f", s.workoutTotalDuration / 3600), 6),
                            Self.right("\(s.workoutStreak)", 7), Self.right("\(s.longestStreak)", 8),
                            "  " + (s.lastWorkoutDate?.iso ?? "-").padding(toLength: 10, withPad: " ", startingAt: 0),
                            load.map {
                                Self.right(String(format: "%.1f", $0.ctl), 6)
                                    + Self.right(String(format: "%.1f", $0.atl), 7)
                                    + Self.right(String(format: "%.1f", $0.tsb), 7)
                            } ?? "     -",
                        ].joined(separator: " "))
            }
            let again = try await NightlyJob(store: store, logger: logger).run(inbox: inbox)
            print(
                "4. second nightly run over the same inbox: \(again.ingest.batches.duplicates) batch files recognised as already processed, "
                    + "\(again.ingest.sessions.stored) new sessions, \(again.sessionsAnalyzed) analysed (nothing changes)"
            )
            let me = CommandLine.arguments.first ?? "pipeline"
            print("\nTry: \(me) stats --db \(dbPath) --user \(manifest.users.first?.userID ?? "user-0001")")
            print("     \(me) plan --db \(dbPath) --user \(manifest.users.first?.userID ?? "user-0001") --week 1")
            print("     \(me) quarantine list --db \(dbPath)")
        }
    }

    static func seconds(_ d: Duration) -> String {
        String(format: "%.1f s", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
    static func right(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
