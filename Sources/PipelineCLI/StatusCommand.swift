import ArgumentParser
import Foundation
import Pipeline
import Store

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "The operator's view: each job's last runs, dead runs, quarantine, pending recomputes, tables, schema.",
        discussion: """
            A run still `running` in job_runs whose process is gone (killed, crashed, host rebooted) is shown as \
            `abandoned`; the next run of any job on the same host records it so. A process is judged by the host name, pid \
            and process start time the run recorded (see jobs/README.md, "Runs left running: abandoned"): a run started on another host is shown \
            `running` with its host and left alone. Read-only: status itself records nothing.

            Exit codes, for a monitoring check (the Nagios plugin convention): 0 the checked job (--job, default nightly) \
            is healthy; 2 its last ended run failed, was interrupted or abandoned, it never succeeded, or its last success \
            started more than --max-age ago; 1 the status could not be read (store unreachable); 64 usage.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print the status as one JSON object.") var json = false
    @Option(help: "Runs shown per job.") var runs = 5
    @Option(help: "The job whose health sets the exit code.") var job = "nightly"
    @Option(help: "Maximum age of the checked job's last success, e.g. 26h, 90m, 3600s.")
    var maxAge = "26h"

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
        guard Self.seconds(maxAge) != nil else {
            throw ValidationError("--max-age: expected a number with s, m, h or d, got \(maxAge)")
        }
    }

    /// `90`, `90s`, `15m`, `26h`, `2d` as seconds.
    static func seconds(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var number = Substring(text), factor = 1.0
        if let last = text.last, let unit = units[last] { number = text.dropLast(); factor = unit }
        guard let value = Double(number), value > 0, value.isFinite else { return nil }
        return value * factor
    }

    func run() async throws {
        var status: OperatorStatus?
        try await runReportingErrors {
            let opened = try await store.open()
            guard let diagnostics = opened.diagnostics else {
                throw CLIError.failed("this store does not report diagnostics")
            }
            let gathered = try await OperatorStatus.gather(
                store: opened, diagnostics: diagnostics, now: Date(), runsPerJob: runs, checkJob: job,
                maxAge: Self.seconds(maxAge)!)
            if json { try printJSON(gathered) } else { print(Self.text(gathered)) }
            status = gathered
        }
        if status?.check.ok == false { throw ExitCode(2) }
    }

    static func text(_ s: OperatorStatus) -> String {
        var lines = [
            "pipeline status at \(s.generatedAt) — \(s.backend), schema \(s.schemaVersion ?? "none") (\(s.migrations.count) migrations)"
        ]
        lines.append(
            "check: \(s.check.job) \(s.check.ok ? "OK" : "FAILING"): \(s.check.reason)"
                + (s.check.lastSuccessAt.map { "; last success \($0)" } ?? ""))
        lines.append("")
        lines.append("jobs (last runs, newest first)")
        for job in s.jobs {
            lines.append("  \(job.name)")
            if job.runs.isEmpty { lines.append("    (no run recorded)") }
            for run in job.runs {
                var line = "    #\(run.id) \(run.startedAt)  \(run.status.rawValue)"
                if run.abandonedNotYetRecorded { line += " (process gone; recorded by the next run)" }
                if run.status == .running {
                    line +=
                        " (\(run.liveness?.rawValue ?? "unknown") on \(run.host ?? "unknown host")\(run.pid.map { " pid \($0)" } ?? ""))"
                }
                if let d = run.durationS { line += String(format: "  %.1f s", d) }
                // The run's top-level figures (numbers; ids left out), e.g. sessions_analysed=219; `--json` has them all.
                if let counts = run.counts.objectValue {
                    let figures = counts.sorted { $0.key < $1.key }.compactMap { key, value -> String? in
                        guard case .number(let n) = value, !key.hasSuffix("id") else { return nil }
                        return "\(key)=\(n == n.rounded() ? String(Int(n)) : String(n))"
                    }
                    if !figures.isEmpty { line += "  " + figures.joined(separator: " ") }
                    if case .string(let error)? = counts["error"] { line += "  error=\(error)" }
                }
                lines.append(line)
            }
        }
        lines.append("")
        let total = s.quarantine.reduce(0) { $0 + $1.count }
        lines.append("quarantine: \(total) records")
        for q in s.quarantine {
            lines.append(
                "  \(q.reason): \(q.count), oldest \(q.oldestAt) (\(age(q.oldestAgeS)) ago), newest \(q.newestAt)")
        }
        lines.append(
            "users waiting for a recompute: \(s.usersPendingRecompute.count)"
                + (s.usersPendingRecompute.isEmpty
                    ? ""
                    : " — " + s.usersPendingRecompute.prefix(20).joined(separator: ", ")
                        + (s.usersPendingRecompute.count > 20 ? ", …" : "")))
        lines.append("")
        lines.append("tables")
        for t in s.tables {
            lines.append(
                "  " + t.table.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + String(format: "%10d rows", t.rows)
                    + (t.bytes.map { String(format: "  %10.1f KiB", Double($0) / 1024) } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    static func age(_ seconds: Double) -> String {
        if seconds < 120 { return "\(Int(seconds)) s" }
        if seconds < 7_200 { return "\(Int(seconds / 60)) min" }
        if seconds < 172_800 { return "\(Int(seconds / 3_600)) h" }
        return "\(Int(seconds / 86_400)) d"
    }
}
