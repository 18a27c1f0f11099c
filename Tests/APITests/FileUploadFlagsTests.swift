import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import HTTPAPI

/// Issue 40: `POST /v1/me/files` answers what a partial import is missing (`partial_import`, `flags`).
@Suite struct FileUploadFlagsTests {
    /// Four points of a morning run; the middle two have no `<time>`.
    static let mostlyUntimed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="upload-test" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>running</type><trkseg>
        <trkpt lat="46.0000" lon="14.5"><time>2025-12-23T07:00:00Z</time></trkpt>
        <trkpt lat="46.0005" lon="14.5"></trkpt>
        <trkpt lat="46.0010" lon="14.5"></trkpt>
        <trkpt lat="46.0015" lon="14.5"><time>2025-12-23T07:01:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    @Test func aPartialImportIsAnsweredWithWhatWasMissing() async throws {
        let h = try await APIHarness()
        try await h.withRouter { client in
            let answer = try await FileUploadTests.upload(client, h, Self.mostlyUntimed, query: "?name=gaps.gpx")
            #expect(answer.status == .ok)
            #expect(answer.json["status"] as? String == "imported", "\(answer.text)")
            #expect(answer.json["partial_import"] as? Bool == true)
            let flags = try #require(answer.json["flags"] as? [[String: Any]])
            #expect(flags.count == 1)
            #expect(flags.first?["code"] as? String == "partial_import")
            #expect(flags.first?["file"] as? String == "gaps.gpx")
            #expect(flags.first?["activity"] as? Int == 0)
            #expect((flags.first?["detail"] as? String)?.hasPrefix("2 of 4 trkpt without a time") == true)
            // The whole track's distance: 0.0015° of latitude along a meridian, R·Δφ.
            let stored = try #require(try await h.store.workouts(user: APIHarness.alice, includeDeleted: false).first)
            #expect(abs(stored.distanceM! - 6_371_008.8 * 0.0015 * Double.pi / 180) < 1e-6)
            #expect(stored.durationS == 60)
            // And the operator sees it in the quarantine list.
            let kept = try await h.store.quarantined(reason: nil, offset: 0, limit: 5)
            #expect(kept.map(\.reasonCode.rawValue) == ["partial_import"])
            // A file read whole has no flags.
            let whole = try await FileUploadTests.upload(client, h, FileUploadTests.gpx, query: "?name=whole.gpx")
            #expect(whole.json["partial_import"] as? Bool == false)
            #expect((whole.json["flags"] as? [Any])?.isEmpty == true)
        }
    }
}
