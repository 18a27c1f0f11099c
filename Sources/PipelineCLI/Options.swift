import ArgumentParser
import Foundation
import Logging
import Pipeline
import Store
import StorePostgres
import StoreSQLite

/// Options every command that touches the store shares.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "Database: an SQLite file path or a postgres:// URL (default: $PIPELINE_DB, else ./pipeline.sqlite).")
    var db: String?

    var resolved: String { db ?? ProcessInfo.processInfo.environment["PIPELINE_DB"] ?? "pipeline.sqlite" }

    /// Opens (and migrates) the store: PostgreSQL for a `postgres://` URL (password from the URL or $PGPASSWORD),
    /// else an SQLite file.
    func open() async throws -> any PipelineStore {
        let target = resolved
        if target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") {
            return try await PostgresStore.connect(url: target, logger: Logger(label: "pipeline.store"))
        }
        return try SQLiteStore(path: target)
    }
}

/// `--user ID` of a command on one user of the store.
struct UserOption: ParsableArguments {
    @Option(help: "User id.") var user: String

    /// The user's id, once the store knows the user; else `CLIError.notFound` (exit 66).
    func existing(in store: any PipelineStore) async throws -> UserID {
        try await Self.existing(user, in: store)
    }

    /// The id of `user`, once the store knows the user; else `CLIError.notFound` (exit 66).
    static func existing(_ user: String, in store: any PipelineStore) async throws -> UserID {
        let id = UserID(user)
        guard try await store.user(id) != nil else { throw CLIError.notFound("unknown user: \(user)") }
        return id
    }
}

struct LogOptions: ParsableArguments {
    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = ProcessInfo.processInfo.environment["PIPELINE_LOG_LEVEL"] ?? "notice"

    @Option(name: .long, help: "Log format on stderr: json (one object per line) or text.")
    var logFormat: String = ProcessInfo.processInfo.environment["PIPELINE_LOG_FORMAT"] ?? "json"

    func bootstrap(label: String) -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .notice
        let json = logFormat != "text"
        LoggingBootstrap.once(level: level, json: json)
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}

enum LoggingBootstrap {
    nonisolated(unsafe) static var done = false
    static func once(level: Logger.Level, json: Bool) {
        guard !done else { return }
        done = true
        LoggingSystem.bootstrap { label in
            var handler = StructuredLogHandler(label: label, json: json)
            handler.logLevel = level
            return handler
        }
    }
}

enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case notFound(String)
    case failed(String)
    var description: String {
        switch self {
        case .usage(let s), .notFound(let s), .failed(let s): s
        }
    }
    var exitCode: ExitCode {
        switch self {
        case .usage: ExitCode(64)
        case .notFound: ExitCode(66)
        case .failed: ExitCode(1)
        }
    }
}

/// Runs a command body, mapping failures to the documented exit codes with one clear line on stderr.
func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CLIError {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
        throw error.exitCode
    } catch let error as ExitCode {
        throw error
    } catch let error as JobLifecycle.Interrupted {
        FileHandle.standardError.write(Data("interrupted: \(error.description)\n".utf8))
        throw ExitCode(error.exitCode)
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

/// A progress line on stderr, only when stderr is a terminal.
struct ProgressLine: Sendable {
    let enabled = isatty(STDERR_FILENO) == 1
    func show(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
    }
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

/// A command's `--json` answer: pretty, keys sorted, `/` unescaped, written by the package's JSON writer
/// (`SortedJSON.prettyText`, the bytes `JSONEncoder` wrote with those options).
func printJSON(_ value: some Encodable) throws {
    print(try SortedJSONEncoder.encode(value, numbers: .asEncoded).prettyText)
}
