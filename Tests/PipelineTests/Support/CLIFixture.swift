import Foundation
import Store
import StoreSQLite

/// A generated inbox in two stages, and a place for databases, for tests that run the real `pipeline` executable.
///
/// `stage1` holds the users, the workouts and the earlier two thirds of each user's session files; `stage2` is the
/// whole data set, so a run over `stage2` after one over `stage1` is an incremental night.
final class CLIFixture: @unchecked Sendable {
    let binary: URL
    let root: URL
    let stage1: URL
    let stage2: URL
    private var counter = 0
    private let lock = NSLock()

    init(users: Int, days: Int, seed: UInt64) async throws {
        binary = try PipelineBinary.locate()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-cli-\(UUID().uuidString)")
        stage2 = root.appendingPathComponent("stage2")
        stage1 = root.appendingPathComponent("stage1")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let generated = try await run([
            "generate", "--users", "\(users)", "--days", "\(days)", "--seed", "\(seed)",
            "--end", "2026-11-20", "--fault-rate", "0.1", "--out", stage2.path,
        ])
        guard generated == ChildExit(status: 0, bySignal: false) else {
            throw SupportError("pipeline generate: \(generated)")
        }
        try FileManager.default.copyItem(at: stage2, to: stage1)
        let fm = FileManager.default
        let sessions = stage1.appendingPathComponent("sessions")
        for user in try fm.contentsOfDirectory(atPath: sessions.path) {
            let dir = sessions.appendingPathComponent(user)
            let files = try fm.contentsOfDirectory(atPath: dir.path).sorted()
            for name in files.dropFirst(files.count * 2 / 3) { try fm.removeItem(at: dir.appendingPathComponent(name)) }
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A fresh database path.
    func newDatabase(_ name: String) -> String {
        let n = lock.withLock {
            counter += 1; return counter
        }
        return root.appendingPathComponent("\(name)-\(n).sqlite").path
    }

    /// Output files for one child.
    func outputs() -> (stdout: URL, stderr: URL) {
        let n = lock.withLock {
            counter += 1; return counter
        }
        return (root.appendingPathComponent("out-\(n).txt"), root.appendingPathComponent("err-\(n).txt"))
    }

    static let environment = ["OPENBLAS_NUM_THREADS": "1", "PIPELINE_LOG_LEVEL": "info", "PIPELINE_LOG_FORMAT": "json"]

    func start(_ arguments: [String]) throws -> (ChildProcess, stdout: URL, stderr: URL) {
        let (out, err) = outputs()
        return (try ChildProcess(binary, arguments, environment: Self.environment, stdout: out, stderr: err), out, err)
    }

    func nightly(db: String, inbox: URL, asOf: String? = nil) throws -> (ChildProcess, stdout: URL, stderr: URL) {
        try start(["nightly", "--db", db, "--inbox", inbox.path, "--json"] + (asOf.map { ["--as-of", $0] } ?? []))
    }

    /// An instant for `nightly(asOf:)`, the day after the generated data ends (`--end 2026-11-20`), at noon UTC: an
    /// hour or more from midnight in every zone the generator uses, so a run of a few minutes stays on the same day
    /// everywhere.
    static let asOf = "2026-11-21T12:00:00Z"

    /// Runs `pipeline ARGS` to its end.
    func run(_ arguments: [String]) async throws -> ChildExit {
        let (child, _, _) = try start(arguments)
        return await child.wait()
    }

    /// What the comparison looks at: the content digest and the row counts of every table but `job_runs`.
    static func outcome(_ db: String) async throws -> (
        digest: String, counts: [String: Int], pending: Int, lastRun: JobRun?
    ) {
        let store = try SQLiteStore(path: db)
        var counts = try await store.tableCounts()
        counts["job_runs"] = nil
        return (
            try await store.contentDigest(), counts, try await store.usersPendingRecompute().count,
            try await store.lastJobRun("nightly")
        )
    }
}
