/// 0003: users whose stats and plan must be recomputed (the twin of
/// `StoreSQLite/Migrations/Migration0003PendingRecompute.swift`), marked in the same transaction as the data.
enum Migration0003PendingRecompute {
    static let identifier = "0003_pending_recompute"
    static let statements: [String] = [
        """
        CREATE TABLE pending_recompute (
            user_id TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
            marked_at_ms BIGINT NOT NULL
        )
        """
    ]
}
