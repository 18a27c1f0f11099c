import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    /// Deletes every row of the user in one transaction and records a `completed` audit row holding only the hash.
    /// When that fails, the transaction has rolled back and a `failed` audit row is written in a transaction of its own.
    public func deleteUser(
        _ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis, purge: Bool
    ) async throws -> DeletionAudit {
        do {
            return try await write("deleteUser") { db in
                let exists = try await db.row("SELECT 1 FROM users WHERE user_id = \(id.rawValue) FOR UPDATE") != nil
                guard exists || purge else {
                    throw StoreError(.notFound, operation: "deleteUser", detail: "no such user")
                }
                let note: String? = exists ? nil : "purged by id: no user row"
                // Children first (`StoreSQL.userTablesChildrenFirst`).
                for table in StoreSQL.userTablesChildrenFirst {
                    try await db.execute("DELETE FROM \(unescaped: table) WHERE user_id = \(id.rawValue)")
                }
                let needles = QuarantineOwnership.payloadNeedles(id)
                try await db.execute(
                    """
                    DELETE FROM quarantine WHERE user_id IS NULL AND (record_id = \(id.rawValue)
                        OR position(\(Data(needles[0])) IN payload) > 0 OR position(\(Data(needles[1])) IN payload) > 0)
                    """)
                try await db.execute("DELETE FROM users WHERE user_id = \(id.rawValue)")
                let auditID = try await db.scalar(
                    """
                    \(unescaped: StoreSQL.insertDeletionAudit)
                    VALUES (\(userHash), \(requestedAt), \(completedAt), 'completed', \(note)) RETURNING id
                    """, as: Int64.self)
                return DeletionAudit(
                    id: auditID, userHash: userHash, requestedAt: requestedAt, completedAt: completedAt,
                    status: .completed, note: note)
            }
        } catch {
            let note =
                (error as? StoreError)?.code == .notFound ? "no such user" : "deletion failed and was rolled back"
            try await write("deleteUser audit") { db in
                try await db.execute(
                    """
                    \(unescaped: StoreSQL.insertDeletionAudit)
                    VALUES (\(userHash), \(requestedAt), NULL, 'failed', \(note))
                    """)
            }
            throw error
        }
    }

    public func deletionAudits() async throws -> [DeletionAudit] {
        try await read("deletionAudits") { db in
            try await db.rows("SELECT * FROM deletion_audit ORDER BY id").map { row in
                DeletionAudit(
                    id: try row.get("id"), userHash: try row.get("user_sha256"),
                    requestedAt: try row.get("requested_at_ms"),
                    completedAt: try row.get("completed_at_ms"),
                    status: DeletionStatus(rawValue: try row.get("status")) ?? .failed, note: try row.get("note"))
            }
        }
    }

    public func wasDeleted(userHash: String) async throws -> Bool {
        try await read("wasDeleted") { db in
            try await db.scalar(
                """
                SELECT EXISTS (SELECT 1 FROM deletion_audit WHERE user_sha256 = \(userHash) AND status = 'completed')
                """, as: Bool.self) ?? false
        }
    }

    public func footprint(user: UserID) async throws -> UserFootprint {
        try await snapshot("footprint") { db in
            func count(_ table: String) async throws -> Int {
                try await db.scalar(
                    "SELECT COUNT(*) FROM \(unescaped: table) WHERE user_id = \(user.rawValue)", as: Int.self) ?? 0
            }
            let needles = QuarantineOwnership.payloadNeedles(user)
            let unowned =
                try await db.scalar(
                    """
                    SELECT COUNT(*) FROM quarantine WHERE user_id IS NULL AND (record_id = \(user.rawValue)
                        OR position(\(Data(needles[0])) IN payload) > 0 OR position(\(Data(needles[1])) IN payload) > 0)
                    """, as: Int.self) ?? 0
            return UserFootprint(
                sessions: try await count("sessions"), workouts: try await count("workouts"),
                sessionMetrics: try await count("session_metrics"), stats: try await count("user_stats"),
                plans: try await count("plans"), quarantine: try await count("quarantine") + unowned,
                users: try await count("users"), workoutMetrics: try await count("workout_metrics"),
                trainingLoad: try await count("training_load"))
        }
    }
}
