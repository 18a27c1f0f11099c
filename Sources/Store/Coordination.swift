/// Who holds a lease: one worker process of a shared run (`pipeline nightly --worker-id ID`).
public struct WorkerID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// One shared run of a job: the per-user work of every worker that joined it (same job, same key).
public struct SharedRun: Sendable, Equatable {
    public var id: Int64
    public var key: String
    /// True for the worker whose `joinRun` created the run.
    public var created: Bool
    public init(id: Int64, key: String, created: Bool) { self.id = id; self.key = key; self.created = created }
}

/// Which users a join queues in a shared run (`WorkLeases.joinRun`); the same on every backend.
public enum SharedRunScope: String, Sendable, Codable, CaseIterable {
    /// Every user of the store (`pipeline worker --full`, as the nightly's full pass looks at everyone).
    case everyone
    /// Only the users with work, as the incremental nightly (`NightlyJob.run`) finds them: a pending-recompute mark
    /// (written with the data that changed), no stats yet (never computed), a stored session without metrics, a live
    /// workout record without metrics for its current version, or metrics of a deleted or replaced record (plus the
    /// join's `requeue`). An idle user is not queued: nothing of theirs is read or written, their training-load series
    /// is extended when read, and their plan is adapted by the weekly plan job.
    case changed

    /// `changed` as an SQL condition on `users u`, one text for both backends (`NOT w.deleted` and `w.deleted` read
    /// SQLite's 0/1 integers as PostgreSQL reads its booleans).
    public static let userHasWorkSQL = """
        (EXISTS (SELECT 1 FROM pending_recompute p WHERE p.user_id = u.user_id)
         OR NOT EXISTS (SELECT 1 FROM user_stats s WHERE s.user_id = u.user_id)
         OR EXISTS (SELECT 1 FROM sessions s LEFT JOIN session_metrics m ON m.user_id = s.user_id AND m.session_id = s.session_id
                    WHERE s.user_id = u.user_id AND m.session_id IS NULL)
         OR EXISTS (SELECT 1 FROM workouts w LEFT JOIN workout_metrics m ON m.user_id = w.user_id AND m.workout_id = w.workout_id
                    WHERE w.user_id = u.user_id
                    AND ((NOT w.deleted AND (m.workout_id IS NULL OR m.workout_updated_at_ms <> w.updated_at_ms))
                         OR (w.deleted AND m.workout_id IS NOT NULL))))
        """
}

/// A user a worker has claimed in a shared run, until `expiresAt` unless renewed.
///
/// `generation` grows each time the user is queued again (new data arrived after it was processed): completing an
/// older generation does not mark the user done.
public struct UserLease: Sendable, Hashable {
    public var user: UserID
    public var generation: Int64
    public var expiresAt: EpochMillis
    /// How many times the user has been claimed in this run, this claim included: above 1 the user was taken over
    /// from a worker that released it, died or lost its lease.
    public var attempt: Int
    public init(user: UserID, generation: Int64, expiresAt: EpochMillis, attempt: Int) {
        self.user = user; self.generation = generation; self.expiresAt = expiresAt; self.attempt = attempt
    }
}

/// Where a shared run stands, as one worker sees it at `at`.
public struct SharedRunProgress: Sendable, Equatable {
    /// Users nobody holds a live lease on, not done: claimable now.
    public var claimable: Int
    /// Users under a live lease (of any worker, this one included).
    public var leased: Int
    public var done: Int
    /// The earliest expiry of a live lease, if any (when a dead worker's share becomes claimable).
    public var nextExpiry: EpochMillis?
    public init(claimable: Int, leased: Int, done: Int, nextExpiry: EpochMillis?) {
        self.claimable = claimable; self.leased = leased; self.done = done; self.nextExpiry = nextExpiry
    }
    public var finished: Bool { claimable == 0 && leased == 0 }
}

/// Per-user leases of a shared run: several worker processes over one store (docs/SCALING.md) split a run's users
/// between them (`PipelineStore.workLeases`).
///
/// PostgreSQL claims with `SELECT … FOR UPDATE SKIP LOCKED`; SQLite does the same inside `BEGIN IMMEDIATE`
/// transactions. Times are the caller's clock (inject one in tests): workers on several machines need synchronised
/// clocks (NTP), and a lease should last much longer than their drift.
public protocol WorkLeases: Sendable {
    /// Opens the run `key` of `job`, or joins it when it exists, and queues the users that `scope` names and the run
    /// does not list yet (`SharedRunScope`: everyone, or only those with work — a night costs what changed, not how
    /// many users exist). Users in `requeue` (their data changed after the run started, e.g. by this worker's ingest)
    /// are queued if the run does not list them, and queued again with a new generation if their work has started
    /// (done, or claimed): a claim of the older generation cannot complete them.
    func joinRun(
        job: String, key: String, worker: WorkerID, scope: SharedRunScope, requeue: Set<UserID>, at: EpochMillis
    ) async throws -> SharedRun

    /// Claims up to `limit` users that are not done and not under a live lease (never leased, released, or whose
    /// lease expired: a dead worker's share), in user order, for `leaseMillis` from `at`.
    func claimUsers(run: Int64, worker: WorkerID, limit: Int, at: EpochMillis, leaseMillis: Int64) async throws
        -> [UserLease]

    /// Extends every lease `worker` still holds in `run` to `at + leaseMillis`; returns how many it holds.
    func renewLeases(run: Int64, worker: WorkerID, at: EpochMillis, leaseMillis: Int64) async throws -> Int

    /// Marks the user done if `worker` still holds the lease at that generation; false when the lease was lost (it
    /// expired and another worker took it) or the user was queued again meanwhile.
    func completeUser(run: Int64, worker: WorkerID, lease: UserLease, at: EpochMillis) async throws -> Bool

    /// Gives back every lease `worker` holds in `run` (a clean stop): others may claim those users at once.
    func releaseLeases(run: Int64, worker: WorkerID) async throws

    func runProgress(run: Int64, at: EpochMillis) async throws -> SharedRunProgress

    /// Records the run as finished when every user is done; true when it is.
    func finishRunIfDone(run: Int64, at: EpochMillis) async throws -> Bool
}

/// A cross-process lock per user (`PipelineStore.userLocks`), taken through `UserLock` (Pipeline module) by every path
/// that works on one user.
///
/// PostgreSQL locks users with session-level advisory locks; SQLite with a byte-range lock per user on one lock file.
public protocol UserLocks: Sendable {
    /// Runs `body` holding the user's cross-process lock (one per user across every process on the database): waits
    /// for it when `wait`, else returns nil at once when another holder has it. The lock goes when `body` ends or the
    /// process dies.
    func withUserLock<T: Sendable>(_ user: UserID, wait: Bool, _ body: @Sendable () async throws -> T) async throws
        -> T?

    /// How many users one process should work on at once, each under its own `withUserLock`: more than one where each
    /// user's work is mostly waiting on round trips to a server that can answer several connections at once. A user's
    /// lock holds a connection while the work inside leases others, so a store with a connection pool answers at most
    /// half its pool.
    var userConcurrency: Int { get }
}

/// No lock: `body` runs directly, one user at a time. For a store that serves one process and no concurrent work on a
/// user (a test double): what the callers did before for a store without locks.
public struct NoUserLocks: UserLocks {
    public init() {}
    public func withUserLock<T: Sendable>(_ user: UserID, wait: Bool, _ body: @Sendable () async throws -> T)
        async throws -> T?
    {
        try await body()
    }
    /// One user at a time.
    public var userConcurrency: Int { 1 }
}

/// A change to a user's data seen by `UserChangeFeed`.
public enum UserChange: Sendable, Hashable {
    /// Something the API caches for this user (profile, stats, plans) changed.
    case user(UserID)
    /// Changes may have been missed (the feed reconnected) or cannot be named (a deletion on SQLite): drop everything.
    case everything
}

/// Changes made by any process on the database, for caches of other processes (API nodes).
public protocol UserChangeFeed: Sendable {
    /// Calls `onChange` for each change committed from now on (also by this process) until the task is cancelled.
    /// `onReady` is called once the feed is listening, so that a caller can tell that later writes will be seen.
    func followUserChanges(
        onReady: @Sendable () async -> Void,
        _ onChange: @Sendable (UserChange) async -> Void) async throws
}

/// Where a polled change feed stands: the change table's version and the count of whole-store changes.
public struct UserChangePosition: Sendable, Equatable {
    public var version: Int64
    public var everything: Int64
    public init(version: Int64, everything: Int64) { self.version = version; self.everything = everything }
}

/// A change feed that can also be read on demand (SQLite's polled table): a server reads it before answering, so that
/// what another process committed — `pipeline delete-user` — is seen at once, not at the next poll.
public protocol PolledUserChangeFeed: UserChangeFeed {
    /// The position now, and the changes committed after `position` (none when it is nil).
    func userChanges(after position: UserChangePosition?) async throws -> (UserChangePosition, [UserChange])
}

/// The stable 64-bit key of a user's lock: FNV-1a over the UTF-8 bytes of "user:" + id, as a signed integer (the
/// type of PostgreSQL's advisory lock keys). Stable across processes, machines and releases: do not change it.
public func userLockKey(_ user: UserID) -> Int64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in "user:\(user.rawValue)".utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return Int64(bitPattern: hash)
}
