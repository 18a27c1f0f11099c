import Foundation
import PostgresNIO
import Store

/// Delta sync and keyset paging (migration 0012): the change log and the reads of the items it names.
extension PostgresStore {
    public func changeLog(user: UserID, after cursor: ChangeCursor?, limit: Int) async throws -> [ChangeLogEntry] {
        let after = cursor ?? ChangeCursor(transaction: 0, sequence: 0)
        return try await read("changeLog") { db in
            // Only rows of transactions older than the oldest still running: every one of those has committed or
            // aborted, so no row can appear later below what this page returns (migration 0012). The text of the id has
            // a name of its own: `ORDER BY xid` would otherwise sort by the text ("1000" before "999").
            try await db.rows(
                """
                SELECT kind, item_id, xid::text AS xid_text, seq FROM sync_log
                WHERE user_id = \(user.rawValue)
                  AND (xid > \(String(after.transaction))::xid8 OR (xid = \(String(after.transaction))::xid8 AND seq > \(after.sequence)))
                  AND xid < pg_snapshot_xmin(pg_current_snapshot())
                ORDER BY sync_log.xid, seq LIMIT \(sqlLimit(limit))
                """
            ).compactMap { row in
                guard let kind = ChangeKind(rawValue: try row.get("kind")),
                    let transaction = UInt64(try row.get("xid_text", as: String.self))
                else { return nil }
                return ChangeLogEntry(
                    cursor: ChangeCursor(transaction: transaction, sequence: try row.get("seq")), kind: kind,
                    itemID: try row.get("item_id"))
            }
        }
    }

    public func sessionSummaries(user: UserID, after key: SessionPageKey?, limit: Int) async throws -> [StoredSession] {
        try await read("sessionSummaries") { db in
            guard let key else {
                return try await db.rows(
                    """
                    SELECT \(unescaped: Self.summaryColumns) FROM sessions WHERE user_id = \(user.rawValue)
                    ORDER BY started_at_ms DESC, session_id LIMIT \(sqlLimit(limit))
                    """
                ).map { try Self.session(from: $0, withRaw: false) }
            }
            return try await db.rows(
                """
                SELECT \(unescaped: Self.summaryColumns) FROM sessions
                WHERE user_id = \(user.rawValue)
                  AND (started_at_ms < \(key.startedAt) OR (started_at_ms = \(key.startedAt) AND session_id > \(key.sessionID.rawValue)))
                ORDER BY started_at_ms DESC, session_id LIMIT \(sqlLimit(limit))
                """
            ).map { try Self.session(from: $0, withRaw: false) }
        }
    }

    public func sessionSummaries(user: UserID, ids: [SessionID]) async throws -> [StoredSession] {
        try await read("sessionSummaries") { db in
            try await db.rows(
                """
                SELECT \(unescaped: Self.summaryColumns) FROM sessions
                WHERE user_id = \(user.rawValue) AND session_id = ANY(\(ids.map(\.rawValue))::text[])
                """
            ).map { try Self.session(from: $0, withRaw: false) }
        }
    }

    public func sessionMetrics(user: UserID, ids: [SessionID]) async throws -> [SessionMetricsRecord] {
        try await read("sessionMetrics") { db in
            try await db.rows(
                """
                SELECT * FROM session_metrics WHERE user_id = \(user.rawValue) AND session_id = ANY(\(ids.map(\.rawValue))::text[])
                """
            ).map(Self.sessionMetrics(from:))
        }
    }

    public func workouts(user: UserID, ids: [WorkoutID]) async throws -> [WorkoutRecord] {
        try await read("workouts") { db in
            try await db.rows(
                """
                SELECT * FROM workouts WHERE user_id = \(user.rawValue) AND workout_id = ANY(\(ids.map(\.rawValue))::text[])
                """
            ).map(Self.workout(from:))
        }
    }

    public func plans(user: UserID, versions: [Int]) async throws -> [PlanRecord] {
        try await read("plans") { db in
            try await db.rows(
                """
                SELECT * FROM plans WHERE user_id = \(user.rawValue) AND version = ANY(\(versions)::int[])
                """
            ).map(Self.plan(from:))
        }
    }
}
