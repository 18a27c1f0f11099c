/// 0003: users whose stats and plan must be recomputed, marked in the same transaction as the data that changed
/// them, so that a run killed between storing data and recomputing still recomputes them next time.
package enum Migration0003PendingRecompute: StoreMigration {
    package static let identifier = "0003_pending_recompute"

    // MARK: SQLite

    package static let sqlite = """
        CREATE TABLE pending_recompute (
            user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            marked_at_ms INTEGER NOT NULL
        );
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        """
        CREATE TABLE pending_recompute (
            user_id TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            marked_at_ms BIGINT NOT NULL
        )
        """
    ]
}
