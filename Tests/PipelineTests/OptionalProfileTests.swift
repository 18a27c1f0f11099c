import Foundation
import Ingest
import Pipeline
import Store
import StoreSQLite
import Testing

/// People who do not run (issue 17): a user record without running fields, or without any profile, is valid; their
/// sessions are ingested and measured, and the plan engine simply has no plan for them.
@Suite struct OptionalProfileTests {
    @Test func ridersWithoutARunningProfileAreUsersLikeAnyone() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("riders-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let inbox = root.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(
            at: inbox.appendingPathComponent("users"), withIntermediateDirectories: true)
        try Data(
            """
            {"users": [
              {"user_id": "rider-a", "time_zone": "Europe/Berlin", "profile": {"ftp_w": 250, "max_hr": 185}, "created_at_ms": 0},
              {"user_id": "rider-b", "time_zone": "UTC", "created_at_ms": 0}
            ]}
            """.utf8
        ).write(to: inbox.appendingPathComponent("users/u.json"))
        for user in ["rider-a", "rider-b"] {
            let dir = inbox.appendingPathComponent("sessions/\(user)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(
                """
                {"sessions": [{"session_id": "6f1c2a9e-3b7d-4c1e-9f0a-00000000000\(user == "rider-a" ? 1 : 2)",
                  "started_at": "2025-12-24T10:00:00Z", "ended_at": "2025-12-24T11:00:00Z", "duration": 3600,
                  "total_energy": 700, "total_distance": 30000, "detail": {"avg_power": 200}}]}
                """.utf8
            ).write(to: dir.appendingPathComponent("20251224T120000Z-1.json"))
        }
        let store = try SQLiteStore(path: root.appendingPathComponent("db.sqlite").path)
        let now: Int64 = 1_766_664_000_000 // 2025-12-25T12:00:00Z
        let summary = try await NightlyJob(store: store, now: { now }).run(inbox: inbox)
        #expect(summary.ingest.users.stored == 2)
        #expect(summary.ingest.users.quarantined == 0)
        #expect(summary.ingest.sessions.stored == 2)
        #expect(summary.ingest.sessions.quarantinedByReason.isEmpty)
        #expect(try await store.user(UserID("rider-a"))?.profile.ftpW == 250)
        #expect(try await store.user(UserID("rider-b"))?.profile == TrainingProfile())
        for user in ["rider-a", "rider-b"] {
            #expect(try await store.userStats(UserID(user))?.stats.workoutTotalCount == 1)
            #expect(try await PlanService(store: store, now: { now }).refresh(UserID(user)) == .noGoal)
            #expect(try await store.latestPlan(user: UserID(user)) == nil)
        }
    }
}
