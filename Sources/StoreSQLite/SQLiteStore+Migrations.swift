import Foundation
import GRDB
import Store

extension SQLiteStore {
    /// The migrations, in order; each lives in its own file under `Migrations/`.
    static let migrations: [(String, String)] = [
        (Migration0001Initial.identifier, Migration0001Initial.sql),
        (Migration0002Indexes.identifier, Migration0002Indexes.sql),
        (Migration0003PendingRecompute.identifier, Migration0003PendingRecompute.sql),
        (Migration0004TrainingLoad.identifier, Migration0004TrainingLoad.sql),
        (Migration0005WorkLeases.identifier, Migration0005WorkLeases.sql),
        (Migration0006ChangeNotify.identifier, Migration0006ChangeNotify.sql),
        (Migration0007LedgerStamp.identifier, Migration0007LedgerStamp.sql),
        (Migration0010JobRunOwner.identifier, Migration0010JobRunOwner.sql),
        (Migration0011Secrets.identifier, Migration0011Secrets.sql),
        (Migration0012SyncLog.identifier, Migration0012SyncLog.sql),
        (Migration0014WorkoutFileSources.identifier, Migration0014WorkoutFileSources.sql),
        (Migration0015QuarantineLZ4.identifier, Migration0015QuarantineLZ4.sql),
        (Migration0017SyncLogStatementTriggers.identifier, Migration0017SyncLogStatementTriggers.sql),
        (Migration0018LargeColumnsLast.identifier, Migration0018LargeColumnsLast.sql),
        (Migration0019SyncLogFromInserts.identifier, Migration0019SyncLogFromInserts.sql),
        (Migration0020CompressedRecordings.identifier, Migration0020CompressedRecordings.sql),
        (Migration0021StoredSamples.identifier, Migration0021StoredSamples.sql),
    ]

    /// The migrations that rebuild a table (SQLite's way of changing a constraint or the order of columns).
    static let rebuildingMigrations: Set<String> = [
        Migration0014WorkoutFileSources.identifier, Migration0018LargeColumnsLast.identifier,
        Migration0020CompressedRecordings.identifier,
    ]

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
