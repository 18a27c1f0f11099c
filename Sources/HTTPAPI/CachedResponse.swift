import Cache
import Crypto
import Hummingbird
import Store

/// A response body held by the response cache, with its strong ETag.
public struct CachedResponse: Sendable {
    public let body: ByteBuffer
    /// `"<first 128 bits of SHA-256 of the body, hex>"`: equal bodies, equal tags.
    public let etag: String
    /// When it was loaded, by the cache's clock: `max-age` counts down from the TTL.
    public let loadedAt: CacheInstant

    init(bytes: [UInt8], loadedAt: CacheInstant) {
        self.body = ByteBuffer(bytes: bytes)
        self.etag = Self.etag(of: bytes)
        self.loadedAt = loadedAt
    }

    static func etag(of bytes: [UInt8]) -> String {
        let digest = SHA256.hash(data: bytes)
        var text = "\""
        for byte in digest.prefix(16) {
            text += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        return text + "\""
    }

    /// The cache weighs an entry by its body and a fixed overhead.
    static func weight(_ key: UserCacheKey, _ value: CachedResponse) -> Int {
        value.body.readableBytes + key.resource.utf8.count + key.user.rawValue.utf8.count + 128
    }
}

/// `If-None-Match` (RFC 9110 §13.1.2): `*` or a list of entity tags, compared weakly.
enum IfNoneMatch {
    static func matches(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        let opaque = etag.hasPrefix("W/") ? etag.dropFirst(2) : Substring(etag)
        for candidate in header.split(separator: ",") {
            var tag = candidate.drop(while: { $0 == " " || $0 == "\t" })
            while tag.last == " " || tag.last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == opaque { return true }
        }
        return false
    }
}

extension APIServices {
    /// Answers a GET from the response cache, loading the body on a miss (concurrent misses
    /// share one load). Carries `ETag` and `Cache-Control: private, max-age=<remaining TTL>`;
    /// `If-None-Match` with the current tag gets 304 without a body.
    func cachedJSON(
        _ request: Request, user: UserID, resource: String, load: @escaping @Sendable () async throws -> [UInt8]
    ) async throws -> Response {
        let key = UserCacheKey(user: CacheUserID(user.rawValue), resource: resource)
        let clock = cacheClock
        let entry = try await responseCache.getOrLoad(key) {
            CachedResponse(bytes: try await load(), loadedAt: clock.now)
        }
        let age = entry.loadedAt.duration(to: clock.now).components.seconds
        let maxAge = max(0, configuration.cacheTTLSeconds - max(0, age))
        var headers: HTTPFields = [.eTag: entry.etag, .cacheControl: "private, max-age=\(maxAge)"]
        if IfNoneMatch.matches(request.headers[.ifNoneMatch], etag: entry.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: entry.body))
    }
}

