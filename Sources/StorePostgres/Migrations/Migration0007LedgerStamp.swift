/// 0007: the size and modification time of an inbox file recorded with its ledger entry (the twin of
/// `StoreSQLite/Migrations/Migration0007LedgerStamp.swift`); see there.
enum Migration0007LedgerStamp {
    static let identifier = "0007_ledger_stamp"
    static let statements: [String] = [
        "ALTER TABLE ingest_ledger ADD COLUMN source_stamp TEXT",
    ]
}
