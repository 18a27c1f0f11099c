import Logging
import Synchronization

/// A one-shot gate: `wait()` suspends until `open()`; after that it returns at once.
/// Holds the work under test until every caller has arrived, without sleeping.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    var waitingCount: Int { state.withLock { $0.waiters.count } }
}

final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    @discardableResult
    func increment() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Waits, yielding, until `condition` holds; fails the wait after many rounds so that a
/// broken test ends instead of hanging. Polls state rather than guessing with sleeps.
func eventually(
    _ rounds: Int = 2_000_000, _ condition: () -> Bool
) async -> Bool {
    for _ in 0..<rounds {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

struct LogRecord: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
}

/// A log handler that keeps every record, for asserting on log lines.
final class LogCapture: Sendable {
    private let records = Mutex<[LogRecord]>([])

    var all: [LogRecord] { records.withLock { $0 } }

    func messages(_ message: String) -> [LogRecord] { all.filter { $0.message == message } }

    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ record: LogRecord) { records.withLock { $0.append(record) } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(LogRecord(
                level: event.level, message: event.message.description,
                metadata: merged.mapValues { "\($0)" }))
        }
    }
}

struct TestFailure: Error, Equatable {
    let code: Int
}
