import Foundation
import GRDB
import Store

/// The embedded default store: SQLite through GRDB, in WAL mode, with foreign keys on.
public final class SQLiteStore: PipelineStore {
    public let backendName = "sqlite"
    let writer: any DatabaseWriter
    /// Checkpoints after each batch write, beside the writer (`WALCheckpointer`).
    let checkpointer: WALCheckpointer

    /// The page size of a new database file: 16 KiB rather than SQLite's 4 KiB default. A session's recording (≈ 93 KB
    /// for an hour at 1 Hz) then spans 6 pages instead of 23, each written once to the WAL and once by the checkpoint,
    /// so the writer makes a quarter of the system calls: storing one-hour recordings took ≈ 35 % less wall time and
    /// ≈ 45 % less CPU in the same run (Benchmarks/nightly-results.md, the writer's round of 2026-11-27). The pragma
    /// runs before the pool turns on WAL, so it takes effect only when the file is created; an existing store keeps its
    /// page size (a `VACUUM` would change it).
    public static let pageSizePragma = "PRAGMA page_size = 16384"

    /// Temporary storage in memory, not in files under `/var/tmp`. Every write to a table with triggers (stats, plans,
    /// and before migration 0019 every insert of a session, its metrics or a workout record) runs with a statement
    /// journal, SQLite's copy of each page the statement changes, kept to undo that statement alone; past 64 KiB (four
    /// 16 KiB pages) it went to a temporary file: for a nightly of 5,500 recordings, ≈ 110,000 page writes through the
    /// kernel, and people's data in files outside the store. In memory the same nightly used ≈ 7 % less CPU (perf
    /// samples of two runs each, Benchmarks/nightly-results.md). Temporary tables and sorts are kept in memory too; the
    /// store's queries sort one user's rows at most.
    public static let tempStorePragma = "PRAGMA temp_store = MEMORY"

    /// Opens (creating if needed) the database file at `path` and migrates it.
    public init(path: String) throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.label = "pipeline.sqlite"
        // Deleted content is overwritten with zeros in the file, whatever the SQLite library's own default (Debian's
        // is on, upstream's off): a deleted user's recordings do not stay readable in free pages (`delete`).
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: Self.tempStorePragma)
            try db.execute(sql: Self.pageSizePragma)
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.backstopPages)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        checkpointer = WALCheckpointer(path: path)
        let pool: DatabasePool
        let unknown: [String]
        do {
            pool = try DatabasePool(path: path, configuration: config)
            unknown = try pool.read { db in try Self.unknownMigrations(db) }
        } catch {
            throw StoreError(.migration, operation: "open", detail: "\(error)")
        }
        // A store a newer pipeline migrated may rest on code this binary does not have: since 0019 the change log of
        // sessions and workout records is written by the store's insert functions, so an older binary's inserts would
        // go unlogged and the apps' delta sync would miss them. Such a store is refused rather than written wrongly.
        guard unknown.isEmpty else {
            throw StoreError(
                .migration, operation: "open",
                detail:
                    "the store was migrated by a newer pipeline (\(unknown.joined(separator: ", ")) unknown to this "
                    + "binary, which knows up to \(Self.migrations.last!.0)); run the newer pipeline")
        }
        writer = pool
        do {
            try Self.migrator().migrate(pool)
        } catch {
            throw StoreError(.migration, operation: "open", detail: "\(error)")
        }
    }
}

extension SQLiteStore {
    /// The rows of one cached statement, read in a read transaction, each made a value by `transform`: the shape of
    /// most of this store's reads (its twin is `PostgresStore`'s `read` with `rows`).
    func fetchAll<T: Sendable>(
        _ sql: String, arguments: StatementArguments, _ transform: @escaping @Sendable (Row) throws -> T
    ) async throws -> [T] {
        try await writer.read { db in
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(transform)
        }
    }
}
