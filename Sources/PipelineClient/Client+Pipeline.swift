import Foundation
import HTTPTypes
import OpenAPIRuntime
// The generated types and client (Generated/PipelineOpenAPI) are part of this module's interface: an app imports
// PipelineClient alone.
@_exported import PipelineOpenAPI
import PipelineVersion

#if canImport(Darwin)
    import OpenAPIURLSession
#else
    import OpenAPIAsyncHTTPClient
#endif

extension Client {
    /// A client of the pipeline's API at `serverURL` (for example `https://api.example.com`), on the platform's
    /// transport: URLSession on Apple platforms, AsyncHTTPClient's shared client on Linux.
    ///
    /// Every request carries `Authorization: Bearer <token>`, the token asked of `token` for each request (so that an
    /// app can refresh it), and a `User-Agent` naming this client's version (`pipeline-client/0.1.0 (<revision>)`)
    /// after the app's own product token when it gives one.
    ///
    /// - Parameters:
    ///   - serverURL: The API's base URL, without `/v1`.
    ///   - userAgent: The app's product token (`MyApp/2.3`), sent before the client's own; nil for the client's alone.
    ///   - token: The user's bearer token (an HS256 JWT the app got at sign-in); asked once per request.
    public init(
        serverURL: URL, userAgent: String? = nil, token: @escaping @Sendable () async throws -> String
    ) {
        self.init(serverURL: serverURL, transport: Self.platformTransport(), userAgent: userAgent, token: token)
    }

    /// ``init(serverURL:userAgent:token:)`` over another transport: a `URLSessionTransport` with the app's own
    /// `URLSession` configuration, say, or a test double.
    public init(
        serverURL: URL, transport: any ClientTransport, userAgent: String? = nil,
        token: @escaping @Sendable () async throws -> String
    ) {
        self.init(
            serverURL: serverURL, configuration: .pipeline, transport: transport,
            middlewares: [
                BearerTokenMiddleware(token: token),
                UserAgentMiddleware(product: userAgent),
            ])
    }

    /// A client that sends the same bearer token with every request: ``init(serverURL:userAgent:token:)`` with a fixed
    /// token.
    public init(serverURL: URL, bearerToken: String, userAgent: String? = nil) {
        self.init(serverURL: serverURL, userAgent: userAgent, token: { bearerToken })
    }

    /// URLSession's transport on Apple platforms, AsyncHTTPClient's (its shared `HTTPClient`) elsewhere.
    static func platformTransport() -> any ClientTransport {
        #if canImport(Darwin)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport()
        #endif
    }
}

extension Configuration {
    /// The runtime's configuration for the pipeline's API: date-times are RFC 3339 with milliseconds as the server
    /// writes them (`2025-12-24T07:00:00.000Z`); without fractional seconds they are read too.
    public static var pipeline: Configuration { Configuration(dateTranscoder: PipelineDateTranscoder()) }
}

/// RFC 3339 date-times: written with milliseconds, read with or without fractional seconds.
public struct PipelineDateTranscoder: DateTranscoder {
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    public init() {}

    public func encode(_ date: Date) throws -> String { date.formatted(Self.fractional) }

    public func decode(_ text: String) throws -> Date {
        if let date = try? Self.fractional.parse(text) { return date }
        do { return try Self.whole.parse(text) } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "not an RFC 3339 date-time: \(text)", underlyingError: error))
        }
    }
}

/// Adds `Authorization: Bearer <token>` to every request, the token asked of the app's closure each time.
public struct BearerTokenMiddleware: ClientMiddleware {
    let token: @Sendable () async throws -> String

    /// A middleware that asks `token` for the bearer token of each request.
    public init(token: @escaping @Sendable () async throws -> String) { self.token = token }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(try await token())"
        return try await next(request, body, baseURL)
    }
}

/// Sets `User-Agent`: the app's product token, if any, then `pipeline-client/<version> (<git revision>)`.
public struct UserAgentMiddleware: ClientMiddleware {
    /// The header's value.
    public let value: String

    /// A middleware sending `product` (the app's `Name/version`) before the client's own token.
    public init(product: String? = nil) {
        let own = "pipeline-client/\(PipelineVersion.version) (\(PipelineVersion.revision))"
        value = product.map { "\($0) \(own)" } ?? own
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.userAgent] = value
        return try await next(request, body, baseURL)
    }
}
