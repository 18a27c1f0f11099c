/// 0019 (the twin of `StoreSQLite/Migrations/Migration0019SyncLogFromInserts.swift`): SQLite logs stored sessions, their
/// metrics and workout records from its insert functions instead of row triggers, whose statement journals made every
/// insert copy the pages it changed. PostgreSQL has no statement journal and logs multi-row inserts once per statement
/// (0017): nothing to change, the migration keeps both stores' lists alike.
enum Migration0019SyncLogFromInserts {
    static let identifier = "0019_sync_log_from_inserts"
    static let statements: [String] = ["SELECT 1"]
}
