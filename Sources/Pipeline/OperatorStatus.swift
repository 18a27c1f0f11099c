import Foundation
import Ingest
import Store

/// What `pipeline status` shows an operator: each job's last runs, runs whose process died, the quarantine by reason
/// and age, the users waiting for a recompute, the store's tables and its schema version, and whether the last nightly
/// run is healthy (the command's exit code).
public struct OperatorStatus: Sendable, Codable {
    public struct Run: Sendable, Codable, Equatable {
        public var id: Int64
        public var startedAt: String
        public var endedAt: String?
        public var durationS: Double?
        /// As recorded, except a `running` run whose process is gone, shown `abandoned` before the next run records it.
        public var status: JobStatus
        /// True when `status` is `abandoned` as seen now but still `running` in `job_runs`.
        public var abandonedNotYetRecorded: Bool
        /// `alive`, `dead` or `unknown` (another host, or a run recorded before its owner was) for a `running` run.
        public var liveness: ProcessIdentity.Liveness?
        public var host: String?
        public var pid: Int32?
        public var counts: JSONValue
        public var watermark: String?
        enum CodingKeys: String, CodingKey {
            case id, startedAt = "started_at", endedAt = "ended_at", durationS = "duration_s", status
            case abandonedNotYetRecorded = "abandoned_not_yet_recorded", liveness, host, pid, counts, watermark
        }
    }

    public struct Job: Sendable, Codable { public var name: String; public var runs: [Run] }

    public struct Quarantine: Sendable, Codable {
        public var reason: String
        public var count: Int
        public var oldestAt: String
        public var oldestAgeS: Double
        public var newestAt: String
        enum CodingKeys: String, CodingKey {
            case reason, count, oldestAt = "oldest_at", oldestAgeS = "oldest_age_s", newestAt = "newest_at"
        }
    }

    /// The health of the checked job (`nightly` unless told otherwise).
    public struct Check: Sendable, Codable, Equatable {
        public var job: String
        public var ok: Bool
        public var reason: String
        public var maxAgeS: Double
        public var lastSuccessAt: String?
        enum CodingKeys: String, CodingKey {
            case job, ok, reason, maxAgeS = "max_age_s", lastSuccessAt = "last_success_at"
        }
    }

    public var generatedAt: String
    public var backend: String
    public var schemaVersion: String?
    public var migrations: [String]
    public var jobs: [Job]
    public var quarantine: [Quarantine]
    public var usersPendingRecompute: [String]
    public var tables: [TableSize]
    public var check: Check

    enum CodingKeys: String, CodingKey {
        case generatedAt = "generated_at", backend, schemaVersion = "schema_version", migrations, jobs, quarantine
        case usersPendingRecompute = "users_pending_recompute", tables, check
    }

    /// Gathers the status from `store` and its `diagnostics` (`PipelineStore.diagnostics`) at `now`: the last
    /// `runsPerJob` runs of every job, and the health of `checkJob` (unhealthy when its latest finished run did not
    /// succeed, when it never succeeded, or when its last success started more than `maxAge` seconds before `now`).
    public static func gather(
        store: any PipelineStore, diagnostics: any StoreDiagnostics, now: Date, runsPerJob: Int = 5,
        checkJob: String = NightlyJob.jobName, maxAge: TimeInterval
    ) async throws -> OperatorStatus {
        let nowMs = EpochMillis(now.timeIntervalSince1970 * 1000)
        var jobs: [Job] = []
        var names = try await diagnostics.jobNames()
        if !names.contains(checkJob) { names.append(checkJob); names.sort() }
        var checkRuns: [JobRun] = []
        for name in names {
            let runs = try await store.jobRuns(name, limit: name == checkJob ? max(runsPerJob, 50) : runsPerJob)
            if name == checkJob { checkRuns = runs }
            jobs.append(Job(name: name, runs: runs.prefix(runsPerJob).map(view)))
        }
        let quarantine = try await diagnostics.quarantineAges().map {
            Quarantine(
                reason: $0.reason, count: $0.count, oldestAt: iso($0.oldestAt),
                oldestAgeS: Double(nowMs - $0.oldestAt) / 1000, newestAt: iso($0.newestAt))
        }
        let migrations = try await diagnostics.appliedMigrations()
        return OperatorStatus(
            generatedAt: iso(nowMs), backend: store.backendName, schemaVersion: migrations.last, migrations: migrations,
            jobs: jobs, quarantine: quarantine,
            usersPendingRecompute: try await store.usersPendingRecompute().map(\.rawValue).sorted(),
            tables: try await diagnostics.tableSizes(),
            check: check(job: checkJob, runs: checkRuns, now: nowMs, maxAge: maxAge))
    }

    /// The health of a job from its runs, newest first (see `gather`). A run still live is skipped: the check is about
    /// the last run that ended; a run whose process died counts as ended, `abandoned`.
    public static func check(job: String, runs: [JobRun], now: EpochMillis, maxAge: TimeInterval) -> Check {
        let views = runs.map(view)
        let lastSuccess = runs.first { $0.status == .succeeded }
        var check = Check(
            job: job, ok: true, reason: "ok", maxAgeS: maxAge, lastSuccessAt: lastSuccess.map { iso($0.startedAt) })
        guard let ended = views.first(where: { $0.status != .running }) else {
            check.ok = false
            check.reason = runs.isEmpty ? "no \(job) run recorded" : "no \(job) run has ended yet"
            return check
        }
        if ended.status != .succeeded {
            check.ok = false
            check.reason =
                "the last \(job) run (\(ended.id), started \(ended.startedAt)) ended \(ended.status.rawValue)"
            return check
        }
        if let lastSuccess, Double(now - lastSuccess.startedAt) / 1000 > maxAge {
            check.ok = false
            check.reason =
                "the last successful \(job) run started \(iso(lastSuccess.startedAt)), more than \(Int(maxAge)) s ago"
        }
        return check
    }

    static func view(_ run: JobRun) -> Run {
        let liveness = run.status == .running ? (run.owner?.liveness ?? .unknown) : nil
        let dead = liveness == .dead
        let counts =
            (try? JSONDecoder().decode(JSONValue.self, from: Data(run.countsJSON.utf8))) ?? .string(run.countsJSON)
        return Run(
            id: run.id ?? 0, startedAt: iso(run.startedAt), endedAt: run.endedAt.map(iso),
            durationS: run.endedAt.map { Double($0 - run.startedAt) / 1000 },
            status: dead ? .abandoned : run.status, abandonedNotYetRecorded: dead, liveness: liveness,
            host: run.owner?.host, pid: run.owner?.pid, counts: counts, watermark: run.watermark)
    }

    /// RFC 3339 UTC with milliseconds.
    public static func iso(_ ms: EpochMillis) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
