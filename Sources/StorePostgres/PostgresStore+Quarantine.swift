import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    static func quarantine(from row: PostgresRandomAccessRow) throws -> QuarantineRecord {
        QuarantineRecord(
            id: try row.get("id"), userID: try row.get("user_id", as: String?.self).map { UserID($0) },
            source: try row.get("source"), sourceKey: try row.get("source_key"), recordID: try row.get("record_id"),
            reasonCode: QuarantineReason(rawValue: try row.get("reason_code")), message: try row.get("message"),
            payload: [UInt8](try row.get("payload", as: Data.self)), receivedAt: try row.get("received_at_ms"),
            quarantinedAt: try row.get("quarantined_at_ms"))
    }

    public func quarantined(reason: QuarantineReason?, offset: Int, limit: Int) async throws -> [QuarantineRecord] {
        try await read("quarantined") { db in
            if let reason {
                return try await db.rows(
                    """
                    SELECT * FROM quarantine WHERE reason_code = \(reason.rawValue) ORDER BY id LIMIT \(sqlLimit(limit)) OFFSET \(sqlOffset(offset))
                    """
                ).map(Self.quarantine(from:))
            }
            return try await db.rows(
                "SELECT * FROM quarantine ORDER BY id LIMIT \(sqlLimit(limit)) OFFSET \(sqlOffset(offset))"
            ).map(Self.quarantine(from:))
        }
    }

    public func quarantineRecord(id: Int64) async throws -> QuarantineRecord? {
        try await read("quarantineRecord") { db in
            try await db.row("SELECT * FROM quarantine WHERE id = \(id)").map(Self.quarantine(from:))
        }
    }

    public func removeQuarantine(id: Int64) async throws {
        try await write("removeQuarantine") { db in try await db.execute("DELETE FROM quarantine WHERE id = \(id)") }
    }

    public func purgeQuarantine(before: EpochMillis) async throws -> Int {
        try await write("purgeQuarantine") { db in
            try await db.rows("DELETE FROM quarantine WHERE quarantined_at_ms < \(before) RETURNING 1").count
        }
    }

    public func quarantineCountsByReason() async throws -> [QuarantineReason: Int] {
        try await read("quarantineCountsByReason") { db in
            var counts: [QuarantineReason: Int] = [:]
            for row in try await db.rows("SELECT reason_code, COUNT(*) AS n FROM quarantine GROUP BY reason_code") {
                counts[QuarantineReason(rawValue: try row.get("reason_code", as: String.self))] = try row.get(
                    "n", as: Int.self)
            }
            return counts
        }
    }

    // MARK: Jobs

    /// Records the run with this process as its owner, then records as `abandoned` the runs whose process died.
    public func startJob(_ job: String, at: EpochMillis) async throws -> Int64 {
        let owner = ProcessIdentity.current
        let id = try await write("startJob") { db in
            guard
                let id = try await db.scalar(
                    """
                    INSERT INTO job_runs (job, started_at_ms, status, host, pid, process_start)
                    VALUES (\(job), \(at), 'running', \(owner.host), \(owner.pid), \(owner.processStart)) RETURNING id
                    """, as: Int64.self)
            else {
                throw StoreError(.io, operation: "startJob", detail: "no id returned")
            }
            return id
        }
        try await recordAbandonedJobRuns(at: at)
        return id
    }

    public func finishJob(id: Int64, status: JobStatus, at: EpochMillis, countsJSON: String, watermark: String?)
        async throws
    {
        try await write("finishJob") { db in
            try await db.execute(
                """
                UPDATE job_runs SET status = \(status.rawValue), ended_at_ms = \(at), counts_json = \(countsJSON),
                    watermark = \(watermark) WHERE id = \(id)
                """)
        }
    }

    static func jobRun(from row: PostgresRandomAccessRow) throws -> JobRun {
        JobRun(
            id: try row.get("id"), job: try row.get("job"), startedAt: try row.get("started_at_ms"),
            endedAt: try row.get("ended_at_ms"), status: JobStatus(rawValue: try row.get("status")) ?? .failed,
            countsJSON: try row.get("counts_json"), watermark: try row.get("watermark"),
            owner: try row.get("host", as: String?.self).map {
                ProcessIdentity(
                    host: $0, pid: try row.get("pid", as: Int32?.self) ?? 0,
                    processStart: try row.get("process_start", as: String?.self) ?? "")
            })
    }

    public func lastJobRun(_ job: String) async throws -> JobRun? {
        try await jobRuns(job, limit: 1).first
    }

    public func jobRuns(_ job: String, limit: Int) async throws -> [JobRun] {
        try await read("jobRuns") { db in
            try await db.rows("SELECT * FROM job_runs WHERE job = \(job) ORDER BY id DESC LIMIT \(sqlLimit(limit))")
                .map(Self.jobRun(from:))
        }
    }
}
