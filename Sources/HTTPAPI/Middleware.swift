import Foundation
import Hummingbird
import Logging
import NIOCore
import Store

/// Turns every error into a JSON answer (`{"error", "message"}`): `APIError`s as they are,
/// Hummingbird's own (unknown route, wrong method) by status, anything else into a 500 whose
/// details go to the log only.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            return try Self.translate(error).response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error.type": "\(type(of: error))", "error": "\(error)"])
            return try APIError(.internalServerError, .internalError, "Internal error").response(
                from: request, context: context)
        }
    }

    static func translate(_ error: any HTTPResponseError) -> APIError {
        switch error.status {
        case .notFound: APIError.notFound
        case .methodNotAllowed: APIError(.methodNotAllowed, .methodNotAllowed, "Method not allowed on this route")
        case .contentTooLarge: APIError(.contentTooLarge, .payloadTooLarge, "Request body too large")
        case .badRequest: APIError(.badRequest, .invalidRequest, "Bad request")
        default: APIError(error.status, APIError.Code(rawValue: "http_\(error.status.code)"), error.status.reasonPhrase)
        }
    }
}

/// Requires `Authorization: Bearer <HS256 JWT>`; resolves the subject to a stored user and puts
/// it in the context. Unknown subjects answer 404 like any id that is not the caller's, so that
/// ids cannot be probed.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let services: APIServices

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        do {
            context.caller = try await authenticate(request)
        } catch {
            services.metrics.count("auth_failures", "code", error.code.rawValue)
            throw error
        }
        return try await next(request, context)
    }

    func authenticate(_ request: Request) async throws(APIError) -> Caller {
        guard let header = request.headers[.authorization] else {
            throw .unauthorized(.missingToken, "Authorization: Bearer <token> is required")
        }
        // Byte-wise: the scheme is ASCII, case-insensitive; the token is trimmed of spaces and
        // tabs (HTTP's optional whitespace). No Foundation bridging on the path of every request.
        let bytes = header.utf8
        guard bytes.count >= 7,
            zip(bytes.prefix(7), "bearer ".utf8).allSatisfy({ c, e in e == UInt8(ascii: " ") ? c == e : c | 0x20 == e })
        else {
            throw .unauthorized(.malformedToken, "The Authorization header must use the Bearer scheme")
        }
        var rest = bytes.dropFirst(7)
        while let first = rest.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { rest.removeFirst() }
        while let last = rest.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { rest.removeLast() }
        let token = String(Substring(rest))
        let claims = try services.verifier.verify(token)
        // What other processes committed before this request (a deletion) is seen before anything is answered.
        await services.storeCatchUp?.catchUp()
        let user: User
        do {
            guard let found = try await services.user(UserID(claims.subject)) else { throw APIError.notFound }
            user = found
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.serviceUnavailable, .unavailable, "The store is unavailable")
        }
        if let bound = user.boundDeviceID {
            // An account bound to a device accepts only tokens issued to that device.
            guard let device = claims.device else {
                throw .unauthorized(
                    .deviceRequired, "The account is bound to a device; the token must name it (`device`)")
            }
            guard device == bound else {
                throw .unauthorized(
                    .deviceMismatch, "The token was issued to another device than the account is bound to")
            }
        }
        return Caller(user: user, claims: claims)
    }
}

extension Request {
    /// The body, at most `limit` bytes (413 as soon as `Content-Length` or the bytes read say more), charged to `lease`
    /// as it arrives: what the buffer will allocate (the next power of two of the bytes so far) is taken from the
    /// budget before each part is kept, so a body sent slowly holds what it has sent, never what it declares.
    func collectBody(limit: Int, charging lease: MemoryBudget.Lease) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
        var collected = ByteBuffer()
        for try await part in body {
            let total = collected.readableBytes + part.readableBytes
            guard total <= limit else { throw APIError.payloadTooLarge(limit: limit) }
            try await lease.grow(to: total <= 1 ? total : 1 << (Int.bitWidth - (total - 1).leadingZeroBitCount))
            collected.writeImmutableBuffer(part)
        }
        return collected
    }

    /// The body, at most `limit` bytes: 413 as soon as `Content-Length` or the bytes read say more.
    func collectBody(limit: Int) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.payloadTooLarge(limit: limit)
        }
    }
}
