import Foundation
import Hummingbird
import Testing

@testable import HTTPAPI

/// Keeps docs/openapi.yaml in step with the router: the same (method, path) pairs, and every
/// `/v1` operation declared as needing the bearer token while `/healthz` and `/metrics` do not.
@Suite struct OpenAPITests {
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    static var documentURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
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
                methods.contains(String(line.dropFirst(4).dropLast())), let path
            {
                current = Operation(method: String(line.dropFirst(4).dropLast()).uppercased(), path: path)
                operations[current!] = ""
            } else if let op = current, line.hasPrefix("      security:") {
                operations[op] = line.trimmingCharacters(in: .whitespaces)
            }
        }
        return operations
    }

    /// Each operation's lines of the document (from its `get:`/`post:`… line to the next operation or path).
    static func documentOperationTexts() throws -> [Operation: String] {
        let text = try String(contentsOf: documentURL, encoding: .utf8)
        let operations = try documentOperations()
        var texts: [Operation: String] = [:]
        var path: String?
        var current: Operation?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.isEmpty, !line.hasPrefix(" ") { break }
            if line.hasPrefix("  /"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
                current = nil
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path {
                let candidate = Operation(method: String(line.dropFirst(4).dropLast()).uppercased(), path: path)
                current = operations[candidate] != nil ? candidate : nil
            } else if let op = current {
                texts[op, default: ""] += line + "\n"
            }
        }
        return texts
    }

    /// The cached GETs document content negotiation: the `Accept-Encoding` request header and
    /// the `Content-Encoding` and `Vary` response headers the server sends (CachedResponse.swift).
    @Test func cachedRoutesDocumentCompression() throws {
        let texts = try Self.documentOperationTexts()
        let cached = ["/v1/me/stats", "/v1/me/plan", "/v1/me/plan/weeks/{week}", "/v1/me/report"].map {
            Operation(method: "GET", path: $0)
        }
        for operation in cached {
            let text = try #require(texts[operation], "\(operation)")
            #expect(text.contains("- $ref: '#/components/parameters/AcceptEncoding'"), "\(operation)")
            #expect(text.contains("Content-Encoding: {$ref: '#/components/headers/ContentEncoding'}"), "\(operation)")
            #expect(text.contains("Vary: {$ref: '#/components/headers/Vary'}"), "\(operation)")
            #expect(text.contains("'304': {$ref: '#/components/responses/NotModified'}"), "\(operation)")
        }
        // Only those: no other operation claims to negotiate.
        for (operation, text) in texts where !cached.contains(operation) {
            #expect(!text.contains("AcceptEncoding"), "\(operation)")
        }
        let document = try String(contentsOf: Self.documentURL, encoding: .utf8)
        for component in [
            "    AcceptEncoding:\n      name: Accept-Encoding\n      in: header", "    ContentEncoding:\n",
            "    Vary:\n", "        Vary: {$ref: '#/components/headers/Vary'}\n  schemas:",
        ] {
            #expect(document.contains(component), "\(component)")
        }
    }

    /// The router's routes, with `:name` captures written `{name}` as OpenAPI does.
    static func routerOperations() async throws -> Set<Operation> {
        let h = try await APIHarness()
        let router = buildRouter(services: h.services)
        return Set(
            router.routes.map { route in
                let path = "\(route.path)".split(separator: "/").map { segment in
                    segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
                }.joined(separator: "/")
                return Operation(method: route.method.rawValue, path: "/" + path)
            })
    }

    @Test func documentAndRouterListTheSameRoutes() async throws {
        let documented = Set(try Self.documentOperations().keys)
        let routed = try await Self.routerOperations()
        #expect(routed.count == 13)
        #expect(
            routed.subtracting(documented).isEmpty,
            "routes missing from docs/openapi.yaml: \(routed.subtracting(documented))")
        #expect(
            documented.subtracting(routed).isEmpty,
            "documented routes the router lacks: \(documented.subtracting(routed))")
    }

    @Test func documentSaysWhichRoutesNeedTheToken() throws {
        for (operation, security) in try Self.documentOperations() {
            if operation.path.hasPrefix("/v1/") {
                #expect(security == "security: [{bearer: []}]", "\(operation)")
            } else if operation.path == "/metrics" {
                // The operator's token, or none on a loopback listener.
                #expect(security == "security: [{metricsToken: []}, {}]", "\(operation)")
            } else {
                #expect(security == "security: []", "\(operation)")
            }
        }
    }
}
