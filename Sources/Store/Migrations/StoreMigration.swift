/// A migration of the store's schema in both dialects, one file each under `Migrations/`: its identifier, SQLite's
/// script and PostgreSQL's statements side by side, so that a change of the schema is written once for both backends
/// and read in one place. Each backend's runner picks its dialect from `StoreMigrations.all` (`SQLiteStore.migrator()`,
/// `PostgresStore.migrate()`). The identifier is what a store records once the migration is applied (GRDB's
/// `grdb_migrations` on SQLite, `schema_migrations` on PostgreSQL): it never changes, and neither does the SQL of a
/// migration a store may already have applied.
package protocol StoreMigration {
    /// The name a store records once the migration is applied.
    static var identifier: String { get }
    /// SQLite's script: several statements, run at once by GRDB's migrator.
    static var sqlite: String { get }
    /// PostgreSQL's statements, one per element: the extended query protocol takes one statement at a time.
    static var postgres: [String] { get }
    /// Whether SQLite's script rebuilds a table (SQLite's way of changing a constraint or the order of columns): its
    /// foreign keys are checked at the end of the migration, not while the old table is dropped.
    static var sqliteRebuildsTable: Bool { get }
}

extension StoreMigration {
    package static var sqliteRebuildsTable: Bool { false }
}

/// One migration's definition as a value (`StoreMigrations.all`).
package struct StoreMigrationStep: Sendable {
    package let identifier: String
    package let sqlite: String
    package let postgres: [String]
    package let sqliteRebuildsTable: Bool

    init<M: StoreMigration>(_: M.Type) {
        identifier = M.identifier
        sqlite = M.sqlite
        postgres = M.postgres
        sqliteRebuildsTable = M.sqliteRebuildsTable
    }
}

package enum StoreMigrations {
    /// The migrations, in order; both backends apply the same list.
    package static let all: [StoreMigrationStep] = [
        StoreMigrationStep(Migration0001Initial.self),
        StoreMigrationStep(Migration0002Indexes.self),
        StoreMigrationStep(Migration0003PendingRecompute.self),
        StoreMigrationStep(Migration0004TrainingLoad.self),
        StoreMigrationStep(Migration0005WorkLeases.self),
        StoreMigrationStep(Migration0006ChangeNotify.self),
        StoreMigrationStep(Migration0007LedgerStamp.self),
        StoreMigrationStep(Migration0010JobRunOwner.self),
        StoreMigrationStep(Migration0011Secrets.self),
        StoreMigrationStep(Migration0012SyncLog.self),
        StoreMigrationStep(Migration0014WorkoutFileSources.self),
        StoreMigrationStep(Migration0015QuarantineLZ4.self),
        StoreMigrationStep(Migration0017SyncLogStatementTriggers.self),
        StoreMigrationStep(Migration0018LargeColumnsLast.self),
        StoreMigrationStep(Migration0019SyncLogFromInserts.self),
        StoreMigrationStep(Migration0020CompressedRecordings.self),
        StoreMigrationStep(Migration0021StoredSamples.self),
        StoreMigrationStep(Migration0022RecordingColumns.self),
    ]
}
