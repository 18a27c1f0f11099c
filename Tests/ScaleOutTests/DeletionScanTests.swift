import Foundation
import GRDB
import Ingest
import Pipeline
import PostgresNIO
import Store
import Testing

@testable import StorePostgres
@testable import StoreSQLite

/// Deletion that reaches everything (issue 14), on both backends: after a nightly over generated data (faults
/// included, so the user has quarantined records too) and the user's deletion, no cell of any table of the store —
/// the ledger, job runs, the audit and the work tables included — holds the user's id, as text or as bytes.
@Suite struct DeletionScanTests {
    @Test(arguments: Backend.available) func afterDeletionNoCellOfAnyTableNamesTheUser(_ backend: Backend) async throws
    {
        let inbox = try Inbox(.init(users: 3, days: 6, seed: 17, endDate: "2026-03-10", faultRate: 0.3))
        let id = "user-0002"
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            let now = inbox.now
            let summary = try await NightlyJob(store: store, logger: quietLogger, now: { now }).run(inbox: inbox.root)
            #expect(summary.ingest.sessions.stored > 0)
            #expect(try await Self.tablesNaming(id, in: store) != []) // the scan finds the user before
            _ = try await UserDeletion(store: store, now: { now }).delete(UserID(id))
            #expect(try await Self.tablesNaming(id, in: store) == [])
            #expect(try await store.footprint(user: UserID("user-0001")).total > 0)
        }
    }

    /// An operator's purge by id reaches rows whose user row is gone: a session stored under an id without an account
    /// row (as an older version could leave behind) and the quarantined records naming it; the audit notes the purge.
    @Test(arguments: Backend.available) func aPurgeByIdReachesRowsWithoutAUserRow(_ backend: Backend) async throws {
        let inbox = try Inbox(.init(users: 2, days: 4, seed: 5, endDate: "2026-03-10", faultRate: 0.3))
        let id = "user-0001"
        try await withDatabase(backend, connections: 1) { stores in
            let store = stores[0]
            let now = inbox.now
            _ = try await NightlyJob(store: store, logger: quietLogger, now: { now }).run(inbox: inbox.root)
            // A deletion that only removed the user row (what `purge` is for).
            if let sqlite = store as? SQLiteStore {
                // Outside a transaction: SQLite ignores the pragma inside one.
                try await sqlite.writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA foreign_keys = OFF")
                    try db.execute(sql: "DELETE FROM users WHERE user_id = ?", arguments: [id])
                    try db.execute(sql: "PRAGMA foreign_keys = ON")
                }
            } else if let postgres = store as? PostgresStore {
                try await postgres.write("test") { db in
                    try await db.execute("SET session_replication_role = replica")
                    try await db.execute("DELETE FROM users WHERE user_id = \(id)")
                    try await db.execute("SET session_replication_role = DEFAULT")
                }
            }
            #expect(try await store.user(UserID(id)) == nil)
            #expect(try await Self.tablesNaming(id, in: store).contains("sessions"))
            await #expect(throws: StoreError.self) { _ = try await UserDeletion(store: store).delete(UserID(id)) }
            let audit = try await UserDeletion(store: store, now: { now }).purge(UserID(id))
            #expect(audit.status == .completed)
            #expect(audit.note == "purged by id: no user row")
            #expect(try await Self.tablesNaming(id, in: store) == [])
        }
    }

    /// The tables with a cell that contains `id` (as UTF-8 text, or its bytes inside a blob).
    static func tablesNaming(_ id: String, in store: any PipelineStore) async throws -> [String] {
        let needle = Array(id.utf8)
        if let sqlite = store as? SQLiteStore {
            return try await sqlite.writer.read { db in
                var found: Set<String> = []
                for table in try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                {
                    for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                        for (_, value) in row {
                            let bytes: [UInt8]
                            switch value.storage {
                            case .string(let text): bytes = Array(text.utf8)
                            case .blob(let data): bytes = [UInt8](data)
                            default: continue
                            }
                            if contains(bytes, needle) { found.insert(table) }
                        }
                    }
                }
                return found.sorted()
            }
        }
        let postgres = try #require(store as? PostgresStore)
        // A row's text form holds its text columns as they are and its bytea columns as hex.
        let hex = needle.map { String(format: "%02x", $0) }.joined()
        return try await postgres.read("scan") { db in
            var found: [String] = []
            let tables = try await db.rows(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
            )
            .map { try $0.get("tablename", as: String.self) }
            for table in tables {
                let hits =
                    try await db.scalar(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT count(*) FROM "\(table)" AS t WHERE strpos(t::text, '\(id)') > 0 OR strpos(t::text, '\(hex)') > 0
                                """), as: Int.self) ?? 0
                if hits > 0 { found.append(table) }
            }
            return found
        }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
