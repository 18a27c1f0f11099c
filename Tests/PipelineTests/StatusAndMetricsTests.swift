import Foundation
import Ingest
import Store
import StoreSQLite
import Testing

@testable import Pipeline

/// `pipeline status` after a SIGKILLed run, the recording of abandoned runs by the next run, and `--metrics-file`.
@Suite(.serialized) struct StatusAndMetricsTests {
    /// Runs `pipeline ARGS`; returns its exit and stdout.
    static func output(_ fx: CLIFixture, _ arguments: [String]) async throws -> (ChildExit, Data) {
        let (child, out, _) = try fx.start(arguments)
        let exit = await child.wait()
        return (exit, try Data(contentsOf: out))
    }

    /// Starts a nightly run and SIGKILLs it once it has recorded its start; returns the killed child's pid, or nil
    /// when the run ended before it could be seen running, or ended (recorded its outcome) before the signal came.
    static func killMidRun(_ fx: CLIFixture, db: String) async throws -> Int32? {
        let (child, _, _) = try fx.nightly(db: db, inbox: fx.stage2)
        let pid = child.processIdentifier
        let deadline = ContinuousClock.now + .seconds(60)
        while child.isRunning, ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: db), let store = try? SQLiteStore(path: db),
                let running = try? await store.runningJobRuns(), running.contains(where: { $0.owner?.pid == pid })
            {
                child.send(SIGKILL)
                // A read that was slow under load can report the run as running after it ended, and a run can record
                // its outcome between that read and the signal, which then only ends the exiting process. Either way
                // the run was not killed mid-way: try again on a fresh store.
                guard await child.wait().bySignal else { return nil }
                let stillRunning = try await SQLiteStore(path: db).runningJobRuns().contains { $0.owner?.pid == pid }
                return stillRunning ? pid : nil
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        _ = await child.wait()
        return nil
    }

    @Test func statusShowsAKilledRunAsAbandonedAndTheNextRunRecordsIt() async throws {
        let fx = try await CLIFixture(users: 6, days: 30, seed: 16_016)
        var db = fx.newDatabase("killed")
        var killedPID = try await Self.killMidRun(fx, db: db)
        for _ in 0..<4 where killedPID == nil {
            db = fx.newDatabase("killed")
            killedPID = try await Self.killMidRun(fx, db: db)
        }
        let pid = try #require(killedPID, "no run could be killed while running")

        // In the store the run is still `running`; status shows it abandoned (not yet recorded) and fails the check.
        #expect(try await SQLiteStore(path: db).runningJobRuns().map(\.owner?.pid) == [pid])
        let (exit1, json1) = try await Self.output(fx, ["status", "--db", db, "--json"])
        #expect(exit1 == ChildExit(status: 2, bySignal: false))
        let status1 = try JSONDecoder().decode(OperatorStatus.self, from: json1)
        let nightly1 = try #require(status1.jobs.first { $0.name == "nightly" })
        #expect(nightly1.runs.count == 1)
        #expect(nightly1.runs[0].status == .abandoned)
        #expect(nightly1.runs[0].abandonedNotYetRecorded)
        #expect(nightly1.runs[0].liveness == .dead)
        #expect(nightly1.runs[0].pid == pid)
        #expect(nightly1.runs[0].host == ProcessIdentity.current.host)
        #expect(nightly1.runs[0].endedAt == nil && nightly1.runs[0].durationS == nil)
        #expect(!status1.check.ok)
        #expect(status1.check.reason.contains("abandoned"))
        #expect(status1.schemaVersion == "0022_recording_columns")
        // The killed run had ingested part of the inbox: the tables say so, and `job_runs` holds exactly the one run.
        #expect(status1.tables.first { $0.table == "job_runs" }?.rows == 1)
        #expect(status1.tables.allSatisfy { $0.bytes != nil && $0.bytes! > 0 })
        // status itself recorded nothing.
        #expect(try await SQLiteStore(path: db).runningJobRuns().count == 1)

        // The next run records it as abandoned, succeeds, and writes its metrics file.
        let metrics = fx.root.appendingPathComponent("pipeline_nightly.prom").path
        let before = Date()
        let (exit2, json2) = try await Self.output(
            fx, ["nightly", "--db", db, "--inbox", fx.stage2.path, "--json", "--metrics-file", metrics])
        let after = Date()
        #expect(exit2 == ChildExit(status: 0, bySignal: false))
        let summary = try JSONDecoder().decode(NightlySummary.self, from: json2)
        // The counts per reason in `--json`: objects keyed by the code, as when the keys were strings.
        let summaryObject = try #require(try JSONSerialization.jsonObject(with: json2) as? [String: Any])
        let sessionsObject = try #require((summaryObject["ingest"] as? [String: Any])?["sessions"] as? [String: Any])
        let byCode = summary.ingest.sessions.quarantinedByReason.map { ($0.key.rawValue, $0.value) }
        #expect(sessionsObject["quarantined_by_reason"] as? [String: Int] == Dictionary(uniqueKeysWithValues: byCode))
        let store = try SQLiteStore(path: db)
        let runs = try await store.jobRuns("nightly", limit: 10)
        #expect(runs.map(\.status) == [.succeeded, .abandoned])
        #expect(runs[1].endedAt == nil)
        #expect(runs[1].countsJSON.contains("\"error\":\"abandoned\""))
        #expect(try await store.runningJobRuns().isEmpty)

        let (exit3, json3) = try await Self.output(fx, ["status", "--db", db, "--json"])
        #expect(exit3 == ChildExit(status: 0, bySignal: false))
        let status3 = try JSONDecoder().decode(OperatorStatus.self, from: json3)
        let nightly3 = try #require(status3.jobs.first { $0.name == "nightly" })
        #expect(nightly3.runs.map(\.status) == [.succeeded, .abandoned])
        #expect(nightly3.runs.map(\.abandonedNotYetRecorded) == [false, false])
        #expect(status3.check.ok)
        #expect(status3.usersPendingRecompute.isEmpty)
        let quarantined = try await store.quarantineCountsByReason()
        #expect(
            Dictionary(
                uniqueKeysWithValues: status3.quarantine.map { (QuarantineReason(rawValue: $0.reason), $0.count) })
                == quarantined)
        #expect(!quarantined.isEmpty) // the generator's fault rate puts records there

        // A maximum age shorter than the time since the last success fails the check.
        try await Task.sleep(for: .milliseconds(1_100))
        let (exit4, _) = try await Self.output(fx, ["status", "--db", db, "--max-age", "1s"])
        #expect(exit4 == ChildExit(status: 2, bySignal: false))
        let (exit5, _) = try await Self.output(fx, ["status", "--db", db, "--max-age", "1h"])
        #expect(exit5 == ChildExit(status: 0, bySignal: false))
        let (exit6, _) = try await Self.output(fx, ["status", "--db", db, "--max-age", "soon"])
        #expect(exit6 == ChildExit(status: 64, bySignal: false))

        // The metrics file, parsed back.
        let samples = try PromText.parse(String(contentsOfFile: metrics, encoding: .utf8))
        let job = ["job": "nightly"]
        #expect(samples[PromText.Key("pipeline_job_last_run_success", job)] == 1)
        #expect(
            samples[PromText.Key("pipeline_job_last_run_outcome", job.merging(["outcome": "succeeded"]) { $1 })] == 1)
        #expect(samples[PromText.Key("pipeline_job_last_run_outcome", job.merging(["outcome": "failed"]) { $1 })] == 0)
        let start = try #require(samples[PromText.Key("pipeline_job_last_run_start_timestamp_seconds", job)])
        let end = try #require(samples[PromText.Key("pipeline_job_last_run_end_timestamp_seconds", job)])
        let duration = try #require(samples[PromText.Key("pipeline_job_last_run_duration_seconds", job)])
        #expect(
            start >= before.timeIntervalSince1970 - 0.001 && end <= after.timeIntervalSince1970 + 0.001 && start <= end)
        #expect(abs(duration - (end - start)) < 1e-6)
        #expect(samples[PromText.Key("pipeline_job_last_success_timestamp_seconds", job)] == end)
        #expect(
            samples[
                PromText.Key("pipeline_job_last_run_count", job.merging(["count": "ingest_sessions_stored"]) { $1 })]
                == Double(summary.ingest.sessions.stored))
        #expect(
            samples[
                PromText.Key(
                    "pipeline_job_last_run_count", job.merging(["count": "ingest_sessions_quarantined"]) { $1 })]
                == Double(summary.ingest.sessions.quarantined))
        for (reason, n) in summary.ingest.sessions.quarantinedByReason {
            let name = "ingest_sessions_quarantined_by_reason_\(reason.rawValue)"
            #expect(
                samples[PromText.Key("pipeline_job_last_run_count", job.merging(["count": name]) { $1 })] == Double(n))
        }
        #expect(
            samples[PromText.Key("pipeline_job_last_run_count", job.merging(["count": "sessions_analysed"]) { $1 })]
                == Double(summary.sessionsAnalyzed))
        // No temporary file is left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fx.root.path).filter { $0.hasSuffix(".tmp") }.isEmpty)

        // A failed run (the inbox path is a file, not a directory) keeps the previous success's timestamp.
        let (exit7, _) = try await Self.output(
            fx, ["nightly", "--db", db, "--inbox", metrics, "--metrics-file", metrics])
        #expect(exit7.status != 0)
        let failed = try PromText.parse(String(contentsOfFile: metrics, encoding: .utf8))
        #expect(failed[PromText.Key("pipeline_job_last_run_success", job)] == 0)
        #expect(failed[PromText.Key("pipeline_job_last_run_outcome", job.merging(["outcome": "failed"]) { $1 })] == 1)
        #expect(failed[PromText.Key("pipeline_job_last_success_timestamp_seconds", job)] == end)
    }
}

/// `jobs/run-job.sh` with `PIPELINE_METRICS_DIR`: the real `pipeline ingest` run through it writes
/// `pipeline_<job>.prom` there, labelled with the job's name; without the variable nothing is written.
@Suite(.serialized) struct RunJobMetricsTests {
    static func runJob(_ name: String, _ command: [String], dir: URL, metricsDir: URL?) throws -> Int32 {
        var environment = ProcessInfo.processInfo.environment.merging(CLIFixture.environment) { $1 }
        environment["PIPELINE_LOCK_DIR"] = dir.appendingPathComponent("lock").path
        environment["PIPELINE_LOG_DIR"] = dir.appendingPathComponent("log").path
        environment["PIPELINE_METRICS_FILE"] = nil
        environment["PIPELINE_JOB_NAME"] = nil
        environment["PIPELINE_METRICS_DIR"] = metricsDir?.path
        return try Spawn.run("/bin/bash", [RunJobLockTests.script, name, "--"] + command, environment: environment)
            .status
    }

    @Test func runJobHasTheJobWriteItsMetricsFile() async throws {
        let fx = try await CLIFixture(users: 2, days: 7, seed: 16_017)
        let metrics = fx.root.appendingPathComponent("textfile")
        try FileManager.default.createDirectory(at: metrics, withIntermediateDirectories: true)
        let db = fx.newDatabase("runjob")
        let ingest = [fx.binary.path, "ingest", "--db", db, "--inbox", fx.stage2.path, "--json"]
        #expect(try Self.runJob("ingest-hourly", ingest, dir: fx.root, metricsDir: nil) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: metrics.path).isEmpty)
        #expect(try Self.runJob("ingest-hourly", ingest, dir: fx.root, metricsDir: metrics) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: metrics.path) == ["pipeline_ingest-hourly.prom"])
        let samples = try PromText.parse(
            String(contentsOf: metrics.appendingPathComponent("pipeline_ingest-hourly.prom"), encoding: .utf8))
        let job = ["job": "ingest-hourly"]
        #expect(samples[PromText.Key("pipeline_job_last_run_success", job)] == 1)
        // The second run found everything in the ledger: no batch stored, the counts add up.
        func count(_ name: String) -> Double? {
            samples[PromText.Key("pipeline_job_last_run_count", job.merging(["count": name]) { $1 })]
        }
        let batches = try #require(count("batches_received"))
        #expect(batches > 0)
        #expect(count("batches_stored") == 0)
        #expect(try #require(count("batches_duplicates")) > 0)
        #expect(count("batches_duplicates")! + count("batches_quarantined")! + count("batches_stale")! == batches)
    }
}

/// Liveness of a job run's process.
@Suite struct ProcessIdentityTests {
    @Test func thisProcessIsAliveAnExitedOneIsDeadAnotherHostIsUnknown() async throws {
        #expect(ProcessIdentity.current.liveness == .alive)
        #expect(ProcessIdentity.current.pid == getpid())
        let pid = try Spawn.start("/bin/true", [])
        let tag = ProcessIdentity.startTag(of: pid) // not reaped yet: its /proc entry is still there
        _ = Spawn.wait(pid)
        let gone = ProcessIdentity(host: ProcessIdentity.current.host, pid: pid, processStart: tag ?? "x")
        #expect(gone.liveness == .dead)
        // This pid with another start time: the pid was reused by another process.
        var reused = ProcessIdentity.current
        reused.processStart += "0"
        #expect(reused.liveness == .dead)
        var elsewhere = ProcessIdentity.current
        elsewhere.host += ".elsewhere"
        #expect(elsewhere.liveness == .unknown)
    }

    @Test func statFieldsSplitAfterTheLastParenthesis() {
        // proc(5): "pid (comm) state ppid …"; comm may hold spaces and parentheses.
        let line = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10"
        let fields = ProcessIdentity.statFields(line)!
        #expect(fields[0] == "S")
        #expect(fields[19] == "987654")
    }
}

/// The health check's rules on known runs.
@Suite struct StatusCheckTests {
    let day: EpochMillis = 86_400_000
    func run(_ id: Int64, _ status: JobStatus, start: EpochMillis) -> JobRun {
        JobRun(
            id: id, job: "nightly", startedAt: start, endedAt: status == .running ? nil : start + 1_000, status: status)
    }

    @Test func rules() {
        let now: EpochMillis = 100 * day
        let maxAge: TimeInterval = 26 * 3_600
        #expect(!OperatorStatus.check(job: "nightly", runs: [], now: now, maxAge: maxAge).ok)
        let fresh = OperatorStatus.check(
            job: "nightly", runs: [run(2, .succeeded, start: now - day)], now: now, maxAge: maxAge)
        #expect(fresh.ok && fresh.lastSuccessAt == OperatorStatus.iso(now - day))
        #expect(
            !OperatorStatus.check(
                job: "nightly", runs: [run(2, .succeeded, start: now - 27 * 3_600_000)], now: now, maxAge: maxAge
            ).ok)
        #expect(
            !OperatorStatus.check(
                job: "nightly", runs: [run(3, .failed, start: now - 1_000), run(2, .succeeded, start: now - day)],
                now: now, maxAge: maxAge
            ).ok)
        #expect(
            !OperatorStatus.check(
                job: "nightly", runs: [run(3, .interrupted, start: now - 1_000)], now: now, maxAge: maxAge
            ).ok)
        // A live run (this process) is skipped: the last ended run decides.
        var live = run(3, .running, start: now - 1_000)
        live.owner = .current
        #expect(
            OperatorStatus.check(
                job: "nightly", runs: [live, run(2, .succeeded, start: now - day)], now: now, maxAge: maxAge
            ).ok)
        // A run whose process died counts as abandoned.
        var dead = live
        dead.owner?.processStart += "0"
        let check = OperatorStatus.check(
            job: "nightly", runs: [dead, run(2, .succeeded, start: now - day)], now: now, maxAge: maxAge)
        #expect(!check.ok && check.reason.contains("abandoned"))
    }
}

/// The Prometheus text format, read back by a small independent parser (exposition format 0.0.4: `# HELP`, `# TYPE`,
/// `name{label="value",…} number`).
enum PromText {
    struct Key: Hashable {
        var name: String; var labels: [String: String];
        init(_ n: String, _ l: [String: String]) { name = n; labels = l }
    }
    struct Malformed: Error { var line: String }

    static func parse(_ text: String) throws -> [Key: Double] {
        var samples: [Key: Double] = [:]
        var typed: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, parts[3] == "gauge" else { throw Malformed(line: String(line)) }
                typed.insert(String(parts[2]))
                continue
            }
            if line.hasPrefix("# HELP ") { continue }
            guard let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}") else {
                throw Malformed(line: String(line))
            }
            let name = String(line[..<open])
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), typed.contains(name) else {
                throw Malformed(line: String(line))
            }
            var labels: [String: String] = [:]
            var rest = line[line.index(after: open)..<close]
            while !rest.isEmpty {
                guard let eq = rest.firstIndex(of: "="), rest[rest.index(after: eq)] == "\"" else {
                    throw Malformed(line: String(line))
                }
                let key = String(rest[..<eq])
                var i = rest.index(eq, offsetBy: 2)
                var value = ""
                while rest[i] != "\"" {
                    if rest[i] == "\\" {
                        i = rest.index(after: i); value.append(rest[i] == "n" ? "\n" : rest[i])
                    } else {
                        value.append(rest[i])
                    }
                    i = rest.index(after: i)
                }
                labels[key] = value
                rest = rest[rest.index(after: i)...]
                if rest.first == "," { rest = rest.dropFirst() }
            }
            let valueText = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard let value = Double(valueText) else { throw Malformed(line: String(line)) }
            guard samples.updateValue(value, forKey: Key(name, labels)) == nil else {
                throw Malformed(line: "duplicate: \(line)")
            }
        }
        return samples
    }
}

@Suite struct JobMetricsFileTests {
    @Test func rendersEscapedLabelsAndReadsBack() throws {
        let file = JobMetricsFile(
            job: "odd \"job\"\\x", startedAt: Date(timeIntervalSince1970: 1_764_000_000),
            finishedAt: Date(timeIntervalSince1970: 1_764_000_012.5), outcome: .interrupted,
            counts: ["a_b": 3, "z": 0.25], lastSuccessAt: nil)
        let samples = try PromText.parse(file.render())
        let job = ["job": "odd \"job\"\\x"]
        #expect(samples[PromText.Key("pipeline_job_last_run_duration_seconds", job)] == 12.5)
        #expect(samples[PromText.Key("pipeline_job_last_run_start_timestamp_seconds", job)] == 1_764_000_000)
        #expect(
            samples[PromText.Key("pipeline_job_last_run_outcome", job.merging(["outcome": "interrupted"]) { $1 })] == 1)
        #expect(samples[PromText.Key("pipeline_job_last_run_count", job.merging(["count": "z"]) { $1 })] == 0.25)
        // No success yet: no last-success series at all (rather than a zero that would read as 1970).
        #expect(!samples.keys.contains { $0.name == "pipeline_job_last_success_timestamp_seconds" })
        #expect(samples.count == 3 + 1 + 3 + 2)
    }

    @Test func countsFlattenTheSummaryJSON() {
        let json = Data(
            #"{"jobRunID": 7, "ingest": {"sessions": {"stored": 4, "quarantinedByReason": {"bad x": 2}}}, "ok": true, "at": "2026"}"#
                .utf8)
        #expect(
            JobMetricsFile.counts(fromJSON: json) == [
                "ingest_sessions_stored": 4, "ingest_sessions_quarantinedByReason_bad_x": 2, "ok": 1,
            ])
    }
}
