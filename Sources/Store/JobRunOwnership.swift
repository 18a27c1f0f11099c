import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process that started a job run, recorded with the run (`job_runs.host`, `.pid`, `.process_start`,
/// migration 0010) so that a later process can tell a live run from one whose process died without recording its end.
///
/// How a dead run is told from a live one: a run is *abandoned* when it is still `running` in `job_runs`, was started
/// on this host (same host name), and its process is gone, which on Linux means any of
/// - the host was rebooted since (the kernel's boot id, `/proc/sys/kernel/random/boot_id`, differs), or
/// - `/proc/PID/stat` does not exist, or says the process is a zombie (`Z`: it exited, its parent has not reaped it), or
/// - the process with that pid started at another time than the run's (field 22 of `/proc/PID/stat`, `starttime`, in
///   clock ticks since boot; see proc(5)): the pid was reused by another process.
///
/// Elsewhere (macOS) only `kill(pid, 0)` is asked. A run started on *another* host cannot be judged from here (no
/// heartbeat is kept): it is shown as running on that host and left alone until a run on that host records it. A run
/// recorded before migration 0010 has no owner and is left alone too. This needs no lock file and no heartbeat:
/// `run-job.sh`'s lock says the same for runs started through it (the lock goes with the process), but jobs may also
/// be started by hand, by systemd or by `pipeline worker`, and only the store sees all of them.
public struct ProcessIdentity: Sendable, Equatable, Codable {
    public var host: String
    public var pid: Int32
    /// `boot_id:starttime` on Linux; empty where unknown.
    public var processStart: String
    public init(host: String, pid: Int32, processStart: String) {
        self.host = host; self.pid = pid; self.processStart = processStart
    }

    enum CodingKeys: String, CodingKey { case host, pid, processStart = "process_start" }

    /// This process.
    public static let current: ProcessIdentity = {
        let pid = getpid()
        return ProcessIdentity(host: hostName(), pid: pid, processStart: startTag(of: pid) ?? "")
    }()

    /// The host name as `gethostname(2)` gives it.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return ProcessInfo.processInfo.hostName }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `boot_id:starttime` of process `pid` (Linux), nil when it does not exist, is a zombie, or there is no /proc.
    public static func startTag(of pid: Int32) -> String? {
        guard let boot = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let fields = statFields(stat), fields.count >= 20
        else { return nil }
        // After the command name: fields[0] is the state (field 3), fields[19] is starttime (field 22).
        if fields[0] == "Z" || fields[0] == "X" { return nil }
        return boot.trimmingCharacters(in: .whitespacesAndNewlines) + ":" + fields[19]
    }

    /// The fields of a `/proc/PID/stat` line after the command name (which may contain spaces and parentheses: the
    /// name ends at the *last* `)`).
    public static func statFields(_ line: String) -> [Substring]? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
    }

    public enum Liveness: String, Sendable, Codable { case alive, dead, unknown }

    /// Whether the process that recorded this identity still runs, as seen from this process (see the type's comment).
    public var liveness: Liveness {
        guard host == Self.current.host else { return .unknown }
        #if os(Linux)
            if Self.current.processStart.isEmpty { return .unknown } // no /proc: cannot tell
            guard let now = Self.startTag(of: pid) else { return .dead }
            return now == processStart ? .alive : .dead
        #else
            if kill(pid, 0) == 0 || errno == EPERM { return .alive }
            return .dead
        #endif
    }
}

/// What `pipeline status` needs of a store beyond `PipelineStore`; both backends provide it.
public protocol StoreDiagnostics: Sendable {
    /// Every run still recorded as `running`, oldest first.
    func runningJobRuns() async throws -> [JobRun]
    /// Records run `id` as `abandoned` if it is still `running`; true when it was changed. The end time stays unknown
    /// (null); the counts say `{"error":"abandoned","recorded_at_ms":at}`.
    func markJobRunAbandoned(id: Int64, at: EpochMillis) async throws -> Bool
    /// The names of every job with a recorded run, sorted.
    func jobNames() async throws -> [String]
    /// Quarantined records per reason with their oldest and newest quarantine time.
    func quarantineAges() async throws -> [QuarantineReasonAge]
    /// Rows (and bytes, where the backend can tell) of every table.
    func tableSizes() async throws -> [TableSize]
    /// Identifiers of the migrations applied, in order (the last is the schema version).
    func appliedMigrations() async throws -> [String]
}

public struct QuarantineReasonAge: Sendable, Equatable, Codable {
    public var reason: String
    public var count: Int
    public var oldestAt: EpochMillis
    public var newestAt: EpochMillis
    public init(reason: String, count: Int, oldestAt: EpochMillis, newestAt: EpochMillis) {
        self.reason = reason; self.count = count; self.oldestAt = oldestAt; self.newestAt = newestAt
    }
    enum CodingKeys: String, CodingKey { case reason, count, oldestAt = "oldest_at_ms", newestAt = "newest_at_ms" }
}

public struct TableSize: Sendable, Equatable, Codable {
    public var table: String
    public var rows: Int
    /// On-disk bytes (table and its indexes), nil where the backend cannot tell.
    public var bytes: Int64?
    public init(table: String, rows: Int, bytes: Int64?) { self.table = table; self.rows = rows; self.bytes = bytes }
}

extension StoreDiagnostics {
    /// Records as `abandoned` every `running` run whose process is dead (`ProcessIdentity.liveness`), at `at`;
    /// returns the runs it recorded. Each store's `startJob` calls it, so the next run of any job on a host records
    /// the runs that died there.
    @discardableResult
    public func recordAbandonedJobRuns(at: EpochMillis) async throws -> [JobRun] {
        var recorded: [JobRun] = []
        for var run in try await runningJobRuns() where run.owner?.liveness == .dead {
            guard let id = run.id, try await markJobRunAbandoned(id: id, at: at) else { continue }
            run.status = .abandoned
            recorded.append(run)
        }
        return recorded
    }
}
