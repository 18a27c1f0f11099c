import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

/// `GET /v1/me/report`: authenticated, text/html, cached with an ETag, scoped to the caller, 400 on a bad date.
@Suite struct ReportRouteTests {
    @Test func theCallersReportAsCachedHTML() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            #expect(try await client.get("/v1/me/report").status == .unauthorized)
            let empty = try await client.get("/v1/me/report", h.auth())
            #expect(empty.status == .ok)
            #expect(empty.headers[.contentType] == "text/html; charset=utf-8")
            #expect(empty.headers[.cacheControl] == "private, max-age=1800")
            let emptyHTML = String(buffer: empty.body)
            #expect(emptyHTML.hasPrefix("<!DOCTYPE html>"))
            #expect(emptyHTML.contains("User <b>alice</b>") && emptyHTML.contains("dates in Europe/Berlin"))
            #expect(emptyHTML.contains("No training load yet"))
            #expect(!emptyHTML.contains("<script") && !emptyHTML.contains("http"))

            let etag = try #require(empty.headers[.eTag])
            var conditional = h.auth()
            conditional[.ifNoneMatch] = etag
            #expect(try await client.get("/v1/me/report", conditional).status == .notModified)

            // Bob's page is his own.
            let bob = try await client.get("/v1/me/report", h.auth(APIHarness.bob))
            #expect(String(buffer: bob.body).contains("User <b>bob</b>") && !String(buffer: bob.body).contains("alice"))

            // Uploads change the stats: the cached page goes and the new one shows them.
            #expect(
                try await client.send(.post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(3)))
                    .status == .ok)
            let invalidated = try await client.get("/v1/me/report", conditional)
            #expect(invalidated.status == .ok) // the same URL with the old tag: the entry went with the upload
            #expect(
                String(buffer: invalidated.body).contains(
                    "<code>workout_total_count</code></td><td class=\"num\">3</td>"))
            let after = try await client.get("/v1/me/report?from=2025-12-01&to=2025-12-31", h.auth())
            #expect(after.status == .ok)
            let html = String(buffer: after.body)
            // `to` after today (2025-12-24 in Berlin at the harness's clock), without a plan, is clamped to today.
            #expect(html.contains("2025-12-01 to 2025-12-24"))
            #expect(html.contains("<code>workout_total_count</code></td><td class=\"num\">3</td>"))
            #expect(after.headers[.eTag] != etag)

            #expect(try await client.get("/v1/me/report?from=2025-13-01", h.auth()).status == .badRequest)
            #expect(try await client.get("/v1/me/report?to=2025-02-29", h.auth()).status == .badRequest)
            // Two valid dates always give a page (docs/openapi.yaml): a `from` after `to` becomes `to`, and a `from`
            // more than ten years before `to` is moved up to 3,659 days before it (2015-11-25, by Python's datetime).
            let reversed = try await client.get("/v1/me/report?from=2025-12-31&to=2025-12-01", h.auth())
            #expect(reversed.status == .ok)
            #expect(String(buffer: reversed.body).contains("2025-12-01 to 2025-12-01"))
            let ancient = try await client.get("/v1/me/report?from=0001-01-01&to=2025-12-01", h.auth())
            #expect(ancient.status == .ok)
            #expect(String(buffer: ancient.body).contains("2015-11-25 to 2025-12-01"))
        }
    }
}
