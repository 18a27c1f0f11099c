import Foundation
import Logging
import PostgresNIO
import Store

/// A leased connection and the logger its queries log to. Lent to a closure; never kept beyond it.
struct Connection {
    let connection: PostgresConnection
    let logger: Logger

    func execute(_ query: PostgresQuery) async throws {
        _ = try await connection.query(query, logger: logger).collect()
    }

    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await connection.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    func row(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await rows(query).first
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    func scalar<T: PostgresDecodable>(_ query: PostgresQuery, as _: T.Type = T.self) async throws -> T?
    where T._DecodableType == T {
        guard let row = try await row(query) else { return nil }
        return try row[0].decode(T?.self)
    }
}

/// A LIMIT bind as SQLite reads one: a negative limit means no limit (NULL in PostgreSQL).
func sqlLimit(_ limit: Int) -> Int? { limit < 0 ? nil : limit }
/// An OFFSET bind as SQLite reads one: a negative offset counts as zero.
func sqlOffset(_ offset: Int) -> Int { max(offset, 0) }
/// Row `n` (from 0) of a multi-row `VALUES` list of `columns` binds: ` ($1, $2, …)` for the first row, `, ($k+1, …)`
/// after it, numbering the binds row by row in the order they are appended.
func sqlValuesRow(_ n: Int, columns: Int) -> String {
    (n == 0 ? " " : ", ") + "(" + (1...columns).map { "$\(n * columns + $0)" }.joined(separator: ", ") + ")"
}

extension PostgresRandomAccessRow {
    /// The named column decoded as `T` (use an optional type for nullable columns).
    func get<T: PostgresDecodable>(_ column: String, as _: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }
}

extension PostgresStore {
    /// Runs `body` on a leased connection, one statement at a time in autocommit mode.
    func read<T: Sendable>(_ operation: String, _ body: (Connection) async throws -> T) async throws -> T {
        try await mappingErrors(operation) {
            try await client.withConnection { connection in
                try await body(Connection(connection: connection, logger: logger))
            }
        }
    }

    /// Runs `body` in one read-only snapshot, for reads of several statements that must agree with each other.
    func snapshot<T: Sendable>(_ operation: String, _ body: (Connection) async throws -> T) async throws -> T {
        try await transaction(operation, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (its error is rethrown
    /// as it is, so a `StoreError` thrown inside comes out unchanged).
    func write<T: Sendable>(_ operation: String, _ body: (Connection) async throws -> T) async throws -> T {
        try await transaction(operation, begin: "BEGIN", body)
    }

    private func transaction<T: Sendable>(
        _ operation: String, begin: PostgresQuery,
        _ body: (Connection) async throws -> T
    ) async throws -> T {
        try await mappingErrors(operation) {
            try await client.withConnection { connection in
                let db = Connection(connection: connection, logger: logger)
                try await db.execute(begin)
                let value: T
                do {
                    value = try await body(db)
                } catch {
                    try? await db.execute("ROLLBACK")
                    throw error
                }
                try await db.execute("COMMIT")
                return value
            }
        }
    }

    /// Turns the driver's errors into `StoreError`s naming the operation. The server's message names constraints and
    /// tables, never values (those are in its `detail` field, which is left out).
    func mappingErrors<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self.storeError(error, operation: operation)
        }
    }

    static func storeError(_ error: any Error, operation: String) -> any Error {
        switch error {
        case let error as StoreError:
            return error
        case let error as UnreadableRecording:
            // A damaged stored recording names its session (as on SQLite), not an I/O failure of the read.
            return error
        case let error as InvalidStoredDate:
            // So does a stored day that is not a calendar day: its column and text, as on SQLite.
            return error
        case is CancellationError:
            return error
        case let error as PSQLError:
            if let info = error.serverInfo {
                let state = info[.sqlState] ?? "?????"
                let code: StoreError.Code = state.hasPrefix("23") ? .constraint : .io
                return StoreError(code, operation: operation, detail: "SQLSTATE \(state): \(info[.message] ?? "")")
            }
            let underlying = error.underlying.map { ": \($0)" } ?? ""
            return StoreError(.io, operation: operation, detail: "\(error.code)\(underlying)")
        default:
            return StoreError(.io, operation: operation, detail: "\(type(of: error)): \(error)")
        }
    }
}
