import Foundation
import Ingest
import Store
import StoreSQLite
import Testing

@testable import Pipeline

@Suite struct QuarantineRetryTests {
    @Test func whatNowPassesLeavesTheQuarantineWhatStillFailsStays() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("retry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let received: Int64 = 1_766_577_600_000
        let processor = BatchProcessor(store: store, clock: PipelineClock(now: { received }))
        func session(_ n: Int, duration: Int = 1800) -> String {
            String(
                format:
                    "{\"session_id\": \"6f1c2a9e-3b7d-4c1e-9f0a-%012d\", \"started_at\": \"2025-12-24T10:00:00Z\", ", n)
                + "\"ended_at\": \"2025-12-24T10:30:00Z\", \"duration\": \(duration), \"total_energy\": 250, \"total_distance\": 14000, \"detail\": {}}"
        }
        // A user the account service had not sent yet, and one broken session.
        let context = BatchContext(userID: UserID("late"), source: "inbox", sourceKey: "b.json", receivedAt: received)
        _ = try await processor.process(
            body: Array("{\"sessions\": [\(session(1)), \(session(2, duration: 0))]}".utf8), context: context)
        // A batch refused as a whole under a small limit.
        var small = IngestLimits()
        small.maxSessionsPerBatch = 1
        let strict = BatchProcessor(store: store, limits: small, clock: PipelineClock(now: { received }))
        _ = try await strict.process(
            body: Array("{\"sessions\": [\(session(3)), \(session(4))]}".utf8), context: context)
        #expect(
            try await store.quarantineCountsByReason() == [.rejected(.unknownUser): 2, .rejected(.batchTooLarge): 1])

        let service = QuarantineService(store: store, now: { received })
        // Nothing passes while the user is unknown.
        #expect(
            try await service.retry(reason: .rejected(.unknownUser), id: nil).map(\.outcome) == [
                .stillFailing, .stillFailing,
            ])
        try await store.upsertUser(User(id: UserID("late"), timeZone: "UTC", createdAt: 0))
        let results = try await service.retry(reason: nil, id: nil)
        #expect(results.map(\.outcome) == [.stored, .stillFailing, .reprocessed])
        // The CLI's `--json` lines keep the wire names.
        #expect(
            try results.map { String(decoding: try JSONEncoder().encode($0.outcome), as: UTF8.self) } == [
                "\"stored\"", "\"still_failing\"", "\"reprocessed\"",
            ])
        #expect(results[1].message?.hasPrefix("Invalid duration") == true)
        #expect(try await store.sessionCount(user: UserID("late")) == 3)
        // The session that still fails stays with its original reason, once.
        #expect(try await store.quarantineCountsByReason() == [.rejected(.unknownUser): 1])
        // Retrying again changes nothing.
        let digest = try await store.contentDigest()
        _ = try await service.retry(reason: nil, id: nil)
        #expect(try await store.contentDigest() == digest)
    }
}

@Suite struct StatsDriftTests {
    let pipeline = UserStats(
        workoutTotalCount: 10, workoutTotalEnergy: 5000, workoutTotalDistance: 100_000,
        workoutTotalDuration: 36_000, workoutStreak: 3, longestStreak: 5, lastWorkoutDate: LocalDate(iso: "2026-11-20")!
    )

    @Test func withinToleranceIsNoDrift() {
        var app = pipeline
        app.workoutTotalEnergy = 5040 // within 1 %
        app.workoutTotalDistance = 100_090 // within 100 m
        app.longestStreak = 9 // the apps do not send it
        #expect(StatsDrift.compare(user: UserID("u"), app: app, pipeline: pipeline, appReportedAt: nil) == nil)
    }

    @Test func eachDisagreementIsNamed() throws {
        var app = pipeline
        app.workoutTotalCount = 11
        app.workoutTotalEnergy = 5100
        app.workoutStreak = 4
        app.lastWorkoutDate = LocalDate(iso: "2026-11-21")!
        let drift = try #require(StatsDrift.compare(user: UserID("u"), app: app, pipeline: pipeline, appReportedAt: 0))
        #expect(
            drift.fields.map(\.name) == [
                "workout_total_count", "workout_total_energy", "workout_streak", "last_workout_date",
            ])
        #expect(drift.fields.first?.app == "11")
        #expect(drift.appReportedAt == "1970-01-01T00:00:00.000Z")
    }
}

@Suite struct UserDeletionTests {
    @Test func operatorDeletionLeavesNothingAndAuditsOnlyTheHash() async throws {
        let h = try PipelineHarness(.init(users: 2, days: 5, seed: 3, endDate: "2026-02-10", faultRate: 0.3))
        _ = try await h.nightly()
        let id = UserID("user-0001")
        #expect(try await h.store.footprint(user: id).total > 0)
        let audit = try await UserDeletion(store: h.store, now: { 42 }).delete(id)
        // The keyed hash under the operator's key (issue 39: outside the database), not SHA-256("user-0001")
        // (8b5f2503…, Python hashlib).
        let hasher = try await IdentifierHasher.resolve(store: h.store)
        #expect(try await h.store.storedSecret(named: "identifier_hmac") == nil)
        #expect(audit.userHash == hasher.hash(id))
        #expect(audit.userHash != "8b5f2503d0b789179e68b9254729e6828bac06988259e7e30d39a5da28b8d47e")
        #expect(audit.userHash.count == 64)
        #expect(audit.status == .completed)
        #expect(try await h.store.footprint(user: id).total == 0)
        #expect(try await h.store.footprint(user: UserID("user-0002")).total > 0)
        await #expect(throws: StoreError.self) { _ = try await UserDeletion(store: h.store).delete(id) }
    }
}
