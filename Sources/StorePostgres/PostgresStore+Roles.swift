import Store

/// The roles of `PipelineStore` PostgreSQL gives, each the store itself (its conformances are in the topic files:
/// `+Coordination`, `+Ledger`, `+JobDiagnostics`). Its change feed is LISTEN/NOTIFY, which cannot be read on demand.
extension PostgresStore {
    public var userLocks: any UserLocks { self }
    /// A server: independent transactions commit side by side, each on its own connection.
    public var commitsInParallel: Bool { true }
    public var workLeases: (any WorkLeases)? { self }
    public var ingestLedger: (any IngestLedgerReading)? { self }
    public var changeFeed: (any UserChangeFeed)? { self }
    public var polledChangeFeed: (any PolledUserChangeFeed)? { nil }
    public var diagnostics: (any StoreDiagnostics)? { self }
}
