import Cache
import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

/// The gzip coding itself: what `Gzip.compress` produces is one RFC 1952 member that other
/// decoders turn back into exactly the input.
@Suite struct GzipTests {
    static let inputs: [[UInt8]] = [
        Array(largePlanDocument().utf8),
        [],
        Array("a".utf8),
        // Incompressible: a seeded byte sequence (xorshift), so the output is bigger than the input.
        {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            return (0..<70_000).map { _ in
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                return UInt8(truncatingIfNeeded: state)
            }
        }(),
    ]

    @Test(arguments: inputs)
    func compressedBytesInflateToTheInput(_ input: [UInt8]) throws {
        let compressed = try #require(Gzip.compress(input))
        // RFC 1952 §2.3: ID1 ID2 = 1f 8b, CM = 8 (deflate); the trailer is CRC-32 and ISIZE, little-endian.
        #expect(Array(compressed.prefix(3)) == [0x1F, 0x8B, 0x08])
        #expect(compressed.count >= 18)
        #expect(GzipCheck.littleEndian32(compressed.suffix(8).prefix(4)) == GzipCheck.crc32(input))
        #expect(GzipCheck.littleEndian32(compressed.suffix(4)) == UInt32(truncatingIfNeeded: input.count))
        #expect(GzipCheck.inflate(compressed) == input)
    }

    @Test func theCRCCheckOfTheTestIsTheStandardOne() {
        // The check value of CRC-32/ISO-HDLC (the gzip CRC) is 0xCBF43926 for "123456789".
        #expect(GzipCheck.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: GzipCheck.gnuGzip)))
    func gnuGzipDecodesItToo() throws {
        let input = Array(largePlanDocument().utf8)
        let compressed = try #require(Gzip.compress(input))
        #expect(try GzipCheck.gunzipWithGNUGzip(compressed) == input)
    }

    @Test func aCorruptedMemberIsRejectedByTheCheckingDecoder() throws {
        // So that `GzipCheck.inflate` returning the input above means something.
        var compressed = try #require(Gzip.compress(Array(largePlanDocument().utf8)))
        compressed[compressed.count - 6] ^= 0xFF // a CRC byte
        #expect(GzipCheck.inflate(compressed) == nil)
    }
}

/// `Accept-Encoding` (RFC 9110 §12.5.3) → the coding sent.
@Suite struct ContentNegotiationTests {
    /// The tag's text, from digests computed elsewhere (`printf abc | sha256sum`, FIPS 180-2's first example; the
    /// empty string's): a quoted string of the first 16 bytes of the body's SHA-256 in lower-case hex.
    @Test func theTagIsTheFirstHalfOfTheBodysSHA256() {
        #expect(CachedResponse.etag(of: Array("abc".utf8)) == "\"ba7816bf8f01cfea414140de5dae2223\"")
        #expect(CachedResponse.etag(of: []) == "\"e3b0c44298fc1c149afbf4c8996fb924\"")
    }

    @Test(
        arguments: [
            // No field, an empty field, codings we do not have.
            ([], ContentCoding.identity), ([""], .identity), (["br, deflate"], .identity), (["zstd"], .identity),
            // gzip listed, in any case, alone or among others; x-gzip is gzip (§8.4.1.3).
            (["gzip"], .gzip), (["GZip"], .gzip), (["x-gzip"], .gzip), (["gzip, deflate, br"], .gzip),
            // What URLSession sends by default on Linux (FoundationNetworking on libcurl 7.88, captured from
            // a Swift 6.3.1 build); on Apple platforms it sends `gzip, deflate, br` (the line above).
            (["deflate, gzip, br, zstd"], .gzip),
            (["br;q=1.0, gzip;q=0.8, *;q=0.1"], .gzip), (["deflate", "gzip"], .gzip),
            // q=0: not acceptable, whatever the spelling of the weight.
            (["gzip;q=0"], .identity), (["gzip; q=0"], .identity), (["gzip ;Q=0.000"], .identity),
            (["gzip;q=0, *"], .identity),
            (["*;q=0"], .identity), (["gzip;q=0, identity;q=0"], .identity),
            // *: every coding not listed.
            (["*"], .gzip), (["identity, *;q=0.5"], .identity), (["*;q=0.5"], .gzip),
            // Weights against identity; a tie goes to gzip; unlisted identity ranks below listed codings.
            (["gzip;q=0.5, identity"], .identity), (["gzip;q=0.5, identity;q=0.5"], .gzip),
            (["gzip, identity;q=0"], .gzip), (["gzip;q=0.001"], .gzip), (["identity"], .identity),
            (["gzip;q=1.000"], .gzip), (["gzip;level=9;q=1"], .gzip), ([" , gzip ,"], .gzip),
            // Malformed weights: the element is ignored.
            (["gzip;q=1.1"], .identity), (["gzip;q=2"], .identity), (["gzip;q=abc"], .identity),
            (["gzip;q=0.0001"], .identity),
            (["gzip;q="], .identity), (["gzip;q=abc, *"], .gzip),
        ] as [([String], ContentCoding)])
    func negotiation(_ fieldLines: [String], _ expected: ContentCoding) {
        #expect(ContentCoding.negotiate(fieldLines) == expected, "\(fieldLines)")
    }

    @Test(arguments: [
        ("0", 0), ("1", 1000), ("0.", 0), ("0.5", 500), ("0.25", 250), ("0.125", 125), ("0.001", 1), ("1.0", 1000),
        ("1.000", 1000),
    ])
    func validQValues(_ text: String, _ thousandths: Int) {
        #expect(ContentCoding.qvalue(Array(text.utf8)) == thousandths)
    }

    @Test(arguments: ["", "2", "1.5", "1.001", "0.1234", ".5", "0,5", "-0", "0.5 ", "01"])
    func invalidQValues(_ text: String) {
        #expect(ContentCoding.qvalue(Array(text.utf8)) == nil)
    }
}

/// The cached routes send the gzip copy when asked for it, with its own ETag, and always `Vary`.
@Suite struct CompressedRouteTests {
    static func harnessWithLargePlan() async throws -> APIHarness {
        let h = try await APIHarness()
        _ = try await h.store.appendPlan(
            user: APIHarness.alice, generatedAt: APIHarness.start, state: .ready, documentJSON: largePlanDocument())
        return h
    }

    static func headers(_ h: APIHarness, acceptEncoding: String? = nil, ifNoneMatch: String? = nil) -> HTTPFields {
        var headers = h.auth()
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return headers
    }

    @Test func gzipIsSentWhenAcceptedAndInflatesToTheIdentityBody() async throws {
        let h = try await Self.harnessWithLargePlan()
        try await h.withRouter { client in
            let identity = try await client.get("/v1/me/plan", Self.headers(h))
            #expect(identity.status == .ok)
            #expect(identity.headers[.contentEncoding] == nil)
            #expect(identity.headers[.vary] == "Accept-Encoding")
            let identityBody = Array(buffer: identity.body)
            #expect(identityBody.count > 5000)
            #expect(identity.headers[.eTag] == CachedResponse.etag(of: identityBody))

            // As URLSession asks (it sends Accept-Encoding by default and decodes transparently).
            let gzip = try await client.get("/v1/me/plan", Self.headers(h, acceptEncoding: "gzip, deflate, br"))
            #expect(gzip.status == .ok)
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(gzip.headers[.vary] == "Accept-Encoding")
            #expect(gzip.headers[.contentType] == "application/json; charset=utf-8")
            #expect(gzip.headers[.cacheControl] == "private, max-age=1800")
            let compressed = Array(buffer: gzip.body)
            #expect(compressed.count < identityBody.count / 4)
            #expect(GzipCheck.inflate(compressed) == identityBody)
            // Its own strong tag: the identity tag with -gzip inside the quotes.
            let identityTag = try #require(identity.headers[.eTag])
            #expect(gzip.headers[.eTag] == String(identityTag.dropLast()) + "-gzip\"")
        }
    }

    @Test(arguments: [nil, "gzip;q=0", "identity", "br", "gzip;q=0.5, identity;q=1", "*;q=0"] as [String?])
    func noGzipUnlessItIsAccepted(_ acceptEncoding: String?) async throws {
        let h = try await Self.harnessWithLargePlan()
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/plan", Self.headers(h, acceptEncoding: acceptEncoding))
            #expect(response.status == .ok)
            #expect(response.headers[.contentEncoding] == nil)
            #expect(response.headers[.vary] == "Accept-Encoding")
            #expect(response.headers[.eTag] == CachedResponse.etag(of: Array(buffer: response.body)))
            #expect(response.json["format"] as? String == "marathon-plan/1")
        }
    }

    @Test func ifNoneMatchWorksForEachRepresentationWithItsOwnTag() async throws {
        let h = try await Self.harnessWithLargePlan()
        try await h.withRouter { client in
            let identityTag = try #require(try await client.get("/v1/me/plan", Self.headers(h)).headers[.eTag])
            let gzipTag = try #require(
                try await client.get("/v1/me/plan", Self.headers(h, acceptEncoding: "gzip")).headers[.eTag])
            #expect(gzipTag != identityTag)

            let gzip304 = try await client.get(
                "/v1/me/plan", Self.headers(h, acceptEncoding: "gzip", ifNoneMatch: gzipTag))
            #expect(gzip304.status == .notModified)
            #expect(gzip304.body.readableBytes == 0)
            #expect(gzip304.headers[.eTag] == gzipTag)
            #expect(gzip304.headers[.vary] == "Accept-Encoding")
            #expect(gzip304.headers[.cacheControl] == "private, max-age=1800")
            // Weak comparison (RFC 9110 §13.1.2) and lists, as for the identity tag.
            #expect(
                try await client.get(
                    "/v1/me/plan", Self.headers(h, acceptEncoding: "gzip", ifNoneMatch: "\"x\", W/\(gzipTag)")
                ).status == .notModified)

            let identity304 = try await client.get("/v1/me/plan", Self.headers(h, ifNoneMatch: identityTag))
            #expect(identity304.status == .notModified)
            #expect(identity304.headers[.eTag] == identityTag)
            #expect(identity304.headers[.vary] == "Accept-Encoding")

            // A tag of the other representation is not a match: the client gets the one it asked for.
            let crossed = try await client.get(
                "/v1/me/plan", Self.headers(h, acceptEncoding: "gzip", ifNoneMatch: identityTag))
            #expect(crossed.status == .ok)
            #expect(crossed.headers[.contentEncoding] == "gzip")
            let crossedBack = try await client.get("/v1/me/plan", Self.headers(h, ifNoneMatch: gzipTag))
            #expect(crossedBack.status == .ok)
            #expect(crossedBack.headers[.contentEncoding] == nil)
            #expect(crossedBack.headers[.eTag] == identityTag)
        }
    }

    @Test func bothTagsChangeWhenTheDataDoes() async throws {
        let h = try await Self.harnessWithLargePlan()
        try await h.withRouter { client in
            let before = try await client.get("/v1/me/plan", Self.headers(h, acceptEncoding: "gzip"))
            _ = try await h.store.appendPlan(
                user: APIHarness.alice, generatedAt: APIHarness.start + 1000, state: .ready,
                documentJSON: largePlanDocument(weeks: 17))
            // A recomputation invalidates the user's entries through the event bus.
            h.services.publish(.recomputed(user: CacheUserID(APIHarness.alice.rawValue)))
            let after = try await client.get(
                "/v1/me/plan", Self.headers(h, acceptEncoding: "gzip", ifNoneMatch: before.headers[.eTag]))
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != before.headers[.eTag])
            let plan = try #require(GzipCheck.inflate(Array(buffer: after.body)))
            let json = try JSONSerialization.jsonObject(with: Data(plan)) as? [String: Any]
            #expect(((json?["plan"] as? [String: Any])?["weeks"] as? [Any])?.count == 17)
        }
    }

    @Test func plansWeeksAreCompressedWhenLargeEnoughAndSmallBodiesNever() async throws {
        let h = try await Self.harnessWithLargePlan()
        try await h.withRouter { client in
            // One week of this plan is under 1 KiB, like the stats of a new user: sent as they are.
            for path in ["/v1/me/plan/weeks/1", "/v1/me/stats"] {
                let plain = try await client.get(path, Self.headers(h))
                #expect(plain.body.readableBytes < CachedResponse.gzipMinimumBytes, "\(path)")
                let asked = try await client.get(path, Self.headers(h, acceptEncoding: "gzip"))
                #expect(asked.status == .ok)
                #expect(asked.headers[.contentEncoding] == nil, "\(path)")
                #expect(asked.headers[.vary] == "Accept-Encoding", "\(path)")
                #expect(Array(buffer: asked.body) == Array(buffer: plain.body), "\(path)")
                #expect(asked.headers[.eTag] == plain.headers[.eTag], "\(path)")
            }
        }
    }

    /// Over a real socket: the length on the wire is the gzip body's, and it still inflates.
    @Test func liveServerSendsTheGzipBody() async throws {
        let h = try await Self.harnessWithLargePlan()
        try await buildApplication(services: h.services).test(.live) { client in
            let identity = try await client.get("/v1/me/plan", Self.headers(h))
            let gzip = try await client.get("/v1/me/plan", Self.headers(h, acceptEncoding: "gzip"))
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(gzip.headers[.contentLength] == String(gzip.body.readableBytes))
            #expect(identity.headers[.contentLength] == String(identity.body.readableBytes))
            #expect(GzipCheck.inflate(Array(buffer: gzip.body)) == Array(buffer: identity.body))
        }
    }

    @Test func incompressibleBodiesGetNoGzipCopy() {
        var state: UInt64 = 42
        let noise: [UInt8] = (0..<4096).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        #expect(CachedResponse(bytes: noise, loadedAt: CacheInstant(nanosecondsSinceOrigin: 0)).gzip == nil)
        let json = Array(largePlanDocument().utf8)
        let entry = CachedResponse(bytes: json, loadedAt: CacheInstant(nanosecondsSinceOrigin: 0))
        #expect(entry.gzip.map { GzipCheck.inflate(Array(buffer: $0.body)) } == json)
        // The cache weighs both bodies.
        let key = UserCacheKey(user: CacheUserID("alice"), resource: "plan")
        #expect(CachedResponse.weight(key, entry) == json.count + entry.gzip!.body.readableBytes + 4 + 5 + 128)
    }
}
