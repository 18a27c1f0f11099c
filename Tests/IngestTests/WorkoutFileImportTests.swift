import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest

/// Workout files through the ingest (issue 15): activities become workout records with their samples, nothing is
/// counted twice, and every file that cannot be read is kept in quarantine with the reader's reason.
@Suite struct WorkoutFileImportTests {
    /// A GPX track of `points` points 10 s and ~0.0003° of latitude (≈ 33 m) apart: a run at ≈ 3.3 m/s with HR.
    static func gpx(start: String = "2025-12-20T08:00:00Z", points: Int = 31) -> [UInt8] {
        let formatter = ISO8601DateFormatter()
        let t0 = formatter.date(from: start)!
        // `String` said out loud: with GRDB imported, an interpolated literal could become its `SQL`.
        let trkpts = (0..<points).map { i -> String in
            let time = formatter.string(from: t0.addingTimeInterval(Double(i) * 10))
            return """
                <trkpt lat="\(46.0 + Double(i) * 0.0003)" lon="14.5"><ele>300</ele><time>\(time)</time>\
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(140 + i % 5)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
                """
        }.joined(separator: "\n")
        return Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
            <trk><type>running</type><trkseg>
            \(trkpts)
            </trkseg></trk></gpx>
            """.utf8)
    }

    func importing(_ h: IngestHarness, _ bytes: [UInt8], name: String = "run.gpx", user: UserID = IngestHarness.user)
        async throws -> IngestReport
    {
        try await RecordProcessor(store: h.store, now: { IngestHarness.received }).importWorkoutFile(
            WorkoutFileInput(user: user, sourceKey: "import/\(name)", fileName: name, contents: .bytes(bytes)),
            source: "import", receivedAt: IngestHarness.received)
    }

    @Test func aTrackBecomesOneWorkoutRecordWithItsSamplesAndAReimportIsADuplicate() async throws {
        let h = try await IngestHarness()
        let report = try await importing(h, Self.gpx())
        let messages = try await h.store.quarantined(reason: nil, offset: 0, limit: 5).map(\.message)
        #expect(report.files.received == 1 && report.files.stored == 1, "\(messages)")
        #expect(report.workouts.received == 1 && report.workouts.stored == 1)
        #expect(report.addsUp)
        #expect(report.touchedUsers == [IngestHarness.user])
        let stored = try await h.store.workouts(user: IngestHarness.user, includeDeleted: false)
        let record = try #require(stored.first)
        #expect(stored.count == 1)
        #expect(record.source == .gpx)
        #expect(record.workoutID.rawValue.hasPrefix("gpx-") && record.workoutID.rawValue.count == 4 + 32)
        // 30 intervals of 10 s: 300 s from the first point to the last.
        #expect(record.startAt == 1_766_217_600_000)
        #expect(record.endAt == 1_766_217_900_000)
        // The samples as the record format has them: `t` seconds since the start, 31 points, HR from the extension.
        let samplesJSON = try #require(record.samplesJSON)
        let samples = try #require(try JSONSerialization.jsonObject(with: Data(samplesJSON.utf8)) as? [[String: Any]])
        #expect(samples.count == 31)
        #expect(samples.first?["t"] as? Double == 0 && samples.last?["t"] as? Double == 300)
        #expect(samples.first?["hr_bpm"] as? Double == 140)
        #expect(samples.last?["altitude_m"] as? Double == 300)

        let again = try await importing(h, Self.gpx(), name: "same-run-renamed.gpx")
        #expect(again.files.duplicates == 1 && again.workouts.received == 0)
        // The same activity in another file of the same creator (other bytes: a track name) is a duplicate record,
        // not a second one.
        let named = Array(
            String(decoding: Self.gpx(), as: UTF8.self).replacingOccurrences(
                of: "<trk><type>", with: "<trk><name>Morning run</name><type>"
            ).utf8)
        let copy = try await importing(h, named)
        #expect(copy.files.stored == 1 && copy.workouts.duplicates == 1 && copy.workouts.stored == 0)
        #expect(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).count == 1)
        // Written by another service (issue 40: Strava's GPX of a ride Garmin Connect exported too): a recording of
        // its own, stored — the dedup links the two as one activity — not a conflict for the same id.
        let other = Array(
            String(decoding: Self.gpx(), as: UTF8.self).replacingOccurrences(
                of: "creator=\"test\"", with: "creator=\"other\""
            ).utf8)
        let second = try await importing(h, other)
        #expect(second.workouts.stored == 1 && second.workouts.quarantined == 0)
        #expect(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).count == 2)
    }

    @Test(arguments: [
        ([UInt8](), "empty_file"),
        (Array("not a workout file at all".utf8), "unknown_format"),
        (
            Array("<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\">".utf8),
            "xml_truncated"
        ),
    ])
    func aFileThatCannotBeReadIsQuarantinedWithItsReason(_ bytes: [UInt8], _ reason: String) async throws {
        let h = try await IngestHarness()
        let report = try await importing(h, bytes, name: "broken.gpx")
        #expect(report.addsUp)
        #expect(report.workouts.stored == 0)
        let quarantined = try await h.store.quarantineCountsByReason()
        if report.files.quarantined == 1 {
            #expect(report.files.quarantinedByReason == [QuarantineReason(rawValue: reason): 1])
            #expect(quarantined == [QuarantineReason(rawValue: reason): 1])
        } else {
            // Read in part with nothing in it: the reader may answer "no activity" for a track cut before any point.
            #expect(
                report.files.quarantinedByReason.keys.contains { [reason, "no_activity"].contains($0.rawValue) }
                    || report.damagedFiles == 1,
                "\(report)")
        }
        // The same broken file again changes nothing.
        let again = try await importing(h, bytes, name: "broken.gpx")
        #expect(again.files.duplicates == 1)
        #expect(try await h.store.quarantineCountsByReason() == quarantined)
    }

    @Test func anUnknownUserIsQuarantinedAndADeletedUsersFileIsDropped() async throws {
        let h = try await IngestHarness()
        let unknown = try await importing(h, Self.gpx(), user: UserID("nobody"))
        #expect(unknown.files.quarantinedByReason == [.rejected(.unknownUser): 1])
        let gone = UserID("gone-user")
        try await h.store.upsertUser(User(id: gone, timeZone: "UTC", createdAt: 0))
        _ = try await h.store.deleteUser(
            gone, userHash: IdentifierHasher.legacyHash(gone), requestedAt: 1, completedAt: 2)
        let dropped = try await importing(h, Self.gpx(), user: gone)
        #expect(dropped.files.droppedDeletedUser == 1 && dropped.addsUp)
        #expect(try await h.store.quarantineCountsByReason() == [.rejected(.unknownUser): 1])
        #expect(try await h.store.footprint(user: gone).total == 0)
    }

    /// The inbox's `files/<user_id>/`: read once, by content whatever the name; the next run reads nothing again.
    @Test func theInboxFilesFolderIsImportedOnce() async throws {
        let h = try await IngestHarness()
        let inbox = h.directory.appendingPathComponent("inbox")
        let folder = inbox.appendingPathComponent("files/\(IngestHarness.user.rawValue)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.gpx()).write(to: folder.appendingPathComponent("morning.dat"))
        try Data("garbage".utf8).write(to: folder.appendingPathComponent("broken.fit"))
        let first = try await InboxIngestor(store: h.store).ingest(inbox: inbox)
        #expect(
            first.files.received == 2 && first.files.stored == 1
                && first.files.quarantinedByReason == [.other("unknown_format"): 1])
        #expect(first.workouts.stored == 1 && first.addsUp)
        let second = try await InboxIngestor(store: h.store).ingest(inbox: inbox)
        #expect(second.files.received == 0 && second.workouts.received == 0)
        #expect(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).count == 1)
        // The ledger names the user only by the keyed hash.
        #expect(try await h.store.tableCounts()["ingest_ledger"] == 2)
    }
}
