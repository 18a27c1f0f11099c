import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    /// Where and how to connect, read once from a URL `postgres://user[:password]@host[:port]/database[?sslmode=…]`.
    ///
    /// - The password comes from the URL or, when the URL has none, from `PGPASSWORD` in the environment passed in.
    /// - `sslmode`: `disable` (the default: the throwaway test cluster and a local socket-less setup), `prefer` or `require`.
    /// - `pool_max`: the most connections the store opens (default 10).
    ///
    /// The description never shows the password.
    public struct Configuration: Sendable, CustomStringConvertible {
        public enum TLSMode: String, Sendable { case disable, prefer, require }

        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
        public var maximumConnections: Int
        /// How long `connect` waits for the server to answer before giving up.
        public var connectTimeout: Duration

        public init(
            host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
            tls: TLSMode = .disable, maximumConnections: Int = 10, connectTimeout: Duration = .seconds(10)
        ) {
            self.host = host; self.port = port; self.username = username; self.password = password
            self.database = database; self.tls = tls; self.maximumConnections = maximumConnections
            self.connectTimeout = connectTimeout
        }

        /// Parses `postgres://` or `postgresql://` URLs. `environment` is read once, here (for `PGPASSWORD`).
        public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
            func invalid(_ why: String) -> StoreError {
                StoreError(.invalidConfiguration, operation: "parse database URL", detail: why)
            }
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
                throw invalid("not a URL")
            }
            guard scheme == "postgres" || scheme == "postgresql" else {
                throw invalid("scheme must be postgres:// or postgresql://")
            }
            guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
            guard let user = components.user, !user.isEmpty else { throw invalid("no user name") }
            let database = String(components.path.drop(while: { $0 == "/" }))
            guard !database.isEmpty, !database.contains("/") else {
                throw invalid("no database name (postgres://user@host:port/database)")
            }
            var tls = TLSMode.disable
            var maximumConnections = 10
            for item in components.queryItems ?? [] {
                switch item.name {
                case "sslmode":
                    guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                        throw invalid("sslmode must be disable, prefer or require")
                    }
                    tls = mode
                case "pool_max":
                    guard let n = item.value.flatMap(Int.init), n >= 1 else {
                        throw invalid("pool_max must be a positive integer")
                    }
                    maximumConnections = n
                default:
                    throw invalid("unknown parameter \(item.name)")
                }
            }
            let password = components.password ?? environment["PGPASSWORD"]
            self.init(
                host: host, port: components.port ?? 5432, username: user, password: password, database: database,
                tls: tls, maximumConnections: maximumConnections)
        }

        public var description: String {
            "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database) (sslmode=\(tls.rawValue), pool_max=\(maximumConnections))"
        }

        /// The same server and credentials, another database (tests create one database per test).
        public func with(database: String) -> Configuration {
            var copy = self
            copy.database = database
            return copy
        }

        /// The postgres-nio client configuration this describes.
        public var clientConfiguration: PostgresClient.Configuration {
            let tlsConfiguration: PostgresClient.Configuration.TLS
            switch tls {
            case .disable: tlsConfiguration = .disable
            case .prefer: tlsConfiguration = .prefer(.makeClientConfiguration())
            case .require: tlsConfiguration = .require(.makeClientConfiguration())
            }
            var configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password,
                database: database, tls: tlsConfiguration)
            configuration.options.maximumConnections = maximumConnections
            configuration.options.connectTimeout = connectTimeout
            return configuration
        }
    }
}
