import Foundation
import Logging
import PostgresNIO
import Store

/// The shared store for several workers: PostgreSQL through postgres-nio's `PostgresClient` (a connection pool).
///
/// It behaves like `SQLiteStore` outcome for outcome (the same test suite runs against both); the schema is the same
/// migrations' PostgreSQL statements (`Store/Migrations/`, each beside its SQLite script), applied under an advisory
/// lock so that processes starting together do not race.
///
/// ## Lifecycle
///
/// The pool needs `PostgresClient.run()` running for as long as the store is used. Either:
///
/// - **Owned task** (CLI, tests): `let store = try await PostgresStore.connect(url: …, logger: …)` starts the client in a
///   background task the store owns, migrates, and returns the ready store; `await store.shutdown()` stops it.
/// - **ServiceGroup** (servers): `let store = PostgresStore(configuration: …, logger: …)`, put `store.client` (a
///   `ServiceLifecycle.Service`) into the application's `ServiceGroup` (or call `await store.run()` in a task of your
///   own), then `try await store.migrate()` before first use. Cancelling the group closes the pool.
///
/// No task is started by the initializer.
public final class PostgresStore: PipelineStore {
    public let backendName = "postgres"
    public let configuration: Configuration
    /// The connection pool. Run it (`run()`) yourself when you did not use `connect` or `start()`.
    public let client: PostgresClient
    let logger: Logger
    private let runner = OwnedRunTask()

    /// Builds the store and its (not yet running) pool. See the type's documentation for how to run it.
    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
    }

    /// Parses `url` (see `Configuration`), starts the pool in a task the store owns, and migrates.
    /// Call `shutdown()` when done.
    public static func connect(
        url: String, logger: Logger,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> PostgresStore {
        try await connect(configuration: Configuration(url: url, environment: environment), logger: logger)
    }

    /// Checks that the server takes these credentials (one plain connection, so that a wrong password or a missing
    /// database is reported as such: the pool would only retry), starts the pool in a task the store owns and migrates;
    /// on failure the pool is stopped again.
    public static func connect(configuration: Configuration, logger: Logger) async throws -> PostgresStore {
        try await probe(configuration, logger: logger)
        let store = PostgresStore(configuration: configuration, logger: logger)
        store.start()
        do {
            try await store.migrate()
        } catch {
            await store.shutdown()
            throw error
        }
        return store
    }

    /// Opens and closes one connection, failing with the server's own reason (`StoreError(.io)`).
    static func probe(_ configuration: Configuration, logger: Logger) async throws {
        do {
            let tls: PostgresConnection.Configuration.TLS
            switch configuration.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            var options = PostgresConnection.Configuration(
                host: configuration.host, port: configuration.port,
                username: configuration.username, password: configuration.password,
                database: configuration.database, tls: tls)
            let (seconds, attoseconds) = configuration.connectTimeout.components
            options.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            let connection = try await PostgresConnection.connect(
                on: PostgresClient.defaultEventLoopGroup.any(), configuration: options, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw storeError(
                error, operation: "connect to \(configuration.host):\(configuration.port)/\(configuration.database)")
        }
    }

    /// Runs the pool until the calling task is cancelled (for a task group or a `ServiceGroup` of your own).
    public func run() async {
        await client.run()
    }

    /// Starts the pool in a background task owned by the store (no-op when already started).
    public func start() {
        runner.start { [client] in Task { await client.run() } }
    }

    /// Stops the owned background task and waits until the pool has closed its connections. Safe to call twice.
    public func shutdown() async {
        guard let task = runner.take() else { return }
        task.cancel()
        await task.value
    }

    deinit {
        // A store dropped without `shutdown()` still closes its pool (without waiting for it).
        runner.take()?.cancel()
    }
}

/// The background task running the pool when the store owns it.
private final class OwnedRunTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    private var started = false

    func start(_ make: () -> Task<Void, Never>) {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        task = make()
    }

    func take() -> Task<Void, Never>? {
        lock.lock()
        defer { lock.unlock() }
        let taken = task
        task = nil
        return taken
    }
}
