import Foundation
import Logging
import PostgresNIO
import Store

/// Shared runs over one PostgreSQL: users are claimed with `SELECT … FOR UPDATE SKIP LOCKED` (two workers claiming at
/// the same moment get disjoint users without waiting for each other).
extension PostgresStore: WorkLeases {
    public func joinRun(
        job: String, key: String, worker: WorkerID, scope: SharedRunScope, requeue: Set<UserID>, at: EpochMillis
    ) async throws -> SharedRun {
        try await write("joinRun") { db in
            // Serialise joins of one run: the second joiner sees the first one's run and leases.
            try await db.execute("SELECT pg_advisory_xact_lock(\(Self.runLockClass), hashtext(\(job + "/" + key)))")
            var created = false
            let runID: Int64
            if let existing = try await db.scalar(
                "SELECT run_id FROM work_runs WHERE job = \(job) AND run_key = \(key)", as: Int64.self)
            {
                runID = existing
            } else {
                try await db.execute(
                    """
                    DELETE FROM work_runs WHERE finished_at_ms IS NOT NULL AND created_at_ms < \(at - 30 * 86_400_000)
                    """)
                guard
                    let id = try await db.scalar(
                        """
                        INSERT INTO work_runs (job, run_key, created_at_ms, created_by) VALUES (\(job), \(key), \(at), \(worker.rawValue))
                        RETURNING run_id
                        """, as: Int64.self)
                else { throw StoreError(.io, operation: "joinRun", detail: "no run id returned") }
                runID = id
                created = true
            }
            try await db.execute(
                """
                INSERT INTO work_leases (run_id, user_id) SELECT \(runID), user_id FROM users u
                \(unescaped: scope == .everyone ? "" : "WHERE " + SharedRunScope.userHasWorkSQL)
                ON CONFLICT (run_id, user_id) DO NOTHING
                """)
            let users = requeue.map(\.rawValue).sorted()
            if !users.isEmpty {
                try await db.execute(
                    """
                    INSERT INTO work_leases (run_id, user_id) SELECT \(runID), user_id FROM users WHERE user_id = ANY(\(users))
                    ON CONFLICT (run_id, user_id) DO NOTHING
                    """)
            }
            if !created && !users.isEmpty {
                try await db.execute(
                    """
                    UPDATE work_leases SET generation = generation + 1, done = FALSE, done_by = NULL, done_at_ms = NULL
                    WHERE run_id = \(runID) AND user_id = ANY(\(users)) AND (done OR owner IS NOT NULL)
                    """)
            }
            try await db.execute(
                """
                UPDATE work_runs SET finished_at_ms = NULL
                WHERE run_id = \(runID) AND EXISTS (SELECT 1 FROM work_leases WHERE run_id = \(runID) AND NOT done)
                """)
            return SharedRun(id: runID, key: key, created: created)
        }
    }

    /// The first key of the two-key advisory locks serialising `joinRun` per run.
    static let runLockClass: Int32 = 0x5255_4E53 // "RUNS"

    public func claimUsers(run: Int64, worker: WorkerID, limit: Int, at: EpochMillis, leaseMillis: Int64) async throws
        -> [UserLease]
    {
        let expires = at + leaseMillis
        return try await write("claimUsers") { db in
            try await db.rows(
                """
                WITH picked AS (
                    SELECT user_id FROM work_leases
                    WHERE run_id = \(run) AND NOT done AND (owner IS NULL OR lease_expires_at_ms <= \(at))
                    ORDER BY user_id LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE work_leases AS w SET owner = \(worker.rawValue), lease_expires_at_ms = \(expires), attempts = w.attempts + 1
                FROM picked WHERE w.run_id = \(run) AND w.user_id = picked.user_id
                RETURNING w.user_id, w.generation, w.attempts
                """
            ).map { row in
                UserLease(
                    user: UserID(try row.get("user_id", as: String.self)),
                    generation: try row.get("generation", as: Int64.self),
                    expiresAt: expires, attempt: Int(try row.get("attempts", as: Int32.self)))
            }.sorted { $0.user < $1.user }
        }
    }

    public func renewLeases(run: Int64, worker: WorkerID, at: EpochMillis, leaseMillis: Int64) async throws -> Int {
        try await write("renewLeases") { db in
            try await db.rows(
                """
                UPDATE work_leases SET lease_expires_at_ms = \(at + leaseMillis)
                WHERE run_id = \(run) AND owner = \(worker.rawValue) AND NOT done RETURNING user_id
                """
            ).count
        }
    }

    public func completeUser(run: Int64, worker: WorkerID, lease: UserLease, at: EpochMillis) async throws -> Bool {
        try await write("completeUser") { db in
            let done =
                try await db.rows(
                    """
                    UPDATE work_leases SET done = TRUE, owner = NULL, lease_expires_at_ms = NULL, done_by = \(worker.rawValue), done_at_ms = \(at)
                    WHERE run_id = \(run) AND user_id = \(lease.user.rawValue) AND owner = \(worker.rawValue)
                      AND generation = \(lease.generation) AND NOT done
                    RETURNING user_id
                    """
                ).count == 1
            if !done {
                // Queued again meanwhile (new data): give it back at once rather than when the lease expires.
                try await db.execute(
                    """
                    UPDATE work_leases SET owner = NULL, lease_expires_at_ms = NULL
                    WHERE run_id = \(run) AND user_id = \(lease.user.rawValue) AND owner = \(worker.rawValue)
                    """)
            }
            return done
        }
    }

    public func releaseLeases(run: Int64, worker: WorkerID) async throws {
        try await write("releaseLeases") { db in
            try await db.execute(
                """
                UPDATE work_leases SET owner = NULL, lease_expires_at_ms = NULL WHERE run_id = \(run) AND owner = \(worker.rawValue)
                """)
        }
    }

    public func runProgress(run: Int64, at: EpochMillis) async throws -> SharedRunProgress {
        try await read("runProgress") { db in
            guard
                let row = try await db.row(
                    """
                    SELECT COUNT(*) FILTER (WHERE NOT done AND (owner IS NULL OR lease_expires_at_ms <= \(at)))::BIGINT AS claimable,
                           COUNT(*) FILTER (WHERE NOT done AND owner IS NOT NULL AND lease_expires_at_ms > \(at))::BIGINT AS leased,
                           COUNT(*) FILTER (WHERE done)::BIGINT AS done,
                           MIN(lease_expires_at_ms) FILTER (WHERE NOT done AND owner IS NOT NULL AND lease_expires_at_ms > \(at)) AS next_expiry
                    FROM work_leases WHERE run_id = \(run)
                    """)
            else { throw StoreError(.notFound, operation: "runProgress", detail: "no such run") }
            return SharedRunProgress(
                claimable: Int(try row.get("claimable", as: Int64.self)),
                leased: Int(try row.get("leased", as: Int64.self)),
                done: Int(try row.get("done", as: Int64.self)), nextExpiry: try row.get("next_expiry", as: Int64?.self))
        }
    }

    public func finishRunIfDone(run: Int64, at: EpochMillis) async throws -> Bool {
        try await write("finishRunIfDone") { db in
            try await db.execute(
                """
                UPDATE work_runs SET finished_at_ms = COALESCE(finished_at_ms, \(at))
                WHERE run_id = \(run) AND NOT EXISTS (SELECT 1 FROM work_leases WHERE run_id = \(run) AND NOT done)
                """)
            return try await db.scalar("SELECT finished_at_ms FROM work_runs WHERE run_id = \(run)", as: Int64.self)
                != nil
        }
    }
}

/// Users are locked across processes and machines with session-level advisory locks on `userLockKey`.
extension PostgresStore: UserLocks {
    /// Half the pool's users at once, at most eight (their statements overlap on as many connections; the server
    /// answers each on its own core time): each user's lock holds a connection while the work inside leases another.
    /// With the default pool of 10, five: the nightly's stats phase took 0.50–0.55 s instead of 0.57–0.60 s with four
    /// (same minutes, alternating; Benchmarks/nightly-results.md).
    public var userConcurrency: Int { max(1, min(8, configuration.maximumConnections / 2)) }

    /// A session-level advisory lock on `userLockKey(user)`, held on one pooled connection while `body` runs
    /// (`pg_advisory_lock` to wait, `pg_try_advisory_lock` not to). Unlocked on that connection afterwards, also when
    /// `body` throws or the task was cancelled; the server drops it by itself if the process dies.
    public func withUserLock<T: Sendable>(_ user: UserID, wait: Bool, _ body: @Sendable () async throws -> T)
        async throws -> T?
    {
        let key = userLockKey(user)
        let logger = self.logger
        let outcome = try await mappingErrors("withUserLock") {
            try await client.withConnection { connection -> Result<T, any Error>? in
                let db = Connection(connection: connection, logger: logger)
                if wait {
                    try await db.execute("SELECT pg_advisory_lock(\(key))")
                } else if try await db.scalar("SELECT pg_try_advisory_lock(\(key))", as: Bool.self) != true {
                    return nil
                }
                let result: Result<T, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                // Unlock outside this (possibly cancelled) task, so that the driver does not refuse the statement; a
                // connection that cannot unlock is closed, which releases the lock.
                let unlocked = await Task { () -> Bool in
                    (try? await db.scalar("SELECT pg_advisory_unlock(\(key))", as: Bool.self)) == true
                }.value
                if !unlocked { try? await connection.close() }
                return result
            }
        }
        // The body's own error comes out as it was thrown (not as a store error).
        return try outcome?.get()
    }
}

/// LISTEN side of migration 0006's `pg_notify` triggers.
extension PostgresStore: UserChangeFeed {
    public static let changeChannel = "pipeline_user_changed"

    /// LISTENs on `pipeline_user_changed` on a connection of its own (taken from the pool for as long as it follows),
    /// reporting each notification's user; throws when the connection is lost (the caller reconnects and, having
    /// possibly missed notifications, drops what it cached).
    public func followUserChanges(onReady: @Sendable () async -> Void, _ onChange: @Sendable (UserChange) async -> Void)
        async throws
    {
        try await mappingErrors("followUserChanges") {
            try await client.withConnection { connection in
                try await connection.listen(on: Self.changeChannel) { notifications in
                    await onReady()
                    for try await notification in notifications {
                        await onChange(.user(UserID(notification.payload)))
                    }
                }
            }
        }
    }
}
