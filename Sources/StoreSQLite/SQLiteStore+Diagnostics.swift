import Crypto
import Foundation
import GRDB
import Store

extension SQLiteStore: StoreDiagnostics {
    public func runningJobRuns() async throws -> [JobRun] {
        try await writer.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM job_runs WHERE status = 'running' ORDER BY id")
            return try Row.fetchAll(statement).map(Self.jobRun(from:))
        }
    }

    public func markJobRunAbandoned(id: Int64, at: EpochMillis) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE job_runs SET status = 'abandoned', counts_json = ? WHERE id = ? AND status = 'running'
                    """, arguments: ["{\"error\":\"abandoned\",\"recorded_at_ms\":\(at)}", id])
            return db.changesCount == 1
        }
    }

    public func jobNames() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT DISTINCT job FROM job_runs ORDER BY job"))
        }
    }

    public func quarantineAges() async throws -> [QuarantineReasonAge] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT reason_code, COUNT(*) AS n, MIN(quarantined_at_ms) AS oldest, MAX(quarantined_at_ms) AS newest
                        FROM quarantine GROUP BY reason_code ORDER BY reason_code
                        """)
            ).map {
                QuarantineReasonAge(
                    reason: $0["reason_code"], count: $0["n"], oldestAt: $0["oldest"], newestAt: $0["newest"])
            }
        }
    }

    /// Row counts of every table, and its pages' bytes (indexes included) from SQLite's `dbstat` virtual table
    /// (nil when this SQLite was built without it).
    public func tableSizes() async throws -> [TableSize] {
        try await writer.read { db in
            let tables = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                        """))
            var bytes: [String: Int64] = [:]
            if let rows = try? Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT s.tbl_name AS t, SUM(d.pgsize) AS b FROM dbstat d JOIN sqlite_schema s ON s.name = d.name GROUP BY s.tbl_name
                        """))
            {
                for row in rows { bytes[row["t"]] = row["b"] }
            }
            return try tables.map { table in
                TableSize(
                    table: table, rows: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") ?? 0,
                    bytes: bytes[table])
            }
        }
    }
}

extension SQLiteStore {
    /// The domain tables and the key order their rows are digested in (`StoreSQL.domainTables`).
    static let domainTables = StoreSQL.domainTables

    public func tableCounts() async throws -> [String: Int] {
        try await writer.read { db in
            var counts: [String: Int] = [:]
            for (table, _) in Self.domainTables + [("ingest_ledger", ""), ("job_runs", "")] {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            return counts
        }
    }

    /// The columns of the tables whose SQLite layout is not the canonical one, in the canonical order (the order the
    /// table was created in, which PostgreSQL's keeps): migration 0018 moved the large values to the end of their rows,
    /// and the digest covers values, not layout — the same on both backends and before and after that migration.
    static let digestColumnOrder: [String: String] = [
        "sessions": """
        user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms, duration_s, total_energy_kcal,
        total_distance_m, detail_json, raw_blob, machine, blob_status, blob_note, content_sha256, source, received_at_ms
        """,
        // The order migration 0014 rebuilt the table in.
        "workouts": Migration0014WorkoutFileSources.columns,
    ]

    /// The tables whose digested rows are not all of them (see `DigestedRows`).
    static let digestedRows: [String: String] = ["training_load": DigestedRows.trainingLoad]

    /// SHA-256 over every domain row in key order. Columns that record *when* the pipeline did something
    /// (`computed_at_ms`, `quarantined_at_ms`, `received_at_ms`) are left out: a rerun at another time that
    /// changes nothing else has the same digest.
    public func contentDigest() async throws -> String {
        try await writer.read { db in
            var hasher = SHA256()
            let volatile = StoreSQL.digestVolatileColumns
            for (table, order) in Self.domainTables {
                hasher.update(data: Data("table \(table)\n".utf8))
                let columns = Self.digestColumnOrder[table] ?? "*"
                let rows = try Row.fetchCursor(
                    db, sql: Self.digestedRows[table] ?? "SELECT \(columns) FROM \(table) ORDER BY \(order)")
                while let row = try rows.next() {
                    for (column, value) in row where !volatile.contains(column) {
                        // A recording counts as what was uploaded, however it is stored (0020).
                        if column == "raw_blob", case .blob(let stored) = value.storage {
                            let recording = try StoredRecording.decode([UInt8](stored))
                            hasher.update(data: Data("\(column)=\(DatabaseValue.Storage.blob(Data(recording)));".utf8))
                            continue
                        }
                        // Samples count as their JSON text, however they are stored (`StoredSamples`).
                        if column == "samples_json", case .blob(let stored) = value.storage {
                            let text = try StoredSamples.decode([UInt8](stored)).json
                            hasher.update(data: Data("\(column)=\(DatabaseValue.Storage.string(text));".utf8))
                            continue
                        }
                        hasher.update(data: Data("\(column)=\(value.storage);".utf8))
                    }
                    hasher.update(data: Data("\n".utf8))
                }
            }
            return lowercaseHex(hasher.finalize())
        }
    }
}
