import Foundation
import GRDB
import Store
import Testing

@testable import StoreSQLite

/// Deletion is real deletion in the SQLite files too, not only in what SQL can still read: after `deleteUser`, no byte
/// of the person's recording or session detail is left in the database file, its write-ahead log or its shared memory
/// file (free pages zeroed by `secure_delete`, the log emptied by a checkpoint).
@Suite struct DeletionInTheFileTests {
    /// The database file and its companions, concatenated.
    static func fileBytes(_ path: String) -> Data {
        ["", "-wal", "-shm"].reduce(into: Data()) { all, suffix in
            all.append((try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data())
        }
    }

    @Test func aDeletedUsersRecordingAndDetailLeaveNoBytesInTheFiles() async throws {
        try await withTestStore(.sqlite) { t in
            guard case .sqlite(let store, let path) = t.kind else { return }
            // Markers no other content of the store contains: a recording of 60 KB (overflow pages) and a detail.
            let marker = Array("recording-of-alice-\(UUID().uuidString)-".utf8)
            let recording = (0..<(60_000 / marker.count)).flatMap { _ in marker }
            let detailMarker = "detail-of-alice-\(UUID().uuidString)"
            try await store.upsertUser(Fixtures.user())
            try await store.upsertUser(Fixtures.user(UserID("bob")))
            var session = Fixtures.session(raw: recording)
            session.detailJSON = "{\"note\":\"\(detailMarker)\"}"
            // Bob's session is stored after Alice's, so the pages around hers stay in use.
            let bobs = Fixtures.session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a99", user: UserID("bob"), raw: recording)
            for s in [session, bobs] {
                _ = try await store.apply(
                    IngestUnit(sessions: [SessionCandidate(session: s, conflictQuarantine: Fixtures.quarantine())]))
            }
            // A read of Alice's session, as the API would do, before the deletion.
            #expect(try await store.session(user: Fixtures.alice, id: session.sessionID)?.raw == recording)
            let detailBytes = Data(detailMarker.utf8)
            let before = Self.fileBytes(path)
            #expect(before.range(of: detailBytes) != nil, "the marker is visible before the deletion")

            _ = try await store.deleteUser(
                Fixtures.alice, userHash: String(repeating: "a", count: 64), requestedAt: 1, completedAt: 2)

            let after = Self.fileBytes(path)
            #expect(after.range(of: detailBytes) == nil)
            // Bob's recording carries the same bytes, so look for what only Alice's row had: her session id next to them.
            #expect(after.range(of: Data(session.sessionID.rawValue.utf8)) == nil)
            // And nothing of her recording remains once Bob is gone too.
            _ = try await store.deleteUser(
                UserID("bob"), userHash: String(repeating: "b", count: 64), requestedAt: 3, completedAt: 4)
            #expect(Self.fileBytes(path).range(of: Data(marker)) == nil)
            let secureDelete = try await store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") }
            #expect(secureDelete == 1)
        }
    }
}
