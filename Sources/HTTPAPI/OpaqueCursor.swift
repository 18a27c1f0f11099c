import Crypto
import Foundation
import Store

/// The cursors of the list and of the change feed, sealed to the user they were given to: `s2.<…>` (a session's start
/// and id, where `GET /v1/me/sessions` goes on) and `c2.<…>` (a position in the change log, where
/// `GET /v1/me/changes` goes on). Clients keep them as they got them and never build them.
///
/// The position is encrypted and authenticated with a key derived from the server's JWT secret (deterministic
/// authenticated encryption in the SIV manner, from HMAC-SHA256 alone): a 16-byte synthetic IV, the HMAC of the kind,
/// the user id and the position, and the position XORed with an HMAC keystream of that IV; in base64url. So a cursor
/// is refused (400 `invalid_cursor`) unless this server (or one with the same secret) gave it to this user — a
/// made-up position (`c1.99999999999.0`), another user's cursor, one of another kind — and it does not show the
/// service-wide change count. The same position for the same user always gives the same cursor (a feed with nothing
/// new answers the cursor it was asked with). Rotating `PIPELINE_JWT_SECRET` invalidates every cursor: the apps then
/// get 400 `invalid_cursor` once and sync again from the start. Cursors of the unsealed form (`c1.`, `s1.`) given
/// out before are refused the same way.
struct OpaqueCursor: Sendable {
    private let key: SymmetricKey

    /// Longer texts are refused before parsing.
    static let maxLength = 200
    static let ivBytes = 16

    init(secret: JWTSecret) {
        // A key of its own, derived from the JWT secret (never the signing key itself).
        let derived = HMAC<SHA256>.authenticationCode(
            for: Array("workout-pipeline/cursor-key/v1".utf8), using: SymmetricKey(data: secret.bytes))
        key = SymmetricKey(data: Array(derived))
    }

    static func invalid() -> APIError {
        APIError(.badRequest, .invalidCursor, "The cursor is not one this server gave out to this user")
    }

    // MARK: the two kinds

    func sessions(_ position: SessionPageKey, user: UserID) -> String {
        var plain = Self.bytes(of: UInt64(bitPattern: position.startedAt))
        plain += Array(position.sessionID.rawValue.utf8)
        return seal(plain, tag: "s2", user: user)
    }

    func sessionKey(_ text: Substring, user: UserID) throws(APIError) -> SessionPageKey {
        let plain = try open(text, tag: "s2", user: user)
        guard plain.count > 8 else { throw Self.invalid() }
        let startedAt = Int64(bitPattern: Self.integer(plain[0..<8]))
        return SessionPageKey(
            startedAt: startedAt, sessionID: SessionID(rawValue: String(decoding: plain[8...], as: UTF8.self)))
    }

    func changes(_ position: ChangeCursor, user: UserID) -> String {
        seal(
            Self.bytes(of: position.transaction) + Self.bytes(of: UInt64(bitPattern: position.sequence)), tag: "c2",
            user: user)
    }

    func changeCursor(_ text: Substring, user: UserID) throws(APIError) -> ChangeCursor {
        let plain = try open(text, tag: "c2", user: user)
        guard plain.count == 16 else { throw Self.invalid() }
        return ChangeCursor(
            transaction: Self.integer(plain[0..<8]), sequence: Int64(bitPattern: Self.integer(plain[8..<16])))
    }

    // MARK: sealing

    private func seal(_ plain: [UInt8], tag: String, user: UserID) -> String {
        let iv = syntheticIV(plain, tag: tag, user: user)
        let sealed = iv + zip(plain, keystream(iv: iv, count: plain.count)).map { $0 ^ $1 }
        return tag + "." + Self.base64url(sealed)
    }

    private func open(_ text: Substring, tag: String, user: UserID) throws(APIError) -> [UInt8] {
        guard text.utf8.count <= Self.maxLength, text.hasPrefix(tag + "."),
            let sealed = Self.fromBase64url(text.dropFirst(tag.count + 1)), sealed.count > Self.ivBytes
        else { throw Self.invalid() }
        let iv = Array(sealed[0..<Self.ivBytes])
        let body = sealed[Self.ivBytes...]
        let plain = zip(body, keystream(iv: iv, count: body.count)).map { $0 ^ $1 }
        // Constant-time comparison of the IV the position gives with the one sent.
        let expected = syntheticIV(plain, tag: tag, user: user)
        var difference: UInt8 = 0
        for k in 0..<Self.ivBytes { difference |= expected[k] ^ iv[k] }
        guard difference == 0 else { throw Self.invalid() }
        return plain
    }

    /// HMAC of the kind, the user and the position (the user's id length-prefixed, so no two inputs collide).
    private func syntheticIV(_ plain: [UInt8], tag: String, user: UserID) -> [UInt8] {
        let id = Array(user.rawValue.utf8)
        var message = Array("iv".utf8) + Array(tag.utf8) + Self.bytes(of: UInt64(id.count)) + id
        message += plain
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: key).prefix(Self.ivBytes))
    }

    private func keystream(iv: [UInt8], count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var block: UInt64 = 0
        while out.count < count {
            out += HMAC<SHA256>.authenticationCode(for: Array("ks".utf8) + iv + Self.bytes(of: block), using: key)
            block += 1
        }
        return Array(out.prefix(count))
    }

    static func bytes(of value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Strict base64url without padding: nil for any other character, or a length no encoding gives.
    static func fromBase64url(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 4 != 1,
            text.utf8.allSatisfy({
                ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
                    || $0 == 0x5F
            })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        // Canonical only: the text must be what encoding these bytes gives (no stray low bits).
        return base64url(bytes) == text ? bytes : nil
    }
}
