import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Store
import TaskManager

/// The HTTP server of the API: Hummingbird's `Application` over `buildRouter`, with the task
/// manager as a lifecycle service.
///
/// Graceful shutdown (SIGTERM/SIGINT under `runService()`, or the enclosing `ServiceGroup`'s):
/// Hummingbird stops accepting connections and lets in-flight requests finish; then, the
/// application's own services being shut down after the server, the task manager cancels
/// whatever still runs and waits for it.
public func buildApplication(
    services: APIServices,
    onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let configuration = services.configuration
    func amount(_ d: Duration) -> TimeAmount {
        .milliseconds(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
    let (head, body, idle) = (
        amount(configuration.headTimeout), amount(configuration.bodyTimeout), amount(configuration.idleTimeout)
    )
    let minBodyRate = MinimumBodyRate(
        bytesPerSecond: configuration.minBodyBytesPerSecond, grace: amount(configuration.bodyRateGrace))
    let metrics = services.metrics
    return Application(
        router: buildRouter(services: services),
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    RequestDeadlineHandler(
                        headTimeout: head, bodyTimeout: body, idleTimeout: idle,
                        minBodyRate: minBodyRate
                    ) { what in
                        metrics.count("connections_closed", "reason", "\(what)_timeout")
                    }
                ],
                idleTimeout: idle)),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        services: [TaskManagerService(taskManager: services.taskManager, logger: services.logger) as any Service]
            + (StoreChangeListener.forStore(of: services).map { [$0 as any Service] } ?? []),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
        logger: services.logger)
}

/// `buildApplication(services:)` with a fresh `APIServices` over `store`.
public func buildApplication(
    store: any PipelineStore,
    configuration: APIConfiguration,
    logger: Logger = Logger(label: "pipeline.api"),
    metrics: APIMetrics = APIMetrics(),
    onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    buildApplication(
        services: APIServices(store: store, configuration: configuration, metrics: metrics, logger: logger),
        onServerRunning: onServerRunning)
}

/// Keeps the task manager for the server's lifetime: on graceful shutdown (or cancellation) it
/// shuts the manager down, which cancels every running task and waits for them.
public struct TaskManagerService: Service {
    let taskManager: TaskManager
    let logger: Logger

    public init(taskManager: TaskManager, logger: Logger) {
        self.taskManager = taskManager
        self.logger = logger
    }

    public func run() async throws {
        try? await gracefulShutdown()
        logger.info("shutting down the task manager", metadata: ["task.count": "\(taskManager.runningTaskIDs.count)"])
        await taskManager.shutdown()
    }
}

/// Runs the API until SIGTERM or SIGINT, then shuts down gracefully (see `buildApplication`).
/// For `pipeline serve`.
public func runAPIServer(
    store: any PipelineStore,
    configuration: APIConfiguration,
    logger: Logger,
    onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
) async throws {
    let app = buildApplication(
        store: store, configuration: configuration, logger: logger, onServerRunning: onServerRunning)
    try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
}
