import Foundation
import Store
import Testing

@testable import StoreSQLite

/// A session's columns come back each in its own field through every read, on every backend. The SQLite store reads
/// its rows by position (`SQLiteStore.SummaryColumn`), so a column out of place would put one field's value in
/// another's: the session here has a different value in every field, so that no swap can go unseen.
@Suite struct SessionColumnsTests {
    /// The positions the SQLite store reads against the column list the queries select, written out here by hand.
    @Test func theSQLiteStoreReadsEachColumnWhereTheQuerySelectsIt() {
        let expected: [(SQLiteStore.SummaryColumn, String)] = [
            (.userID, "user_id"), (.sessionID, "session_id"), (.startedAtText, "started_at_text"),
            (.endedAtText, "ended_at_text"), (.startedAt, "started_at_ms"), (.endedAt, "ended_at_ms"),
            (.durationS, "duration_s"), (.totalEnergyKcal, "total_energy_kcal"),
            (.totalDistanceM, "total_distance_m"), (.detailJSON, "detail_json"), (.machine, "machine"),
            (.blobStatus, "blob_status"), (.blobNote, "blob_note"), (.contentHash, "content_sha256"),
            (.source, "source"), (.receivedAt, "received_at_ms"), (.rawBlob, "raw_blob"),
        ]
        // What `SELECT \(summaryColumns), raw_blob` selects, in order.
        let selected =
            StoreSQL.sessionSummaryColumns.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            } + ["raw_blob"]
        #expect(selected.count == expected.count)
        #expect(SQLiteStore.SummaryColumn.allCases.count == expected.count)
        for (column, name) in expected {
            #expect(selected.indices.contains(column.rawValue) && selected[column.rawValue] == name, "\(column)")
        }
    }

    static let id = "5d1c7c0e-3f4b-4b7a-9a55-0f3e2d1c4b6a"

    /// Every field different from every other of its type.
    static let session = StoredSession(
        userID: Fixtures.alice, sessionID: SessionID(uuidString: id)!, startedAtText: "2025-12-24T10:00:00+01:00",
        endedAtText: "2025-12-24T10:30:01.5+01:00", startedAt: 1_766_566_800_000, endedAt: 1_766_568_601_500,
        durationS: 1801.5, totalEnergyKcal: 312.25, totalDistanceM: 15_000.75, detailJSON: "{\"avg_hr\":141}",
        raw: (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251) }, machine: "rower",
        blobStatus: .truncated, blobNote: "cut at 12 s", contentHash: String(repeating: "d", count: 64),
        source: "garmin-test", receivedAt: 1_766_570_000_123)

    @Test(arguments: Backend.available) func everyReadReturnsEachColumnInItsOwnField(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let session = Self.session
            _ = try await t.store.apply(
                IngestUnit(sessions: [SessionCandidate(session: session, conflictQuarantine: Fixtures.quarantine())]))
            var summary = session
            summary.raw = nil

            #expect(try await t.store.session(user: Fixtures.alice, id: session.sessionID) == session)
            // A key that is not stored is left out; the others come in the order asked, each with its recording.
            let missing = SessionID(uuidString: "5d1c7c0e-3f4b-4b7a-9a55-0f3e2d1c4b6b")!
            #expect(
                try await t.store.sessions(keys: [
                    (Fixtures.alice, missing), (Fixtures.alice, session.sessionID), (Fixtures.alice, missing),
                ]) == [session])
            #expect(try await t.store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 10) == [summary])
            #expect(try await t.store.sessionSummaries(user: Fixtures.alice, after: nil, limit: 10) == [summary])
            #expect(
                try await t.store.sessionSummaries(user: Fixtures.alice, ids: [missing, session.sessionID])
                    == [summary])
        }
    }
}
