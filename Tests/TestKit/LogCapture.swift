import Logging
import Synchronization

/// A log handler that keeps every record, for a test to assert on the log lines its code wrote.
public final class LogCapture: Sendable {
    public struct Record: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: [String: String]
    }

    private let records = Mutex<[Record]>([])

    public init() {}

    /// Every record so far, in the order written.
    public var all: [Record] { records.withLock { $0 } }

    /// The records whose message is `message`.
    public func messages(_ message: String) -> [Record] { all.filter { $0.message == message } }

    /// A logger whose records this keeps (from `level` up).
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

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
            let record = Record(
                level: event.level, message: event.message.description, metadata: merged.mapValues { "\($0)" })
            capture.records.withLock { $0.append(record) }
        }
    }
}
