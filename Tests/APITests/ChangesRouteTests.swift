import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

/// `GET /v1/me/changes` (delta sync) and `GET /v1/me/sessions?cursor=` (keyset paging) through the router.
@Suite struct ChangesRouteTests {
    static func changes(_ response: TestResponse) -> [[String: Any]] {
        response.json["changes"] as? [[String: Any]] ?? []
    }

    /// Reads the whole feed from `since`, `size` at a time, following `next_cursor` while `has_more`.
    static func drain(
        _ client: any TestClientProtocol, _ h: APIHarness, since: String?, size: Int,
        user: UserID = APIHarness.alice
    ) async throws -> (items: [[String: Any]], cursor: String, pages: Int) {
        var items: [[String: Any]] = []
        var cursor = since
        var pages = 0
        while true {
            let response = try await client.get(
                "/v1/me/changes?size=\(size)" + (cursor.map { "&since=\($0)" } ?? ""), h.auth(user))
            #expect(response.status == .ok)
            items += changes(response)
            pages += 1
            cursor = try #require(response.json["next_cursor"] as? String)
            guard response.json["has_more"] as? Bool == true, pages < 100 else { return (items, cursor!, pages) }
        }
    }

    @Test func theFeedGivesEveryChangeOnceAndGoesOnFromItsCursor() async throws {
        let h = try await APIHarness()
        let adapted =
            #"{"format":"marathon-plan/1","adaptation":{"as_of":"2025-12-24","reasons":[{"code":"MISSED_WEEK","message":"m"}]}}"#
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
            _ = try await h.store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(workout: workout("hk-1", version: 1), conflictQuarantine: quarantine("w1")),
                    WorkoutCandidate(workout: workout("hk-2", version: 1), conflictQuarantine: quarantine("w2")),
                ]))
            _ = try await h.store.appendPlan(
                user: APIHarness.alice, generatedAt: APIHarness.start, state: .ready, documentJSON: adapted)

            let first = try await Self.drain(client, h, since: nil, size: 2)
            let sessions = first.items.filter { $0["kind"] as? String == "session" }
            #expect(Set(sessions.compactMap { $0["id"] as? String }) == Set((1...3).map(sessionID)))
            let one = try #require(sessions.first?["session"] as? [String: Any])
            #expect(one["started_at"] as? String != nil && one["raw"] == nil)
            #expect(one.keys.contains("metrics"))
            #expect(
                first.items.filter { $0["kind"] as? String == "workout" }.compactMap { $0["id"] as? String } == [
                    "hk-1", "hk-2",
                ])
            let workoutBody = try #require(
                first.items.first { $0["id"] as? String == "hk-1" }?["workout"] as? [String: Any])
            #expect(workoutBody["activity_type"] as? String == "running")
            #expect(workoutBody["distance_m"] as? Double == 10000)
            let plan = try #require(first.items.last { $0["kind"] as? String == "plan" }?["plan"] as? [String: Any])
            #expect(plan["version"] as? Int == 1)
            #expect((plan["reasons"] as? [[String: Any]])?.first?["code"] as? String == "MISSED_WEEK")
            // The upload recomputed the stats: one stats item, in the app's names.
            let stats = first.items.filter { $0["kind"] as? String == "stats" }
            #expect(stats.count == 1)
            #expect((stats.first?["stats"] as? [String: Any])?["workout_total_count"] as? Int == 3)
            // Each item once, and pages of 2 read the same as one page of 100.
            let ids = first.items.map { "\($0["kind"]!)/\($0["id"] ?? "")" }
            #expect(Set(ids).count == ids.count)
            #expect(first.pages >= 4)
            let whole = try await client.get("/v1/me/changes?size=100", h.auth())
            #expect(Self.changes(whole).map { "\($0["kind"]!)/\($0["id"] ?? "")" } == ids)
            #expect(whole.json["has_more"] as? Bool == false)

            // Nothing new: no items, the same cursor back.
            let idle = try await client.get("/v1/me/changes?since=\(first.cursor)", h.auth())
            #expect(Self.changes(idle).isEmpty)
            #expect(idle.json["next_cursor"] as? String == first.cursor)

            // A deletion comes as a tombstone; a new session comes with it; bob sees nothing of alice's.
            _ = try await h.store.apply(
                IngestUnit(workouts: [
                    WorkoutCandidate(
                        workout: workout("hk-1", version: 2, deleted: true), conflictQuarantine: quarantine("w3"))
                ]))
            _ = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(),
                json: batch([
                    sessionJSON(id: sessionID(9), start: "2025-12-24T09:00:00Z", end: "2025-12-24T09:30:00Z")
                ]))
            let next = try await Self.drain(client, h, since: first.cursor, size: 100)
            let tombstone = try #require(next.items.first { $0["kind"] as? String == "workout" })
            #expect(
                tombstone["id"] as? String == "hk-1" && tombstone["deleted"] as? Bool == true
                    && tombstone["workout"] == nil)
            #expect(next.items.contains { $0["id"] as? String == sessionID(9) })
            #expect(!next.items.contains { $0["id"] as? String == sessionID(1) })
            let bob = try await Self.drain(client, h, since: nil, size: 100, user: APIHarness.bob)
            #expect(bob.items.isEmpty)
        }
    }

    /// Two recordings of one ride (an uploaded session and a FIT record) link to the richest one, as the figures count
    /// them (docs/workout-records.md, "The same activity from several sources"), in the session list and the feed; the
    /// link follows what is stored at the read: a richer recording takes over, a deleted primary hands back.
    @Test func recordingsOfOneActivityNameTheirPrimary() async throws {
        let h = try await APIHarness()
        let session = sessionID(20)
        // The ride: 10:00–10:30, 30 min, 14 km, uploaded without its recording (a summary, counted as a ride).
        let ride = sessionJSON(id: session, start: "2025-12-24T10:00:00Z", end: "2025-12-24T10:30:00Z")
        // The same ride from the Garmin, a minute later, 10 s shorter, 100 m longer; a summary first, then with power.
        @Sendable func fit(version: Int64, samples: String?, deleted: Bool = false) -> WorkoutCandidate {
            WorkoutCandidate(
                workout: WorkoutRecord(
                    userID: APIHarness.alice, workoutID: WorkoutID("fit-1"), source: .garminFit,
                    activityType: "cycling", startAt: 1_766_570_460_000, endAt: 1_766_572_260_000, durationS: 1790,
                    distanceM: 14_100, energyKcal: nil, avgHR: nil, maxHR: nil, elevationGainM: nil, timeZone: nil,
                    samplesJSON: samples, updatedAt: version, deleted: deleted,
                    contentHash: "fit-1-\(version)-\(deleted)"),
                conflictQuarantine: quarantine("fit-\(version)"))
        }
        // A lone run that overlaps nothing counts itself.
        let lone = workout("hk-9", version: 1)
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch([ride]))
            _ = try await h.store.apply(
                IngestUnit(workouts: [
                    fit(version: 1, samples: nil),
                    WorkoutCandidate(workout: lone, conflictQuarantine: quarantine("hk-9")),
                ]))
            func sessionLink() async throws -> Any? {
                let list = try await client.get("/v1/me/sessions", h.auth())
                let item = try #require((list.json["sessions"] as? [[String: Any]])?.first)
                #expect(item["session_id"] as? String == session)
                let link: Any = try #require(item["duplicate_of"], "duplicate_of is always present")
                return link
            }
            // Both summaries: the FTMS session precedes garmin_fit.
            #expect(try await sessionLink() is NSNull)
            let first = try await Self.drain(client, h, since: nil, size: 100)
            func link(_ id: String, in items: [[String: Any]]) -> Any? {
                let item = items.last { $0["id"] as? String == id }
                return (item?["workout"] as? [String: Any] ?? item?["session"] as? [String: Any])?["duplicate_of"]
            }
            #expect(link("fit-1", in: first.items) as? String == "session:\(session)")
            #expect(link(session, in: first.items) is NSNull)
            #expect(link("hk-9", in: first.items) is NSNull)

            // The FIT record again, now with power samples: it is the richer recording and becomes the primary.
            _ = try await h.store.apply(
                IngestUnit(workouts: [
                    fit(version: 2, samples: "[{\"t\": 0, \"power_w\": 180}, {\"t\": 1, \"power_w\": 182}]")
                ]))
            #expect(try await sessionLink() as? String == "workout:fit-1")
            let second = try await Self.drain(client, h, since: first.cursor, size: 100)
            #expect(link("fit-1", in: second.items) is NSNull)

            // The primary deleted: the session counts itself again.
            _ = try await h.store.apply(IngestUnit(workouts: [fit(version: 3, samples: nil, deleted: true)]))
            #expect(try await sessionLink() is NSNull)
            // Bob's list knows nothing of alice's recordings.
            let bob = try await client.get("/v1/me/sessions", h.auth(APIHarness.bob))
            #expect((bob.json["sessions"] as? [Any])?.count == 0)
        }
    }

    @Test func keysetPagesGoOnAfterTheLastSessionSeen() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(5)))
            let first = try await client.get("/v1/me/sessions?size=2", h.auth())
            let cursor = try #require(first.nextCursor)
            // A newer session arrives: offset paging would show session 3 again on page 2; the cursor goes on after it.
            _ = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(),
                json: batch([
                    sessionJSON(id: sessionID(6), start: "2025-12-24T09:00:00Z", end: "2025-12-24T09:30:00Z")
                ]))
            let second = try await client.get("/v1/me/sessions?size=2&cursor=\(cursor)", h.auth())
            #expect(second.status == .ok)
            let ids = (second.json["sessions"] as? [[String: Any]])?.compactMap { $0["session_id"] as? String }
            #expect(ids == [sessionID(3), sessionID(2)])
            #expect(second.pageMeta == ["total_count": 6, "total_pages": 3, "size": 2]) // no `page` on a cursor's page
            let third = try await client.get(
                "/v1/me/sessions?size=2&cursor=\(try #require(second.nextCursor))", h.auth())
            #expect(
                (third.json["sessions"] as? [[String: Any]])?.compactMap { $0["session_id"] as? String } == [
                    sessionID(1)
                ])
            #expect(third.nextCursor == nil)
            // With a cursor, `page` is not used.
            let both = try await client.get("/v1/me/sessions?size=2&page=3&cursor=\(cursor)", h.auth())
            #expect(
                (both.json["sessions"] as? [[String: Any]])?.compactMap { $0["session_id"] as? String } == [
                    sessionID(3), sessionID(2),
                ])
            // A cursor is sealed to the user it was given to: bob with alice's cursor is refused.
            let bob = try await client.get("/v1/me/sessions?size=2&cursor=\(cursor)", h.auth(APIHarness.bob))
            #expect(bob.status == .badRequest)
            #expect(bob.errorCode == "invalid_cursor")
        }
    }

    /// Issue 39: positions the server did not give to this user are refused, whatever their form — made-up ones in
    /// the old unsealed form (which read the whole service's log from any point), another user's cursor, and a
    /// cursor of this user with one bit changed; the cursor does not show the position.
    @Test func cursorsAreSealedToTheirUser() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
            let all = try await client.get("/v1/me/changes?size=100", h.auth())
            let total = try #require((all.json["changes"] as? [Any])?.count)
            #expect(total >= 3)
            let alice = try await client.get("/v1/me/changes?size=1", h.auth())
            #expect(alice.status == .ok)
            let cursor = try #require(alice.json["next_cursor"] as? String)
            #expect(cursor.hasPrefix("c2."))
            // The position is sealed in it: one base64url field of 32 bytes, not the log's numbers.
            #expect(cursor.split(separator: ".").map(\.count) == [2, 43])
            let again = try await client.get("/v1/me/changes?since=\(cursor)", h.auth())
            #expect(again.status == .ok)
            #expect((again.json["changes"] as? [Any])?.count == total - 1)
            _ = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(APIHarness.bob), json: batch(dailySessions(1)))
            let bobFeed = try await client.get("/v1/me/changes", h.auth(APIHarness.bob))
            let bobCursor = try #require(bobFeed.json["next_cursor"] as? String)
            var flipped = Array(cursor.utf8)
            let last = flipped.count - 3
            flipped[last] = flipped[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            for (since, user) in [
                ("c1.99999999999.0", APIHarness.alice), ("c1.0.0", APIHarness.alice), (cursor, APIHarness.bob),
                (bobCursor, APIHarness.alice), (String(decoding: flipped, as: UTF8.self), APIHarness.alice),
                ("s2." + cursor.dropFirst(3), APIHarness.alice),
            ] {
                let response = try await client.get("/v1/me/changes?since=\(since)", h.auth(user))
                #expect(response.status == .badRequest, "\(since)")
                #expect(response.errorCode == "invalid_cursor", "\(since)")
            }
            // Nothing new: the same cursor back.
            let end = try #require(again.json["next_cursor"] as? String)
            let idle = try await client.get("/v1/me/changes?since=\(end)", h.auth())
            #expect(idle.json["next_cursor"] as? String == end)
            #expect((idle.json["changes"] as? [Any])?.count == 0)
        }
    }

    /// Hostile cursors: anything the server did not give out is a 400 `invalid_cursor`, never a 500 or another page.
    @Test(arguments: [
        ("/v1/me/changes?since=", "invalid_cursor"),
        ("/v1/me/changes?since=c1.", "invalid_cursor"),
        ("/v1/me/changes?since=c1.1", "invalid_cursor"),
        ("/v1/me/changes?since=c1.1.2.3", "invalid_cursor"),
        ("/v1/me/changes?since=c1.-1.5", "invalid_cursor"),
        ("/v1/me/changes?since=c1.%2B1.5", "invalid_cursor"),
        ("/v1/me/changes?since=c1.18446744073709551616.1", "invalid_cursor"),
        ("/v1/me/changes?since=c1.0.9223372036854775808", "invalid_cursor"),
        ("/v1/me/changes?since=s1.1766000000000.6f1c2a9e-3b7d-4c1e-9f0a-000000000001", "invalid_cursor"),
        ("/v1/me/changes?since=c1.1.\(String(repeating: "9", count: 4000))", "invalid_cursor"),
        ("/v1/me/changes?size=0", "invalid_request"),
        ("/v1/me/changes?size=1000001", "invalid_request"),
        ("/v1/me/sessions?cursor=c1.0.1", "invalid_cursor"),
        ("/v1/me/sessions?cursor=s1.x.6f1c2a9e-3b7d-4c1e-9f0a-000000000001", "invalid_cursor"),
        ("/v1/me/sessions?cursor=s1.1.not-a-uuid", "invalid_cursor"),
        ("/v1/me/sessions?cursor=s1.1.6F1C2A9E-3B7D-4C1E-9F0A-000000000001", "invalid_cursor"),
        ("/v1/me/sessions?cursor=s1.1234567890123456.6f1c2a9e-3b7d-4c1e-9f0a-000000000001", "invalid_cursor"),
        // Issue 39: well-formed positions in the old unsealed form, and sealed-looking noise.
        ("/v1/me/changes?since=c1.99999999999.0", "invalid_cursor"),
        ("/v1/me/changes?since=c1.0.0", "invalid_cursor"),
        ("/v1/me/sessions?cursor=s1.1766000000000.6f1c2a9e-3b7d-4c1e-9f0a-000000000001", "invalid_cursor"),
        ("/v1/me/changes?since=c2.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "invalid_cursor"),
        ("/v1/me/changes?since=c2.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "invalid_cursor"),
        ("/v1/me/sessions?cursor=s2.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "invalid_cursor"),
    ])
    func cursorsNotGivenOutAreRefused(_ uri: String, _ code: String) async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.get(uri, h.auth())
            #expect(response.status == .badRequest, "\(uri)")
            #expect(response.errorCode == code, "\(uri)")
        }
    }

    @Test func theFeedNeedsAToken() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client async throws in
            #expect(try await client.get("/v1/me/changes").status == .unauthorized)
        }
    }

    @Test func cursorsRoundTrip() throws {
        let cursors = OpaqueCursor(secret: APIHarness.secret)
        let key = SessionPageKey(startedAt: 1_766_000_000_000, sessionID: SessionID(rawValue: sessionID(7)))
        let sealed = cursors.sessions(key, user: APIHarness.alice)
        #expect(try cursors.sessionKey(Substring(sealed), user: APIHarness.alice) == key)
        #expect(throws: APIError.self) { try cursors.sessionKey(Substring(sealed), user: APIHarness.bob) }
        for cursor in [
            ChangeCursor(transaction: UInt64.max, sequence: Int64.max), ChangeCursor(transaction: 0, sequence: 0),
            ChangeCursor(transaction: 12, sequence: -1),
        ] {
            let text = cursors.changes(cursor, user: APIHarness.alice)
            #expect(text.utf8.count == 3 + 43) // "c2." and 32 bytes in base64url
            #expect(try cursors.changeCursor(Substring(text), user: APIHarness.alice) == cursor)
            #expect(cursors.changes(cursor, user: APIHarness.alice) == text) // deterministic
            #expect(throws: APIError.self) { try cursors.changeCursor(Substring(text), user: APIHarness.bob) }
            #expect(throws: APIError.self) { try cursors.sessionKey(Substring(text), user: APIHarness.alice) }
        }
        // Another server secret: refused.
        let other = OpaqueCursor(secret: try JWTSecret(string: String(repeating: "k", count: 32)))
        let foreign = other.changes(ChangeCursor(transaction: 1, sequence: 1), user: APIHarness.alice)
        #expect(throws: APIError.self) { try cursors.changeCursor(Substring(foreign), user: APIHarness.alice) }
    }
}

private func workout(_ id: String, version: Int64, deleted: Bool = false) -> WorkoutRecord {
    WorkoutRecord(
        userID: APIHarness.alice, workoutID: WorkoutID(id), source: .appleHealth, activityType: "running",
        startAt: 1_766_570_400_000, endAt: 1_766_574_000_000, durationS: 3600, distanceM: 10000, energyKcal: 700,
        avgHR: 150, maxHR: 172, elevationGainM: 40, timeZone: "Europe/Berlin", samplesJSON: nil, updatedAt: version,
        deleted: deleted, contentHash: "\(id)-\(version)-\(deleted)")
}

private func quarantine(_ key: String) -> QuarantineRecord {
    QuarantineRecord(
        userID: APIHarness.alice, source: "test", sourceKey: key, recordID: nil, reasonCode: .rejected(.conflict),
        message: "m",
        payload: [], receivedAt: 1, quarantinedAt: 2)
}
