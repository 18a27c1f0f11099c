import Foundation
import Testing

/// `jobs/run-job.sh` never lets two runs of one job overlap: the second exits 75 (EX_TEMPFAIL) at once and logs that
/// it skipped; other jobs are not held up; the lock goes with the first run.
@Suite struct RunJobLockTests {
    static let script = JobDefinitionTests.jobsDirectory.appendingPathComponent("run-job.sh").path

    /// Runs `run-job.sh NAME -- ARGS…` with the lock and log directories under `dir`.
    static func start(_ name: String, _ args: [String], dir: URL) throws -> ChildProcess {
        let environment = [
            "PIPELINE_LOCK_DIR": dir.appendingPathComponent("lock").path,
            "PIPELINE_LOG_DIR": dir.appendingPathComponent("log").path,
        ]
        return try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), [script, name, "--"] + args, environment: environment, stdout: .null,
            stderr: .null)
    }

    static func run(_ name: String, _ args: [String], dir: URL) throws -> Int32 {
        try start(name, args, dir: dir).waitBlocking().status
    }

    @Test func aSecondRunOfTheSameJobIsSkippedWithExit75() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("run-job-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let started = dir.appendingPathComponent("started").path, release = dir.appendingPathComponent("release").path
        // The first run holds the lock until the test lets it go.
        let first = try Self.start(
            "nightly", ["/bin/bash", "-c", "touch '\(started)'; while [ ! -e '\(release)' ]; do sleep 0.05; done"],
            dir: dir)
        var waited = 0
        while !FileManager.default.fileExists(atPath: started), waited < 600 {
            try await Task.sleep(for: .milliseconds(50)); waited += 1
        }
        #expect(FileManager.default.fileExists(atPath: started))

        #expect(try Self.run("nightly", ["/bin/true"], dir: dir) == 75)
        // Another job has its own lock.
        #expect(try Self.run("ingest-hourly", ["/bin/true"], dir: dir) == 0)

        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(await first.wait() == ChildExit(status: 0, bySignal: false))
        // The lock went with the first run; the command's own exit code comes through.
        #expect(try Self.run("nightly", ["/bin/bash", "-c", "exit 3"], dir: dir) == 3)

        let log = try String(contentsOf: dir.appendingPathComponent("log/nightly.log"), encoding: .utf8)
        #expect(log.components(separatedBy: "previous run still running; skipped").count == 2)
        #expect(log.components(separatedBy: "nightly: exit 0").count == 2)
        #expect(log.components(separatedBy: "nightly: exit 3").count == 2)
    }

    @Test func usageErrorsExit64() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("run-job-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.run("nightly", [], dir: dir) == 64)
    }
}
