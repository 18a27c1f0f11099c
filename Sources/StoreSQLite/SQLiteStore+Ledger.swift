import GRDB
import Store

extension SQLiteStore: IngestLedgerReading {
    public func ledgerHash(_ key: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT content_sha256 FROM ingest_ledger WHERE ledger_key = ?", arguments: [key])
        }
    }
}
