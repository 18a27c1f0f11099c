import GRDB
import Store

extension SQLiteStore: IngestLedgerReading {
    public func ledgerHash(_ key: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT content_sha256 FROM ingest_ledger WHERE ledger_key = ?", arguments: [key])
        }
    }

    public func ledgerStamps(_ keys: [String]) async throws -> [String: String] {
        try await writer.read { db in
            var out: [String: String] = [:]
            var start = 0
            while start < keys.count {
                let chunk = Array(keys[start..<min(start + 500, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                for row in try Row.fetchAll(db, sql: """
                    SELECT ledger_key, source_stamp FROM ingest_ledger WHERE source_stamp IS NOT NULL AND ledger_key IN (\(marks))
                    """, arguments: StatementArguments(chunk)) {
                    out[row["ledger_key"]] = row["source_stamp"] as String
                }
                start += chunk.count
            }
            return out
        }
    }
}
