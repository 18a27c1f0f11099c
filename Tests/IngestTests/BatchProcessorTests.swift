import FTMSDecode
import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest

/// A fresh SQLite store with one known user.
final class IngestHarness {
    let directory: URL
    let store: SQLiteStore
    static let user = UserID("rider-1")
    static let received: Int64 = 1_766_577_600_000 // 2025-12-24T12:00:00Z
    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("db.sqlite").path)
        try await store.upsertUser(User(id: Self.user, timeZone: "Europe/Berlin", createdAt: 0))
    }
    deinit { try? FileManager.default.removeItem(at: directory) }

    func processor(limits: IngestLimits = .init()) -> BatchProcessor {
        BatchProcessor(
            store: store, limits: limits, statsProvider: { _ in UserStats.empty },
            clock: PipelineClock(now: { Self.received }))
    }

    func process(_ body: String, limits: IngestLimits = .init(), key: String? = nil, user: UserID = user) async throws
        -> BatchOutcome
    {
        try await processor(limits: limits).process(
            body: Array(body.utf8),
            context: BatchContext(userID: user, source: "test", sourceKey: "b.json", receivedAt: Self.received),
            ledgerKey: key)
    }
}

/// The blob spec's example: one Indoor Bike Data notification (raw-ble-blob.md, "Example").
let specExampleBlob: [UInt8] = [
    0x53, 0x46, 0x52, 0x42, 0x01, 0x01, 0x00, 0x00, 0x00, 0x19, 0xCD, 0x4F, 0x9B, 0x01, 0x00, 0x00,
    0xDC, 0x05, 0x00, 0x00, 0xD2, 0x2A, 0x00, 0x08, 0x44, 0x00, 0xC4, 0x09, 0xB4, 0x00, 0xC8, 0x00,
]

func sessionJSON(
    id: String = "6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60", start: String = "2025-12-24T10:00:00Z",
    end: String = "2025-12-24T10:30:00Z", duration: Any = 1800, energy: Any = 250, distance: Any = 14000,
    detail: String = "{\"avg_hr\": 142, \"avg_power\": 180}", raw: String? = nil, extra: String = ""
) -> String {
    var s =
        "{\"session_id\": \"\(id)\", \"started_at\": \"\(start)\", \"ended_at\": \"\(end)\", \"duration\": \(duration), "
        + "\"total_energy\": \(energy), \"total_distance\": \(distance), \"detail\": \(detail)"
    if let raw { s += ", \"raw\": \"\(raw)\"" }
    return s + extra + "}"
}

func batch(_ sessions: [String]) -> String { "{\"sessions\": [\(sessions.joined(separator: ","))]}" }

@Suite struct BatchProcessorTests {
    func answer(_ outcome: BatchOutcome) throws -> BatchAnswer {
        guard case .processed(let a, let report) = outcome else {
            Issue.record("not processed: \(outcome)"); throw CancellationError()
        }
        #expect(report.addsUp)
        return a
    }

    @Test func storesAValidSessionAndAnswersInTheAppsShape() async throws {
        let h = try await IngestHarness()
        let raw = Data(specExampleBlob).base64EncodedString()
        let outcome = try await h.process(batch([sessionJSON(raw: raw)]))
        let a = try answer(outcome)
        #expect(a.successCount == 1)
        #expect(a.duplicateCount == 0)
        #expect(a.failedSessions.isEmpty)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(a)) as! [String: Any]
        #expect(Set(json.keys) == ["success_count", "duplicate_count", "failed_sessions", "updated_stats"])
        let stored = try #require(
            try await h.store.session(
                user: IngestHarness.user, id: SessionID(uuidString: "6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60")!))
        #expect(stored.raw == specExampleBlob)
        #expect(stored.blobStatus == .complete)
        #expect(stored.durationS == 1800)
        #expect(stored.detailJSON == "{\"avg_hr\":142,\"avg_power\":180}")
        #expect(outcome.report.touchedUsers == [IngestHarness.user])
    }

    /// Each rule with a record that breaks it, and the code it must get.
    @Test(arguments: [
        (sessionJSON(duration: 0), RejectionCode.invalidDuration),
        (sessionJSON(duration: -30), .invalidDuration),
        (sessionJSON(end: "2025-12-25T11:00:00Z", duration: 90000), .invalidDuration),
        (sessionJSON(duration: 5400), .invalidDuration), // disagrees with ended_at − started_at
        (sessionJSON(start: "2025-12-24T10:40:00Z", end: "2025-12-24T10:30:00Z"), .invalidDuration),
        (sessionJSON(start: "2025-12-24T13:00:00Z", end: "2025-12-24T13:30:00Z"), .startInFuture),
        (sessionJSON(energy: -1), .invalidEnergy),
        (sessionJSON(energy: 5000), .invalidEnergy),
        (sessionJSON(distance: -5), .invalidDistance),
        (sessionJSON(distance: 500000), .invalidDistance),
        (sessionJSON(detail: "{\"avg_hr\": 300}"), .invalidHeartRate),
        (sessionJSON(detail: "{\"avg_power\": -3}"), .invalidPower),
        (sessionJSON(detail: "[1]"), .invalidField),
        (sessionJSON(id: "not-a-uuid"), .invalidSessionID),
        (sessionJSON(start: "24/12/2025 10:00"), .invalidTimestamp),
        (sessionJSON(duration: "\"1800\""), .invalidField),
        ("{\"session_id\": \"6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60\"}", .missingField),
        (sessionJSON(raw: "U0ZSQg=*"), .invalidBase64),
        (sessionJSON(raw: "U0ZSQgE"), .invalidBase64),
        (
            sessionJSON(
                raw: Data([0x53, 0x46, 0x52, 0x42, 0x02] + [UInt8](repeating: 0, count: 11)).base64EncodedString()),
            .blobRejected
        ),
        (sessionJSON(raw: Data([UInt8](repeating: 0x41, count: 20)).base64EncodedString()), .blobRejected),
        (sessionJSON(raw: Data([0x53, 0x46]).base64EncodedString()), .blobRejected),
        ("[1, 2]", .invalidField),
    ])
    func rejectsEachBrokenRule(session: String, code: RejectionCode) async throws {
        let h = try await IngestHarness()
        let outcome = try await h.process(batch([session, sessionJSON(id: "0d9a7c1e-0000-4000-8000-000000000001")]))
        let a = try answer(outcome)
        #expect(a.successCount == 1, "the rest of the batch goes on")
        #expect(a.failedSessions.count == 1)
        #expect(a.failedSessions.first?.code == code.rawValue)
        #expect(a.failedSessions.first?.error == code.category)
        #expect(outcome.report.sessions.quarantinedByReason == [.rejected(code): 1])
        let q = try await h.store.quarantined(reason: .rejected(code), offset: 0, limit: 5)
        #expect(q.count == 1)
        #expect(q.first?.message.isEmpty == false)
        #expect(q.first?.sourceKey == "b.json#0")
    }

    @Test func invalidDurationSaysSoLikeTheSeed() async throws {
        let h = try await IngestHarness()
        let a = try answer(try await h.process(batch([sessionJSON(duration: 0)])))
        #expect(a.failedSessions.first?.error == "validation_error")
        #expect(a.failedSessions.first?.message.hasPrefix("Invalid duration") == true)
    }

    @Test func wholeBatchRejections() async throws {
        let h = try await IngestHarness()
        let ids = (0..<21).map { String(format: "6f1c2a9e-3b7d-4c1e-9f0a-%012d", $0) }
        let cases: [(String, RejectionCode)] = [
            (batch(ids.map { sessionJSON(id: $0) }), .batchTooLarge),
            ("{\"sessions\": [", .malformedJSON),
            ("{\"items\": []}", .invalidBatchShape),
            ("[]", .invalidBatchShape),
            (String(repeating: "[", count: 200) + String(repeating: "]", count: 200), .jsonTooDeep),
        ]
        for (body, code) in cases {
            let outcome = try await h.process(body)
            guard case .rejected(let r, let report) = outcome else { Issue.record("\(code) not rejected"); continue }
            #expect(r.code == code)
            #expect(report.batches.quarantinedByReason == [.rejected(code): 1])
            #expect(report.sessions.received == 0)
            #expect(report.addsUp)
        }
        var small = IngestLimits()
        small.maxBatchBytes = 100
        guard case .rejected(let r, _) = try await h.process(batch([sessionJSON()]), limits: small) else {
            Issue.record("not rejected"); return
        }
        #expect(r.code == .payloadTooLarge)
        // Whole batches are kept byte for byte.
        let kept = try await h.store.quarantined(reason: .rejected(.malformedJSON), offset: 0, limit: 1)
        #expect(kept.first?.payload == Array("{\"sessions\": [".utf8))
        #expect(try await h.store.sessionCount(user: IngestHarness.user) == 0)
    }

    @Test func duplicatesWithinAcrossBatchesAndConflicts() async throws {
        let h = try await IngestHarness()
        let s = sessionJSON()
        let a1 = try answer(try await h.process(batch([s, s])))
        #expect(a1.successCount == 1)
        #expect(a1.duplicateCount == 1)
        // Key order and white space do not make a different session.
        let reordered =
            "{\"total_distance\":14000,\"detail\":{\"avg_power\":180,\"avg_hr\":142},\"duration\":1800,\"ended_at\":\"2025-12-24T10:30:00Z\",\"session_id\":\"6F1C2A9E-3B7D-4C1E-9F0A-1B2C3D4E5F60\",\"started_at\":\"2025-12-24T10:00:00Z\",\"total_energy\":250}"
        let a2 = try answer(try await h.process(batch([reordered])))
        #expect(a2.duplicateCount == 1)
        let changed = sessionJSON(energy: 260)
        let a3 = try answer(try await h.process(batch([changed])))
        #expect(a3.successCount == 0)
        #expect(a3.failedSessions.map(\.code) == ["conflict"])
        #expect(try await h.store.sessionCount(user: IngestHarness.user) == 1)
        #expect(
            try await h.store.session(
                user: IngestHarness.user, id: SessionID(uuidString: "6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60")!)?
                .totalEnergyKcal == 250)
    }

    @Test func unknownUserIsQuarantinedPerSession() async throws {
        let h = try await IngestHarness()
        let outcome = try await h.process(
            batch([sessionJSON(), sessionJSON(id: "0d9a7c1e-0000-4000-8000-000000000001")]), user: UserID("stranger"))
        let a = try answer(outcome)
        #expect(a.failedSessions.map(\.code) == ["unknown_user", "unknown_user"])
        #expect(a.updatedStats == nil)
        #expect(try await h.store.quarantineCountsByReason() == [.rejected(.unknownUser): 2])
    }

    @Test func truncatedAndCorruptedBlobsAreKeptAndFlagged() async throws {
        let h = try await IngestHarness()
        let truncated = Array(specExampleBlob.prefix(specExampleBlob.count - 3))
        var corrupted = specExampleBlob + specExampleBlob[16...]
        corrupted[32] = 0x00 // second record's t = 0 < 1500: time going backwards
        corrupted[33] = 0x00
        let outcome = try await h.process(
            batch([
                sessionJSON(raw: Data(truncated).base64EncodedString()),
                sessionJSON(id: "0d9a7c1e-0000-4000-8000-000000000001", raw: Data(corrupted).base64EncodedString()),
            ]))
        let a = try answer(outcome)
        #expect(a.successCount == 2)
        #expect(outcome.report.truncatedBlobs == 1)
        #expect(outcome.report.corruptedBlobs == 1)
        let t = try #require(
            try await h.store.session(
                user: IngestHarness.user, id: SessionID(uuidString: "6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60")!))
        #expect(t.blobStatus == .truncated)
        #expect(t.blobNote?.contains("truncated at byte 16") == true)
        #expect(t.raw == truncated)
    }

    @Test func aRepeatedLedgerKeyChangesNothing() async throws {
        let h = try await IngestHarness()
        let body = batch([sessionJSON(), sessionJSON(duration: 0, extra: "")])
        let first = try await h.process(body, key: "inbox:x.json")
        guard case .processed = first else { Issue.record("first run not processed"); return }
        let digest = try await h.store.contentDigest()
        let second = try await h.process(body, key: "inbox:x.json")
        guard case .alreadyProcessed(let report) = second else { Issue.record("second run not recognised"); return }
        #expect(report.batches.duplicates == 1)
        #expect(report.addsUp)
        #expect(try await h.store.contentDigest() == digest)
    }
}
