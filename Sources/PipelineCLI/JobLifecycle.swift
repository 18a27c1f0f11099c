import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The one way a `pipeline` job command (`nightly`, `worker`, `ingest`, `plans`, `deletions`, `demo`) meets SIGTERM and
/// SIGINT: the job runs as the one service of a swift-service-lifecycle `ServiceGroup` with
/// `gracefulShutdownSignals: [.sigterm, .sigint]`, as `pipeline serve` runs its server (HTTPAPI's `runAPIServer`).
/// Graceful shutdown cancels the job's task, which stops taking new work and stops at its next safe point (between
/// files, batches, sessions, users; a worker gives its leases back) and records its run as `interrupted`; the command
/// then exits `128 + signal` — 143 for SIGTERM, 130 for SIGINT — as a shell reports a process stopped by that signal.
/// Once shutdown has begun, further signals change nothing (the job is already on its way to its safe point; SIGKILL,
/// e.g. systemd's stop timeout, is the hard stop, and safe too: every unit of work is one transaction, but the run
/// then stays `running` in `job_runs` until the next run).
///
/// No command installs a signal handler of its own: `ServiceGroup` is the only one.
enum JobLifecycle {
    /// Exit code of a job stopped by `signal`.
    static func exitCode(for signal: Int32) -> Int32 { 128 + signal }

    /// The error a job command ends with when a signal stopped it; `runReportingErrors` maps it to its exit code.
    struct Interrupted: Error, CustomStringConvertible {
        let signal: Int32
        var name: String { signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "signal \(signal)" }
        var description: String { "stopped by \(name) at a safe point; the next run finishes the work" }
        var exitCode: Int32 { JobLifecycle.exitCode(for: signal) }
    }

    /// What the job service left behind: its result, and the signal that shut the group down, if one did.
    final class Outcome<T: Sendable>: Sendable {
        private struct State {
            var result: Result<T, any Error>?
            var signal: Int32?
        }
        private let state = Mutex(State())
        var result: Result<T, any Error>? {
            get { state.withLock { $0.result } }
            set { state.withLock { $0.result = newValue } }
        }
        var signal: Int32? { state.withLock { $0.signal } }
        /// Records the first signal only.
        func noteSignal(_ signal: Int32) { state.withLock { if $0.signal == nil { $0.signal = signal } } }
    }

    /// The job as a `Service`: runs `body` until it ends or graceful shutdown cancels it, and keeps what it returned or
    /// threw (the service itself returns normally, so that the group ends with it either way).
    struct JobService<T: Sendable>: Service {
        let body: @Sendable () async throws -> T
        let outcome: Outcome<T>
        func run() async throws {
            do {
                outcome.result = .success(try await cancelWhenGracefulShutdown { try await body() })
            } catch {
                outcome.result = .failure(error)
            }
        }
    }

    /// Runs `body` as the one service of a `ServiceGroup` that SIGTERM/SIGINT shut down gracefully. Throws `Interrupted`
    /// when a signal stopped it (whatever error the cancelled body ended with), else returns or rethrows the body's own
    /// result.
    static func run<T: Sendable>(logger: Logger, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        // The group says which signal it caught only in its log (metadata `sl-signal`, at debug level): its logger
        // notes that signal, then passes every record on to the command's own handler at the command's level.
        var groupLogger = logger
        groupLogger.handler = SignalNotingHandler(upstream: logger.handler) { outcome.noteSignal($0) }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: JobService(body: body, outcome: outcome),
                        successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "job")
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: groupLogger))
        try await group.run()
        let result = outcome.result ?? .failure(CancellationError())
        switch result {
        case .success(let value):
            return value
        case .failure(let error):
            if let signal = outcome.signal {
                logger.notice("stopped by a signal at a safe point", metadata: ["signal": "\(signal)"])
                throw Interrupted(signal: signal)
            }
            throw error
        }
    }

    /// A log handler for the group: records the signal of "Signal caught" (`sl-signal` metadata), and forwards records
    /// at or above the upstream handler's level to it.
    struct SignalNotingHandler: LogHandler {
        var upstream: any LogHandler
        let noteSignal: @Sendable (Int32) -> Void
        /// The key swift-service-lifecycle logs the caught signal under (`LoggingConfiguration.Keys().signalKey`).
        static let signalKey = ServiceGroupConfiguration.LoggingConfiguration.Keys().signalKey

        init(upstream: any LogHandler, noteSignal: @escaping @Sendable (Int32) -> Void) {
            self.upstream = upstream
            self.noteSignal = noteSignal
        }

        func log(event: LogEvent) {
            if let value = event.metadata?[Self.signalKey].map({ "\($0)" }) {
                switch value {
                case "SIGTERM": noteSignal(SIGTERM)
                case "SIGINT": noteSignal(SIGINT)
                default: break
                }
            }
            if event.level >= upstream.logLevel { upstream.log(event: event) }
        }

        var metadataProvider: Logger.MetadataProvider? {
            get { upstream.metadataProvider }
            set { upstream.metadataProvider = newValue }
        }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { upstream[metadataKey: key] }
            set { upstream[metadataKey: key] = newValue }
        }
        var metadata: Logger.Metadata {
            get { upstream.metadata }
            set { upstream.metadata = newValue }
        }
        /// Debug, so that the group's "Signal caught" record reaches `log`; what passes on is filtered there.
        var logLevel: Logger.Level {
            get { .debug }
            set { upstream.logLevel = newValue }
        }
    }
}
