/// 0017: PostgreSQL logs stored and measured sessions once per statement instead of once per row
/// (`StorePostgres/Migrations/Migration0017SyncLogStatementTriggers.swift`). SQLite's triggers run in the writing
/// process, per row, at no round trip's cost: nothing to change, the migration keeps both stores' lists alike.
enum Migration0017SyncLogStatementTriggers {
    static let identifier = "0017_sync_log_statement_triggers"
    static let sql = "SELECT 1;"
}
