import Crypto
import Foundation
import HTTPAPI

/// Makes HS256 tokens (RFC 7515 compact serialisation, RFC 7518 §3.2) for the tests; the API itself only verifies.
/// Written apart from the server's verifier (its own base64url and JSON), so that a test signing with it checks the
/// verifier's reading of the format rather than sharing it.
public struct TokenSigner: Sendable {
    let key: SymmetricKey
    public init(secret: JWTSecret) { self.key = SymmetricKey(data: secret.bytes) }

    /// A token carrying `claims` (RFC 7519 names: `sub`, `exp`, `nbf`, `iat`, `iss`, `aud`, and `device`).
    public func sign(_ claims: TokenClaims) -> String {
        var object: [String: Any] = ["sub": claims.subject, "exp": claims.expiresAt]
        if let notBefore = claims.notBefore { object["nbf"] = notBefore }
        if let issuedAt = claims.issuedAt { object["iat"] = issuedAt }
        if let device = claims.device { object["device"] = device }
        if let issuer = claims.issuer { object["iss"] = issuer }
        if let audience = claims.audience { object["aud"] = audience }
        let payload = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return sign(payloadJSON: Array(payload))
    }

    /// Signs any payload under `{"alg":"HS256","typ":"JWT"}` (tests use it for odd payloads).
    public func sign(payloadJSON: [UInt8], headerJSON: [UInt8] = Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) -> String
    {
        let input = Self.base64URL(headerJSON) + "." + Self.base64URL(payloadJSON)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
        return input + "." + Self.base64URL(Array(mac))
    }

    /// base64url without padding (RFC 4648 §5, as JWS uses it).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
