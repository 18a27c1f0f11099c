import Foundation
import GRDB
import Logging
import PostgresNIO
import Store
import TestKit
import Testing

@testable import StorePostgres
@testable import StoreSQLite

/// The backends the store suite runs against: SQLite always; PostgreSQL when `PIPELINE_TEST_POSTGRES_URL` names a
/// server (`postgres://user@host:port/db`, a user allowed to create databases; `scripts/with-postgres.sh` starts one).
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    /// Read once: the admin URL of the test server, if any.
    static var postgresURL: String? { TestPostgres.url }

    /// With `PIPELINE_TEST_REQUIRE_POSTGRES=1` the PostgreSQL cases run (and fail) without a URL (`TestPostgres`).
    static var available: [Backend] { TestPostgres.included ? [.sqlite, .postgres] : [.sqlite] }

    var testDescription: String { rawValue }
}

/// A fresh, migrated, empty store of one backend, and the backend's own ways of looking inside it.
struct TestStore: Sendable {
    enum Kind: Sendable {
        case sqlite(SQLiteStore, path: String)
        case postgres(PostgresStore, configuration: PostgresStore.Configuration)
    }
    let kind: Kind

    var store: any PipelineStore {
        switch kind {
        case .sqlite(let store, _): store
        case .postgres(let store, _): store
        }
    }

    func appliedMigrations() async throws -> [String] {
        switch kind {
        case .sqlite(let store, _): try await store.appliedMigrations()
        case .postgres(let store, _): try await store.appliedMigrations()
        }
    }

    /// Runs `sql` on the database as it is, past the store's API (to damage a row).
    func executeRaw(_ sql: String) async throws {
        switch kind {
        case .sqlite(let store, _):
            try await store.writer.write { db in try db.execute(sql: sql) }
        case .postgres(let store, _):
            try await store.write("test write") { db in try await db.execute(PostgresQuery(unsafeSQL: sql)) }
        }
    }

    /// How many text cells, in every table of the database, are exactly `value`.
    func textCellsEqual(to value: String) async throws -> Int {
        switch kind {
        case .sqlite(let store, _):
            return try await store.writer.read { db -> Int in
                var n = 0
                for table in try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'"
                ) {
                    for column in try db.columns(in: table) where column.type.uppercased() == "TEXT" {
                        n +=
                            try Int.fetchOne(
                                db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(column.name) = ?", arguments: [value])
                            ?? 0
                    }
                }
                return n
            }
        case .postgres(let store, _):
            return try await store.read("test scan") { db in
                var n = 0
                let columns = try await db.rows(
                    """
                    SELECT table_name, column_name FROM information_schema.columns
                    WHERE table_schema = 'public' AND data_type = 'text' ORDER BY table_name, column_name
                    """)
                #expect(columns.count > 40)
                for column in columns {
                    let table = try column.get("table_name", as: String.self),
                        name = try column.get("column_name", as: String.self)
                    n +=
                        try await db.scalar(
                            "SELECT COUNT(*) FROM \(unescaped: table) WHERE \(unescaped: name) = \(value)", as: Int.self
                        ) ?? 0
                }
                return n
            }
        }
    }
}

/// Runs `body` with a fresh store of `backend` (a new SQLite file, or a new PostgreSQL database), removed afterwards
/// whether the body passed or not.
func withTestStore(_ backend: Backend, _ body: (TestStore) async throws -> Void) async throws {
    switch backend {
    case .sqlite:
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.sqlite").path
        try await body(TestStore(kind: .sqlite(try SQLiteStore(path: path), path: path)))
    case .postgres:
        try await PostgresTestDatabase.with { configuration in
            let store = try await PostgresStore.connect(
                configuration: configuration, logger: PostgresTestDatabase.logger)
            do {
                try await body(TestStore(kind: .postgres(store, configuration: configuration)))
            } catch {
                await store.shutdown()
                throw error
            }
            await store.shutdown()
        }
    }
}

/// Creates a database of its own on the test server for one test and drops it afterwards.
enum PostgresTestDatabase {
    static let logger: Logger = {
        var logger = Logger(label: "store-tests")
        logger.logLevel = .warning // the pool logs every failed connection attempt at info
        return logger
    }()

    static func adminConfiguration() throws -> PostgresStore.Configuration {
        guard let url = Backend.postgresURL else {
            throw StoreError(.invalidConfiguration, operation: "tests", detail: "PIPELINE_TEST_POSTGRES_URL is not set")
        }
        return try PostgresStore.Configuration(url: url)
    }

    static func with(_ body: (PostgresStore.Configuration) async throws -> Void) async throws {
        let admin = try adminConfiguration()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE DATABASE \(name)", on: admin)
        do {
            try await body(admin.with(database: name))
        } catch {
            try? await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: admin)
            throw error
        }
        try await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: admin)
    }

    /// Runs one statement with a short-lived client.
    static func execute(_ sql: String, on configuration: PostgresStore.Configuration) async throws {
        let client = PostgresClient(configuration: configuration.clientConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            _ = try await client.query(PostgresQuery(unsafeSQL: sql)).collect()
        }
    }
}
