import Foundation
import Ingest
import PostgresNIO
import Store
import Testing

@testable import StorePostgres
@testable import StoreSQLite

/// `importWorkoutFiles` writes the files it has prepared in groups, one transaction each (docs/workout-files.md,
/// "Into the pipeline"). On both backends and whatever the groups, the store and each file's report are those of the
/// files imported one after the other. The first three files are refusals only, so a group of three takes
/// PostgreSQL's grouped write of quarantine rows (`applyGroup`); the groups with records take the unit-by-unit one.
/// Within a group: a file the group has already stored (a duplicate by the ledger), and a GPX changed after the same
/// GPX was stored (a conflict the writer finds in what the group wrote before it).
@Suite struct GroupedFileImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WorkoutFilesTests/Fixtures/real")
    static let user = UserID("rider-1")
    static let received: Int64 = 1_766_577_600_000 // 2025-12-24T12:00:00Z

    static func inputs() throws -> [WorkoutFileInput] {
        var inputs: [WorkoutFileInput] = []
        func add(_ name: String, _ bytes: [UInt8], user: UserID = user) {
            inputs.append(
                WorkoutFileInput(user: user, sourceKey: "import/\(name)", fileName: name, contents: .bytes(bytes)))
        }
        for n: UInt8 in 1...3 { add("noise-\(n).bin", Array(repeating: 0x50 + n, count: 4_000)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { name in [".fit", ".gpx", ".tcx"].contains { name.hasSuffix($0) } }.sorted()
        for name in names { add(name, Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))) }
        let fit = Array(try Data(contentsOf: fixtures.appendingPathComponent("garmin-fenix-5-run.fit")))
        add("again.fit", fit)
        add("nobody.fit", fit, user: UserID("nobody-here"))
        add("noise-1.bin", Array(repeating: 0x51, count: 4_000))
        let gpx = try String(contentsOf: fixtures.appendingPathComponent("cerknicko-jezero.gpx"), encoding: .utf8)
        let changed = try #require(gpx.range(of: "<ele>550.972656</ele>"))
        add("changed.gpx", Array(gpx.replacingCharacters(in: changed, with: "<ele>551.5</ele>").utf8))
        return inputs
    }

    /// What the store holds after an import: each record and each quarantine row, in a stable order.
    static func stored(_ store: any PipelineStore) async throws -> [String] {
        let workouts = try await store.workouts(user: user, includeDeleted: false).map {
            "\($0.workoutID.rawValue) \($0.contentHash) \($0.startAt) \($0.endAt) \($0.avgHR.map { "\($0)" } ?? "-") "
                + (Hashing.sha256Hex(Array(($0.samplesJSON ?? "-").utf8)))
        }
        let quarantine = try await store.quarantined(reason: nil, offset: 0, limit: 1_000).map {
            "q \($0.sourceKey) \($0.reasonCode) \($0.userID?.rawValue ?? "-") \($0.message) \(Hashing.sha256Hex($0.payload))"
        }
        return workouts.sorted() + quarantine.sorted()
    }

    static func importAll(
        _ inputs: [WorkoutFileInput], into store: any PipelineStore, group: Int?, groupBytes: Int = .max
    ) async throws -> [IngestReport] {
        try await store.upsertUser(User(id: user, timeZone: "Europe/Berlin", createdAt: 0))
        let processor = RecordProcessor(store: store, now: { received })
        var reports: [IngestReport] = []
        guard let group else {
            for input in inputs {
                reports.append(try await processor.importWorkoutFile(input, source: "import", receivedAt: received))
            }
            return reports
        }
        try await processor.importWorkoutFiles(
            inputs, source: "import", receivedAt: { received }, group: group, groupBytes: groupBytes
        ) { n, report in
            #expect(n == reports.count)
            reports.append(report)
        }
        return reports
    }

    /// Groups of one file, of three (the first one refusals only), of the default eight and 4 MiB, of every file at
    /// once, and of eight files bounded by a byte (each group one file again).
    @Test(arguments: Backend.available, [(1, Int.max), (3, Int.max), (8, 1 << 22), (64, Int.max), (8, 1)])
    func groupsStoreWhatFilesOneAfterTheOtherDo(backend: Backend, grouping: (Int, Int)) async throws {
        let inputs = try Self.inputs()
        try await withDatabase(backend, connections: 1) { one in
            try await withDatabase(backend, connections: 1) { grouped in
                let expected = try await Self.importAll(inputs, into: one[0], group: nil)
                let reports = try await Self.importAll(
                    inputs, into: grouped[0], group: grouping.0, groupBytes: grouping.1)
                #expect(reports == expected)
                let want = try await Self.stored(one[0])
                #expect(try await Self.stored(grouped[0]) == want)

                // Not two empty stores: the refusals, the duplicates in and across groups, the conflict.
                let n = inputs.count
                #expect(expected[0].files.quarantined == 1 && expected[2].files.quarantined == 1)
                #expect(expected[n - 4].files.duplicates == 1) // again.fit
                #expect(expected[n - 3].files.quarantined == 1) // nobody.fit
                #expect(expected[n - 2].files.duplicates == 1) // noise-1.bin again
                #expect(expected[n - 1].workouts.quarantinedByReason == [.rejected(.conflict): 1])
                #expect(want.filter { !$0.hasPrefix("q ") }.count == 9)
                #expect(want.contains { $0.hasPrefix("q import/changed.gpx#0 conflict ") })
            }
        }
    }

    /// Runs `sql` on the database past the store's API (a trigger that makes one write fail).
    static func executeRaw(_ sql: String, on store: any PipelineStore) async throws {
        if let s = store as? SQLiteStore {
            try await s.writer.write { db in try db.execute(sql: sql) }
        } else if let p = store as? PostgresStore {
            // One statement at a time: PostgreSQL's extended protocol takes one per query.
            for statement in sql.components(separatedBy: ";\n") {
                try await p.write("test") { db in try await db.execute(PostgresQuery(unsafeSQL: statement)) }
            }
        } else {
            Issue.record("a store of neither backend")
        }
    }

    /// The store fails while writing the third group of eight (a trigger refuses `nobody.fit`'s quarantine row): the
    /// import stops with the error; the two groups before it are stored, the third is not — not its records, not its
    /// quarantine rows, not its ledger entries. Imported again once the store works, the files of the first two groups
    /// are duplicates and the rest is stored: the store as the files imported one after the other leave it.
    @Test(arguments: Backend.available)
    func aGroupTheStoreFailsOnIsNotStored(backend: Backend) async throws {
        let inputs = try Self.inputs()
        let failing = try #require(inputs.firstIndex { $0.sourceKey == "import/nobody.fit" })
        #expect(failing / 8 == 2)
        let done = failing / 8 * 8
        try await withDatabase(backend, connections: 1) { reference in
            try await withDatabase(backend, connections: 1) { db in
                let store = db[0]
                let (create, drop) =
                    switch backend {
                    case .sqlite:
                        (
                            """
                            CREATE TRIGGER refuse BEFORE INSERT ON quarantine WHEN NEW.source_key = 'import/nobody.fit'
                            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                            """, "DROP TRIGGER refuse"
                        )
                    case .postgres:
                        (
                            """
                            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
                            $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
                            CREATE TRIGGER refuse BEFORE INSERT ON quarantine FOR EACH ROW
                            WHEN (NEW.source_key = 'import/nobody.fit') EXECUTE FUNCTION refuse()
                            """, "DROP TRIGGER refuse ON quarantine"
                        )
                    }
                try await Self.executeRaw(create, on: store)
                await #expect(throws: (any Error).self) {
                    _ = try await Self.importAll(inputs, into: store, group: 8, groupBytes: .max)
                }
                // What the two groups before it leave, as those files one after the other leave it.
                _ = try await Self.importAll(Array(inputs[..<done]), into: reference[0], group: nil)
                #expect(try await Self.stored(store) == (try await Self.stored(reference[0])))

                try await Self.executeRaw(drop, on: store)
                let again = try await Self.importAll(inputs, into: store, group: 8, groupBytes: .max)
                #expect(again[..<done].allSatisfy { $0.files.duplicates == 1 })
                #expect(again[failing].files.quarantined == 1)
                _ = try await Self.importAll(Array(inputs[done...]), into: reference[0], group: nil)
                #expect(try await Self.stored(store) == (try await Self.stored(reference[0])))
            }
        }
    }
}
