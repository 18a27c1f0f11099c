/// 0007 (the twin of `StoreSQLite/Migrations/Migration0007LedgerStamp.swift`; see there):
/// - the size and modification time of an inbox file recorded with its ledger entry (`source_stamp`);
/// - recordings compressed with LZ4 instead of PostgreSQL's default pglz when TOASTed (rows stored from now on): the
///   server compressed every recording with pglz, the largest single cost of a nightly run on PostgreSQL (27 s → 17 s
///   for 5,514 one-hour sessions; 339 MB stored). A server built without LZ4 keeps pglz.
enum Migration0007LedgerStamp {
    static let identifier = "0007_ledger_stamp"
    static let statements: [String] = [
        "ALTER TABLE ingest_ledger ADD COLUMN source_stamp TEXT",
        """
        DO $$
        BEGIN
            ALTER TABLE sessions ALTER COLUMN raw_blob SET COMPRESSION lz4;
        EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
            NULL;
        END
        $$
        """,
    ]
}
