import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

@Suite struct LiveTests {
    /// The real server (`buildApplication`, task manager service included) on port 0, over a socket.
    @Test func liveServerOnAnEphemeralPort() async throws {
        let h = try await APIHarness()
        let app = buildApplication(services: h.services)
        try await app.test(.live) { client in
            #expect(client.port != nil && client.port != 0)
            let health = try await client.get("/healthz")
            #expect(health.status == .ok)
            #expect(health.headers[.contentLength] == "15")
            #expect(try await client.get("/v1/me/stats").status == .unauthorized)
            let upload = try await client.send(
                .post, "/v1/sessions/batch_upload", h.auth(), json: batch(dailySessions(2)))
            #expect(upload.json["success_count"] as? Int == 2)
            let stats = try await client.get("/v1/me/stats", h.auth())
            #expect(stats.json["workout_total_count"] as? Int == 2)
            var conditional = h.auth()
            conditional[.ifNoneMatch] = stats.headers[.eTag]
            #expect(try await client.get("/v1/me/stats", conditional).status == .notModified)
            #expect(try await client.execute(uri: "/v1/me", method: .delete, headers: h.auth()).status == .noContent)
            let metrics = try await client.get("/metrics")
            #expect(metrics.text.contains("api_users_deleted_total"))
        }
        // The test framework shut the server down gracefully: the task manager went with it.
        #expect(h.services.taskManager.isShutDown)
    }
}
