import Logging
import Synchronization
@_exported import TestKit

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
            capture.append(
                LogRecord(
                    level: event.level, message: event.message.description,
                    metadata: merged.mapValues { "\($0)" }))
        }
    }
}

struct TestFailure: Error, Equatable {
    let code: Int
}
