import Foundation
import Hummingbird
import Store

/// An error answered to the client as `{"error": code, "message": text}` with its status.
///
/// Codes are stable (the apps branch on them); messages are for people and never hold another
/// user's data or a token.
public struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        public static let missingToken: Code = "missing_token"
        public static let malformedToken: Code = "malformed_token"
        public static let invalidSignature: Code = "invalid_signature"
        public static let unsupportedAlgorithm: Code = "unsupported_algorithm"
        public static let tokenExpired: Code = "token_expired"
        public static let tokenNotYetValid: Code = "token_not_yet_valid"
        public static let deviceMismatch: Code = "device_mismatch"
        public static let deviceRequired: Code = "device_required"
        public static let invalidIssuer: Code = "invalid_issuer"
        public static let invalidAudience: Code = "invalid_audience"
        public static let tokenLifetimeTooLong: Code = "token_lifetime_too_long"
        public static let notFound: Code = "not_found"
        public static let noPlan: Code = "no_plan"
        public static let invalidRequest: Code = "invalid_request"
        public static let invalidCursor: Code = "invalid_cursor"
        public static let payloadTooLarge: Code = "payload_too_large"
        public static let rateLimited: Code = "rate_limited"
        public static let methodNotAllowed: Code = "method_not_allowed"
        public static let unavailable: Code = "unavailable"
        public static let internalError: Code = "internal_error"
    }

    public var status: HTTPResponse.Status
    public var code: Code
    public var message: String
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "APIError(\(status.code) \(code): \(message))" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        if status == .unauthorized, headers[.wwwAuthenticate] == nil {
            headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: jsonBody)))
    }

    /// `{"error":"…","message":"…"}`, written as `APIJSON` writes every answer (two strings: nothing can fail).
    var jsonBody: [UInt8] {
        Array(
            SortedJSON.object(["error": .string(code.rawValue), "message": .string(message)])
                .encoderText(escapingSlashes: false).utf8)
    }

    // MARK: Common errors

    static func unauthorized(_ code: Code, _ message: String) -> APIError { APIError(.unauthorized, code, message) }
    static let notFound = APIError(.notFound, .notFound, "Not found")
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, .invalidRequest, message) }
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, .payloadTooLarge, "Request body exceeds the limit of \(limit) bytes")
    }
}

/// The API's JSON: the package's JSON writer (`SortedJSON.encoderText(escapingSlashes: false)`), compact, keys
/// sorted (equal values give equal bytes, and equal ETags), `/` unescaped — the bytes `JSONEncoder` wrote with
/// `[.sortedKeys, .withoutEscapingSlashes]`.
enum APIJSON {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        Array(try SortedJSONEncoder.encode(value, numbers: .asEncoded).encoderText(escapingSlashes: false).utf8)
    }
}

// swift-format-ignore: UseSynthesizedInitializer
/// An optional member the API writes as `null` when it has no value, where synthesized `Encodable` would leave its key
/// out (`meta.next_cursor` after the last page, a session's `duplicate_of` when it counts itself).
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    /// Declared, not synthesized: only a declared `init(wrappedValue:)` lets the memberwise initializers of the types
    /// that use the wrapper take the plain optional (`PageMeta(…, nextCursor: next)`).
    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension NullWhenAbsent: Equatable where Value: Equatable {}
