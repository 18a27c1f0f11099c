import Foundation
import Ingest
import Logging
import PostgresNIO
import Store
import Synchronization
import TestKit
import Testing

@testable import StorePostgres
@testable import StoreSQLite
@testable import SyntheticData

/// The backends: SQLite always; PostgreSQL when `PIPELINE_TEST_POSTGRES_URL` names a server
/// (`scripts/with-postgres.sh` starts one).
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    static var postgresURL: String? { TestPostgres.url }
    /// With `PIPELINE_TEST_REQUIRE_POSTGRES=1` the PostgreSQL cases run (and fail) without a URL (`TestPostgres`).
    static var available: [Backend] { TestPostgres.included ? [.sqlite, .postgres] : [.sqlite] }
    var testDescription: String { rawValue }
}

typealias CoordinatedStore = any PipelineStore & WorkLeases & UserLocks & UserChangeFeed

/// A wall clock that moves only when told to (lease expiry without waiting).
final class ManualClock: Sendable {
    private let millis: Mutex<Int64>
    init(_ start: Int64) { millis = Mutex(start) }
    var now: Int64 { millis.withLock { $0 } }
    func advance(_ delta: Int64) { millis.withLock { $0 += delta } }
}

/// One empty database of `backend`, opened `connections` times (separate pools, as separate processes would), and
/// removed afterwards.
func withDatabase(_ backend: Backend, connections: Int, _ body: ([CoordinatedStore]) async throws -> Void) async throws
{
    switch backend {
    case .sqlite:
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        try await body(try (0..<connections).map { _ in try SQLiteStore(path: path) })
    case .postgres:
        let admin = try PostgresStore.Configuration(url: TestPostgres.requireURL())
        let name = "scale_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE DATABASE \(name)", on: admin)
        var stores: [PostgresStore] = []
        do {
            for _ in 0..<connections {
                stores.append(
                    try await PostgresStore.connect(configuration: admin.with(database: name), logger: quietLogger))
            }
            try await body(stores)
        } catch {
            for store in stores { await store.shutdown() }
            try? await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: admin)
            throw error
        }
        for store in stores { await store.shutdown() }
        try await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: admin)
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "scale-tests")
    logger.logLevel = .warning
    return logger
}()

private func execute(_ sql: String, on configuration: PostgresStore.Configuration) async throws {
    let client = PostgresClient(configuration: configuration.clientConfiguration)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        _ = try await client.query(PostgresQuery(unsafeSQL: sql)).collect()
    }
}

/// A generated inbox in a temporary directory, and the "now" of its runs (the day after it ends, 12:00 UTC).
final class Inbox: Sendable {
    let root: URL
    let manifest: GenerationManifest
    let now: Int64
    init(_ config: Generator.Configuration) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("scale-inbox-\(UUID().uuidString)")
        manifest = try Generator(config).generate(into: root)
        now = RFC3339.parseMillis(config.endDate + "T00:00:00Z")! + 36 * 3_600_000
    }
    deinit { try? FileManager.default.removeItem(at: root) }
    var userCount: Int { manifest.users.count }
}
