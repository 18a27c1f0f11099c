import Store

/// The roles of `PipelineStore` SQLite gives: every one, each the store itself (its conformances are in the topic
/// files: `+Coordination`, `+Ledger`, `+ChangeFeed`, `+Diagnostics`).
extension SQLiteStore {
    public var userLocks: any UserLocks { self }
    /// One writer: transactions commit one after the other.
    public var commitsInParallel: Bool { false }
    public var workLeases: (any WorkLeases)? { self }
    public var ingestLedger: (any IngestLedgerReading)? { self }
    public var changeFeed: (any UserChangeFeed)? { self }
    public var polledChangeFeed: (any PolledUserChangeFeed)? { self }
    public var diagnostics: (any StoreDiagnostics)? { self }
}
