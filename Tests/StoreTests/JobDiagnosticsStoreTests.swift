import Foundation
import PostgresNIO
import Store
import Testing

@testable import StorePostgres
@testable import StoreSQLite

/// Migration 0010 and `StoreDiagnostics` on both backends: run owners, abandoned runs, quarantine ages, table sizes.
@Suite struct JobDiagnosticsStoreTests {
    /// Inserts a `running` run with the given owner columns, as a process other than this one would have.
    static func insertRunning(_ t: TestStore, job: String, at: Int64, host: String?, pid: Int32?, start: String?)
        async throws
    {
        switch t.kind {
        case .sqlite(let store, _):
            try await store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO job_runs (job, started_at_ms, status, host, pid, process_start) VALUES (?, ?, 'running', ?, ?, ?)",
                    arguments: [job, at, host, pid, start])
            }
        case .postgres(let store, _):
            try await store.write("test insert") { db in
                try await db.execute(
                    """
                    INSERT INTO job_runs (job, started_at_ms, status, host, pid, process_start) VALUES (\(job), \(at), 'running', \(host), \(pid), \(start))
                    """)
            }
        }
    }

    static func diagnostics(_ t: TestStore) -> any PipelineStore & StoreDiagnostics {
        switch t.kind {
        case .sqlite(let store, _): store
        case .postgres(let store, _): store
        }
    }

    @Test(arguments: Backend.available) func startJobRecordsTheOwnerAndTheDeadRunsAsAbandoned(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            let store = Self.diagnostics(t)
            let me = ProcessIdentity.current
            // A run of this host whose pid now belongs to a process started at another time (this one): dead.
            try await Self.insertRunning(
                t, job: "nightly", at: 1_000, host: me.host, pid: me.pid, start: me.processStart + "9")
            // A run of another host, and one recorded before migration 0010 (no owner): cannot be judged.
            try await Self.insertRunning(
                t, job: "nightly", at: 2_000, host: me.host + ".elsewhere", pid: 4_242, start: "x:1")
            try await Self.insertRunning(t, job: "plans-weekly", at: 3_000, host: nil, pid: nil, start: nil)

            let id = try await store.startJob("nightly", at: 5_000)
            let runs = try await store.jobRuns("nightly", limit: 10)
            #expect(runs.map(\.status) == [.running, .running, .abandoned])
            #expect(runs[0].id == id && runs[0].owner == me)
            #expect(runs[1].owner == ProcessIdentity(host: me.host + ".elsewhere", pid: 4_242, processStart: "x:1"))
            #expect(runs[2].endedAt == nil)
            #expect(runs[2].countsJSON == #"{"error":"abandoned","recorded_at_ms":5000}"#)
            #expect(try await store.runningJobRuns().map(\.startedAt) == [2_000, 3_000, 5_000])
            #expect(try await store.runningJobRuns().map { $0.owner?.liveness } == [.unknown, nil, .alive])

            // Only a running run can be marked.
            try await store.finishJob(id: id, status: .succeeded, at: 6_000, countsJSON: "{}", watermark: nil)
            #expect(try await store.markJobRunAbandoned(id: id, at: 7_000) == false)
            #expect(try await store.lastJobRun("nightly")?.status == .succeeded)
            #expect(try await store.jobNames() == ["nightly", "plans-weekly"])
        }
    }

    @Test(arguments: Backend.available) func quarantineAgesAndTableSizes(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            let store = Self.diagnostics(t)
            try await store.upsertUser(Fixtures.user())
            func record(_ key: String, _ reason: String, at: Int64) -> QuarantineRecord {
                QuarantineRecord(
                    userID: Fixtures.alice, source: "test", sourceKey: key, recordID: nil,
                    reasonCode: QuarantineReason(rawValue: reason),
                    message: "m",
                    payload: Array(key.utf8), receivedAt: at, quarantinedAt: at)
            }
            _ = try await store.apply(
                IngestUnit(quarantine: [
                    record("a", "conflict", at: 300), record("b", "conflict", at: 100),
                    record("c", "malformed_json", at: 200),
                ]))
            #expect(
                try await store.quarantineAges() == [
                    QuarantineReasonAge(reason: "conflict", count: 2, oldestAt: 100, newestAt: 300),
                    QuarantineReasonAge(reason: "malformed_json", count: 1, oldestAt: 200, newestAt: 200),
                ])
            let sizes = try await store.tableSizes()
            let counts = try await store.tableCounts()
            for (table, rows) in counts { #expect(sizes.first { $0.table == table }?.rows == rows, "\(table)") }
            #expect(sizes.first { $0.table == "quarantine" }?.rows == 3)
            #expect(sizes.allSatisfy { ($0.bytes ?? 0) > 0 })
            #expect(try await store.appliedMigrations().last == "0022_recording_columns")
        }
    }
}
