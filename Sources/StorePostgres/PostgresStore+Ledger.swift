import PostgresNIO
import Store

extension PostgresStore: IngestLedgerReading {
    public func ledgerHash(_ key: String) async throws -> String? {
        try await read("ledgerHash") { db in
            try await db.scalar("SELECT content_sha256 FROM ingest_ledger WHERE ledger_key = \(key)", as: String.self)
        }
    }
}
