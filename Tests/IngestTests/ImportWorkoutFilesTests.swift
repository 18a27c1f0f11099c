import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest

/// `RecordProcessor.importWorkoutFiles` (what `pipeline import` calls: each file read and validated while the one
/// before it is written) leaves the store and the reports exactly as `importWorkoutFile` of each file in turn: the
/// same records with the same content hashes and samples, the same quarantine rows, the same report for each file.
/// The files are the real corpus (other people's devices, Tests/WorkoutFilesTests/Fixtures/real) with what makes the
/// order matter besides: the same file twice (a duplicate of the first), a file nothing can read (refused), a file
/// for a user who does not exist (refused), a truncated FIT (read in part, flagged), and a GPX exported again with
/// the same activity (other bytes: a duplicate of its record) and with one elevation changed (a conflict, whose
/// payload the writer makes from what the files before it stored).
@Suite struct ImportWorkoutFilesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WorkoutFilesTests/Fixtures/real")

    static func inputs() throws -> [WorkoutFileInput] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { name in [".fit", ".gpx", ".tcx"].contains { name.hasSuffix($0) } }.sorted()
        var inputs = try names.map { name in
            WorkoutFileInput(
                user: IngestHarness.user, sourceKey: "import/\(name)", fileName: name,
                contents: .bytes(Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))))
        }
        let first = try #require(inputs.first { $0.fileName?.hasSuffix(".fit") == true })
        guard case .bytes(let fit) = first.contents else { throw CancellationError() }
        inputs.insert(
            WorkoutFileInput(
                user: IngestHarness.user, sourceKey: "import/again-\(first.fileName!)", fileName: first.fileName,
                contents: first.contents), at: 2)
        inputs.insert(
            WorkoutFileInput(
                user: IngestHarness.user, sourceKey: "import/noise.bin", fileName: "noise.bin",
                contents: .bytes(Array(repeating: 0x5A, count: 4_000))), at: 4)
        inputs.insert(
            WorkoutFileInput(
                user: UserID("nobody-here"), sourceKey: "import/nobody.fit", fileName: "nobody.fit",
                contents: first.contents), at: 5)
        inputs.append(
            WorkoutFileInput(
                user: IngestHarness.user, sourceKey: "import/cut.fit", fileName: "cut.fit",
                contents: .bytes(Array(fit.prefix(fit.count * 2 / 3)))))
        let gpx = try String(contentsOf: fixtures.appendingPathComponent("cerknicko-jezero.gpx"), encoding: .utf8)
        let changed = try #require(gpx.range(of: "<ele>550.972656</ele>"))
        for (name, text) in [
            ("again.gpx", gpx + "\n<!-- exported again -->\n"),
            ("changed.gpx", gpx.replacingCharacters(in: changed, with: "<ele>551.5</ele>")),
        ] {
            inputs.append(
                WorkoutFileInput(
                    user: IngestHarness.user, sourceKey: "import/\(name)", fileName: name,
                    contents: .bytes(Array(text.utf8))))
        }
        return inputs
    }

    struct Stored: Equatable {
        var workouts: [String]
        var quarantine: [String]
    }

    static func stored(_ store: SQLiteStore) async throws -> Stored {
        let workouts = try await store.workouts(user: IngestHarness.user, includeDeleted: false).map {
            "\($0.workoutID.rawValue) \($0.contentHash) \($0.startAt) \($0.endAt) \($0.samplesJSON.map { Hashing.sha256Hex(Array($0.utf8)) } ?? "-")"
        }
        let quarantine = try await store.quarantined(reason: nil, offset: 0, limit: 1_000).map {
            "\($0.sourceKey) \($0.reasonCode) \($0.userID?.rawValue ?? "-") \($0.message) \(Hashing.sha256Hex($0.payload))"
        }
        return Stored(workouts: workouts.sorted(), quarantine: quarantine.sorted())
    }

    /// With no file prepared ahead, with one, with the default two and with every file prepared at once.
    @Test(arguments: [0, 1, 2, 64])
    func theFilesImportedAsOneAfterTheOther(ahead: Int) async throws {
        let inputs = try Self.inputs()
        let oneByOne = try await IngestHarness()
        let processor = RecordProcessor(store: oneByOne.store, now: { IngestHarness.received })
        var expected: [IngestReport] = []
        for input in inputs {
            expected.append(
                try await processor.importWorkoutFile(input, source: "import", receivedAt: IngestHarness.received))
        }

        let pipelined = try await IngestHarness()
        var reports: [Int: IngestReport] = [:]
        var order: [Int] = []
        try await RecordProcessor(store: pipelined.store, now: { IngestHarness.received }).importWorkoutFiles(
            inputs, source: "import", receivedAt: { IngestHarness.received }, ahead: ahead
        ) { n, report in
            reports[n] = report
            order.append(n)
        }
        #expect(order == Array(inputs.indices))
        #expect(inputs.indices.map { reports[$0] } == expected)
        let a = try await Self.stored(oneByOne.store), b = try await Self.stored(pipelined.store)
        #expect(a == b)

        // What the set holds, so that the comparison above is not of two empty stores: each real file stored (or a
        // duplicate of an earlier one), the second copy a duplicate, the noise and the unknown user refused.
        #expect(expected[2].files.duplicates == 1)
        #expect(expected[4].files.quarantined == 1 && expected[4].files.stored == 0)
        #expect(expected[5].files.quarantined == 1 && expected[5].workouts.stored == 0)
        #expect(a.workouts.count >= 10)
        #expect(a.quarantine.contains { $0.hasPrefix("import/noise.bin ") })
        #expect(a.quarantine.contains { $0.hasPrefix("import/nobody.fit ") })
        // The GPX again (a duplicate of its record), and changed (a conflict, kept with its text as payload).
        let (again, changed) = (expected[expected.count - 2], expected[expected.count - 1])
        #expect(again.files.stored == 1 && again.workouts.duplicates == 1 && again.workouts.stored == 0)
        #expect(changed.workouts.quarantinedByReason == [.rejected(.conflict): 1])
        #expect(a.quarantine.contains { $0.hasPrefix("import/changed.gpx#0 conflict ") })
    }

    /// A file on disk is read whole when it is small (`RecordProcessor.wholeFileBytes`), in chunks otherwise: both
    /// import as the same bytes held in memory do (what the API hands over).
    @Test func aFileOnDiskImportsAsItsBytes() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { name in [".fit", ".gpx", ".tcx"].contains { name.hasSuffix($0) } }.sorted()
        func importAll(_ contents: (URL) throws -> WorkoutFileInput.Contents) async throws -> (Stored, [IngestReport]) {
            let h = try await IngestHarness()
            let processor = RecordProcessor(store: h.store, now: { IngestHarness.received })
            var reports: [IngestReport] = []
            for name in names {
                let url = Self.fixtures.appendingPathComponent(name)
                reports.append(
                    try await processor.importWorkoutFile(
                        WorkoutFileInput(
                            user: IngestHarness.user, sourceKey: "import/\(name)", fileName: name,
                            contents: try contents(url)),
                        source: "import", receivedAt: IngestHarness.received))
            }
            return (try await Self.stored(h.store), reports)
        }
        let memory = try await importAll { .bytes(Array(try Data(contentsOf: $0))) }
        let disk = try await importAll { .file($0) }
        #expect(memory.0 == disk.0 && memory.1 == disk.1)
        // Not two empty stores: the fixtures' activities, nine records once duplicates and refusals are left out.
        #expect(memory.0.workouts.count == 9)
        // Over the bound: not read whole (then in chunks, as `read(url:)` does).
        let url = Self.fixtures.appendingPathComponent("garmin-fenix-5-run.fit")
        let size = try Data(contentsOf: url).count
        #expect(try RecordProcessor.whole(url, atMost: size) == Array(try Data(contentsOf: url)))
        #expect(try RecordProcessor.whole(url, atMost: size - 1) == nil)
    }

    @Test func noFilesNothingImported() async throws {
        let h = try await IngestHarness()
        var called = false
        try await RecordProcessor(store: h.store, now: { IngestHarness.received }).importWorkoutFiles(
            [], source: "import", receivedAt: { IngestHarness.received }
        ) { _, _ in called = true }
        #expect(!called)
        #expect(try await Self.stored(h.store) == Stored(workouts: [], quarantine: []))
    }
}
