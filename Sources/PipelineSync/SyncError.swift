import OpenAPIRuntime
import PipelineClient

/// Why a sync step failed: a stable ``code``, the HTTP status, and the server's message (no user data).
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An extensible code: the server's error code when it sent one (`rate_limited`, `invalid_cursor`, …), or one of
    /// the client's own.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The token was refused (missing, expired, wrong device): the app signs in again.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The user does not exist on the server (or was deleted).
        public static let notFound = Code(rawValue: "not_found")
        /// Over a per-user limit; ``SyncError/retryAfterSeconds`` says when to try again.
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// The server is busy (its memory budget for bodies is spent); retry later.
        public static let unavailable = Code(rawValue: "unavailable")
        /// The body was too large, or the user's storage quota is reached.
        public static let tooLarge = Code(rawValue: "payload_too_large")
        /// A 400 other than `invalid_cursor` (which the synchroniser handles itself).
        public static let badRequest = Code(rawValue: "bad_request")
        /// A change of the feed lacks what its kind needs (for example a `session` change without the session).
        public static let malformedChange = Code(rawValue: "malformed_change")
        /// A status the document does not declare for the operation.
        public static let unexpectedStatus = Code(rawValue: "unexpected_status")
    }

    /// What went wrong.
    public var code: Code
    /// The HTTP status of the answer, when there was one.
    public var status: Int?
    /// The server's `message`, or the client's explanation.
    public var message: String
    /// Seconds to wait before retrying (`Retry-After` of a 429).
    public var retryAfterSeconds: Int?

    /// An error with its evidence.
    public init(code: Code, status: Int?, message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String {
        "SyncError(\(code.rawValue)\(status.map { ", HTTP \($0)" } ?? ""): \(message)"
    }

    /// The server's error body as a `SyncError`, its code kept when it is one of the stable codes.
    init(_ body: Components.Schemas._Error, status: Int, fallback: Code, retryAfter: Int? = nil) {
        self.init(
            code: Code(rawValue: body.error.isEmpty ? fallback.rawValue : body.error), status: status,
            message: body.message, retryAfterSeconds: retryAfter)
    }

    /// The API document's shared refusals (`components/responses`), each with its status and the code it stands for
    /// when the server's body names none: the one place their statuses are mapped.
    init(_ answer: Components.Responses.BadRequest) throws {
        self.init(try answer.body.json, status: 400, fallback: .badRequest)
    }
    init(_ answer: Components.Responses.Unauthorized) throws {
        self.init(try answer.body.json, status: 401, fallback: .unauthorized)
    }
    init(_ answer: Components.Responses.NotFound) throws {
        self.init(try answer.body.json, status: 404, fallback: .notFound)
    }
    init(_ answer: Components.Responses.TooLarge) throws {
        self.init(try answer.body.json, status: 413, fallback: .tooLarge)
    }
    init(_ answer: Components.Responses.RateLimited) throws {
        self.init(try answer.body.json, status: 429, fallback: .rateLimited, retryAfter: answer.headers.retryAfter)
    }
}
