import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest

/// Issue 39: every quarantine row that names a person carries the person's id, by what the JSON says (its parsed
/// value, or the string tokens of a broken payload) — so deleting the person leaves no row that names them.
@Suite struct QuarantineAttributionTests {
    static let profile = #""time_zone": "Europe/Berlin", "profile": {"available_days": ["mon"]}, "created_at_ms": 0"#

    static func write(_ text: String, _ relative: String, in inbox: URL) throws {
        let url = inbox.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A temporary directory (`root`, to remove) with an inbox whose users file names user-0001 and user-0003.
    static func inboxWithTwoUsers(_ name: String) throws -> (root: URL, inbox: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        let inbox = root.appendingPathComponent("inbox")
        try write(
            #"{"users": [{"user_id": "user-0001", \#(profile)}, {"user_id": "user-0003", \#(profile)}]}"#,
            "users/a.json", in: inbox)
        return (root, inbox)
    }

    @Test func theLexerReadsWhatAJSONReaderWould() {
        #expect(QuarantineAttribution(json: Array(#"{"user_id" : "user-0003"}"#.utf8)).user == UserID("user-0003"))
        #expect(
            QuarantineAttribution(json: Array(#"{"\u0075ser_id":"\u0075ser-0003","x":1"#.utf8)).user
                == UserID("user-0003"))
        // Broken documents: the tokens still read; two users named: no single owner.
        let two = QuarantineAttribution(
            json: Array(#"{"users": [{"user_id": "a-1", "time_zone": "X"}, {"user_id":"b-2", "#.utf8))
        #expect(two.users == [UserID("a-1"), UserID("b-2")])
        #expect(two.user == nil)
        // A key that is not `user_id`, or a value that is no valid user id, names no one.
        #expect(QuarantineAttribution(json: Array(#"{"id": "user-0003"}"#.utf8)).users.isEmpty)
        #expect(QuarantineAttribution(json: Array(#"{"user_id": "../etc"}"#.utf8)).users.isEmpty)
        // A record cut across two lines: both pieces are the user's.
        let pieces = QuarantineAttribution.ofSequence([
            Array(#"{"id": "hk-7", "user_id":"#.utf8), Array(#""user-0003", "source": "garmin"}"#.utf8),
        ])
        #expect(pieces.map(\.user) == [UserID("user-0003"), UserID("user-0003")])
        // A surrogate pair escape decodes to its scalar.
        #expect(QuarantineAttribution.string(Array(#"\ud83d\ude00""#.utf8), from: 0).0 == "😀")
    }

    /// The issue's cases, through the inbox, then the user deleted: no quarantine row is left that names them — in
    /// any spelling (the raw bytes hold neither `user-0003` nor its escaped form's tail `ser-0003`).
    @Test func deletionFindsEveryRejectedRecordThatNamesTheUser() async throws {
        let (root, inbox) = try Self.inboxWithTwoUsers("attribution")
        defer { try? FileManager.default.removeItem(at: root) }
        let write = { (text: String, relative: String) in try Self.write(text, relative, in: inbox) }
        // A malformed users file naming only user-0003, and one naming both users.
        try write(#"{"users": [{"user_id" : "user-0003", "time_zone": "#, "users/b.json")
        try write(#"{"users": [{"user_id": "user-0001"}, {"user_id": "user-0003""#, "users/c.json")
        let fields =
            #""source": "garmin", "start": "2025-12-24T08:00:00Z", "end": "2025-12-24T09:00:00Z", "duration_s": 3600, "updated_at": "2025-12-24T10:00:00Z""#
        try write(
            [
                // Valid JSON, invalid record (unknown activity type), a space before the colon.
                #"{"id": "w1", "user_id" : "user-0003", "activity_type": "levitation", \#(fields)}"#,
                // Escapes in key and value.
                #"{"id": "w2", "\u0075ser_id": "\u0075ser-0003", "activity_type": "levitation", \#(fields)}"#,
                // Broken JSON naming the user.
                #"{"id": "w3", "user_id" : "user-0003", "activity_type": "#,
                // One record cut across two lines.
                #"{"id": "w4", "activity_type": "running", "user_id":"#, #""user-0003", \#(fields)}"#,
                // Another user's rejected record stays, with its owner.
                #"{"id": "w5", "user_id": "user-0001", "activity_type": "levitation", \#(fields)}"#,
            ].joined(separator: "\n"), "workouts/20251224T130000Z-w.ndjson")

        let store = try SQLiteStore(path: root.appendingPathComponent("db.sqlite").path)
        let report = try await InboxIngestor(store: store, clock: PipelineClock(now: { 1_766_577_600_000 })).ingest(
            inbox: inbox)
        #expect(report.addsUp)
        let rows = try await store.quarantined(reason: nil, offset: 0, limit: 100)
        #expect(rows.count == 8)
        let owners = Dictionary(grouping: rows, by: { $0.userID?.rawValue ?? "-" }).mapValues(\.count)
        // b.json, w1, w2, w3 and both pieces of w4 are user-0003's; w5 is user-0001's; c.json names both: no owner,
        // and its payload not kept.
        #expect(owners == ["user-0003": 6, "user-0001": 1, "-": 1])
        let shared = try #require(rows.first { $0.userID == nil })
        #expect(shared.payload.isEmpty && shared.message.contains("names 2 users"))

        _ = try await store.deleteUser(
            UserID("user-0003"), userHash: String(repeating: "a", count: 64), requestedAt: 1_766_577_600_000,
            completedAt: 1_766_577_600_000)
        let left = try await store.quarantined(reason: nil, offset: 0, limit: 100)
        #expect(left.count == 2)
        for row in left {
            let text = String(decoding: row.payload, as: UTF8.self) + row.message + (row.recordID ?? "")
            #expect(!text.contains("ser-0003"), "\(row.sourceKey)")
        }
    }

    /// A record cut across two NDJSON lines where the file's commit units meet (`recordsPerUnit` lines each): the piece
    /// ending one unit and the piece beginning the next are both the user's, as they are inside one unit.
    @Test func aRecordCutAtACommitBoundaryIsStillTheUsers() async throws {
        let (root, inbox) = try Self.inboxWithTwoUsers("boundary")
        defer { try? FileManager.default.removeItem(at: root) }
        let write = { (text: String, relative: String) in try Self.write(text, relative, in: inbox) }
        let fields =
            #""source": "garmin", "start": "2025-12-24T08:00:00Z", "end": "2025-12-24T09:00:00Z", "duration_s": 3600, "updated_at": "2025-12-24T10:00:00Z""#
        // Units of two lines: [1 2] [3 4] [5]. Lines 2|3 and 4|5 are records cut where two units meet.
        try write(
            [
                #"{"id": "w5", "user_id": "user-0001", "activity_type": "levitation", \#(fields)}"#,
                #"{"id": "w4", "activity_type": "running", "user_id":"#,
                #""user-0003", \#(fields)}"#,
                #"{"id": "w6", "activity_type": "running", "user_id" :"#,
                #""\u0075ser-0003", \#(fields)}"#,
            ].joined(separator: "\n"), "workouts/20251224T130000Z-w.ndjson")

        let store = try SQLiteStore(path: root.appendingPathComponent("db.sqlite").path)
        var ingestor = InboxIngestor(store: store, clock: PipelineClock(now: { 1_766_577_600_000 }))
        ingestor.recordsPerUnit = 2
        let report = try await ingestor.ingest(inbox: inbox)
        #expect(report.addsUp)
        let rows = try await store.quarantined(reason: nil, offset: 0, limit: 100)
        #expect(rows.count == 5)
        let owners = Dictionary(
            rows.map { ($0.sourceKey.split(separator: ":").last.map(String.init) ?? "", $0.userID?.rawValue ?? "-") },
            uniquingKeysWith: { a, _ in a })
        #expect(owners == ["1": "user-0001", "2": "user-0003", "3": "user-0003", "4": "user-0003", "5": "user-0003"])

        _ = try await store.deleteUser(
            UserID("user-0003"), userHash: String(repeating: "a", count: 64), requestedAt: 1_766_577_600_000,
            completedAt: 1_766_577_600_000)
        let left = try await store.quarantined(reason: nil, offset: 0, limit: 100)
        #expect(left.map(\.userID) == [UserID("user-0001")])
        for row in left {
            let text = String(decoding: row.payload, as: UTF8.self) + row.message + (row.recordID ?? "")
            #expect(!text.contains("ser-0003"), "\(row.sourceKey)")
        }
    }
}
