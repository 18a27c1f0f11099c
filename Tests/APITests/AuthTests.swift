import APITestKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

@Suite struct AuthTests {
    /// Every protected route, with a body where it needs one.
    static let protectedRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/v1/me/stats"), (.patch, "/v1/me/stats"), (.get, "/v1/me/plan"), (.get, "/v1/me/plan/weeks/1"),
        (.get, "/v1/me/sessions"), (.post, "/v1/sessions/batch_upload"), (.post, "/v1/me/recompute"),
        (.delete, "/v1/me"),
    ]

    @Test func everyV1RouteWithoutATokenIs401WithAJSONError() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            for (method, path) in Self.protectedRoutes {
                let response = try await client.execute(uri: path, method: method, body: ByteBuffer(string: "{}"))
                #expect(response.status == .unauthorized, "\(method) \(path)")
                #expect(response.errorCode == "missing_token", "\(method) \(path)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
        }
        // Nothing was touched.
        #expect(try await h.store.footprint(user: APIHarness.alice).users == 1)
    }

    @Test func healthAndMetricsNeedNoToken() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let health = try await client.get("/healthz")
            #expect(health.status == .ok)
            #expect(health.text == #"{"status":"ok"}"#)
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains("http_requests_total"))
            #expect(metrics.text.contains("route=\"/healthz\""))
            #expect(metrics.text.contains("api_cache_entries"))
        }
    }

    @Test func aValidTokenIsAccepted() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/stats", h.auth())
            #expect(response.status == .ok)
            // The scheme is case-insensitive; spaces around the token are optional whitespace.
            let token = h.token()
            for header in ["bearer \(token)", "BEARER \(token)", "Bearer   \(token)", "Bearer \t\(token)"] {
                #expect(try await client.get("/v1/me/stats", [.authorization: header]).status == .ok, "\(header)")
            }
            for header in ["Bearer_\(token)", "Bearer \(token)\u{00A0}"] {
                #expect(
                    try await client.get("/v1/me/stats", [.authorization: header]).errorCode == "malformed_token",
                    "\(header)")
            }
        }
    }

    @Test func aTokenSignedWithAnotherKeyIs401() async throws {
        let h = try await APIHarness()
        let forger = TokenSigner(secret: try JWTSecret(string: "not-the-server-secret-but-long-enough-32"))
        let token = forger.sign(TokenClaims(subject: "alice", expiresAt: Double(h.clock.now) / 1000 + 600))
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/stats", [.authorization: "Bearer \(token)"])
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "invalid_signature")
        }
    }

    @Test func aTamperedPayloadIs401() async throws {
        let h = try await APIHarness()
        let genuine = h.token(APIHarness.bob).split(separator: ".")
        let aliceClaims = TokenSigner.base64URL(Array(#"{"sub":"alice","exp":9999999999}"#.utf8))
        let tampered = "\(genuine[0]).\(aliceClaims).\(genuine[2])"
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/stats", [.authorization: "Bearer \(tampered)"])
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "invalid_signature")
        }
    }

    @Test func anExpiredTokenIs401() async throws {
        let h = try await APIHarness()
        let token = h.token(expiresIn: 60)
        try await h.withRouter { client in
            #expect(try await client.get("/v1/me/stats", [.authorization: "Bearer \(token)"]).status == .ok)
            h.clock.advance(seconds: 60) // exp is exclusive: at exp the token is dead
            let response = try await client.get("/v1/me/stats", [.authorization: "Bearer \(token)"])
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "token_expired")
        }
    }

    @Test func aTokenNotYetValidIs401() async throws {
        let h = try await APIHarness()
        let now = Double(h.clock.now) / 1000
        let token = h.signer.sign(TokenClaims(subject: "alice", expiresAt: now + 600, notBefore: now + 60))
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/stats", [.authorization: "Bearer \(token)"])
            #expect(response.errorCode == "token_not_yet_valid")
        }
    }

    /// Malformed tokens and headers, each with the code it must get.
    @Test func malformedTokensAre401() async throws {
        let h = try await APIHarness()
        let exp = Int(h.clock.now / 1000) + 600
        let valid = h.token()
        let cases: [(String, String)] = [
            ("Bearer ", "malformed_token"),
            ("Bearer garbage", "malformed_token"),
            ("Bearer a.b", "malformed_token"),
            ("Bearer a.b.c.d", "malformed_token"),
            ("Bearer \(valid)=", "malformed_token"), // padding is not base64url
            ("Basic YWxpY2U6cHc=", "malformed_token"), // wrong scheme
            ("Bearer " + h.signer.sign(payloadJSON: Array(#"{"sub":"alice"}"#.utf8)), "malformed_token"), // no exp
            ("Bearer " + h.signer.sign(payloadJSON: Array(#"{"exp":\#(exp)}"#.utf8)), "malformed_token"), // no sub
            ("Bearer " + h.signer.sign(payloadJSON: Array(#"{"sub":"a/b","exp":\#(exp)}"#.utf8)), "malformed_token"),
            ("Bearer " + h.signer.sign(payloadJSON: Array("not json".utf8)), "malformed_token"),
            (
                "Bearer "
                    + h.signer.sign(
                        payloadJSON: Array(#"{"sub":"alice","exp":\#(exp)}"#.utf8),
                        headerJSON: Array(#"{"alg":"none"}"#.utf8)), "unsupported_algorithm"
            ),
            (
                "Bearer "
                    + h.signer.sign(
                        payloadJSON: Array(#"{"sub":"alice","exp":\#(exp)}"#.utf8),
                        headerJSON: Array(#"{"alg":"HS512"}"#.utf8)), "unsupported_algorithm"
            ),
            (
                "Bearer "
                    + h.signer.sign(
                        payloadJSON: Array(#"{"sub":"alice","exp":\#(exp)}"#.utf8),
                        headerJSON: Array(#"{"alg":"HS256","crit":["x"]}"#.utf8)), "malformed_token"
            ),
            (
                "Bearer " + TokenSigner.base64URL(Array(#"{"alg":"none"}"#.utf8)) + "."
                    + TokenSigner.base64URL(Array(#"{"sub":"alice","exp":\#(exp)}"#.utf8)) + ".", "malformed_token"
            ), // unsigned
        ]
        try await h.withRouter { client in
            for (header, code) in cases {
                let response = try await client.get("/v1/me/stats", [.authorization: header])
                #expect(response.status == .unauthorized, "\(header)")
                #expect(response.errorCode == code, "\(header)")
            }
        }
    }

    @Test func theDeviceClaimMustMatchTheBoundDevice() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            #expect(try await client.get("/v1/me/stats", h.auth(device: "phone-a")).status == .ok)
            let other = try await client.get("/v1/me/stats", h.auth(device: "phone-x"))
            #expect(other.status == .unauthorized)
            #expect(other.errorCode == "device_mismatch")
            // No claim: refused for a bound account (a token minted without the device must not open it); bob has
            // no bound device, so a token without a claim, or with any, passes.
            let unnamed = try await client.get("/v1/me/stats", h.auth(withoutDevice: true))
            #expect(unnamed.status == .unauthorized)
            #expect(unnamed.errorCode == "device_required")
            #expect(try await client.get("/v1/me/stats", h.auth(APIHarness.bob, withoutDevice: true)).status == .ok)
            #expect(try await client.get("/v1/me/stats", h.auth(APIHarness.bob, device: "anything")).status == .ok)
        }
    }

    /// A correctly signed token for an id that is not a stored user reads nothing: 404, the
    /// same answer as any id that is not the caller's.
    @Test func anotherUsersIdIs404() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            for (method, path) in Self.protectedRoutes {
                let response = try await client.execute(
                    uri: path, method: method, headers: h.auth(UserID("mallory")), body: ByteBuffer(string: "{}"))
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(response.errorCode == "not_found", "\(method) \(path)")
            }
        }
    }

    @Test func verifierChecksExpiryAgainstTheInjectedClock() throws {
        let clock = TestWallClock(1_000_000)
        let verifier = TokenVerifier(secret: APIHarness.secret, leeway: .seconds(5), now: { clock.now })
        let token = TokenSigner(secret: APIHarness.secret).sign(
            TokenClaims(subject: "u1", expiresAt: 1_010, device: "d"))
        #expect(try verifier.verify(token) == TokenClaims(subject: "u1", expiresAt: 1_010, device: "d"))
        clock.advance(seconds: 14.999)
        #expect(throws: Never.self) { try verifier.verify(token) }
        clock.advance(seconds: 0.001)
        #expect { try verifier.verify(token) } throws: { ($0 as? APIError)?.code == .tokenExpired }
    }

    /// Remembered tokens skip the decoding and the HMAC, never the clock: a token verified once
    /// still expires (and leaves the memo), a not-yet-valid one is not remembered as valid, a
    /// tampered copy of a remembered token is verified in full, and the memo stays bounded.
    @Test func rememberedTokensAreStillCheckedAgainstTheClock() throws {
        let clock = TestWallClock(1_000_000)
        let verifier = TokenVerifier(secret: APIHarness.secret, memoCapacity: 2, now: { clock.now })
        let signer = TokenSigner(secret: APIHarness.secret)
        let token = signer.sign(TokenClaims(subject: "u1", expiresAt: 1_010))
        #expect(try verifier.verify(token).subject == "u1")
        #expect(verifier.memo.count == 1)
        #expect(try verifier.verify(token).subject == "u1") // from the memo

        // Same header and payload, another signature: not a memo hit.
        let parts = token.split(separator: ".")
        let forged = "\(parts[0]).\(parts[1])." + TokenSigner.base64URL(Array(repeating: 7, count: 32))
        #expect { try verifier.verify(forged) } throws: { ($0 as? APIError)?.code == .invalidSignature }
        #expect { try verifier.verify(token + "=") } throws: { ($0 as? APIError)?.code == .malformedToken }

        let later = signer.sign(TokenClaims(subject: "u2", expiresAt: 1_100, notBefore: 1_050))
        #expect { try verifier.verify(later) } throws: { ($0 as? APIError)?.code == .tokenNotYetValid }
        #expect(verifier.memo.count == 1)

        clock.advance(seconds: 10) // exp is exclusive
        #expect { try verifier.verify(token) } throws: { ($0 as? APIError)?.code == .tokenExpired }
        #expect(verifier.memo.count == 0)

        clock.advance(seconds: 40)
        #expect(try verifier.verify(later).subject == "u2")
        #expect(try verifier.verify(later).subject == "u2")
        for n in 0..<5 {
            _ = try verifier.verify(signer.sign(TokenClaims(subject: "u\(n)", expiresAt: 2_000)))
            #expect(verifier.memo.count <= 2)
        }
        clock.advance(seconds: 50)
        #expect { try verifier.verify(later) } throws: { ($0 as? APIError)?.code == .tokenExpired }
    }

    @Test func secretsShorterThan32BytesAreRefused() {
        #expect(throws: ConfigurationError.self) { try JWTSecret(string: String(repeating: "k", count: 31)) }
        #expect(throws: ConfigurationError.self) { try APIConfiguration(environment: [:]) }
        #expect(throws: ConfigurationError.self) { try APIConfiguration(environment: ["PIPELINE_JWT_SECRET": "short"]) }
        let configuration = try? APIConfiguration(environment: [
            "PIPELINE_JWT_SECRET": String(repeating: "k", count: 32), "PIPELINE_API_PORT": "9000",
        ])
        #expect(configuration?.host == "127.0.0.1")
        #expect(configuration?.port == 9000)
        #expect(!"\(configuration!.jwtSecret)".contains("kkkk"))
    }
}
