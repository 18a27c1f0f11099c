import PostgresNIO
import Store

extension PostgresStore: IngestLedgerReading {
    public func ledgerHash(_ key: String) async throws -> String? {
        try await read("ledgerHash") { db in
            try await db.scalar("SELECT content_sha256 FROM ingest_ledger WHERE ledger_key = \(key)", as: String.self)
        }
    }

    public func ledgerEntries(_ keys: [String]) async throws -> [String: LedgerEntry] {
        guard !keys.isEmpty else { return [:] }
        return try await read("ledgerEntries") { db in
            var out: [String: LedgerEntry] = [:]
            for row in try await db.rows(
                """
                SELECT ledger_key, content_sha256, source_stamp FROM ingest_ledger WHERE ledger_key = ANY(\(keys)::text[])
                """)
            {
                out[try row.get("ledger_key", as: String.self)] = LedgerEntry(
                    hash: try row.get("content_sha256"), stamp: try row.get("source_stamp"))
            }
            return out
        }
    }
}
