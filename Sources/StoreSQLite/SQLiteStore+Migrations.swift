import Foundation
import GRDB
import Store

extension SQLiteStore {
    /// The migrations, in order, with SQLite's script: `StoreMigrations.all` (each in one file under
    /// `Store/Migrations/`, both dialects side by side).
    static let migrations: [(String, String)] = StoreMigrations.all.map { ($0.identifier, $0.sqlite) }

    /// The migrations that rebuild a table (SQLite's way of changing a constraint or the order of columns).
    static let rebuildingMigrations = Set(StoreMigrations.all.filter(\.sqliteRebuildsTable).map(\.identifier))

    /// Migrations applied to the store that this binary does not have, sorted.
    static func unknownMigrations(_ db: Database) throws -> [String] {
        let known = Set(migrations.map(\.0))
        return try migrator().appliedIdentifiers(db).subtracting(known).sorted()
    }

    /// Identifiers of the migrations applied to this database, in order.
    public func appliedMigrations() async throws -> [String] {
        try await writer.read { db in try Self.migrator().appliedIdentifiers(db) }.sorted()
    }

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, sql) in migrations {
            // A migration that rebuilds a table checks foreign keys at its end, not while the old table is dropped.
            let checks: DatabaseMigrator.ForeignKeyChecks =
                rebuildingMigrations.contains(identifier) ? .deferred : .immediate
            migrator.registerMigration(identifier, foreignKeyChecks: checks) { db in try db.execute(sql: sql) }
        }
        return migrator
    }
}
