import FTMSDecode
import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Synchronization
import TestKit
import Testing

@testable import HTTPAPI

#if canImport(Glibc)
    import Glibc
#endif

/// What a signed-in user can send that is legal-looking but unbounded (issue 14): each attack meets its bound, with a
/// specific error, and leaves nothing out of bounds behind.
@Suite struct HostileClientTests {
    /// One session dated `0001-01-01` once made a recompute step the training-load series through 739,944 days.
    @Test func aSessionFromYearOneIsRefusedAndRecomputeStaysSmall() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let body = batch([
                sessionJSON(id: sessionID(1), start: "0001-01-01T00:00:00Z", end: "0001-01-01T00:30:00Z"),
                sessionJSON(id: sessionID(2)),
            ])
            let response = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: body)
            #expect(response.status == .ok)
            #expect(response.json["success_count"] as? Int == 1)
            let failed = try #require(response.json["failed_sessions"] as? [[String: Any]])
            #expect(failed.map { $0["code"] as? String } == ["start_too_early"])
            #expect(failed.map { $0["error"] as? String } == ["validation_error"])
            let recompute = try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth())
            #expect(recompute.status == .ok)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 1)
        // The series spans the stored session's day to today, not two thousand years.
        let days = try await h.store.trainingLoad(user: APIHarness.alice, from: nil, to: nil)
        #expect(days.allSatisfy { $0.date >= LocalDate(iso: "2025-12-24")! })
        #expect(days.count < 2_000)
    }

    /// Five uploads with a 30 MB `detail` once took the server to 1 GB and the history answer to 150 MB.
    @Test func aHugeDetailIsRefusedAndNeverServed() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let huge = "{\"avg_hr\": 140, \"note\": \"" + String(repeating: "x", count: 1 << 20) + "\"}"
            let response = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(),
                json: batch([sessionJSON(id: sessionID(3), detail: huge), sessionJSON(id: sessionID(4))]))
            #expect(response.status == .ok)
            let failed = try #require(response.json["failed_sessions"] as? [[String: Any]])
            #expect(failed.map { $0["code"] as? String } == ["detail_too_large"])
            let history = try await client.execute(uri: "/v1/me/sessions?size=100", method: .get, headers: h.auth())
            #expect(history.status == .ok)
            #expect(history.body.readableBytes < 64 << 10)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 1)
    }

    /// A method a declared path does not answer is 405 with `Allow` (RFC 9110 §15.5.6), not 404; an undeclared path
    /// stays 404; GET routes also answer HEAD.
    @Test func undeclaredMethodsAre405WithAllow() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            for (method, path, allow) in [
                (HTTPRequest.Method.put, "/v1/me/stats", "GET, PATCH"), (.delete, "/v1/me/plan", "GET"),
                (.post, "/v1/me/plan/weeks/3", "GET"), (.get, "/v1/sessions/batch_upload", "POST"),
                (.patch, "/healthz", "GET"), (.get, "/v1/me", "DELETE"),
            ] {
                let response = try await client.execute(uri: path, method: method, headers: h.auth())
                #expect(response.status == .methodNotAllowed, "\(method) \(path) \(response.status)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.errorCode == "method_not_allowed")
            }
            let unknown = try await client.execute(uri: "/v1/me/nothing", method: .get, headers: h.auth())
            #expect(unknown.status == .notFound)
            let head = try await client.execute(uri: "/healthz", method: .head)
            #expect(head.status != .methodNotAllowed)
        }
    }

    /// The writes and history reads that had no limit: past the window's allowance, 429 with `Retry-After`.
    @Test func statsReportsAndHistoryReadsAreRateLimited() async throws {
        let h = try await APIHarness {
            $0.statsReportRateLimit = RateLimit(requests: 2, window: .seconds(60))
            $0.historyReadRateLimit = RateLimit(requests: 3, window: .seconds(60))
        }
        try await h.withRouter { client in
            let patch =
                #"{"workout_total_count": 1, "workout_total_energy": 2, "workout_total_distance": 3, "workout_total_duration": 4, "workout_streak": 1}"#
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<3 {
                statuses.append(try await client.send(.patch, "/v1/me/stats", h.auth(), json: patch).status)
            }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
            var reads: [HTTPResponse.Status] = []
            for _ in 0..<4 {
                reads.append(try await client.execute(uri: "/v1/me/sessions", method: .get, headers: h.auth()).status)
            }
            #expect(reads == [.ok, .ok, .ok, .tooManyRequests])
            let limited = try await client.execute(uri: "/v1/me/sessions", method: .get, headers: h.auth())
            #expect(limited.errorCode == "rate_limited")
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Another user's allowance is their own.
            #expect(
                try await client.execute(uri: "/v1/me/sessions", method: .get, headers: h.auth(APIHarness.bob)).status
                    == .ok)
        }
    }

    /// Parallel uploads from one token once held 60 × 32 MiB in memory at once: what is bounded now is a user's uploads
    /// in progress (refused at once beyond their share) and the uploads processed in the whole server (beyond the
    /// slots, an upload waits in arrival order, then gets 429).
    @Test func uploadsInFlightAreBoundedPerUserAndInAll() async throws {
        let h = try await APIHarness {
            $0.maxUploadsInFlightPerUser = 2; $0.maxUploadsInFlight = 2; $0.uploadSlotWait = .milliseconds(300)
        }
        let gate = TestKit.Gate()
        func hold(_ user: UserID) -> Task<Void, any Error> {
            Task { try await h.services.withUploadShare(user) { await gate.wait() } }
        }
        func until(_ n: Int) async {
            for _ in 0..<10_000 where gate.waitingCount < n { await Task.yield() }
        }
        func refused(_ user: UserID) async -> Bool {
            do { try await h.services.withUploadShare(user) {}; return false } catch let error as APIError {
                return error.status == .tooManyRequests && error.headers[.retryAfter] == "1"
            } catch { return false }
        }
        let a1 = hold(APIHarness.alice), a2 = hold(APIHarness.alice)
        await until(2)
        #expect(gate.waitingCount == 2)
        #expect(await refused(APIHarness.alice)) // her third at once
        #expect(await !refused(APIHarness.bob)) // bob's share is his own
        gate.open()
        for task in [a1, a2] { try await task.value }
        #expect(await !refused(APIHarness.alice)) // shares are given back
        #expect(h.services.uploadsInFlight.withLock { $0.total } == 0)

        // The server's two processing slots taken: a third upload waits for the wait (300 ms), then gets 429.
        let slots = h.services.uploadProcessing
        await slots.acquire()
        await slots.acquire()
        let started = ContinuousClock.now
        await #expect(throws: APIError.self) { try await h.services.withProcessingSlot {} }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(slots.waiting == 0) // the one that gave up left the queue
        // Waiting ones get the slots in arrival order as they are given back.
        let first = Task { await slots.acquire(within: .seconds(120)) }
        while slots.waiting < 1 { await Task.yield() }
        let second = Task { await slots.acquire(within: .seconds(120)) }
        while slots.waiting < 2 { await Task.yield() }
        slots.release()
        #expect(await first.value)
        #expect(slots.waiting == 1) // the second still waits: the first came first
        slots.release()
        #expect(await second.value)
        // A waiting request that goes away leaves the queue at once, holding nothing.
        let cancelled = Task { await slots.acquire(within: .seconds(120)) }
        while slots.waiting < 1 { await Task.yield() }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(slots.waiting == 0)
        slots.release()
        slots.release()
        #expect(slots.inUse == 0)
    }

    /// Storage without bounds: once a user's stored sessions (or the bytes of their recordings) reach the quota, the next
    /// upload is refused with 413 `storage_quota_exceeded` before anything is stored; other users are not affected.
    @Test func uploadsStopAtTheStorageQuota() async throws {
        let h = try await APIHarness {
            $0.maxSessionsPerUser = 3; $0.maxRecordingBytesPerUser = 5_000
        }
        try await h.withRouter { client in
            let first = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
            #expect(first.json["success_count"] as? Int == 3)
            let refused = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(),
                json: batch([sessionJSON(id: sessionID(9))]))
            #expect(refused.status == .contentTooLarge)
            #expect(refused.errorCode == "storage_quota_exceeded")
            #expect((refused.json["message"] as? String)?.contains("3 of 3 sessions") == true)
            // Bob's quota is his own: two uploads of 4,096-byte recordings pass (the second starts at 4,096 < 5,000 bytes
            // and crosses the quota by its own size), the third is refused.
            var writer = BlobWriter(machine: .indoorBike, startMillis: 1_766_570_400_000) // 16 header bytes
            for n in 0..<408 {
                writer.append(timeMillis: UInt32(n * 1000), uuid: 0x2A37, kind: .notification, payload: [0x00, 140])
            }
            #expect(writer.bytes.count == 4_096)
            let recording = Data(writer.bytes).base64EncodedString()
            func upload(_ n: Int) async throws -> TestResponse {
                let session = sessionJSON(id: sessionID(100 + n)).dropLast() + ", \"raw\": \"\(recording)\"}"
                return try await client.send(
                    .post, "/v1/sessions/batch_upload", h.auth(APIHarness.bob), json: batch([String(session)]))
            }
            #expect(try await upload(1).json["success_count"] as? Int == 1)
            #expect(try await upload(2).json["success_count"] as? Int == 1)
            let third = try await upload(3)
            #expect(third.status == .contentTooLarge)
            #expect(third.errorCode == "storage_quota_exceeded")
        }
        #expect(try await h.store.storageUsage(user: APIHarness.alice) == StorageUsage(sessions: 3, recordingBytes: 0))
        #expect(
            try await h.store.storageUsage(user: APIHarness.bob) == StorageUsage(sessions: 2, recordingBytes: 8_192))
    }

    /// `iss` and `aud` when configured, and a maximum lifetime always: each refusal is a 401 with its own code.
    @Test func issuerAudienceAndLifetimeAreChecked() async throws {
        let h = try await APIHarness {
            $0.tokenPolicy = TokenVerifier.Policy(
                issuer: "https://auth.example", audience: "pipeline",
                maxLifetime: .seconds(3600))
        }
        let now = Double(APIHarness.start) / 1000
        @Sendable func claims(
            iss: String? = "https://auth.example", aud: [String]? = ["pipeline"], exp: Double = 900, iat: Double? = nil
        ) -> HTTPFields {
            let token = h.signer.sign(
                TokenClaims(
                    subject: "alice", expiresAt: now + exp, issuedAt: iat.map { now + $0 },
                    device: APIHarness.aliceDevice, issuer: iss, audience: aud))
            return [.authorization: "Bearer \(token)"]
        }
        try await h.withRouter { client in
            #expect(try await client.get("/v1/me/stats", claims()).status == .ok)
            #expect(try await client.get("/v1/me/stats", claims(aud: ["other", "pipeline"])).status == .ok)
            for (headers, code) in [
                (claims(iss: nil), "invalid_issuer"), (claims(iss: "https://evil.example"), "invalid_issuer"),
                (claims(aud: nil), "invalid_audience"), (claims(aud: ["other"]), "invalid_audience"),
                (claims(exp: 7200), "token_lifetime_too_long"),
                (claims(exp: 600, iat: -7200), "token_lifetime_too_long"),
                (claims(exp: 10 * 365 * 86_400), "token_lifetime_too_long"),
            ] {
                let response = try await client.get("/v1/me/stats", headers)
                #expect(response.status == .unauthorized, "\(code)")
                #expect(response.errorCode == code)
            }
        }
    }

    /// `/metrics` was public on every listener: with a token configured it needs it; without one it is served on a
    /// loopback listener only.
    @Test func metricsNeedTheirTokenOrALoopbackListener() async throws {
        let guarded = try await APIHarness { $0.metricsToken = "scrape-secret-123" }
        try await guarded.withRouter { client in
            #expect(try await client.get("/metrics").status == .unauthorized)
            #expect(try await client.get("/metrics", [.authorization: "Bearer wrong"]).status == .unauthorized)
            // a user's token is not it
            #expect(try await client.get("/metrics", guarded.auth()).status == .unauthorized)
            let ok = try await client.get("/metrics", [.authorization: "Bearer scrape-secret-123"])
            #expect(ok.status == .ok)
            #expect(ok.text.contains("# TYPE"))
        }
        let exposed = try await APIHarness { $0.host = "0.0.0.0" }
        try await exposed.withRouter { client async throws in
            #expect(try await client.get("/metrics").status == .notFound)
            #expect(try await client.get("/healthz").status == .ok)
        }
        let local = try await APIHarness()
        try await local.withRouter { client async throws in
            #expect(try await client.get("/metrics").status == .ok)
        }
    }

    /// Slowloris: sockets that open a request and then send nothing are closed by the server after its idle timeout,
    /// and the server goes on answering. A bounded number of sockets, on loopback only.
    @Test func idleConnectionsAreClosed() async throws {
        let h = try await APIHarness { $0.idleTimeout = .seconds(2) }
        let app = buildApplication(services: h.services)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let sockets = try (0..<16).map { _ in try SlowClient(port: port) }
            for socket in sockets { socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
            // Each read returns 0 when the server closes the connection; had the server left it open, the socket's own
            // 30 s receive limit would end the read with -1 instead. No wall-clock bound beside it: a loaded test
            // machine has taken 12–28 s to close all sixteen on the 2 s timeout.
            for socket in sockets { #expect(await offThePool { socket.readUntilClosed() } == 0) }
            // A new connection is answered (the test client's own connection idled out too).
            #expect(await Self.aFreshConnectionIsAnswered(port: port))
        }
    }

    /// Whether a well-behaved request on a new connection is answered. With deadlines of a second or two, a starved
    /// test machine can let a fresh connection run out before its request is read, so up to five are tried: the server
    /// must answer one, not refuse them all.
    static func aFreshConnectionIsAnswered(port: Int) async -> Bool {
        for _ in 0..<5 {
            guard let fresh = try? SlowClient(port: port) else { continue }
            fresh.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if await offThePool({ fresh.readAll() }).hasPrefix("HTTP/1.1 200") { return true }
        }
        return false
    }

    /// A client that sends one byte of its head or body now and then defeats the idle timeout; the head and body
    /// deadlines close it all the same, and a well-behaved request on a fresh connection is answered.
    @Test func dribbledHeadsAndBodiesAreCutOff() async throws {
        let h = try await APIHarness {
            $0.idleTimeout = .seconds(30); $0.headTimeout = .seconds(1); $0.bodyTimeout = .seconds(2)
        }
        let app = buildApplication(services: h.services)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let head = try SlowClient(port: port)
            head.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let body = try SlowClient(port: port)
            let bearer = try #require(h.auth()[.authorization])
            body.send(
                "POST /v1/sessions/batch_upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(bearer)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"sessions\": [")
            let started = ContinuousClock.now
            // One byte every 200 ms on each: never idle for long.
            var closed = (head: false, body: false)
            while !(closed.head && closed.body), ContinuousClock.now - started < .seconds(25) {
                try await Task.sleep(for: .milliseconds(200))
                if !closed.head { closed.head = !head.sendByte("x") }
                if !closed.body { closed.body = !body.sendByte(" ") }
            }
            #expect(closed.head && closed.body)
            #expect(await offThePool { head.readUntilClosed() } == 0)
            #expect(ContinuousClock.now - started < .seconds(25))
            #expect(await Self.aFreshConnectionIsAnswered(port: port))
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 0)
    }
}

/// Runs a blocking call (a socket read) on a thread of its own. On the cooperative pool — two threads on a two-core
/// machine — two blocked reads would leave no thread for the server under test to answer them with, and every other
/// test's server would stall too.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// A raw TCP client on loopback that can stop half-way through a request. Its reads block: call them through
/// `offThePool`.
final class SlowClient: @unchecked Sendable {
    let fd: Int32
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { close(fd); throw CancellationError() }
    }
    deinit { close(fd) }
    func send(_ text: String) { _ = text.withCString { Glibc.send(fd, $0, strlen($0), 0) } }
    /// Sends one byte; false once the server has closed the connection (the send fails, or the peer's close is seen).
    func sendByte(_ text: String) -> Bool {
        var probe: UInt8 = 0
        // A closed peer makes recv return 0 at once; MSG_DONTWAIT so an open one does not block.
        if recv(fd, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0 { return false }
        return text.withCString { Glibc.send(fd, $0, 1, Int32(MSG_NOSIGNAL)) } == 1
    }
    /// Everything the server sends until it closes.
    func readAll() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[0..<n]
        }
    }

    /// Reads until the server closes (0) or the socket's timeout (-1); what the last read returned.
    func readUntilClosed() -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return n }
        }
    }
}
