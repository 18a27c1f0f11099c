import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutFiles

@testable import Ingest

/// An imported file's samples go to the store in columns (issue 40), and the record is what it was when its samples
/// were a JSON value: the same samples text, for real files of several devices; its content hash is that of the record
/// without its samples and of their layout (docs/workout-records.md, "Content hash"; a record stored with its text's
/// hash is still a duplicate: `ColumnsHashImportTests`).
@Suite struct StoredSamplesImportTests {
    static let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WorkoutFilesTests/Fixtures/real")

    /// The record's JSON the way the import built it before issue 40: one JSON object per sample.
    static func jsonWithSamples(_ a: ImportedActivity, user: UserID) -> JSONValue {
        guard case .object(var o) = ImportedRecord.json(a, user: user) else { return .null }
        let samples: [JSONValue] = a.samples.compactMap { s in
            let t = s.time.timeIntervalSince(a.start)
            guard t >= 0, t.isFinite else { return nil }
            var point: [String: JSONValue] = ["t": .number(t)]
            for (key, value) in [
                ("hr_bpm", s.heartRateBpm), ("power_w", s.powerW), ("cadence_rpm", s.cadenceRpm),
                ("speed_mps", s.speedMps), ("distance_m", s.distanceM), ("altitude_m", s.altitudeM),
            ] {
                if let value, value.isFinite { point[key] = .number(value) }
            }
            return point.count > 1 ? .object(point) : nil
        }
        if !samples.isEmpty { o["samples"] = .array(samples) }
        return .object(o)
    }

    @Test(arguments: [
        "garmin-fenix-5-run.fit", "Edge810-Vector-2013-08-16-15-35-10.fit", "developer-types-sample.fit",
        "cerknicko-jezero.gpx", "sup_activity_1.tcx",
    ])
    func theRecordIsWhatItWasWithJSONSamples(_ name: String) async throws {
        let bytes = [UInt8](try Data(contentsOf: Self.real.appendingPathComponent(name)))
        let h = try await IngestHarness()
        let report = try await RecordProcessor(store: h.store, now: { IngestHarness.received }).importWorkoutFile(
            WorkoutFileInput(
                user: IngestHarness.user, sourceKey: "import/\(name)", fileName: name, contents: .bytes(bytes)),
            source: "import", receivedAt: IngestHarness.received)
        let file = try WorkoutFileReader.read(bytes: bytes, fileName: name)
        let stored = try await h.store.workouts(user: IngestHarness.user, includeDeleted: false)
        #expect(report.workouts.stored == file.activities.count && stored.count == file.activities.count)
        for activity in file.activities {
            let old = Self.jsonWithSamples(activity, user: IngestHarness.user)
            let record = try #require(stored.first { $0.workoutID.rawValue == ImportedRecord.id(activity) })
            #expect(record.samplesJSON == old["samples"]?.canonicalText)
            if let samples = old["samples"]?.arrayValue {
                guard case .columns(let columns) = record.samples else {
                    Issue.record("\(name): the samples did not read back as columns")
                    continue
                }
                #expect(columns.count == samples.count)
                // The hash: "cols-", then SHA-256 of the text without the samples, a zero byte, the layout.
                guard case .object(var o) = old else { continue }
                o["samples"] = nil
                let hashed = Array(JSONValue.object(o).canonicalText.utf8) + [0] + StoredSamples.body(columns)
                #expect(record.contentHash == "cols-" + Hashing.sha256Hex(hashed))
            } else {
                #expect(record.contentHash == Hashing.sha256Hex(Array(old.canonicalText.utf8)))
            }
        }
    }
}
