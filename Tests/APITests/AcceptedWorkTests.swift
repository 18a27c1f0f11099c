import Foundation
import Hummingbird
import HummingbirdTesting
import Pipeline
import Store
import StoreSQLite
import Synchronization
import TestKit
import Testing

@testable import HTTPAPI

/// Issue 39: what a request costs after it is accepted is bounded by what can exist, and what the contract bounds is
/// refused outside its bounds.
@Suite struct AcceptedWorkTests {
    /// `to=9999-12-30` once continued the training-load series with rest days to that day (2.9 million days, 2.25 GB
    /// for one request). The window is clamped to today (no plan) or to the plan's last day.
    @Test func aReportToYear9999CostsWhatTodayDoes() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
            let far = try await client.get("/v1/me/report?to=9999-12-30", h.auth())
            #expect(far.status == .ok)
            // Today in Berlin at the harness's clock is 2025-12-24; the default window is the 84 days to it.
            #expect(String(buffer: far.body).contains("2025-10-02 to 2025-12-24"))
            let wide = try await client.get("/v1/me/report?from=0001-01-01&to=9999-12-30", h.auth())
            #expect(wide.status == .ok)
            // Ten years at most, and nothing before 2000-01-01.
            #expect(String(buffer: wide.body).contains("2015-12-18 to 2025-12-24"))
            let early = try await client.get("/v1/me/report?from=1900-01-01&to=1900-02-01", h.auth())
            #expect(early.status == .ok)
            #expect(String(buffer: early.body).contains("2000-01-01 to 2000-01-01"))
        }
        // The work: the service's input over the largest window holds the days of the clamped window only.
        let service = ReportService(store: h.store, now: { Date(epochMillis: APIHarness.start) })
        let input = try await service.input(APIHarness.alice, from: "9989-12-31", to: "9999-12-30")
        #expect(input.from.iso == "2025-12-24" && input.to.iso == "2025-12-24")
        #expect(input.loadDays.count <= 1)
        #expect(input.vdotTrend.count <= 1)

        // With a plan, the last day is the plan's (2026-04-06, the last day of planDocument), not further.
        let today = try #require(LocalDate(iso: "2025-12-24"))
        #expect(try await service.latestDay(APIHarness.alice, today: today) == today)
        _ = try await h.store.appendPlan(
            user: APIHarness.alice, generatedAt: APIHarness.start, state: .ready, documentJSON: planDocument)
        #expect(try await service.latestDay(APIHarness.alice, today: today).iso == "2026-04-06")
        #expect(try await service.latestDay(APIHarness.alice, today: LocalDate(iso: "2026-05-01")!).iso == "2026-05-01")
    }

    /// `workout_total_energy: 1e300` was stored; every figure has the maximum the document states.
    @Test(arguments: [
        ("workout_total_energy", "1e300"), ("workout_total_energy", "100000000.5"),
        ("workout_total_distance", "1e11"), ("workout_total_duration", "3155760001"), ("workout_streak", "36526"),
        ("longest_streak", "36526"), ("last_workout_date", "\"9999-12-30\""),
        ("last_workout_date", "\"1999-12-31\""), ("last_workout_date", "\"2025-12-26\""),
    ])
    func statsOutsideTheirBoundsAreRefused(_ key: String, _ value: String) async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.send(.patch, "/v1/me/stats", h.auth(), json: Self.stats([key: value]))
            #expect(response.status == .badRequest, "\(key): \(value)")
            #expect(response.errorCode == "invalid_request")
        }
        #expect(try await h.store.userStats(APIHarness.alice)?.appReported == nil)
    }

    /// The maxima themselves are accepted and stored as sent.
    @Test func statsAtTheirBoundsAreAccepted() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let body = Self.stats([
                "workout_total_energy": "100000000", "workout_total_distance": "10000000000",
                "workout_total_duration": "3155760000", "workout_streak": "36525",
                "last_workout_date": "\"2025-12-25\"",
            ])
            let response = try await client.send(.patch, "/v1/me/stats", h.auth(), json: body)
            #expect(response.status == .ok)
        }
        let stored = try #require(try await h.store.userStats(APIHarness.alice)?.appReported)
        #expect(stored.workoutTotalEnergy == 100_000_000)
        #expect(stored.workoutTotalDistance == 10_000_000_000)
        #expect(stored.workoutTotalDuration == 3_155_760_000)
        #expect(stored.workoutStreak == 36_525)
        #expect(stored.lastWorkoutDate == LocalDate(iso: "2025-12-25"))
    }

    /// A body of valid figures with `overrides` replacing or adding fields.
    static func stats(_ overrides: [String: String]) -> String {
        var values = [
            "workout_total_count": "1", "workout_total_energy": "0", "workout_total_distance": "0",
            "workout_total_duration": "0", "workout_streak": "0",
        ]
        values.merge(overrides) { $1 }
        return "{" + values.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            + "}"
    }

    /// A `session_id` with a NUL byte (or any control character) after a UUID was stored as the bare UUID.
    @Test(arguments: [
        "6f1c2a9e-3b7d-4c1e-9f0a-000000000001\\u0000", "6f1c2a9e-3b7d-4c1e-9f0a-000000000001\\u0000junk",
        "6f1c2a9e-3b7d-4c1e-9f0a-000000000001\\n", "\\u00006f1c2a9e-3b7d-4c1e-9f0a-000000000001",
        " 6f1c2a9e-3b7d-4c1e-9f0a-000000000001", "{6f1c2a9e-3b7d-4c1e-9f0a-000000000001}",
        "6f1c2a9e3b7d4c1e9f0a000000000001",
    ])
    func sessionIDsWithAnythingButAUUIDAreRefused(_ id: String) async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch([sessionJSON(id: id)]))
            #expect(response.status == .ok)
            #expect(response.json["success_count"] as? Int == 0)
            let failed = try #require(response.json["failed_sessions"] as? [[String: Any]])
            #expect(failed.map { $0["code"] as? String } == ["invalid_session_id"])
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 0)
    }

    @Test func sessionIDsAreCanonical() {
        #expect(
            SessionID(uuidString: "6F1C2A9E-3B7D-4C1E-9F0A-00000000000A")?.rawValue == sessionID(0).dropLast() + "a")
        #expect(SessionID(uuidString: "6f1c2a9e-3b7d-4c1e-9f0a-000000000001\u{0}") == nil)
        #expect(SessionID(uuidString: "6f1c2a9e-3b7d-4c1e-9f0a-00000000001") == nil)
        #expect("hk-1\u{7}".containsControlCharacter && "a\u{85}".containsControlCharacter)
        #expect(!"hk-1 é".containsControlCharacter)
    }

    /// After `pipeline delete-user` (another process, its own connection to the database file) the server served the
    /// user's cached stats and report for up to 2 s: the next request now finds the user gone.
    @Test func aDeletionByAnotherProcessIsSeenAtOnce() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(2)))
            for _ in 0..<2 { // the second from the cache
                #expect(try await client.get("/v1/me/stats", h.auth()).status == .ok)
                #expect(try await client.get("/v1/me/report", h.auth()).status == .ok)
            }
            #expect(try await client.get("/v1/me/stats", h.auth(APIHarness.bob)).status == .ok)
            let other = try SQLiteStore(path: h.directory.appendingPathComponent("db.sqlite").path)
            _ = try await UserDeletion(store: other).delete(APIHarness.alice)
            // Seen by every request that starts more than `StoreCatchUp.freshness` (5 ms) after the commit.
            try await Task.sleep(for: .milliseconds(10))
            for path in ["/v1/me/stats", "/v1/me/report"] {
                let response = try await client.get(path, h.auth())
                #expect(response.status == .notFound, "\(path)")
            }
            #expect(try await client.get("/v1/me/stats", h.auth(APIHarness.bob)).status == .ok)
        }
    }

    /// 60 malformed 1.5 MB batches a minute once kept 60 MiB a minute of quarantine outside the quota: rejected bytes
    /// now count toward the storage quota, and at most `maxQuarantineBytesPerMinute` of them a minute are taken.
    @Test func rejectedUploadsCountTowardTheQuotaAndAreCappedPerMinute() async throws {
        let junk = String(repeating: "x", count: 60_000) // not JSON: the whole body is kept in quarantine
        let capped = try await APIHarness { $0.maxQuarantineBytesPerMinute = 100_000 }
        try await capped.withRouter { client in
            for _ in 0..<2 {
                let refused = try await client.send(.post, "/v1/sessions/batch_upload", capped.auth(), json: junk)
                #expect(refused.status == .badRequest)
                #expect(refused.errorCode == "malformed_json")
            }
            let third = try await client.send(.post, "/v1/sessions/batch_upload", capped.auth(), json: junk)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "quarantine_rate_exceeded")
            #expect(third.headers[.retryAfter] == "60")
            // Bob is not held back by alice's refusals.
            let bob = try await client.send(
                .post, "/v1/sessions/batch_upload", capped.auth(APIHarness.bob), json: batch(dailySessions(1)))
            #expect(bob.status == .ok)
            capped.clock.advance(seconds: 61)
            let later = try await client.send(.post, "/v1/sessions/batch_upload", capped.auth(), json: junk)
            #expect(later.status == .badRequest)
        }
        #expect(try await capped.store.storageUsage(user: APIHarness.alice).quarantineBytes == 180_000)

        let small = try await APIHarness { $0.maxRecordingBytesPerUser = 50_000 }
        try await small.withRouter { client in
            #expect(
                try await client.send(.post, "/v1/sessions/batch_upload", small.auth(), json: junk).status
                    == .badRequest)
            let over = try await client.send(
                .post, "/v1/sessions/batch_upload", small.auth(), json: batch(dailySessions(1)))
            #expect(over.status == .contentTooLarge)
            #expect(over.errorCode == "storage_quota_exceeded")
            #expect((over.json["message"] as? String)?.contains("60000 of 50000 bytes stored") == true)
        }
        #expect(
            try await small.store.storageUsage(user: APIHarness.alice)
                == StorageUsage(sessions: 0, recordingBytes: 0, quarantineBytes: 60_000))
    }

    /// 8 accounts sending upload bodies one byte every 5 s once took every upload slot of the server, and everyone else's
    /// upload got 429. A body still arriving holds its own user's share and the bytes it has sent — no server slot, not
    /// what it declares — so while more accounts than the server has processing slots hold slow bodies open (no rate
    /// check here: they stay for the whole test), another user's upload is answered 200, and a slow account's second
    /// upload is refused at once (its share is taken).
    @Test func slowBodiesOfManyAccountsHoldNoServerSlot() async throws {
        let h = try await APIHarness {
            $0.maxUploadsInFlightPerUser = 1; $0.maxUploadsInFlight = 2; $0.uploadSlotWait = .milliseconds(100)
            $0.minBodyBytesPerSecond = 0
            // The test client connects first and speaks last: on a loaded machine the slow bodies' set-up can outlast
            // the default head deadline (10 s) of its idle connection.
            $0.headTimeout = .seconds(600); $0.idleTimeout = .seconds(600)
        }
        let slowUsers = (1...4).map { UserID("slow-\($0)") }
        for user in slowUsers { try await h.store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0)) }
        let app = buildApplication(services: h.services)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var slow: [SlowClient] = []
            for user in slowUsers {
                let connection = try SlowClient(port: port)
                let bearer = try #require(h.auth(user)[.authorization])
                connection.send(
                    "POST /v1/sessions/batch_upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(bearer)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"sessions\": [")
                slow.append(connection)
            }
            let opened = ContinuousClock.now
            while h.services.uploadsInFlight.withLock({ $0.total }) < 4, ContinuousClock.now - opened < .seconds(30) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(h.services.uploadsInFlight.withLock { $0.total } == 4)
            #expect(h.services.uploadProcessing.inUse == 0)
            // 14 bytes sent each (charged as 16), not the 1,000,000 declared.
            #expect(h.services.memoryBudget.inUse <= 4 * 16)

            let bystander = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(1)))
            #expect(bystander.status == .ok)
            #expect(bystander.json["success_count"] as? Int == 1)
            let second = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(slowUsers[0]), json: batch(dailySessions(1)))
            #expect(second.status == .tooManyRequests)
            #expect(second.errorCode == "rate_limited")
            // The slow bodies were never cut, and still hold only their own shares.
            for connection in slow { #expect(connection.sendByte(" ")) }
            #expect(h.services.uploadsInFlight.withLock { $0.total } == 4)
            slow.removeAll()
            let closed = ContinuousClock.now
            while h.services.uploadsInFlight.withLock({ $0.total }) > 0, ContinuousClock.now - closed < .seconds(10) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(h.services.uploadsInFlight.withLock { $0.total } == 0)
            #expect(h.services.memoryBudget.inUse == 0)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 1)
        for user in slowUsers { #expect(try await h.store.sessionCount(user: user) == 0) }
    }

    /// A body sent one byte at a time holds its slot for the grace period only: below the minimum rate after it, the
    /// connection is closed (long before the body deadline).
    @Test func aSlowBodyIsCutOffAfterTheGrace() async throws {
        let h = try await APIHarness {
            $0.bodyTimeout = .seconds(300); $0.minBodyBytesPerSecond = 1000; $0.bodyRateGrace = .seconds(1)
        }
        let app = buildApplication(services: h.services)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let slow = try SlowClient(port: port)
            let bearer = try #require(h.auth()[.authorization])
            slow.send(
                "POST /v1/sessions/batch_upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(bearer)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"sessions\": [")
            let started = ContinuousClock.now
            var closed = false
            while !closed, ContinuousClock.now - started < .seconds(60) {
                try await Task.sleep(for: .milliseconds(200))
                closed = !slow.sendByte(" ")
            }
            #expect(closed)
            // Within seconds of the 1 s grace (a loaded machine may take longer), far from the 300 s body deadline.
            #expect(ContinuousClock.now - started < .seconds(60))
            // The handler sees its body end with an error and gives the slot back (asynchronously: waited for).
            let closedAt = ContinuousClock.now
            while h.services.uploadsInFlight.withLock({ $0.total }) > 0, ContinuousClock.now - closedAt < .seconds(10) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(h.services.uploadsInFlight.withLock { $0.total } == 0)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 0)
    }

    /// 16 uploads at once with a million keys each took the server to 1.45 GB: a JSON upload charges its body to one
    /// process-wide budget as it arrives, and its size × `jsonDecodeFactor` before decoding it; it waits a little when
    /// the budget is spent, then gets 503 with `Retry-After`; nothing is stored.
    @Test func jsonUploadsReserveTheProcessWideBudget() async throws {
        let h = try await APIHarness {
            $0.jsonMemoryBudgetBytes = 1 << 20; $0.memoryBudgetWait = .milliseconds(100)
        }
        let budget = h.services.memoryBudget
        try await h.withRouter { client in
            #expect(budget.tryAcquire(1 << 20)) // other uploads in progress hold all of it
            let refused = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(1)))
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.errorCode == "unavailable")
            #expect(refused.headers[.retryAfter] == "1")
            budget.release(1 << 20)
            #expect(try await h.store.sessionCount(user: APIHarness.alice) == 0)
            // Half of it held elsewhere: a small body (its declared length × 8) still fits.
            #expect(budget.tryAcquire(1 << 19))
            let fits = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(1)))
            #expect(fits.status == .ok)
            budget.release(1 << 19)
            #expect(budget.inUse == 0)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 1)
    }

    /// Two million-key uploads at once took both threads of a 2-core machine's cooperative pool for seconds, and every
    /// other user's request waited (a bystander's cached read over 30 s): a large body is processed only while fewer
    /// than `largeUploadsProcessing` others are, while small uploads and reads go on.
    @Test func largeUploadsWaitForEachOtherNotForTheRest() async throws {
        let h = try await APIHarness {
            $0.largeUploadBytes = 1_000; $0.largeUploadsProcessing = 1
        }
        let gate = h.services.largeUploads
        #expect(gate.permits == 1)
        let large = batch([
            sessionJSON(id: sessionID(7), detail: "{\"pad\": \"\(String(repeating: "x", count: 2_000))\"}")
        ])
        let small = batch(dailySessions(1))
        #expect(large.utf8.count > 1_000 && small.utf8.count < 1_000)
        try await h.withRouter { client in
            await gate.acquire() // another large upload being processed
            let waiting = Task { try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: large) }
            for _ in 0..<2_000 where gate.waiting == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(gate.waiting == 1)
            // Meanwhile another user's small upload and reads are answered.
            let other = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(APIHarness.bob), json: small)
            #expect(other.status == .ok)
            #expect(try await client.get("/v1/me/stats", h.auth(APIHarness.bob)).status == .ok)
            #expect(gate.waiting == 1)
            #expect(try await h.store.sessionCount(user: APIHarness.alice) == 0)
            gate.release()
            #expect(try await waiting.value.status == .ok)
            #expect(gate.inUse == 0 && gate.waiting == 0)
        }
        #expect(try await h.store.sessionCount(user: APIHarness.alice) == 1)
        #expect(try await h.store.sessionCount(user: APIHarness.bob) == 1)
    }

    /// The gate itself: permits taken in arrival order, each waiter let in by one release.
    @Test func aWorkGateLetsInAtMostItsPermits() async throws {
        let gate = WorkGate(permits: 2)
        await gate.acquire()
        await gate.acquire()
        #expect(gate.inUse == 2)
        final class Order: Sendable { let list = Mutex<[Int]>([]) }
        let order = Order()
        let first = Task {
            await gate.acquire(); order.list.withLock { $0.append(1) }
        }
        for _ in 0..<2_000 where gate.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let second = Task {
            await gate.acquire(); order.list.withLock { $0.append(2) }
        }
        for _ in 0..<2_000 where gate.waiting < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(gate.waiting == 2 && order.list.withLock { $0 }.isEmpty)
        gate.release()
        await first.value
        #expect(order.list.withLock { $0 } == [1] && gate.waiting == 1 && gate.inUse == 2)
        gate.release()
        await second.value
        #expect(order.list.withLock { $0 } == [1, 2] && gate.inUse == 2)
        gate.release()
        gate.release()
        #expect(gate.inUse == 0)
    }
}
