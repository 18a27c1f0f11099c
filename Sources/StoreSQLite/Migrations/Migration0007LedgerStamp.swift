/// 0007: the size and modification time of an inbox file recorded with its ledger entry (the twin of
/// `StorePostgres/Migrations/Migration0007LedgerStamp.swift`), so that a nightly run recognises a file it applied
/// before without reading and hashing it again (`InboxIngestor`'s quick check, as `make` and `rsync` do). NULL for
/// entries of other inputs (API requests, NDJSON lines, upstream pages) and for entries made before 0007.
enum Migration0007LedgerStamp {
    static let identifier = "0007_ledger_stamp"
    static let sql = "ALTER TABLE ingest_ledger ADD COLUMN source_stamp TEXT;"
}
