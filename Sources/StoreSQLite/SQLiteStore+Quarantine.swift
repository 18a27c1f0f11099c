import Foundation
import GRDB
import Store

extension SQLiteStore {
    static func quarantine(from row: Row) -> QuarantineRecord {
        QuarantineRecord(
            id: row["id"], userID: (row["user_id"] as String?).map { UserID($0) }, source: row["source"],
            sourceKey: row["source_key"], recordID: row["record_id"],
            reasonCode: QuarantineReason(rawValue: row["reason_code"]),
            message: row["message"], payload: [UInt8](row["payload"] as Data), receivedAt: row["received_at_ms"],
            quarantinedAt: row["quarantined_at_ms"])
    }

    public func quarantined(reason: QuarantineReason?, offset: Int, limit: Int) async throws -> [QuarantineRecord] {
        try await writer.read { db in
            if let reason {
                return try Row.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT * FROM quarantine WHERE reason_code = ? ORDER BY id LIMIT ? OFFSET ?"),
                    arguments: [reason.rawValue, limit, offset]
                ).map(Self.quarantine(from:))
            }
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM quarantine ORDER BY id LIMIT ? OFFSET ?"),
                arguments: [limit, offset]
            ).map(Self.quarantine(from:))
        }
    }

    public func quarantineRecord(id: Int64) async throws -> QuarantineRecord? {
        try await writer.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM quarantine WHERE id = ?"), arguments: [id]).map(
                Self.quarantine(from:))
        }
    }

    public func removeQuarantine(id: Int64) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM quarantine WHERE id = ?", arguments: [id]) }
    }

    public func purgeQuarantine(before: EpochMillis) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM quarantine WHERE quarantined_at_ms < ?", arguments: [before])
            return db.changesCount
        }
    }

    public func quarantineCountsByReason() async throws -> [QuarantineReason: Int] {
        try await writer.read { db in
            var counts: [QuarantineReason: Int] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(sql: "SELECT reason_code, COUNT(*) AS n FROM quarantine GROUP BY reason_code"))
            {
                counts[QuarantineReason(rawValue: row["reason_code"])] = row["n"]
            }
            return counts
        }
    }

    // MARK: Jobs

    /// Records the run with this process as its owner, then records as `abandoned` the runs whose process died.
    public func startJob(_ job: String, at: EpochMillis) async throws -> Int64 {
        let owner = ProcessIdentity.current
        let id = try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO job_runs (job, started_at_ms, status, host, pid, process_start) VALUES (?, ?, 'running', ?, ?, ?)
                    """, arguments: [job, at, owner.host, owner.pid, owner.processStart])
            return db.lastInsertedRowID
        }
        try await recordAbandonedJobRuns(at: at)
        return id
    }

    public func finishJob(id: Int64, status: JobStatus, at: EpochMillis, countsJSON: String, watermark: String?)
        async throws
    {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE job_runs SET status = ?, ended_at_ms = ?, counts_json = ?, watermark = ? WHERE id = ?",
                arguments: [status.rawValue, at, countsJSON, watermark, id])
        }
    }

    static func jobRun(from row: Row) -> JobRun {
        JobRun(
            id: row["id"], job: row["job"], startedAt: row["started_at_ms"], endedAt: row["ended_at_ms"],
            status: JobStatus(rawValue: row["status"]) ?? .failed, countsJSON: row["counts_json"],
            watermark: row["watermark"],
            owner: (row["host"] as String?).map {
                ProcessIdentity(host: $0, pid: row["pid"] ?? 0, processStart: row["process_start"] ?? "")
            })
    }

    public func lastJobRun(_ job: String) async throws -> JobRun? {
        try await jobRuns(job, limit: 1).first
    }

    public func jobRuns(_ job: String, limit: Int) async throws -> [JobRun] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM job_runs WHERE job = ? ORDER BY id DESC LIMIT ?"),
                arguments: [job, limit]
            ).map(Self.jobRun(from:))
        }
    }
}
