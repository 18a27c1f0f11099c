/// 0002: indexes for the operator's views: what the ledger processed recently, and sessions in the order they
/// arrived (the metrics stage picks up sessions without metrics oldest-received first).
package enum Migration0002Indexes: StoreMigration {
    package static let identifier = "0002_indexes"

    // MARK: SQLite

    package static let sqlite = """
        CREATE INDEX ingest_ledger_by_time ON ingest_ledger(processed_at_ms);
        CREATE INDEX sessions_by_received ON sessions(received_at_ms);
        """

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        "CREATE INDEX ingest_ledger_by_time ON ingest_ledger(processed_at_ms)",
        "CREATE INDEX sessions_by_received ON sessions(received_at_ms)",
    ]
}
