import GRDB
import Store

extension SQLiteStore: IngestLedgerReading {
    public func ledgerHash(_ key: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT content_sha256 FROM ingest_ledger WHERE ledger_key = ?"),
                arguments: [key])
        }
    }

    public func ledgerEntries(_ keys: [String]) async throws -> [String: LedgerEntry] {
        try await writer.read { db in
            var out: [String: LedgerEntry] = [:]
            var start = 0
            while start < keys.count {
                let chunk = Array(keys[start..<min(start + 500, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT ledger_key, content_sha256, source_stamp FROM ingest_ledger WHERE ledger_key IN (\(marks))
                        """, arguments: StatementArguments(chunk))
                {
                    out[row["ledger_key"]] = LedgerEntry(hash: row["content_sha256"], stamp: row["source_stamp"])
                }
                start += chunk.count
            }
            return out
        }
    }
}
