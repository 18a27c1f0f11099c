import Foundation
import GRDB
import Store

/// The change table of migration 0006, polled: SQLite's stand-in for LISTEN/NOTIFY (one machine: `pipeline serve`
/// beside a cron-driven nightly run or `pipeline recompute`).
extension SQLiteStore: PolledUserChangeFeed {
    public func userChanges(after position: UserChangePosition?) async throws -> (UserChangePosition, [UserChange]) {
        try await writer.read { db in
            let state = try Self.feedState(db)
            let now = UserChangePosition(version: state.0, everything: state.1)
            guard let from = position, now != from else { return (now, []) }
            var changes: [UserChange] = now.everything != from.everything ? [.everything] : []
            if now.version != from.version {
                changes += try String.fetchAll(
                    db.cachedStatement(sql: "SELECT user_id FROM user_changes WHERE version > ? ORDER BY version"),
                    arguments: [from.version]
                ).map { .user(UserID($0)) }
            }
            return (now, changes)
        }
    }

    /// How often `followUserChanges` looks at the change table (one primary-key read per poll).
    public static let changePollInterval: Duration = .seconds(1)

    public func followUserChanges(onReady: @Sendable () async -> Void, _ onChange: @Sendable (UserChange) async -> Void)
        async throws
    {
        try await followUserChanges(every: Self.changePollInterval, onReady: onReady, onChange)
    }

    /// `followUserChanges` polling every `interval`.
    public func followUserChanges(
        every interval: Duration, onReady: @Sendable () async -> Void,
        _ onChange: @Sendable (UserChange) async -> Void
    ) async throws {
        var seen = try await writer.read { db in try Self.feedState(db) }
        await onReady()
        while true {
            try await Task.sleep(for: interval)
            let from = seen
            let (state, users) = try await writer.read { db -> ((Int64, Int64), [String]) in
                let state = try Self.feedState(db)
                guard state.0 != from.0 else { return (state, []) }
                let users = try String.fetchAll(
                    db.cachedStatement(sql: "SELECT user_id FROM user_changes WHERE version > ? ORDER BY version"),
                    arguments: [from.0])
                return (state, users)
            }
            if state.1 != from.1 { await onChange(.everything) }
            for user in users { await onChange(.user(UserID(user))) }
            seen = state
        }
    }

    static func feedState(_ db: Database) throws -> (Int64, Int64) {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT version, deletions FROM change_feed_state WHERE id = 1"))
        else { return (0, 0) }
        return (row["version"], row["deletions"])
    }
}
