import Foundation
import Store
import StoreSQLite
import Testing

@testable import Pipeline

@Suite struct DeletionRetryJobTests {
    /// Only a deletion that failed, was not completed since, and concerned a user who existed when it was requested
    /// is retried; the retry completes it and a second run finds nothing owed.
    @Test func retriesExactlyTheDeletionsStillOwed() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deletions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let alice = UserID("alice"), bob = UserID("bob"), carol = UserID("carol"), dave = UserID("dave")
        for id in [alice, bob, dave] {
            try await store.upsertUser(User(id: id, timeZone: "Europe/Berlin", createdAt: 0))
        }
        try await store.upsertUser(User(id: carol, timeZone: "UTC", createdAt: 5_000))
        /// A failed deletion audited under `user`'s hash (the store fails it as an unknown id).
        func failedDeletion(of user: UserID, at time: Int64) async {
            _ = try? await store.deleteUser(
                UserID("missing-\(UUID())"), userHash: UserDeletion.userHash(user, store: store), requestedAt: time,
                completedAt: time)
        }
        await failedDeletion(of: alice, at: 1_000) // owed
        await failedDeletion(of: bob, at: 1_000) // failed, then completed: bob registered again later
        _ = try await UserDeletion(store: store, now: { 2_000 }).delete(bob)
        try await store.upsertUser(User(id: bob, timeZone: "UTC", createdAt: 3_000))
        await failedDeletion(of: carol, at: 1_000) // carol registered after that request
        #expect(try await store.deletionAudits().filter { $0.status == .failed }.count == 3)

        let job = DeletionRetryJob(store: store, now: { 10_000 })
        #expect(try await job.owed() == [alice])
        let summary = try await job.run()
        #expect(summary.owed == 1 && summary.completed == 1 && summary.failed == 0)
        #expect(try await store.footprint(user: alice).total == 0)
        #expect(try await Set(store.userIDs()) == [bob, carol, dave])
        #expect(try await store.deletionAudits().last?.status == .completed)
        #expect(try await job.run().owed == 0)
        #expect(try await store.lastJobRun(DeletionRetryJob.jobName)?.status == .succeeded)
    }
}
