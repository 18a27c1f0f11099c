import Foundation
import GRDB
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Shared runs on one machine: the lease tables of migration 0005, changed only inside `BEGIN IMMEDIATE`
/// transactions (the database's write lock is taken before the first read, so two processes claiming at once are
/// serialised instead of both reading the same free rows).
extension SQLiteStore: WorkLeases {
    /// Finished runs older than this are removed when a new run is opened (their leases with them).
    static let runRetentionMillis: Int64 = 30 * 86_400_000

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction.
    func immediate<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.writeWithoutTransaction { db in
            var value: T?
            try db.inTransaction(.immediate) {
                value = try body(db)
                return .commit
            }
            return value!
        }
    }

    public func joinRun(
        job: String, key: String, worker: WorkerID, scope: SharedRunScope, requeue: Set<UserID>, at: EpochMillis
    ) async throws -> SharedRun {
        try await immediate { db in
            var created = false
            let runID: Int64
            if let existing = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT run_id FROM work_runs WHERE job = ? AND run_key = ?"),
                arguments: [job, key])
            {
                runID = existing
            } else {
                try db.execute(
                    sql: "DELETE FROM work_runs WHERE finished_at_ms IS NOT NULL AND created_at_ms < ?",
                    arguments: [at - Self.runRetentionMillis])
                try db.execute(
                    sql: "INSERT INTO work_runs (job, run_key, created_at_ms, created_by) VALUES (?, ?, ?, ?)",
                    arguments: [job, key, at, worker.rawValue])
                runID = db.lastInsertedRowID
                created = true
            }
            try db.execute(
                sql: "INSERT OR IGNORE INTO work_leases (run_id, user_id) SELECT ?, user_id FROM users u"
                    + (scope == .everyone ? "" : " WHERE " + SharedRunScope.userHasWorkSQL),
                arguments: [runID])
            for user in requeue.sorted() {
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO work_leases (run_id, user_id) SELECT ?, user_id FROM users WHERE user_id = ?",
                    arguments: [runID, user.rawValue])
            }
            if !created {
                for user in requeue.sorted() {
                    try db.execute(
                        sql: """
                            UPDATE work_leases SET generation = generation + 1, done = 0, done_by = NULL, done_at_ms = NULL
                            WHERE run_id = ? AND user_id = ? AND (done = 1 OR owner IS NOT NULL)
                            """, arguments: [runID, user.rawValue])
                }
            }
            try db.execute(
                sql: """
                    UPDATE work_runs SET finished_at_ms = NULL
                    WHERE run_id = ? AND EXISTS (SELECT 1 FROM work_leases WHERE run_id = ? AND done = 0)
                    """, arguments: [runID, runID])
            return SharedRun(id: runID, key: key, created: created)
        }
    }

    public func claimUsers(run: Int64, worker: WorkerID, limit: Int, at: EpochMillis, leaseMillis: Int64) async throws
        -> [UserLease]
    {
        try await immediate { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user_id, generation, attempts FROM work_leases
                        WHERE run_id = ? AND done = 0 AND (owner IS NULL OR lease_expires_at_ms <= ?)
                        ORDER BY user_id LIMIT ?
                        """), arguments: [run, at, limit])
            let expires = at + leaseMillis
            return try rows.map { row in
                let user: String = row["user_id"]
                try db.execute(
                    sql: """
                        UPDATE work_leases SET owner = ?, lease_expires_at_ms = ?, attempts = attempts + 1 WHERE run_id = ? AND user_id = ?
                        """, arguments: [worker.rawValue, expires, run, user])
                return UserLease(
                    user: UserID(user), generation: row["generation"], expiresAt: expires,
                    attempt: (row["attempts"] as Int) + 1)
            }
        }
    }

    public func renewLeases(run: Int64, worker: WorkerID, at: EpochMillis, leaseMillis: Int64) async throws -> Int {
        try await immediate { db in
            try db.execute(
                sql: "UPDATE work_leases SET lease_expires_at_ms = ? WHERE run_id = ? AND owner = ? AND done = 0",
                arguments: [at + leaseMillis, run, worker.rawValue])
            return db.changesCount
        }
    }

    public func completeUser(run: Int64, worker: WorkerID, lease: UserLease, at: EpochMillis) async throws -> Bool {
        try await immediate { db in
            try db.execute(
                sql: """
                    UPDATE work_leases SET done = 1, owner = NULL, lease_expires_at_ms = NULL, done_by = ?, done_at_ms = ?
                    WHERE run_id = ? AND user_id = ? AND owner = ? AND generation = ? AND done = 0
                    """, arguments: [worker.rawValue, at, run, lease.user.rawValue, worker.rawValue, lease.generation])
            if db.changesCount == 1 { return true }
            // Queued again meanwhile (new data): give it back at once rather than when the lease expires.
            try db.execute(
                sql:
                    "UPDATE work_leases SET owner = NULL, lease_expires_at_ms = NULL WHERE run_id = ? AND user_id = ? AND owner = ?",
                arguments: [run, lease.user.rawValue, worker.rawValue])
            return false
        }
    }

    public func releaseLeases(run: Int64, worker: WorkerID) async throws {
        try await immediate { db in
            try db.execute(
                sql: "UPDATE work_leases SET owner = NULL, lease_expires_at_ms = NULL WHERE run_id = ? AND owner = ?",
                arguments: [run, worker.rawValue])
        }
    }

    public func runProgress(run: Int64, at: EpochMillis) async throws -> SharedRunProgress {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COALESCE(SUM(CASE WHEN done = 0 AND (owner IS NULL OR lease_expires_at_ms <= ?) THEN 1 ELSE 0 END), 0) AS claimable,
                               COALESCE(SUM(CASE WHEN done = 0 AND owner IS NOT NULL AND lease_expires_at_ms > ? THEN 1 ELSE 0 END), 0) AS leased,
                               COALESCE(SUM(done), 0) AS done,
                               MIN(CASE WHEN done = 0 AND owner IS NOT NULL AND lease_expires_at_ms > ? THEN lease_expires_at_ms END) AS next_expiry
                        FROM work_leases WHERE run_id = ?
                        """), arguments: [at, at, at, run])!
            return SharedRunProgress(
                claimable: row["claimable"], leased: row["leased"], done: row["done"], nextExpiry: row["next_expiry"])
        }
    }

    public func finishRunIfDone(run: Int64, at: EpochMillis) async throws -> Bool {
        try await immediate { db in
            try db.execute(
                sql: """
                    UPDATE work_runs SET finished_at_ms = COALESCE(finished_at_ms, ?)
                    WHERE run_id = ? AND NOT EXISTS (SELECT 1 FROM work_leases WHERE run_id = ? AND done = 0)
                    """, arguments: [at, run, run])
            return try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT finished_at_ms FROM work_runs WHERE run_id = ?"), arguments: [run])
                != nil
        }
    }
}

/// User locks as byte-range locks on one lock file.
extension SQLiteStore: UserLocks {
    /// Two users a core, at most four: a user's stats, training load and plan are a chain of short reads, computing
    /// and writes, each read a hop to one of the pool's readers and each write a turn on the one writer; with two users
    /// a core the hops of one overlap the computing of another. On 2 cores, 4 users at once made the nightly's stats
    /// and plans phases ≈ 15 % shorter than 2 (Benchmarks/nightly-results.md, 2026-11-27).
    public var userConcurrency: Int { min(2 * max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

    public func withUserLock<T: Sendable>(_ user: UserID, wait: Bool, _ body: @Sendable () async throws -> T)
        async throws -> T?
    {
        let lock = UserLockFile(path: writer.path + "-userlocks")
        guard try await lock.acquire(userLockKey(user), wait: wait) else { return nil }
        defer { lock.release() }
        return try await body()
    }
}

/// One byte-range lock per user on `<database>-userlocks` (an empty file): the byte at the user's key. On Linux these
/// are open-file-description locks (`F_OFD_SETLK`), which exclude each other between processes *and* between two
/// opens in one process, and go away when the process dies. Elsewhere a process-local table stands in (one process).
final class UserLockFile: @unchecked Sendable {
    let path: String
    private var descriptor: Int32 = -1
    private var offset: Int64 = 0

    init(path: String) { self.path = path }

    /// Takes the lock; with `wait`, polls every 20 ms until it is free (without blocking a thread of the pool).
    func acquire(_ key: Int64, wait: Bool) async throws -> Bool {
        offset = Int64(UInt64(bitPattern: key) >> 2)
        #if os(Linux)
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw StoreError(.io, operation: "withUserLock", detail: "cannot open the lock file: errno \(errno)")
            }
            while true {
                if setLock(Int16(F_WRLCK)) { return true }
                let code = errno
                guard code == EAGAIN || code == EACCES else {
                    close(descriptor); descriptor = -1
                    throw StoreError(.io, operation: "withUserLock", detail: "fcntl failed: errno \(code)")
                }
                if !wait { close(descriptor); descriptor = -1; return false }
                do {
                    try await Task.sleep(for: .milliseconds(20))
                } catch {
                    close(descriptor); descriptor = -1
                    throw error
                }
            }
        #else
            while true {
                if ProcessLocalLocks.shared.take(offset) { return true }
                if !wait { return false }
                try await Task.sleep(for: .milliseconds(20))
            }
        #endif
    }

    func release() {
        #if os(Linux)
            guard descriptor >= 0 else { return }
            _ = setLock(Int16(F_UNLCK))
            close(descriptor)
            descriptor = -1
        #else
            ProcessLocalLocks.shared.give(offset)
        #endif
    }

    #if os(Linux)
        /// `F_OFD_SETLK` (Linux ≥ 3.15; the constant is not exported to Swift).
        private static let ofdSetLock: Int32 = 37

        private func setLock(_ type: Int16) -> Bool {
            var region = flock()
            region.l_type = type
            region.l_whence = Int16(SEEK_SET)
            region.l_start = off_t(offset)
            region.l_len = 1
            region.l_pid = 0
            return fcntl(descriptor, Self.ofdSetLock, &region) == 0
        }
    #endif
}

#if !os(Linux)
    final class ProcessLocalLocks: @unchecked Sendable {
        static let shared = ProcessLocalLocks()
        private let lock = NSLock()
        private var held = Set<Int64>()
        func take(_ key: Int64) -> Bool { lock.lock(); defer { lock.unlock() }; return held.insert(key).inserted }
        func give(_ key: Int64) { lock.lock(); defer { lock.unlock() }; held.remove(key) }
    }
#endif
