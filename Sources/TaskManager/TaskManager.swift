import Logging
import Synchronization

/// Runs operations keyed by a typed `TaskID`, at most one per id at a time (Havital's
/// `TaskManageable`).
///
/// - `executeTask(id:operation:)` / `run(id:operation:)` **skip**: if an operation with the same
///   id is running, nothing is started, the running one is left alone, `nil` / `.skipped` is
///   returned and "task already running, skipping duplicate request" is logged.
/// - `join(id:operation:)` **joins** (Go's singleflight): if one is running, the caller awaits
///   its result; its error reaches every joiner.
///
/// The operation runs in its own unstructured task owned by the manager, not in the caller's
/// task. A caller whose task is cancelled stops waiting at once (`CancellationError` /
/// `.cancelled`) but the work goes on for the other callers — and keeps running even when
/// every caller has gone, so that its side effects (a recomputation written to the store)
/// complete. Work is cancelled only by `cancel(id:)`, `cancelAll()` or `shutdown()`.
///
/// State lives behind one `Mutex` (see Benchmarks/taskmanager-cache-results.md for the
/// comparison with an actor).
public final class TaskManager: Sendable {
    public struct Configuration: Sendable {
        /// How the subject of a task id (usually a user id) appears in log lines.
        public enum SubjectLogging: Sendable {
            /// `recompute(u-42)`.
            case plain
            /// `recompute(<redacted>)`: keeps user ids out of logs.
            case redacted
        }

        public var subjectLogging: SubjectLogging
        /// Level of the "task started" and "task completed" lines (skips and cancellations are
        /// `.info`, failures `.warning`).
        public var completionLogLevel: Logger.Level

        public init(subjectLogging: SubjectLogging = .plain, completionLogLevel: Logger.Level = .debug) {
            self.subjectLogging = subjectLogging
            self.completionLogLevel = completionLogLevel
        }
    }

    private let registry = Mutex(Registry())
    private let waiterIDs = Atomic<UInt64>(0)
    private let logger: Logger
    private let configuration: Configuration

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "TaskManager")) {
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: - Running

    /// Runs `operation` unless an operation with the same id is running, in which case the
    /// call is skipped: it returns `nil` at once and the running operation is not disturbed.
    /// Also `nil` if the operation failed or was cancelled, or the manager is shut down; use
    /// `run(id:operation:)` to tell these apart.
    @discardableResult
    public func executeTask<T: Sendable>(
        id: TaskID, operation: @escaping @Sendable () async throws -> T
    ) async -> T? {
        await run(id: id, operation: operation).value
    }

    /// `executeTask(id:operation:)` with the reason when there is no value.
    public func run<T: Sendable>(
        id: TaskID, operation: @escaping @Sendable () async throws -> T
    ) async -> TaskOutcome<T> {
        switch await arrive(id: id, mode: .skipIfRunning, operation: operation) {
        case .value(let value): .completed(value)
        case .skipped: .skipped
        case .rejected: .rejected
        case .failure(let error): error is CancellationError ? .cancelled : .failed(error)
        case .resultTypeMismatch: .skipped // unreachable: skip mode never compares types
        }
    }

    /// Runs `operation`, or if an operation with the same id is running, awaits its result
    /// instead (singleflight). Every caller gets the same value or the same error.
    ///
    /// - Throws: the operation's error; `CancellationError` if the caller's task is cancelled
    ///   while waiting (the operation keeps running for the others); `TaskManagerError` with
    ///   `.shutDown` after `shutdown()`, or `.resultTypeMismatch` if the running operation of
    ///   this id returns another type.
    public func join<T: Sendable>(
        id: TaskID, operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        switch await arrive(id: id, mode: .joinIfRunning, operation: operation) {
        case .value(let value): return value
        case .failure(let error): throw error
        case .rejected: throw TaskManagerError(code: .shutDown, group: id.group)
        case .resultTypeMismatch: throw TaskManagerError(code: .resultTypeMismatch, group: id.group)
        case .skipped: preconditionFailure("join never skips")
        }
    }

    // MARK: - Cancellation and shutdown

    /// Cancels the running operation with this id, if any. Its callers receive whatever it
    /// ends with (normally `CancellationError`). Returns whether one was running.
    @discardableResult
    public func cancel(id: TaskID) -> Bool {
        guard let slot = registry.withLock({ $0.flights[id]?.slot }) else { return false }
        slot.cancel()
        return true
    }

    /// Cancels every running operation. New calls are still accepted.
    public func cancelAll() {
        let slots = registry.withLock { $0.slots }
        if !slots.isEmpty { logger.info("cancelling all tasks", metadata: ["task.count": "\(slots.count)"]) }
        for item in slots { item.cancel() }
    }

    /// Refuses new calls from now on, cancels every running operation and waits until they
    /// have all finished (they must honour cancellation for this to return promptly).
    public func shutdown() async {
        let slots = registry.withLock { registry in
            registry.isShutDown = true
            return registry.slots
        }
        logger.info("task manager shutting down", metadata: ["task.count": "\(slots.count)"])
        for item in slots { item.cancel() }
        await withUnsafeContinuation { (drained: UnsafeContinuation<Void, Never>) in
            let isDrained = registry.withLock { registry in
                if registry.flights.isEmpty { return true }
                registry.drainWaiters.append(drained)
                return false
            }
            if isDrained { drained.resume() }
        }
    }

    // MARK: - Inspection

    public func isRunning(id: TaskID) -> Bool {
        registry.withLock { $0.flights[id] != nil }
    }

    /// The ids of the operations running now, in no particular order.
    public var runningTaskIDs: [TaskID] {
        registry.withLock { Array($0.flights.keys) }
    }

    /// How many callers are awaiting the running operation with this id (0 if none runs).
    public func waiterCount(id: TaskID) -> Int {
        registry.withLock { $0.flights[id]?.waiters.count ?? 0 }
    }

    public var isShutDown: Bool {
        registry.withLock { $0.isShutDown }
    }
}

// MARK: - Machinery

extension TaskManager {
    private enum Resolution<T> {
        case value(T)
        case failure(any Error)
        case skipped
        case rejected
        case resultTypeMismatch
    }

    private func arrive<T: Sendable>(
        id: TaskID, mode: Mode, operation: @escaping @Sendable () async throws -> T
    ) async -> Resolution<T> {
        let waiterID = waiterIDs.wrappingAdd(1, ordering: .relaxed).oldValue
        let resultType = ObjectIdentifier(T.self)
        var arrival = Arrival.joined
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: Waiter) in
                let callerIsCancelled = Task.isCancelled
                arrival = registry.withLock {
                    $0.arrive(
                        id: id, mode: mode, resultType: resultType, callerIsCancelled: callerIsCancelled,
                        waiterID: waiterID, waiter: waiter)
                }
                switch arrival {
                case .start(let token, let slot):
                    slot.attach(start(id: id, token: token, operation: operation))
                case .joined:
                    logger.debug("joining running task", metadata: metadata(id))
                case .skipped:
                    logger.info("task already running, skipping duplicate request", metadata: metadata(id))
                    waiter.resume(returning: .failure(CancellationError()))
                case .rejected:
                    logger.warning("task manager is shut down, rejecting task", metadata: metadata(id))
                    waiter.resume(returning: .failure(CancellationError()))
                case .callerCancelled, .resultTypeMismatch:
                    waiter.resume(returning: .failure(CancellationError()))
                }
            }
        } onCancel: {
            if let waiter = registry.withLock({ $0.leave(id: id, waiterID: waiterID) }) {
                logger.debug("caller cancelled; stops waiting, task keeps running", metadata: metadata(id))
                waiter.resume(returning: .failure(CancellationError()))
            }
        }
        switch arrival {
        case .skipped: return .skipped
        case .rejected: return .rejected
        case .resultTypeMismatch: return .resultTypeMismatch
        case .start, .joined, .callerCancelled:
            switch result {
            case .success(let value): return .value(value as! T)
            case .failure(let error): return .failure(error)
            }
        }
    }

    private func start<T: Sendable>(
        id: TaskID, token: UInt64, operation: @escaping @Sendable () async throws -> T
    ) -> Task<Void, Never> {
        Task {
            logger.log(level: configuration.completionLogLevel, "task started", metadata: metadata(id))
            let result: Result<any Sendable, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            self.finish(id: id, token: token, result: result)
        }
    }

    private func finish(id: TaskID, token: UInt64, result: Result<any Sendable, any Error>) {
        let (waiters, drained) = registry.withLock { $0.finish(id: id, token: token) }
        defer { for item in drained { item.resume() } }
        switch result {
        case .success:
            logger.log(
                level: configuration.completionLogLevel, "task completed",
                metadata: metadata(id, waiters: waiters.count))
        case .failure(let error) where error is CancellationError:
            logger.info("task cancelled", metadata: metadata(id, waiters: waiters.count))
        case .failure(let error):
            var metadata = metadata(id, waiters: waiters.count)
            metadata["error"] = "\(error)"
            logger.warning("task failed", metadata: metadata)
        }
        for waiter in waiters.values {
            waiter.resume(returning: result)
        }
    }

    private func metadata(_ id: TaskID, waiters: Int? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        switch configuration.subjectLogging {
        case .plain:
            metadata["task.id"] = "\(id)"
        case .redacted:
            metadata["task.id"] = id.subject == nil ? "\(id.group)" : "\(id.group)(<redacted>)"
        }
        if let waiters { metadata["task.waiters"] = "\(waiters)" }
        return metadata
    }
}
