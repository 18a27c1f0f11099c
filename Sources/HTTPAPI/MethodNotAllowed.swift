import Foundation
import Hummingbird

/// The methods each declared path answers, read from the router once its routes are added (`load`), so that a
/// request with another method on a declared path is answered 405 with `Allow` (RFC 9110 §15.5.6) instead of the
/// router's 404 — what a client, and a contract tester reading docs/openapi.yaml, expect.
final class AllowedMethods: @unchecked Sendable {
    private let lock = NSLock()
    /// Path segments (`nil`: a parameter such as `:week`, which the router describes as `{week}`) and the methods declared on that path.
    private var table: [(segments: [String?], methods: Set<HTTPRequest.Method>)] = []

    func load(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes { byPath[route.path, default: []].insert(route.method) }
        let table = byPath.map { path, methods in
            (
                segments: path.split(separator: "/").map {
                    $0.hasPrefix(":") || $0.hasPrefix("{") || $0.hasPrefix("*") ? nil : String($0)
                }, methods: methods
            )
        }
        lock.withLock { self.table = table }
    }

    /// The methods declared on the path of `path`, nil when no route has this path.
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let parts = path.split(separator: "/")
        return lock.withLock {
            table.first { entry in
                entry.segments.count == parts.count && zip(entry.segments, parts).allSatisfy { $0 == nil || $0! == $1 }
            }?.methods
        }
    }
}

struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let allowed: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let methods = allowed.methods(for: request.uri.path), !methods.contains(request.method),
            !(request.method == .head && methods.contains(.get))
        else {
            return try await next(request, context)
        }
        let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
        throw APIError(
            .methodNotAllowed, .methodNotAllowed, "\(request.method.rawValue) is not allowed here; allowed: \(allow)",
            headers: [.allow: allow])
    }
}
