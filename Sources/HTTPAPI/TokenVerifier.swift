import Crypto
import Foundation
import Store
import Synchronization

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
    /// The device the token was issued to (`device`); required, and equal to it, when the account is bound to a
    /// device.
    public var device: String?
    /// Issuer (`iss`) and audience (`aud`: one string or an array, RFC 7519 §4.1.3); checked when the server is
    /// configured with them.
    public var issuer: String?
    public var audience: [String]?
    public init(
        subject: String, expiresAt: Double, notBefore: Double? = nil, issuedAt: Double? = nil, device: String? = nil,
        issuer: String? = nil, audience: [String]? = nil
    ) {
        self.subject = subject
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.device = device
        self.issuer = issuer
        self.audience = audience
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        subject = try c.decode(String.self, forKey: .subject)
        expiresAt = try c.decode(Double.self, forKey: .expiresAt)
        notBefore = try c.decodeIfPresent(Double.self, forKey: .notBefore)
        issuedAt = try c.decodeIfPresent(Double.self, forKey: .issuedAt)
        device = try c.decodeIfPresent(String.self, forKey: .device)
        issuer = try c.decodeIfPresent(String.self, forKey: .issuer)
        if let one = try? c.decodeIfPresent(String.self, forKey: .audience) {
            audience = [one]
        } else {
            audience = try c.decodeIfPresent([String].self, forKey: .audience)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subject, forKey: .subject)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encodeIfPresent(notBefore, forKey: .notBefore)
        try c.encodeIfPresent(issuedAt, forKey: .issuedAt)
        try c.encodeIfPresent(device, forKey: .device)
        try c.encodeIfPresent(issuer, forKey: .issuer)
        if let audience {
            if audience.count == 1 {
                try c.encode(audience[0], forKey: .audience)
            } else {
                try c.encode(audience, forKey: .audience)
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case subject = "sub", expiresAt = "exp", notBefore = "nbf", issuedAt = "iat", device, issuer = "iss", audience =
            "aud"
    }
}

/// Verifies compact JWS tokens signed with HS256 (RFC 7515/7519): `header.payload.signature`,
/// each part base64url without padding.
///
/// Order of checks: shape → header (`alg` must be `HS256`, no `crit`) → signature (constant
/// time) → claims (`sub`, `exp` required; `nbf` if present) against the injected clock. Nothing
/// of the payload is trusted before the signature is.
///
/// A token that passed every check but the clock ones is remembered by its exact bytes (the
/// signature, header and claims of the same bytes under the same key always verify the same way),
/// so that the next request with it skips the base64 and JSON decoding and the HMAC. The clock
/// checks (`exp`, `nbf`) run on every request, remembered or not; an expired token leaves the memo.
/// Only correctly signed tokens enter it, and it is bounded (`memoCapacity`).
public struct TokenVerifier: Sendable {
    /// What the server requires of a token beyond its signature and expiry.
    public struct Policy: Sendable {
        /// `iss` must equal this when set.
        public var issuer: String?
        /// `aud` must contain this when set.
        public var audience: String?
        /// Longest validity a token may claim: `exp − iat`, and `exp` at most this far ahead of the clock (a stolen
        /// token valid for years is refused even without `iat`). The apps' access tokens live 15–60 minutes.
        public var maxLifetime: Duration
        public init(issuer: String? = nil, audience: String? = nil, maxLifetime: Duration = .seconds(86_400)) {
            self.issuer = issuer; self.audience = audience; self.maxLifetime = maxLifetime
        }
    }

    let key: SymmetricKey
    let policy: Policy
    let maxLifetimeMillis: Int64
    let leewayMillis: Int64
    /// Wall-clock time in epoch milliseconds.
    let now: @Sendable () -> EpochMillis
    let memo: VerifiedTokenMemo

    public init(
        secret: JWTSecret, leeway: Duration = .zero, policy: Policy = Policy(), memoCapacity: Int = 10_000,
        now: @escaping @Sendable () -> EpochMillis
    ) {
        self.key = SymmetricKey(data: secret.bytes)
        self.policy = policy
        let (lifetimeSeconds, lifetimeAttoseconds) = policy.maxLifetime.components
        self.maxLifetimeMillis = lifetimeSeconds * 1000 + lifetimeAttoseconds / 1_000_000_000_000_000
        let (seconds, attoseconds) = leeway.components
        self.leewayMillis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        self.now = now
        self.memo = VerifiedTokenMemo(capacity: memoCapacity)
    }

    struct Header: Decodable {
        var alg: String
        var typ: String?
        var crit: [String]?
    }

    /// The token's claims, or an `APIError` with status 401 saying what is wrong.
    public func verify(_ token: String) throws(APIError) -> TokenClaims {
        // Only tokens made of the JWS alphabet are looked up: the memo compares exact bytes, never
        // Unicode-equivalent strings; anything else fails the full checks below anyway.
        let memoable = token.utf8.allSatisfy(Self.isTokenByte)
        if memoable, let claims = memo.claims(for: token) {
            let nowMillis = now()
            if nowMillis >= Self.millis(claims.expiresAt) &+ leewayMillis { memo.remove(token) }
            try checkTime(claims, now: nowMillis)
            return claims
        }
        let claims = try verifySignatureAndClaims(token)
        let nowMillis = now()
        try checkTime(claims, now: nowMillis)
        if memoable {
            memo.insert(token, claims) { [leewayMillis] remembered in
                nowMillis >= Self.millis(remembered.expiresAt) &+ leewayMillis
            }
        }
        return claims
    }

    /// Every check but the clock ones.
    func verifySignatureAndClaims(_ token: String) throws(APIError) -> TokenClaims {
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
        if let issuer = policy.issuer, claims.issuer != issuer {
            throw .unauthorized(.invalidIssuer, "The token was not issued by this service's issuer")
        }
        if let audience = policy.audience, !(claims.audience ?? []).contains(audience) {
            throw .unauthorized(.invalidAudience, "The token is not meant for this service (aud)")
        }
        if let issuedAt = claims.issuedAt, issuedAt.isFinite,
            Self.millis(claims.expiresAt) &- Self.millis(issuedAt) > maxLifetimeMillis
        {
            throw .unauthorized(.tokenLifetimeTooLong, "The token claims a lifetime longer than this server accepts")
        }
        return claims
    }

    /// `exp` (exclusive) and `nbf`, with the leeway, against the clock.
    func checkTime(_ claims: TokenClaims, now nowMillis: EpochMillis) throws(APIError) {
        if nowMillis >= Self.millis(claims.expiresAt) &+ leewayMillis {
            throw .unauthorized(.tokenExpired, "The token has expired")
        }
        if Self.millis(claims.expiresAt) > nowMillis &+ maxLifetimeMillis &+ leewayMillis {
            throw .unauthorized(.tokenLifetimeTooLong, "The token expires further ahead than this server accepts")
        }
        if let notBefore = claims.notBefore, nowMillis &+ leewayMillis < Self.millis(notBefore) {
            throw .unauthorized(.tokenNotYetValid, "The token is not valid yet")
        }
    }

    /// base64url letters and the two dots of a compact JWS.
    static func isTokenByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    static func millis(_ seconds: Double) -> Int64 {
        let ms = (seconds * 1000).rounded(.down)
        if ms >= Double(Int64.max) { return .max }
        if ms <= Double(Int64.min) { return .min }
        return Int64(ms)
    }
}

/// Claims of tokens that passed the signature, header and claim checks, by the token's text
/// (ASCII only, so `String` equality is byte equality). Bounded: when full, the expired entries
/// go, and if that is not enough, all of them (they are re-verified on their next use).
final class VerifiedTokenMemo: Sendable {
    let capacity: Int
    private let entries = Mutex<[String: TokenClaims]>([:])

    init(capacity: Int) { self.capacity = max(0, capacity) }

    func claims(for token: String) -> TokenClaims? {
        entries.withLock { $0[token] }
    }

    func insert(_ token: String, _ claims: TokenClaims, isExpired: (TokenClaims) -> Bool) {
        guard capacity > 0 else { return }
        entries.withLock { entries in
            if entries[token] == nil, entries.count >= capacity {
                entries = entries.filter { !isExpired($0.value) }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[token] = claims
        }
    }

    func remove(_ token: String) {
        _ = entries.withLock { $0.removeValue(forKey: token) }
    }

    var count: Int { entries.withLock { $0.count } }
}

/// base64url without padding (RFC 4648 §5, as JWS uses it); the tests' signer encodes it on its own.
enum Base64URL {
    /// nil on any character outside the url-safe alphabet (padding included) or an impossible length.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.count + 3)
        for c in text {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
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
