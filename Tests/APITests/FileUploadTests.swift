import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

/// `POST /v1/me/files`: a workout file of the caller through the inbox's import path.
@Suite struct FileUploadTests {
    /// Four points of a morning run, 20 s apart, with heart rate (Garmin's TrackPointExtension).
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="upload-test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>
        <trkpt lat="46.0000" lon="14.5"><time>2025-12-23T07:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>138</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="46.0005" lon="14.5"><time>2025-12-23T07:00:20Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>141</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="46.0010" lon="14.5"><time>2025-12-23T07:00:40Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>144</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="46.0015" lon="14.5"><time>2025-12-23T07:01:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>146</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        </trkseg></trk></gpx>
        """

    static func upload(
        _ client: any TestClientProtocol, _ h: APIHarness, _ body: String, query: String = "?name=run.gpx",
        user: UserID = APIHarness.alice
    ) async throws -> TestResponse {
        var headers = h.auth(user)
        headers[.contentType] = "application/octet-stream"
        return try await client.execute(
            uri: "/v1/me/files" + query, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func aFileIsImportedOnceAndItsActivityCounts() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let first = try await Self.upload(client, h, Self.gpx)
            #expect(first.status == .ok)
            #expect(first.json["status"] as? String == "imported")
            let why = try await h.store.quarantined(reason: nil, offset: 0, limit: 3).map(\.message)
            #expect((first.json["activities"] as? [String: Any])?["stored"] as? Int == 1, "\(first.text) \(why)")
            // The counts per reason: an object keyed by the code (here empty), as when the keys were strings.
            #expect((first.json["activities"] as? [String: Any])?["quarantined_by_reason"] as? [String: Int] == [:])
            #expect(first.json["damaged"] as? Bool == false)
            // The stats count it at once: one workout, 60 s.
            let stats = try #require(first.json["updated_stats"] as? [String: Any])
            #expect(stats["workout_total_count"] as? Int == 1)
            #expect(stats["workout_total_duration"] as? Double == 60)
            let stored = try await h.store.workouts(user: APIHarness.alice, includeDeleted: false)
            #expect(stored.map(\.source) == [.gpx])
            // The same file again, under another name: a duplicate; bob's upload of it is his own record.
            let again = try await Self.upload(client, h, Self.gpx, query: "?name=copy.gpx")
            #expect(again.json["status"] as? String == "duplicate")
            #expect(try await h.store.workouts(user: APIHarness.alice, includeDeleted: false).count == 1)
            _ = try await Self.upload(client, h, Self.gpx, user: APIHarness.bob)
            #expect(try await h.store.workouts(user: APIHarness.bob, includeDeleted: false).count == 1)
        }
    }

    /// Hostile uploads: a file that is not a workout file is kept in quarantine and answered with its reason; a name
    /// that is a path or holds control characters is refused; a body over the limit is 413 before it is read whole.
    @Test func unreadableFilesBadNamesAndOversizedBodies() async throws {
        let h = try await APIHarness { $0.maxBodyBytes = 4096 }
        try await h.withRouter { client in
            let junk = try await Self.upload(client, h, "MZ\u{90}\u{00} this is an executable, not a ride")
            #expect(junk.status == .ok)
            #expect(junk.json["status"] as? String == "quarantined")
            #expect(junk.json["reason"] as? String == "unknown_format")
            #expect(try await h.store.quarantineCountsByReason() == [.other("unknown_format"): 1])
            // No body at all is a malformed request (the body is required), answered and not kept.
            let empty = try await Self.upload(client, h, "")
            #expect(empty.status == .badRequest)
            #expect(try await h.store.quarantineCountsByReason() == [.other("unknown_format"): 1])
            for name in ["../../etc/passwd", ".hidden", "a%0Ab", String(repeating: "x", count: 201), ""] {
                let response = try await Self.upload(client, h, Self.gpx, query: "?name=\(name)")
                #expect(response.status == .badRequest, "\(name)")
            }
            let big = try await Self.upload(client, h, String(repeating: " ", count: 5000) + Self.gpx)
            #expect(big.status == .contentTooLarge)
            #expect(try await h.store.workouts(user: APIHarness.alice, includeDeleted: false).isEmpty)
            #expect(
                try await client.execute(
                    uri: "/v1/me/files", method: .post, headers: [:], body: ByteBuffer(string: Self.gpx)
                ).status
                    == .unauthorized)
        }
    }
}
