import Foundation
import Ingest

/// A job's figures in the Prometheus text exposition format (version 0.0.4), written for node_exporter's textfile
/// collector: the way to monitor batch jobs that no scraper can reach while they run (Prometheus documentation,
/// "Instrumentation — Batch jobs"; node_exporter README, "Textfile Collector").
///
/// The file is written atomically — a temporary file in the same directory, then `rename(2)` over the target — so the
/// collector never reads half a file. The collector reads only files named `*.prom`.
///
/// Series (every one a gauge, label `job`):
/// - `pipeline_job_last_run_start_timestamp_seconds`, `pipeline_job_last_run_end_timestamp_seconds`,
///   `pipeline_job_last_run_duration_seconds`;
/// - `pipeline_job_last_run_success` (1 or 0) and `pipeline_job_last_run_outcome{outcome=…}`, 1 for the run's outcome
///   and 0 for the others;
/// - `pipeline_job_last_success_timestamp_seconds`: this run's end when it succeeded, else the value the previous file
///   held (absent until a run succeeds) — alert on `time() - pipeline_job_last_success_timestamp_seconds`;
/// - `pipeline_job_last_run_count{count=…}`: every number of the job's summary, its JSON key path joined with `_`.
public struct JobMetricsFile: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable { case succeeded, failed, interrupted }

    public var job: String
    public var startedAt: Date
    public var finishedAt: Date
    public var outcome: Outcome
    public var counts: [String: Double]
    public var lastSuccessAt: Date?

    public init(
        job: String, startedAt: Date, finishedAt: Date, outcome: Outcome, counts: [String: Double], lastSuccessAt: Date?
    ) {
        self.job = job; self.startedAt = startedAt; self.finishedAt = finishedAt; self.outcome = outcome
        self.counts = counts; self.lastSuccessAt = lastSuccessAt
    }

    /// The text exposition of these figures.
    public func render() -> String {
        let job = "job=\"\(Self.escape(self.job))\""
        var out = ""
        func gauge(_ name: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            guard !samples.isEmpty else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
            for (labels, value) in samples { out += "\(name){\(labels)} \(Self.number(value))\n" }
        }
        gauge(
            "pipeline_job_last_run_start_timestamp_seconds",
            "Start of the job's last run, seconds since the Unix epoch.",
            [(job, startedAt.timeIntervalSince1970)])
        gauge(
            "pipeline_job_last_run_end_timestamp_seconds", "End of the job's last run, seconds since the Unix epoch.",
            [(job, finishedAt.timeIntervalSince1970)])
        gauge(
            "pipeline_job_last_run_duration_seconds", "Duration of the job's last run in seconds.",
            [(job, finishedAt.timeIntervalSince(startedAt))])
        gauge(
            "pipeline_job_last_run_success", "1 when the job's last run succeeded, else 0.",
            [(job, outcome == .succeeded ? 1 : 0)])
        gauge(
            "pipeline_job_last_run_outcome", "1 for the outcome of the job's last run, 0 for the others.",
            Outcome.allCases.map { ("\(job),outcome=\"\($0.rawValue)\"", $0 == outcome ? 1 : 0) })
        gauge(
            "pipeline_job_last_success_timestamp_seconds",
            "End of the job's last successful run, seconds since the Unix epoch.",
            lastSuccessAt.map { [(job, $0.timeIntervalSince1970)] } ?? [])
        gauge(
            "pipeline_job_last_run_count",
            "The figures of the job's last run (records received, stored, quarantined, ...).",
            counts.sorted { $0.key < $1.key }.map { ("\(job),count=\"\(Self.escape($0.key))\"", $0.value) })
        return out
    }

    /// Writes `render()` to `path` atomically (temporary file beside it, then rename).
    public func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(render().utf8).write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// The value of `pipeline_job_last_success_timestamp_seconds` for `job` in the file at `path`, if any (what a run
    /// that did not succeed carries over).
    public static func previousLastSuccess(at path: String, job: String) -> Date? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let prefix = "pipeline_job_last_success_timestamp_seconds{job=\"\(escape(job))\"} "
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            if let value = Double(line.dropFirst(prefix.count)) { return Date(timeIntervalSince1970: value) }
        }
        return nil
    }

    /// Every number in a job summary's JSON, its key path joined with `_` (`ingest.sessions.stored` →
    /// `ingest_sessions_stored`); booleans as 0/1; strings, nulls, arrays and ids left out.
    public static func counts(fromJSON data: Data) -> [String: Double] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return [:] }
        var counts: [String: Double] = [:]
        func walk(_ value: JSONValue, _ path: [String]) {
            switch value {
            case .number(let n) where n.isFinite:
                let key = path.joined(separator: "_")
                if !key.isEmpty, !key.lowercased().hasSuffix("id") { counts[sanitize(key)] = n }
            case .bool(let b): counts[sanitize(path.joined(separator: "_"))] = b ? 1 : 0
            case .object(let o): for (k, v) in o { walk(v, path + [k]) }
            default: break
            }
        }
        walk(value, [])
        return counts
    }

    /// A label value as the format wants it: backslash, double quote and line feed escaped.
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func sanitize(_ s: String) -> String {
        String(s.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    /// A sample value: integers without a fraction, others with enough digits to round-trip (Go's ParseFloat reads both).
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
