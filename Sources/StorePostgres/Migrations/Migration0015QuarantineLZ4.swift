/// 0015 (the twin of `StoreSQLite/Migrations/Migration0015QuarantineLZ4.swift`): quarantined payloads compressed with
/// LZ4 instead of pglz when TOASTed, as 0007 did for the recordings. A rejected batch keeps up to 1 MiB of evidence;
/// the server compressing 209 of them with pglz took 1.2 s of a loaded nightly. A server built without LZ4
/// keeps pglz.
enum Migration0015QuarantineLZ4 {
    static let identifier = "0015_quarantine_lz4"
    static let statements: [String] = [
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
