import Foundation
import GRDB
import Store

/// Delta sync and keyset paging (migration 0012): the change log and the reads of the items it names.
extension SQLiteStore {
    public func changeLog(user: UserID, after cursor: ChangeCursor?, limit: Int) async throws -> [ChangeLogEntry] {
        try await writer.read { db in
            // Positions come from one counter bumped in commit order (serial writers): nothing can commit below one seen.
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT kind, item_id, position FROM sync_log WHERE user_id = ? AND position > ? ORDER BY position LIMIT ?
                        """), arguments: [user.rawValue, cursor?.sequence ?? 0, limit]
            ).compactMap { row in
                guard let kind = ChangeKind(rawValue: row["kind"]) else { return nil }
                return ChangeLogEntry(
                    cursor: ChangeCursor(transaction: 0, sequence: row["position"]), kind: kind, itemID: row["item_id"])
            }
        }
    }

    public func sessionSummaries(user: UserID, after key: SessionPageKey?, limit: Int) async throws -> [StoredSession] {
        try await writer.read { db in
            guard let key else {
                return try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(Self.summaryColumns) FROM sessions WHERE user_id = ? ORDER BY started_at_ms DESC, session_id LIMIT ?
                        """, arguments: [user.rawValue, limit]
                ).map(Self.summary(from:))
            }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.summaryColumns) FROM sessions
                    WHERE user_id = ? AND (started_at_ms < ? OR (started_at_ms = ? AND session_id > ?))
                    ORDER BY started_at_ms DESC, session_id LIMIT ?
                    """, arguments: [user.rawValue, key.startedAt, key.startedAt, key.sessionID.rawValue, limit]
            )
            .map(Self.summary(from:))
        }
    }

    public func sessionSummaries(user: UserID, ids: [SessionID]) async throws -> [StoredSession] {
        try await writer.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT \(Self.summaryColumns) FROM sessions WHERE user_id = ? AND session_id = ?")
            return try ids.compactMap { id in
                try Self.firstRow(of: statement, arguments: [user.rawValue, id.rawValue], Self.summary(from:))
            }
        }
    }

    public func sessionMetrics(user: UserID, ids: [SessionID]) async throws -> [SessionMetricsRecord] {
        try await writer.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT * FROM session_metrics WHERE user_id = ? AND session_id = ?")
            return try ids.compactMap { id in
                try Row.fetchOne(statement, arguments: [user.rawValue, id.rawValue]).map(Self.sessionMetrics(from:))
            }
        }
    }

    public func workouts(user: UserID, ids: [WorkoutID]) async throws -> [WorkoutRecord] {
        try await writer.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM workouts WHERE user_id = ? AND workout_id = ?")
            return try ids.compactMap { id in
                try Row.fetchOne(statement, arguments: [user.rawValue, id.rawValue]).map(Self.workout(from:))
            }
        }
    }

    public func plans(user: UserID, versions: [Int]) async throws -> [PlanRecord] {
        try await writer.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM plans WHERE user_id = ? AND version = ?")
            return try versions.compactMap { v in
                try Row.fetchOne(statement, arguments: [user.rawValue, v]).map(Self.plan(from:))
            }
        }
    }

    /// Logs a change of `item` as 0012's triggers do, in the caller's transaction: the counter moves on by one and the
    /// item's row in `sync_log` takes the new position (one row an item, at its last change). Called by the insert
    /// functions of sessions, session metrics and workout records, whose triggers migration 0019 dropped.
    static func logChange(_ kind: ChangeKind, user: String, item: String, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE sync_state SET position = position + 1 WHERE id = 1").execute()
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_log (user_id, kind, item_id, position)
                VALUES (?, ?, ?, (SELECT position FROM sync_state WHERE id = 1))
                ON CONFLICT (user_id, kind, item_id) DO UPDATE SET position = excluded.position
                """
        ).execute(arguments: [user, kind.rawValue, item])
    }
}
