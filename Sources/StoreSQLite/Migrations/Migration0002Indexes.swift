/// 0002: indexes for the operator's views: what the ledger processed recently, and sessions in the order they
/// arrived (the metrics stage picks up sessions without metrics oldest-received first).
enum Migration0002Indexes {
    static let identifier = "0002_indexes"
    static let sql = """
        CREATE INDEX ingest_ledger_by_time ON ingest_ledger(processed_at_ms);
        CREATE INDEX sessions_by_received ON sessions(received_at_ms);
        """
}
