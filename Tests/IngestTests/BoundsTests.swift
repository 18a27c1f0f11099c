import Foundation
import Store
import TestKit
import Testing

@testable import Ingest

/// Bounds an authenticated client can otherwise abuse with legal-looking input (issue 14): each is refused with its
/// own code, the rest of the batch goes on, and nothing out of bounds is stored.
@Suite struct BoundsTests {
    func failures(_ outcome: BatchOutcome) -> [String] {
        guard case .processed(let answer, let report) = outcome else { return ["not processed"] }
        #expect(report.addsUp)
        return answer.failedSessions.map(\.code)
    }

    @Test func aSessionFromYearOneOrBefore2000IsRefusedAndTheRestStored() async throws {
        let h = try await IngestHarness()
        let outcome = try await h.process(
            batch([
                sessionJSON(
                    id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000001", start: "0001-01-01T00:00:00Z",
                    end: "0001-01-01T00:30:00Z"),
                sessionJSON(
                    id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000002", start: "1999-12-31T23:30:00Z",
                    end: "2000-01-01T00:00:00Z"),
                sessionJSON(
                    id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000003", start: "2000-01-01T00:00:00Z",
                    end: "2000-01-01T00:30:00Z"),
            ]))
        #expect(failures(outcome) == ["start_too_early", "start_too_early"])
        #expect(try await h.store.sessionCount(user: IngestHarness.user) == 1)
        #expect(try await h.store.quarantineCountsByReason() == [.rejected(.startTooEarly): 2])
    }

    @Test func aDetailTooLargeOrTooDeepIsRefused() async throws {
        let h = try await IngestHarness()
        let big = "{\"avg_hr\": 140, \"note\": \"" + String(repeating: "x", count: 70_000) + "\"}"
        let deep = String(repeating: "{\"a\": ", count: 9) + "1" + String(repeating: "}", count: 9)
        let justDeepEnough = String(repeating: "{\"a\": ", count: 8) + "1" + String(repeating: "}", count: 8)
        let outcome = try await h.process(
            batch([
                sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000011", detail: big),
                sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000012", detail: deep),
                sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000013", detail: justDeepEnough),
            ]))
        #expect(failures(outcome) == ["detail_too_large", "detail_too_large"])
        let stored = try await h.store.sessionSummaries(user: IngestHarness.user, offset: 0, limit: 10)
        #expect(stored.map(\.sessionID.rawValue) == ["6f1c2a9e-3b7d-4c1e-9f0a-000000000013"])
        // The bound is the canonical form's size, configurable.
        var limits = IngestLimits()
        limits.maxDetailBytes = 100_000
        let allowed = try await h.process(
            batch([sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000014", detail: big)]), limits: limits)
        #expect(failures(allowed).isEmpty)
    }

    @Test func aWorkoutRecordBefore2000IsRefused() async throws {
        let h = try await IngestHarness()
        func record(_ id: String, start: String, end: String) -> (
            key: String, value: Result<JSONValue, Rejection>, payload: [UInt8]
        ) {
            let text =
                "{\"id\": \"\(id)\", \"user_id\": \"rider-1\", \"source\": \"garmin\", \"activity_type\": \"running\", "
                + "\"start\": \"\(start)\", \"end\": \"\(end)\", \"duration_s\": 1800, \"distance_m\": 5000, \"updated_at\": \"2025-12-20T08:00:00Z\"}"
            return (id, .success(try! JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))), Array(text.utf8))
        }
        let report = try await RecordProcessor(store: h.store, now: { IngestHarness.received }).process(
            kind: .workouts,
            records: [
                record("old", start: "0001-01-01T07:00:00Z", end: "0001-01-01T07:30:00Z"),
                record("ok", start: "2025-12-20T07:00:00Z", end: "2025-12-20T07:30:00Z"),
            ],
            source: "test", receivedAt: IngestHarness.received, ledgerKey: nil, ledgerHash: nil)
        #expect(report.workouts.quarantinedByReason == [.rejected(.startTooEarly): 1])
        #expect(report.workouts.stored == 1)
        #expect(report.workouts.addsUp)
    }

    @Test func depthCountsNestedContainers() {
        #expect(JSONValue.number(1).depth == 0)
        #expect(JSONValue.object([:]).depth == 1)
        #expect(JSONValue.object(["a": .array([.object(["b": .null])])]).depth == 3)
    }

    /// User ids name inbox directories and appear in logs: a safe alphabet only.
    @Test func userIDsAreASafeAlphabet() async throws {
        for good in ["alice", "user-0001", "a.b@example.com", "x+y_z", "A9"] {
            #expect(UserID.isValid(good), "\(good)")
        }
        for bad in [
            "", ".", "..", ".hidden", "a/b", "a\\b", "a b", "a\u{1b}[31m", "ä", String(repeating: "a", count: 129),
            "a:b", "a\nb",
        ] {
            #expect(!UserID.isValid(bad), "\(bad.debugDescription)")
        }
        let h = try await IngestHarness()
        func record(_ id: String) -> (key: String, value: Result<JSONValue, Rejection>, payload: [UInt8]) {
            let value = JSONValue.object([
                "user_id": .string(id), "time_zone": .string("UTC"), "created_at_ms": .number(0),
                "profile": .object(["available_days": .array([])]),
            ])
            return (id, .success(value), Array(value.canonicalText.utf8))
        }
        let report = try await RecordProcessor(store: h.store, now: { IngestHarness.received }).process(
            kind: .users, records: ["..", "a\\b", "ok.user@x"].map(record), source: "test",
            receivedAt: IngestHarness.received,
            ledgerKey: nil, ledgerHash: nil)
        #expect(report.users.stored == 1)
        #expect(report.users.quarantinedByReason == [.rejected(.invalidUser): 2])
        #expect(try await h.store.user(UserID("ok.user@x")) != nil)
    }

    /// A rejected body is kept as evidence only up to a bound, with the size and SHA-256 of all of it.
    @Test func quarantineKeepsABoundedPrefixWithSizeAndHash() async throws {
        let h = try await IngestHarness()
        let body = Array(("{\"sessions\": [" + String(repeating: "x", count: 2 << 20)).utf8) // 2 MiB, not JSON
        let outcome = try await h.processor().process(
            body: body,
            context: BatchContext(
                userID: IngestHarness.user, source: "test", sourceKey: "big.json", receivedAt: IngestHarness.received))
        guard case .rejected(let rejection, _) = outcome else { Issue.record("not rejected: \(outcome)"); return }
        #expect(rejection.code == .malformedJSON)
        let kept = try #require(
            try await h.store.quarantined(reason: .rejected(.malformedJSON), offset: 0, limit: 1).first)
        #expect(kept.payload == Array(body.prefix(1 << 20)))
        // The hash, computed by another implementation (coreutils).
        let file = h.directory.appendingPathComponent("body.bin")
        try Data(body).write(to: file)
        let sha256sum = try Spawn.output("/usr/bin/sha256sum", [file.path])
        #expect(sha256sum.exit == ChildExit(status: 0, bySignal: false))
        let hash = String(decoding: sha256sum.stdout, as: UTF8.self).prefix(64)
        #expect(kept.message.contains("first 1048576 of \(body.count) bytes kept; SHA-256 of all: \(hash)"))
        // Under the bound nothing changes.
        let small = QuarantineRecord(
            userID: nil, source: "t", sourceKey: "k", recordID: nil, reasonCode: .other("r"), message: "m",
            payload: [1, 2, 3], receivedAt: 0, quarantinedAt: 0)
        #expect(small.bounded(to: 3) == small)
    }

    /// Data of a deleted user arriving later (an inbox file written before the deletion, an upstream page) is dropped and
    /// counted; nothing of them is kept, not even in quarantine. A user who never existed is still `unknown_user`.
    @Test func dataOfADeletedUserArrivingLaterIsDroppedNotKept() async throws {
        let h = try await IngestHarness()
        let gone = UserID("gone-user")
        try await h.store.upsertUser(User(id: gone, timeZone: "UTC", createdAt: 0))
        // The deletion audit's hash, computed independently of the pipeline (`printf gone-user | sha256sum`).
        let hash = "ffd3cf46d8cec63574af9852771c3e1098507dcdbc6f32013fecaedc034baa23"
        _ = try await h.store.deleteUser(gone, userHash: hash, requestedAt: 1, completedAt: 2)
        let outcome = try await h.process(
            batch([
                sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000021"),
                sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000022"),
            ]), user: gone)
        guard case .processed(_, let report) = outcome else { Issue.record("\(outcome)"); return }
        #expect(report.sessions.received == 2)
        #expect(report.sessions.droppedDeletedUser == 2)
        #expect(report.sessions.quarantined == 0)
        #expect(report.addsUp)
        #expect(try await h.store.quarantineCountsByReason().isEmpty)
        #expect(try await h.store.footprint(user: gone).total == 0)
        // Its workout records too.
        let text =
            "{\"id\": \"w1\", \"user_id\": \"gone-user\", \"source\": \"garmin\", \"activity_type\": \"running\", "
            + "\"start\": \"2025-12-20T07:00:00Z\", \"end\": \"2025-12-20T07:30:00Z\", \"duration_s\": 1800, \"updated_at\": \"2025-12-20T08:00:00Z\"}"
        let workouts = try await RecordProcessor(store: h.store, now: { IngestHarness.received }).process(
            kind: .workouts,
            records: [
                ("w", .success(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))), Array(text.utf8))
            ],
            source: "test", receivedAt: IngestHarness.received, ledgerKey: nil, ledgerHash: nil)
        #expect(workouts.workouts.droppedDeletedUser == 1)
        #expect(workouts.workouts.addsUp)
        #expect(try await h.store.quarantineCountsByReason().isEmpty)
        // Someone who never had an account: quarantined as before.
        let stranger = try await h.process(
            batch([sessionJSON(id: "6f1c2a9e-3b7d-4c1e-9f0a-000000000023")]), user: UserID("never-was"))
        guard case .processed(_, let strangerReport) = stranger else { Issue.record("\(stranger)"); return }
        #expect(strangerReport.sessions.quarantinedByReason == [.rejected(.unknownUser): 1])
    }
}
