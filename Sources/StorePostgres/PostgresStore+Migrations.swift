import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    /// The migrations, in order, with PostgreSQL's statements: `StoreMigrations.all` (each in one file under
    /// `Store/Migrations/`, both dialects side by side).
    static let migrations: [(identifier: String, statements: [String])] = StoreMigrations.all.map {
        ($0.identifier, $0.postgres)
    }

    /// The key of the transaction-level advisory lock held while migrating ("pipeline" in ASCII).
    static let migrationLockKey: Int64 = 0x7069_7065_6C69_6E65

    /// Applies the migrations this database has not seen, in one transaction under an advisory lock: a second process
    /// migrating at the same moment waits, then finds everything applied. Applied identifiers are kept in
    /// `schema_migrations`. Throws `StoreError(.io)` when the server has not finished within six times `connectTimeout`.
    public func migrate() async throws {
        // Sixty statements and more on a fresh database: on a loaded server (a test run creating a database per test
        // on two cores) they took longer than one connection's timeout. The bound is against a server that never
        // answers, not a speed limit.
        let deadline = configuration.connectTimeout * 6
        try await withDeadline(deadline, operation: "migrate") {
            try await self.write("migrate") { db in
                try await db.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
                try await db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        identifier TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                        applied_at_ms BIGINT NOT NULL
                    )
                    """)
                let applied = Set(
                    try await db.rows("SELECT identifier FROM schema_migrations").map {
                        try $0.get("identifier", as: String.self)
                    })
                for migration in Self.migrations where !applied.contains(migration.identifier) {
                    for statement in migration.statements {
                        try await db.execute(PostgresQuery(unsafeSQL: statement))
                    }
                    try await db.execute(
                        """
                        INSERT INTO schema_migrations (identifier, applied_at_ms) VALUES (\(migration.identifier), \(Date().epochMillis))
                        """)
                }
            }
        }
    }

    /// Identifiers of the migrations applied to this database, in order.
    public func appliedMigrations() async throws -> [String] {
        try await read("appliedMigrations") { db in
            try await db.rows("SELECT identifier FROM schema_migrations ORDER BY identifier").map {
                try $0.get("identifier", as: String.self)
            }
        }
    }

    /// Runs `body`, giving up with `StoreError(.io)` after `limit` (the pool waits for a server that does not answer).
    func withDeadline<T: Sendable>(
        _ limit: Duration, operation: String,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw StoreError(
                    .io, operation: operation, detail: "no answer from the database server within \(limit)")
            }
            return value
        }
    }
}
