import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

@Suite struct PlanRouteTests {
    @Test func noPlanIs404NoPlan() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/plan", h.auth())
            #expect(response.status == .notFound)
            #expect(response.errorCode == "no_plan")
            #expect(try await client.get("/v1/me/plan/weeks/1", h.auth()).errorCode == "no_plan")
        }
    }

    @Test func theLatestPlanIsServedWithItsVersionAndCached() async throws {
        let h = try await APIHarness()
        _ = try await h.store.appendPlan(
            user: APIHarness.alice, generatedAt: 1, state: .ready,
            documentJSON: #"{"format":"marathon-plan/1","request":{},"plan":{"weeks":[]}}"#)
        _ = try await h.store.appendPlan(
            user: APIHarness.alice, generatedAt: APIHarness.start, state: .ready, documentJSON: planDocument)
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/plan", h.auth())
            #expect(response.status == .ok)
            let json = response.json
            #expect(json["format"] as? String == "marathon-plan/1")
            #expect(json["version"] as? Int == 2)
            #expect(json["state"] as? String == "ready")
            #expect(
                json["generated_at"] as? String == "2025-12-24T12:00:00.000Z"
                    || (json["generated_at"] as? String)?.hasPrefix("2025-12-24T12:00:00") == true)
            #expect(((json["plan"] as? [String: Any])?["weeks"] as? [Any])?.count == 2)
            #expect(response.headers[.cacheControl] == "private, max-age=1800")
            var conditional = h.auth()
            conditional[.ifNoneMatch] = response.headers[.eTag]
            #expect(try await client.get("/v1/me/plan", conditional).status == .notModified)
            // Bob has no plan: alice's is never his.
            #expect(try await client.get("/v1/me/plan", h.auth(APIHarness.bob)).errorCode == "no_plan")
        }
    }

    @Test(arguments: [
        ("1", "2026-03-30", 1), ("2", "2026-04-06", 2), ("2026-W14", "2026-03-30", 1), ("2026-w15", "2026-04-06", 2),
    ])
    func aWeekIsSelectedByIndexOrISOWeek(_ week: String, _ start: String, _ index: Int) async throws {
        let h = try await APIHarness()
        _ = try await h.store.appendPlan(
            user: APIHarness.alice, generatedAt: 1, state: .ready, documentJSON: planDocument)
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/plan/weeks/\(week)", h.auth())
            #expect(response.status == .ok)
            #expect((response.json["week"] as? [String: Any])?["start_date"] as? String == start)
            #expect(response.json["index"] as? Int == index)
            #expect(response.json["week_count"] as? Int == 2)
            #expect(response.json["timezone"] as? String == "Europe/Berlin")
            #expect(response.json["paces"] != nil)
            #expect(response.headers[.eTag] != nil)
        }
    }

    @Test(arguments: [
        ("3", 404), ("2026-W16", 404), ("0", 400), ("-1", 400), ("abc", 400), ("2025-W53", 404), ("2026-W54", 400),
        ("01", 400),
        ("99999999999999999999999", 404),
    ])
    func unknownOrInvalidWeeks(_ week: String, _ status: Int) async throws {
        let h = try await APIHarness()
        _ = try await h.store.appendPlan(
            user: APIHarness.alice, generatedAt: 1, state: .ready, documentJSON: planDocument)
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/plan/weeks/\(week)", h.auth())
            #expect(response.status.code == status, "\(week)")
            #expect(response.errorCode != nil)
        }
    }

    @Test func isoWeekArithmetic() {
        #expect(WeekSelector.mondayOfISOWeek(year: 2026, week: 1)?.iso == "2025-12-29")
        #expect(WeekSelector.mondayOfISOWeek(year: 2026, week: 53)?.iso == "2026-12-28")
        #expect(WeekSelector.mondayOfISOWeek(year: 2025, week: 53) == nil)
        #expect(WeekSelector.mondayOfISOWeek(year: 2021, week: 1)?.iso == "2021-01-04")
    }
}

@Suite struct SessionsRouteTests {
    @Test func pagesAreNewestFirstWithMeta() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(5)))
            let first = try await client.get("/v1/me/sessions?page=1&size=2", h.auth())
            #expect(first.status == .ok)
            let sessions = try #require(first.json["sessions"] as? [[String: Any]])
            #expect(sessions.map { $0["session_id"] as? String } == [sessionID(5), sessionID(4)])
            #expect(sessions[0]["started_at"] as? String == "2025-12-24T07:00:00Z")
            #expect(sessions[0]["source"] as? String == "api")
            #expect((sessions[0]["detail"] as? [String: Any])?["avg_hr"] as? Int == 142)
            #expect(sessions[0]["raw"] == nil)
            let meta = try #require(first.pageMeta)
            #expect(meta == ["total_count": 5, "total_pages": 3, "page": 1, "size": 2])
            #expect(first.nextCursor != nil)
            let last = try await client.get("/v1/me/sessions?page=3&size=2", h.auth())
            #expect((last.json["sessions"] as? [Any])?.count == 1)
            #expect(last.nextCursor == nil)
            let beyond = try await client.get("/v1/me/sessions?page=9&size=2", h.auth())
            #expect((beyond.json["sessions"] as? [Any])?.count == 0)
            let defaults = try await client.get("/v1/me/sessions", h.auth())
            #expect(defaults.pageMeta == ["total_count": 5, "total_pages": 1, "page": 1, "size": 20])
            // Bob sees none of alice's.
            let bob = try await client.get("/v1/me/sessions", h.auth(APIHarness.bob))
            #expect(bob.pageMeta == ["total_count": 0, "total_pages": 0, "page": 1, "size": 20])
        }
    }

    @Test func sizeIsCapped() async throws {
        let h = try await APIHarness { $0.maxPageSize = 3 }
        try await h.withRouter { client in
            _ = try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(5)))
            let response = try await client.get("/v1/me/sessions?size=1000", h.auth())
            #expect((response.json["sessions"] as? [Any])?.count == 3)
            #expect(response.pageMeta == ["total_count": 5, "total_pages": 2, "page": 1, "size": 3])
        }
    }

    @Test(arguments: ["page=0", "page=-1", "size=0", "size=abc", "page=1.5"])
    func invalidPagingIs400(_ query: String) async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let response = try await client.get("/v1/me/sessions?\(query)", h.auth())
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid_request")
        }
    }
}

@Suite struct UnknownRouteTests {
    @Test func unknownRoutesAndMethodsAnswerJSON() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let missing = try await client.get("/v1/nothing", h.auth())
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")
            let wrongMethod = try await client.execute(uri: "/v1/me/stats", method: .put, headers: h.auth())
            #expect(wrongMethod.status.code == 404 || wrongMethod.status.code == 405)
            #expect(wrongMethod.errorCode != nil)
        }
    }
}
