import Cache
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Ingest
import Store
import Testing

@testable import HTTPAPI

@Suite struct DeletionTests {
    /// Fills every user-owned table for alice (and some for bob), warms every cache, deletes
    /// alice through the API, and proves nothing of her remains in any table or cache while
    /// bob's data is intact.
    @Test func deleteMeRemovesEverythingOfTheUserFromEveryTableAndCache() async throws {
        let h = try await APIHarness()
        let alice = APIHarness.alice
        // A workout record (the only table the API does not write itself) and a plan.
        _ = try await h.store.apply(
            IngestUnit(workouts: [
                WorkoutCandidate(
                    workout: WorkoutRecord(
                        userID: alice, workoutID: WorkoutID("hk-1"), source: .appleHealth, activityType: "running",
                        startAt: APIHarness.start - 86_400_000, endAt: APIHarness.start - 82_800_000, durationS: 3600,
                        distanceM: 10_000, energyKcal: 600, avgHR: 150, maxHR: 170, elevationGainM: nil,
                        timeZone: "Europe/Berlin", samplesJSON: nil, updatedAt: 1, deleted: false, contentHash: "h1"),
                    conflictQuarantine: QuarantineRecord(
                        userID: alice, source: "test", sourceKey: "w", recordID: "hk-1",
                        reasonCode: .rejected(.conflict),
                        message: "m", payload: [], receivedAt: 0, quarantinedAt: 0))
            ]))
        _ = try await h.store.appendPlan(user: alice, generatedAt: 1, state: .ready, documentJSON: planDocument)

        try await h.withRouter { client in
            // Sessions (one failing: a quarantine row), metrics, stats, app stats.
            var sessions = dailySessions(3)
            sessions.append(sessionJSON(id: sessionID(99), duration: -1))
            #expect(
                try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(sessions)).status == .ok
            )
            #expect(
                try await client.send(
                    .post, "/v1/sessions/batch_upload", h.auth(APIHarness.bob),
                    json: batch(dailySessions(2, firstID: 50))
                ).status == .ok)
            #expect(try await client.execute(uri: "/v1/me/recompute", method: .post, headers: h.auth()).status == .ok)
            #expect(
                try await client.send(
                    .patch, "/v1/me/stats", h.auth(),
                    json: """
                        {"workout_total_count": 3, "workout_total_energy": 1, "workout_total_distance": 1,
                         "workout_total_duration": 1, "workout_streak": 1}
                        """
                ).status == .ok)
            // Warm the caches.
            for path in ["/v1/me/stats", "/v1/me/plan", "/v1/me/plan/weeks/1", "/v1/me/plan/weeks/2026-W15"] {
                #expect(try await client.get(path, h.auth()).status == .ok)
            }
            #expect(try await client.get("/v1/me/stats", h.auth(APIHarness.bob)).status == .ok)

            let before = try await h.store.footprint(user: alice)
            #expect(
                before.sessions == 3 && before.workouts == 1 && before.sessionMetrics == 3 && before.stats == 1
                    && before.plans == 1 && before.quarantine >= 1 && before.users == 1)
            #expect(Self.cachedKeys(h.services, alice) > 0)

            let token = h.token()
            let deleted = try await client.execute(
                uri: "/v1/me", method: .delete, headers: [.authorization: "Bearer \(token)"])
            #expect(deleted.status == .noContent)
            #expect(deleted.body.readableBytes == 0)

            // Every table: nothing of alice.
            #expect(
                try await h.store.footprint(user: alice)
                    == UserFootprint(
                        sessions: 0, workouts: 0, sessionMetrics: 0, stats: 0, plans: 0, quarantine: 0, users: 0))
            #expect(try await h.store.user(alice) == nil)
            // Every cache: nothing of alice (responses and the user lookup).
            #expect(Self.cachedKeys(h.services, alice) == 0)
            #expect(h.services.userCache.isExpired(UserCacheKey(user: "alice", resource: "user")))
            // The audit keeps only the keyed hash of the id (HMAC-SHA256 under the store's own key), not the plain
            // SHA-256 anyone could recompute from a guessed id.
            let audits = try await h.store.deletionAudits()
            #expect(audits.count == 1)
            // The key file's key (issue 39: outside the database), read here independently of the hasher.
            let keyText = try String(contentsOf: IdentifierHasher.keyFileURL(), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let keyBytes = stride(from: 0, to: keyText.count, by: 2).map {
                UInt8(keyText.dropFirst($0).prefix(2), radix: 16)!
            }
            let key = SymmetricKey(
                data: ProcessInfo.processInfo.environment[IdentifierHasher.environmentKey].map { Array($0.utf8) }
                    ?? keyBytes)
            let expectedHash = HMAC<SHA256>.authenticationCode(for: Array("alice".utf8), using: key).map {
                String(format: "%02x", $0)
            }.joined()
            #expect(audits[0].userHash == expectedHash)
            #expect(
                audits[0].userHash != SHA256.hash(data: Array("alice".utf8)).map { String(format: "%02x", $0) }.joined()
            )
            #expect(audits[0].status == .completed)
            #expect(audits[0].requestedAt == APIHarness.start)
            #expect(audits[0].note?.contains("alice") != true)

            // The still-valid token now reaches nothing.
            for path in ["/v1/me/stats", "/v1/me/plan", "/v1/me/sessions"] {
                let response = try await client.get(path, [.authorization: "Bearer \(token)"])
                #expect(response.status == .notFound, "\(path)")
            }
            let again = try await client.execute(
                uri: "/v1/me", method: .delete, headers: [.authorization: "Bearer \(token)"])
            #expect(again.status == .notFound)

            // Bob is untouched.
            #expect(
                try await client.get("/v1/me/stats", h.auth(APIHarness.bob)).json["workout_total_count"] as? Int == 2)
        }
        #expect(try await h.store.footprint(user: APIHarness.bob).sessions == 2)
        #expect(try await h.store.deletionAudits().count == 1)
    }

    /// Entries of `user` still live in the response cache, probed by every resource the routes use.
    static func cachedKeys(_ services: APIServices, _ user: UserID) -> Int {
        let resources = ["stats", "plan", "plan/weeks/1", "plan/weeks/2026-W15"]
        return resources.filter {
            !services.responseCache.isExpired(UserCacheKey(user: CacheUserID(user.rawValue), resource: $0))
        }.count
    }
}
