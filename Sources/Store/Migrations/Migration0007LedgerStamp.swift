/// 0007: the size and modification time of an inbox file recorded with its ledger entry (`source_stamp`), so that a
/// nightly run recognises a file it applied before without reading and hashing it again (`InboxIngestor`'s quick check,
/// as `make` and `rsync` do). NULL for entries of other inputs (API requests, NDJSON lines, upstream pages) and for
/// entries made before 0007.
///
/// PostgreSQL also compresses recordings with LZ4 instead of its default pglz when TOASTed (rows stored from now on):
/// the server compressed every recording with pglz, the largest single cost of a nightly run on PostgreSQL (27 s → 17 s
/// for 5,514 one-hour sessions; 339 MB stored). A server built without LZ4 keeps pglz.
package enum Migration0007LedgerStamp: StoreMigration {
    package static let identifier = "0007_ledger_stamp"

    // MARK: SQLite

    package static let sqlite = "ALTER TABLE ingest_ledger ADD COLUMN source_stamp TEXT;"

    // MARK: PostgreSQL

    package static let postgres: [String] = [
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
