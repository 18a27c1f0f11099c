/// A store that can say what its ingest ledger holds for a key, so that an input already applied is recognised
/// from its bytes' hash before it is validated again (the nightly run over an inbox that keeps every file it ever
/// received reads each old file and one ledger row, nothing more). Optional: a store without it still changes
/// nothing on a repeated input, `apply` finds the ledger entry, only later.
public protocol IngestLedgerReading: Sendable {
    /// The content hash recorded with `key`, nil when no unit with that key was applied.
    func ledgerHash(_ key: String) async throws -> String?
    /// The source stamps (`IngestUnit.ledgerStamp`: an inbox file's size and modification time) recorded with those of
    /// `keys` that have one, by key: one query for a whole inbox.
    func ledgerStamps(_ keys: [String]) async throws -> [String: String]
}
