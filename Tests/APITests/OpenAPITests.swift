import Foundation
@testable import HTTPAPI
import Hummingbird
import Testing

/// Keeps docs/openapi.yaml in step with the router: the same (method, path) pairs, and every
/// `/v1` operation declared as needing the bearer token while `/healthz` and `/metrics` do not.
@Suite struct OpenAPITests {
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    static var documentURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
    }

    /// Reads `paths:` of the document: path keys at two spaces of indentation, operations at four,
    /// and each operation's `security:` line. (The document keeps to this block layout.)
    static func documentOperations() throws -> [Operation: String] {
        let text = try String(contentsOf: documentURL, encoding: .utf8)
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        var operations: [Operation: String] = [:]
        var inPaths = false
        var path: String?
        var current: Operation?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.isEmpty, !line.hasPrefix(" ") { break }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                      methods.contains(String(line.dropFirst(4).dropLast())), let path {
                current = Operation(method: String(line.dropFirst(4).dropLast()).uppercased(), path: path)
                operations[current!] = ""
            } else if let op = current, line.hasPrefix("      security:") {
                operations[op] = line.trimmingCharacters(in: .whitespaces)
            }
        }
        return operations
    }

    /// The router's routes, with `:name` captures written `{name}` as OpenAPI does.
    static func routerOperations() async throws -> Set<Operation> {
        let h = try await APIHarness()
        let router = buildRouter(services: h.services)
        return Set(router.routes.map { route in
            let path = "\(route.path)".split(separator: "/").map { segment in
                segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
            }.joined(separator: "/")
            return Operation(method: route.method.rawValue, path: "/" + path)
        })
    }

    @Test func documentAndRouterListTheSameRoutes() async throws {
        let documented = Set(try Self.documentOperations().keys)
        let routed = try await Self.routerOperations()
        #expect(routed.count == 10)
        #expect(routed.subtracting(documented).isEmpty, "routes missing from docs/openapi.yaml: \(routed.subtracting(documented))")
        #expect(documented.subtracting(routed).isEmpty, "documented routes the router lacks: \(documented.subtracting(routed))")
    }

    @Test func documentSaysWhichRoutesNeedTheToken() throws {
        for (operation, security) in try Self.documentOperations() {
            if operation.path.hasPrefix("/v1/") {
                #expect(security == "security: [{bearer: []}]", "\(operation)")
            } else {
                #expect(security == "security: []", "\(operation)")
            }
        }
    }
}
