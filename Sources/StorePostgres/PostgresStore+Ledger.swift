import PostgresNIO
import Store

extension PostgresStore: IngestLedgerReading {
    public func ledgerHash(_ key: String) async throws -> String? {
        try await read("ledgerHash") { db in
            try await db.scalar("SELECT content_sha256 FROM ingest_ledger WHERE ledger_key = \(key)", as: String.self)
        }
    }

    public func ledgerStamps(_ keys: [String]) async throws -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        return try await read("ledgerStamps") { db in
            var out: [String: String] = [:]
            for row in try await db.rows("""
                SELECT ledger_key, source_stamp FROM ingest_ledger WHERE source_stamp IS NOT NULL AND ledger_key = ANY(\(keys)::text[])
                """) {
                out[try row.get("ledger_key", as: String.self)] = try row.get("source_stamp", as: String.self)
            }
            return out
        }
    }
}
