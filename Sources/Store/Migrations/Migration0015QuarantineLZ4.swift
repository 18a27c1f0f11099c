/// 0015: quarantined payloads compressed with LZ4 instead of pglz when PostgreSQL TOASTs them, as 0007 did for the
/// recordings. A rejected batch keeps up to 1 MiB of evidence; the server compressing 209 of them with pglz took 1.2 s
/// of a loaded nightly. A server built without LZ4 keeps pglz. SQLite stores blobs as they are: nothing to change
/// there, the migration keeps both stores' lists alike.
package enum Migration0015QuarantineLZ4: StoreMigration {
    package static let identifier = "0015_quarantine_lz4"

    // MARK: SQLite

    package static let sqlite = "SELECT 1;"

    // MARK: PostgreSQL

    package static let postgres: [String] = [
        """
        DO $$
        BEGIN
            ALTER TABLE quarantine ALTER COLUMN payload SET COMPRESSION lz4;
        EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
            NULL;
        END
        $$
        """
    ]
}
