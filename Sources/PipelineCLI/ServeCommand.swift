import ArgumentParser
import Foundation
import HTTPAPI
import Pipeline

/// `pipeline serve`: the HTTP API the apps call (docs/openapi.yaml).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API (stats, plans, sessions, batch upload, GDPR deletion) until SIGTERM/SIGINT.",
        discussion: """
            The HS256 token key is read from $PIPELINE_JWT_SECRET (at least 32 bytes); the server refuses to start without it. \
            Binds to 127.0.0.1 by default: put a TLS-terminating proxy in front for the apps. /healthz and /metrics need no \
            token, every /v1 route does. Other settings ($PIPELINE_API_CACHE_TTL_S, $PIPELINE_API_UPLOADS_PER_MINUTE, …) \
            are listed in docs/openapi.yaml (info.description). On SIGTERM, in-flight requests finish and running recomputations are cancelled.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @Option(help: "Interface to bind (default: $PIPELINE_API_HOST, else 127.0.0.1).") var host: String?
    @Option(help: "Port (default: $PIPELINE_API_PORT, else 8080; 0 picks a free one).") var port: Int?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        MallocTuning.apply(.server)
        try await runReportingErrors {
            let logger = logging.bootstrap(label: "pipeline.api")
            var configuration: APIConfiguration
            do {
                configuration = try APIConfiguration(environment: ProcessInfo.processInfo.environment)
            } catch let error as ConfigurationError {
                throw CLIError.usage(error.description)
            }
            if let host { configuration.host = host }
            if let port { configuration.port = port }
            let store = try await store.open()
            let host = configuration.host
            try await runAPIServer(store: store, configuration: configuration, logger: logger) { port in
                // One line on stdout once bound, so that scripts can wait for it (and learn the port with --port 0).
                FileHandle.standardOutput.write(
                    Data("listening on http://\(host):\(port.map(String.init) ?? "?")\n".utf8))
            }
        }
    }
}
