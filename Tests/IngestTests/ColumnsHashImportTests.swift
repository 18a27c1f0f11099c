import Foundation
import Store
import StoreSQLite
import Testing
import WorkoutFiles

@testable import Ingest

/// An imported file's record is hashed as the record without its samples and their layout ("cols-…",
/// docs/workout-records.md, "Content hash"), not as its canonical text. A record of the same version stored with its
/// text's hash (sent as JSON, or imported before) is still compared like with like; a conflict keeps the record's text,
/// as before.
@Suite struct ColumnsHashImportTests {
    static let name = "cerknicko-jezero.gpx"
    static func bytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: StoredSamplesImportTests.real.appendingPathComponent(name)))
    }

    static func importFile(_ bytes: [UInt8], into h: IngestHarness, key: String = "import/a") async throws
        -> IngestReport
    {
        try await RecordProcessor(store: h.store, now: { IngestHarness.received }).importWorkoutFile(
            WorkoutFileInput(user: IngestHarness.user, sourceKey: key, fileName: name, contents: .bytes(bytes)),
            source: "import", receivedAt: IngestHarness.received)
    }

    /// The file's one activity as the record's JSON with its samples (the test's own, as before issue 40).
    static func activity() throws -> (ImportedActivity, JSONValue) {
        let file = try WorkoutFileReader.read(bytes: try bytes(), fileName: name)
        #expect(file.activities.count == 1)
        let a = try #require(file.activities.first)
        return (a, StoredSamplesImportTests.jsonWithSamples(a, user: IngestHarness.user))
    }

    /// Stores `value` as an app would send it (its hash: its canonical text's).
    static func send(_ value: JSONValue, into h: IngestHarness) async throws {
        let report = try await RecordProcessor(store: h.store, now: { IngestHarness.received }).process(
            kind: .workouts,
            records: [(key: "api#0", value: .success(value), payload: Array(value.canonicalText.utf8))],
            source: "api", receivedAt: IngestHarness.received, ledgerKey: nil, ledgerHash: nil)
        #expect(report.workouts.stored == 1)
    }

    @Test func theSameRecordFromOtherBytesIsADuplicate() async throws {
        let h = try await IngestHarness()
        let first = try await Self.importFile(try Self.bytes(), into: h)
        #expect(first.workouts.stored == 1)
        // The same track with a comment after it: another file (another fingerprint), the same record.
        let again = try await Self.importFile(
            try Self.bytes() + Array("\n<!-- exported again -->\n".utf8), into: h, key: "import/b")
        #expect(again.files.stored == 1 && again.workouts.duplicates == 1 && again.workouts.quarantined == 0)
        #expect(try await h.store.quarantined(reason: nil, offset: 0, limit: 10).isEmpty)
        let stored = try await h.store.workouts(user: IngestHarness.user, includeDeleted: false)
        #expect(stored.count == 1 && stored.first?.contentHash.hasPrefix("cols-") == true)
    }

    @Test func aRecordStoredWithItsTextsHashIsStillADuplicate() async throws {
        let h = try await IngestHarness()
        let (_, old) = try Self.activity()
        try await Self.send(old, into: h)
        let textHash = Hashing.sha256Hex(Array(old.canonicalText.utf8))
        #expect(
            try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first?.contentHash == textHash)
        let report = try await Self.importFile(try Self.bytes(), into: h)
        #expect(report.workouts.duplicates == 1 && report.workouts.quarantined == 0 && report.workouts.stored == 0)
        #expect(try await h.store.quarantined(reason: nil, offset: 0, limit: 10).isEmpty)
        #expect(
            try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first?.contentHash == textHash)
    }

    /// Another record of the same version, stored with its text's hash (`text`) or a hash of columns (`columns`):
    /// the file's record is a conflict, quarantined with its whole canonical text as its payload.
    @Test(arguments: ["text", "columns"]) func anotherRecordOfTheSameVersionIsAConflictKeptWithItsText(
        _ storedAs: String
    ) async throws {
        let h = try await IngestHarness()
        let (activity, old) = try Self.activity()
        guard case .object(var o) = old, case .array(var samples) = o["samples"],
            case .object(var point) = samples.first, case .number(let altitude) = point["altitude_m"]
        else {
            Issue.record("the fixture's first sample has no altitude")
            return
        }
        point["altitude_m"] = .number(altitude + 1)
        samples[0] = .object(point)
        o["samples"] = .array(samples)
        let other = JSONValue.object(o)
        if storedAs == "text" {
            try await Self.send(other, into: h)
        } else {
            o["samples"] = nil
            let value = JSONValue.object(o)
            let columns = try #require(SampleColumns(canonicalJSON: other["samples"]?.canonicalText ?? ""))
            let rules = WorkoutValidator.FileRecordRules(
                samples: columns, contentHash: ImportedRecord.columnsHash(value, samples: columns))
            let report = try await RecordProcessor(store: h.store, now: { IngestHarness.received }).process(
                kind: .workouts, records: [(key: "import/x#0", value: .success(value), payload: [])],
                source: "import", receivedAt: IngestHarness.received, ledgerKey: nil, ledgerHash: nil,
                fileRules: [rules])
            #expect(report.workouts.stored == 1)
        }
        #expect(ImportedRecord.id(activity) == other["id"]?.stringValue)
        let report = try await Self.importFile(try Self.bytes(), into: h)
        #expect(report.workouts.quarantinedByReason == [.rejected(.conflict): 1] && report.workouts.stored == 0)
        let quarantined = try await h.store.quarantined(reason: .rejected(.conflict), offset: 0, limit: 10)
        #expect(quarantined.count == 1)
        let text = Array(old.canonicalText.utf8)
        #expect(text.count < IngestLimits().maxQuarantinePayloadBytes)
        #expect(quarantined.first?.payload == text)
        #expect(quarantined.first?.message.contains("payload") == false)
        // The stored record is kept.
        let stored = try await h.store.workouts(user: IngestHarness.user, includeDeleted: false)
        #expect(stored.first?.samplesJSON == other["samples"]?.canonicalText)
    }
}
