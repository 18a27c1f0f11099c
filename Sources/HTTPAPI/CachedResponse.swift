import Cache
import Crypto
import Hummingbird
import Store

/// A response body held by the response cache: the identity body with its strong ETag and, when
/// it pays, a gzip-coded copy with its own strong ETag, both computed once when the entry is
/// cached.
public struct CachedResponse: Sendable {
    /// One representation of the resource (RFC 9110 §3.2): the bytes sent and their entity tag.
    public struct Representation: Sendable {
        public let body: ByteBuffer
        public let etag: String
    }

    /// The body without content coding.
    public let identity: Representation
    /// The `Content-Encoding: gzip` representation, or nil where gzip does not pay (see `init`).
    public let gzip: Representation?
    /// When it was loaded, by the cache's clock: `max-age` counts down from the TTL.
    public let loadedAt: CacheInstant

    /// Bodies smaller than this are not compressed: they fit in a few TCP segments either way,
    /// and gzip's 18 bytes of header and trailer eat much of what small bodies would save.
    static let gzipMinimumBytes = 1024

    init(bytes: [UInt8], loadedAt: CacheInstant) {
        let etag = Self.etag(of: bytes)
        self.identity = Representation(body: ByteBuffer(bytes: bytes), etag: etag)
        self.gzip = Self.gzipRepresentation(of: bytes, identityETag: etag)
        self.loadedAt = loadedAt
    }

    /// The representation for a request that accepts `coding`.
    func representation(for coding: ContentCoding) -> (Representation, ContentCoding) {
        if coding == .gzip, let gzip { return (gzip, .gzip) }
        return (identity, .identity)
    }

    /// `"<first 128 bits of SHA-256 of the body, hex>"`: equal bodies, equal tags.
    static func etag(of bytes: [UInt8]) -> String {
        "\"" + lowercaseHex(SHA256.hash(data: bytes).prefix(16)) + "\""
    }

    /// The gzip copy, if the body is at least `gzipMinimumBytes` and gzip makes it at least 1/8
    /// smaller. Its tag is the identity tag with `-gzip` inside the quotes: a different
    /// representation needs a different strong tag (RFC 9110 §8.8.3), and it changes whenever
    /// the identity body does, since the copy is derived from it.
    static func gzipRepresentation(of bytes: [UInt8], identityETag: String) -> Representation? {
        guard bytes.count >= gzipMinimumBytes, let compressed = Gzip.compress(bytes),
            compressed.count <= bytes.count - bytes.count / 8
        else { return nil }
        return Representation(body: ByteBuffer(bytes: compressed), etag: String(identityETag.dropLast()) + "-gzip\"")
    }

    /// The cache weighs an entry by its bodies and a fixed overhead.
    static func weight(_ key: UserCacheKey, _ value: CachedResponse) -> Int {
        value.identity.body.readableBytes + (value.gzip?.body.readableBytes ?? 0)
            + key.resource.utf8.count + key.user.rawValue.utf8.count + 128
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
    /// share one load).
    ///
    /// Content negotiation (RFC 9110 §12.5.3, see `ContentCoding`): the gzip copy with
    /// `Content-Encoding: gzip` when `Accept-Encoding` accepts it and the entry has one, else the
    /// identity body. Every answer carries `Vary: Accept-Encoding` (RFC 9110 §12.5.5), the
    /// selected representation's `ETag` and `Cache-Control: private, max-age=<remaining TTL>`;
    /// `If-None-Match` with that tag gets 304 without a body, with the same headers
    /// (RFC 9110 §15.4.5).
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
        let (representation, coding) = entry.representation(
            for: ContentCoding.negotiate(request.headers[values: .acceptEncoding]))
        var headers: HTTPFields = [
            .eTag: representation.etag, .cacheControl: "private, max-age=\(maxAge)", .vary: "Accept-Encoding",
        ]
        if IfNoneMatch.matches(request.headers[.ifNoneMatch], etag: representation.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        if coding == .gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: representation.body))
    }
}
