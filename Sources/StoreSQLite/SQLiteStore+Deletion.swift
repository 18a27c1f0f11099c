import Foundation
import GRDB
import Store

extension SQLiteStore {
    public func deleteUser(
        _ id: UserID, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis, purge: Bool
    ) async throws -> DeletionAudit {
        do {
            let audit = try await writer.write { db in
                let exists =
                    try Int.fetchOne(
                        db.cachedStatement(sql: "SELECT COUNT(*) FROM users WHERE user_id = ?"),
                        arguments: [id.rawValue])
                    == 1
                guard exists || purge else {
                    throw StoreError(.notFound, operation: "deleteUser", detail: "no such user")
                }
                let note: String? = exists ? nil : "purged by id: no user row"
                // Children first (`StoreSQL.userTablesChildrenFirst`), then 0006's change table of this backend.
                for table in StoreSQL.userTablesChildrenFirst + ["user_changes"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id.rawValue])
                }
                try db.execute(
                    sql: "DELETE FROM quarantine WHERE \(Self.unownedQuarantineOf)",
                    arguments: Self.unownedArguments(id))
                try db.execute(sql: "DELETE FROM users WHERE user_id = ?", arguments: [id.rawValue])
                try db.execute(
                    sql: """
                        \(StoreSQL.insertDeletionAudit) VALUES (?, ?, ?, 'completed', ?)
                        """, arguments: [userHash, requestedAt, completedAt, note])
                return DeletionAudit(
                    id: db.lastInsertedRowID, userHash: userHash, requestedAt: requestedAt,
                    completedAt: completedAt, status: .completed, note: note)
            }
            // The deletion zeroed the rows' pages (`secure_delete`), but the write-ahead log still holds the frames
            // written before it, with the person's data. A TRUNCATE checkpoint copies the zeroed pages into the
            // database file and empties the log (it waits for readers up to the busy timeout; if one still holds an
            // older snapshot, the next checkpoints overwrite those frames). A checkpoint already under way holds the
            // lock and the TRUNCATE would fail at once: none of this process's starts meanwhile, and one of another
            // process's is waited out.
            let writer = self.writer
            await checkpointer.withoutBackgroundCheckpoint {
                for _ in 0..<500 {
                    do {
                        _ = try await writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
                        return
                    } catch {
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
            return audit
        } catch {
            // The deletion transaction rolled back; the audit says it failed, in a transaction of its own.
            let note =
                (error as? StoreError)?.code == .notFound ? "no such user" : "deletion failed and was rolled back"
            try await writer.write { db in
                try db.execute(
                    sql: """
                        \(StoreSQL.insertDeletionAudit) VALUES (?, ?, NULL, 'failed', ?)
                        """, arguments: [userHash, requestedAt, note])
            }
            throw error
        }
    }

    public func wasDeleted(userHash: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM deletion_audit WHERE user_sha256 = ? AND status = 'completed')"),
                arguments: [userHash]) ?? false
        }
    }

    public func deletionAudits() async throws -> [DeletionAudit] {
        try await writer.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM deletion_audit ORDER BY id")).map { row in
                DeletionAudit(
                    id: row["id"], userHash: row["user_sha256"], requestedAt: row["requested_at_ms"],
                    completedAt: row["completed_at_ms"], status: DeletionStatus(rawValue: row["status"]) ?? .failed,
                    note: row["note"])
            }
        }
    }

    /// Quarantine rows of the user that have no `user_id` (`QuarantineOwnership`).
    static let unownedQuarantineOf =
        "user_id IS NULL AND (record_id = ? OR instr(payload, ?) > 0 OR instr(payload, ?) > 0)"
    static func unownedArguments(_ id: UserID) -> StatementArguments {
        let needles = QuarantineOwnership.payloadNeedles(id)
        return [id.rawValue, Data(needles[0]), Data(needles[1])]
    }

    public func footprint(user: UserID) async throws -> UserFootprint {
        try await writer.read { db in
            func count(_ table: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE user_id = ?", arguments: [user.rawValue])
                    ?? 0
            }
            let unowned =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM quarantine WHERE \(Self.unownedQuarantineOf)",
                    arguments: Self.unownedArguments(user)) ?? 0
            return UserFootprint(
                sessions: try count("sessions"), workouts: try count("workouts"),
                sessionMetrics: try count("session_metrics"), stats: try count("user_stats"),
                plans: try count("plans"), quarantine: try count("quarantine") + unowned, users: try count("users"),
                workoutMetrics: try count("workout_metrics"), trainingLoad: try count("training_load"))
        }
    }
}
