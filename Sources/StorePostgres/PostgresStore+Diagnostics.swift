import Crypto
import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    /// The domain tables and the key order their rows are digested in: the same list as `SQLiteStore.domainTables`
    /// (`StoreSQL.domainTables`).
    static let domainTables = StoreSQL.domainTables

    public func tableCounts() async throws -> [String: Int] {
        try await snapshot("tableCounts") { db in
            var counts: [String: Int] = [:]
            for (table, _) in Self.domainTables + [("ingest_ledger", ""), ("job_runs", "")] {
                counts[table] = try await db.scalar("SELECT COUNT(*) FROM \(unescaped: table)", as: Int.self) ?? 0
            }
            return counts
        }
    }

    /// SHA-256 over every domain row in key order, from one snapshot. Columns that record *when* the pipeline did
    /// something (`computed_at_ms`, `quarantined_at_ms`, `received_at_ms`, `generated_at_ms`) and row ids are left out,
    /// as in `SQLiteStore.contentDigest`: a rerun at another time that changes nothing else has the same digest.
    ///
    /// Each value is written as the SQLite store writes it (its storage class: `string("…")`, `int64(n)`, `double(x)`,
    /// `blob(N bytes)`, `null`; the workout tombstone as `int64(0|1)`), so the same contents give the same digest on
    /// both backends.
    public func contentDigest() async throws -> String {
        try await snapshot("contentDigest") { db in
            var hasher = SHA256()
            let volatile = StoreSQL.digestVolatileColumns
            for (table, order) in Self.domainTables {
                hasher.update(data: Data("table \(table)\n".utf8))
                let query: PostgresQuery =
                    table == "training_load"
                    ? "\(unescaped: DigestedRows.trainingLoad)"
                    : "SELECT * FROM \(unescaped: table) ORDER BY \(unescaped: order)"
                for row in try await db.rows(query) {
                    for cell in row where !volatile.contains(cell.columnName) {
                        // A recording counts as what was uploaded, however it is stored; its size column (0020) is
                        // derived from it, and SQLite's digest does not list it.
                        if table == "sessions", cell.columnName == "raw_size" { continue }
                        if table == "sessions", cell.columnName == "raw_blob", cell.bytes != nil {
                            let recording = try StoredRecording.decode([UInt8](try cell.decode(Data.self)))
                            hasher.update(data: Data("raw_blob=blob(\(String(reflecting: Data(recording))));".utf8))
                            continue
                        }
                        // Samples count as their JSON text, however they are stored (migration 0021).
                        if table == "workouts", cell.columnName == "samples_json", cell.bytes != nil {
                            let text = try StoredSamples.decode([UInt8](try cell.decode(Data.self))).json
                            hasher.update(data: Data("samples_json=string(\(String(reflecting: text)));".utf8))
                            continue
                        }
                        hasher.update(data: Data("\(cell.columnName)=\(try Self.storageDescription(cell));".utf8))
                    }
                    hasher.update(data: Data("\n".utf8))
                }
            }
            return lowercaseHex(hasher.finalize())
        }
    }

    /// A value as SQLite's storage class would print it (see `contentDigest`).
    static func storageDescription(_ cell: PostgresCell) throws -> String {
        if cell.bytes == nil { return "null" }
        switch cell.dataType {
        case .text, .varchar: return "string(\(String(reflecting: try cell.decode(String.self))))"
        case .int2, .int4, .int8: return "int64(\(try cell.decode(Int64.self)))"
        case .float4, .float8: return "double(\(String(reflecting: try cell.decode(Double.self))))"
        case .bool: return "int64(\(try cell.decode(Bool.self) ? 1 : 0))"
        case .bytea: return "blob(\(String(reflecting: try cell.decode(Data.self))))"
        default:
            throw StoreError(
                .io, operation: "contentDigest",
                detail: "column \(cell.columnName) has an unexpected type \(cell.dataType)")
        }
    }
}
