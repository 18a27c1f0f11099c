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
