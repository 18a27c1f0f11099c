/// 0015: PostgreSQL compresses quarantined payloads with LZ4 (`StorePostgres/Migrations/Migration0015QuarantineLZ4.swift`).
/// SQLite stores blobs as they are: nothing to change, the migration keeps both stores' lists alike.
enum Migration0015QuarantineLZ4 {
    static let identifier = "0015_quarantine_lz4"
    static let sql = "SELECT 1;"
}
