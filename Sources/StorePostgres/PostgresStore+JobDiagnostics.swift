import Foundation
import PostgresNIO
import Store

extension PostgresStore: StoreDiagnostics {
    public func runningJobRuns() async throws -> [JobRun] {
        try await read("runningJobRuns") { db in
            try await db.rows("SELECT * FROM job_runs WHERE status = 'running' ORDER BY id").map(Self.jobRun(from:))
        }
    }

    public func markJobRunAbandoned(id: Int64, at: EpochMillis) async throws -> Bool {
        try await write("markJobRunAbandoned") { db in
            let counts = "{\"error\":\"abandoned\",\"recorded_at_ms\":\(at)}"
            return try await db.rows(
                """
                UPDATE job_runs SET status = 'abandoned', counts_json = \(counts) WHERE id = \(id) AND status = 'running' RETURNING id
                """
            ).count == 1
        }
    }

    public func jobNames() async throws -> [String] {
        try await read("jobNames") { db in
            try await db.rows("SELECT DISTINCT job FROM job_runs ORDER BY job").map {
                try $0.get("job", as: String.self)
            }
        }
    }

    public func quarantineAges() async throws -> [QuarantineReasonAge] {
        try await read("quarantineAges") { db in
            try await db.rows(
                """
                SELECT reason_code, COUNT(*) AS n, MIN(quarantined_at_ms) AS oldest, MAX(quarantined_at_ms) AS newest
                FROM quarantine GROUP BY reason_code ORDER BY reason_code
                """
            ).map {
                QuarantineReasonAge(
                    reason: try $0.get("reason_code"), count: Int(try $0.get("n", as: Int64.self)),
                    oldestAt: try $0.get("oldest"), newestAt: try $0.get("newest"))
            }
        }
    }

    /// Row counts of every table of the current schema and `pg_total_relation_size` (table, indexes and TOAST).
    public func tableSizes() async throws -> [TableSize] {
        try await snapshot("tableSizes") { db in
            let tables = try await db.rows(
                """
                SELECT tablename, pg_total_relation_size(quote_ident(tablename)::regclass) AS bytes
                FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename
                """
            ).map { (try $0.get("tablename", as: String.self), try $0.get("bytes", as: Int64.self)) }
            var sizes: [TableSize] = []
            for (table, bytes) in tables {
                let rows =
                    try await db.scalar(PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM \"\(table)\""), as: Int64.self)
                    ?? 0
                sizes.append(TableSize(table: table, rows: Int(rows), bytes: bytes))
            }
            return sizes
        }
    }
}
