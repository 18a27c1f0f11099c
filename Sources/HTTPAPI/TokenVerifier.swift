import Crypto
import Foundation
import Store

/// The claims of an access token this API reads. Other claims are ignored.
public struct TokenClaims: Sendable, Equatable, Codable {
    /// The user id (`sub`).
    public var subject: String
    /// Expiry, seconds since the epoch (`exp`); required.
    public var expiresAt: Double
    /// Not before, seconds since the epoch (`nbf`); optional.
    public var notBefore: Double?
    /// Issued at (`iat`); informative.
    public var issuedAt: Double?
    /// The device the token was issued to (`device`); when present it must equal the user's
    /// bound device.
    public var device: String?

    public init(subject: String, expiresAt: Double, notBefore: Double? = nil, issuedAt: Double? = nil, device: String? = nil) {
        self.subject = subject
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case subject = "sub", expiresAt = "exp", notBefore = "nbf", issuedAt = "iat", device
    }
}

/// Verifies compact JWS tokens signed with HS256 (RFC 7515/7519): `header.payload.signature`,
/// each part base64url without padding.
///
/// Order of checks: shape → header (`alg` must be `HS256`, no `crit`) → signature (constant
/// time) → claims (`sub`, `exp` required; `nbf` if present) against the injected clock. Nothing
/// of the payload is trusted before the signature is.
public struct TokenVerifier: Sendable {
    let key: SymmetricKey
    let leewayMillis: Int64
    /// Wall-clock time in epoch milliseconds.
    let now: @Sendable () -> EpochMillis

    public init(secret: JWTSecret, leeway: Duration = .zero, now: @escaping @Sendable () -> EpochMillis) {
        self.key = SymmetricKey(data: secret.bytes)
        let (seconds, attoseconds) = leeway.components
        self.leewayMillis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        self.now = now
    }

    struct Header: Decodable {
        var alg: String
        var typ: String?
        var crit: [String]?
    }

    /// The token's claims, or an `APIError` with status 401 saying what is wrong.
    public func verify(_ token: String) throws(APIError) -> TokenClaims {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .unauthorized(.malformedToken, "The token is not a compact JWS (header.payload.signature)")
        }
        guard let headerBytes = Base64URL.decode(parts[0]),
              let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes))
        else { throw .unauthorized(.malformedToken, "The token header is not base64url JSON") }
        guard header.alg == "HS256" else {
            throw .unauthorized(.unsupportedAlgorithm, "Only HS256 tokens are accepted")
        }
        guard header.crit == nil else {
            throw .unauthorized(.malformedToken, "The token uses critical header extensions this server does not know")
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            throw .unauthorized(.malformedToken, "The token signature is not base64url")
        }
        let signingInput = token.utf8.prefix(parts[0].count + 1 + parts[1].count)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Array(signingInput), using: key) else {
            throw .unauthorized(.invalidSignature, "The token signature is not valid")
        }
        guard let payloadBytes = Base64URL.decode(parts[1]),
              let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(payloadBytes))
        else { throw .unauthorized(.malformedToken, "The token payload lacks `sub` or `exp`, or is not JSON") }
        guard UserID.isValid(claims.subject) else {
            throw .unauthorized(.malformedToken, "The token subject is not a valid user id")
        }
        guard claims.expiresAt.isFinite else { throw .unauthorized(.malformedToken, "The token `exp` is not a number") }
        let nowMillis = now()
        if nowMillis >= Self.millis(claims.expiresAt) &+ leewayMillis {
            throw .unauthorized(.tokenExpired, "The token has expired")
        }
        if let notBefore = claims.notBefore, nowMillis &+ leewayMillis < Self.millis(notBefore) {
            throw .unauthorized(.tokenNotYetValid, "The token is not valid yet")
        }
        return claims
    }

    static func millis(_ seconds: Double) -> Int64 {
        let ms = (seconds * 1000).rounded(.down)
        if ms >= Double(Int64.max) { return .max }
        if ms <= Double(Int64.min) { return .min }
        return Int64(ms)
    }
}

/// Makes HS256 tokens: for tests, tools and the benchmark. The API itself only verifies.
public struct TokenSigner: Sendable {
    let key: SymmetricKey
    public init(secret: JWTSecret) { self.key = SymmetricKey(data: secret.bytes) }

    public func sign(_ claims: TokenClaims) -> String {
        sign(payloadJSON: (try? JSONEncoder.api.encode(claims)).map(Array.init) ?? [])
    }

    /// Signs any payload under `{"alg":"HS256","typ":"JWT"}` (tests use it for odd payloads).
    public func sign(payloadJSON: [UInt8], headerJSON: [UInt8] = Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) -> String {
        let input = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payloadJSON)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
        return input + "." + Base64URL.encode(Array(mac))
    }
}

/// base64url without padding (RFC 4648 §5, as JWS uses it).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// nil on any character outside the url-safe alphabet (padding included) or an impossible length.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.count + 3)
        for c in text {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(c)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        if standard.count % 4 == 1 { return nil }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map(Array.init)
    }
}
