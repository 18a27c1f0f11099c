import Foundation
import Store
import StoreSQLite
import Testing

/// `pipeline import` as a script sees it: the exit codes it documents, and the records it leaves.
@Suite struct ImportCommandTests {
    @Test func exitCodesSayWhatBecameOfTheFiles() async throws {
        let fx = try await CLIFixture(users: 1, days: 3, seed: 9_101)
        let db = fx.newDatabase("import")
        #expect(try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path]).status == 0)
        let run = fx.root.appendingPathComponent("run.tcx")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>2026-11-18T06:30:00Z</Id>
            <Lap StartTime="2026-11-18T06:30:00Z"><TotalTimeSeconds>1800</TotalTimeSeconds><DistanceMeters>5400</DistanceMeters>
            <Calories>380</Calories><Track>
            <Trackpoint><Time>2026-11-18T06:30:00Z</Time><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2026-11-18T07:00:00Z</Time><DistanceMeters>5400</DistanceMeters><HeartRateBpm><Value>150</Value></HeartRateBpm></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """.utf8
        ).write(to: run)
        let junk = fx.root.appendingPathComponent("junk.fit")
        try Data("not a FIT file".utf8).write(to: junk)

        #expect(try await fx.run(["import", "--help"]).status == 0)
        #expect(try await fx.run(["import", "--db", db, "--user", "user-0001", run.path]).status == 0)
        // Again: a duplicate, still a success.
        #expect(try await fx.run(["import", "--db", db, "--user", "user-0001", run.path]).status == 0)
        // One good (already there) and one unreadable: done, but something was refused.
        #expect(try await fx.run(["import", "--db", db, "--user", "user-0001", run.path, junk.path]).status == 2)
        #expect(try await fx.run(["import", "--db", db, "--user", "nobody", run.path]).status == 66)
        #expect(try await fx.run(["import", "--db", db, "--user", "user-0001", "/no/such/file.fit"]).status == 66)
        #expect(try await fx.run(["import", "--db", db, "--user", "user-0001"]).status == 64)

        let store = try SQLiteStore(path: db)
        let imported = try await store.workouts(user: UserID("user-0001"), includeDeleted: false).filter {
            $0.source == .tcx
        }
        #expect(imported.count == 1)
        #expect(imported.first?.distanceM == 5400)
        #expect(imported.first?.activityType == "running")
        #expect(try await store.quarantineCountsByReason()[.other("unknown_format")] == 1)
    }

    /// Issue 40: a partial import says what is missing, in the text and in `--json`.
    @Test func aPartialImportShowsItsFlag() async throws {
        let fx = try await CLIFixture(users: 1, days: 3, seed: 9_102)
        let db = fx.newDatabase("import-flags")
        #expect(try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path]).status == 0)
        let gaps = fx.root.appendingPathComponent("gaps.gpx")
        try Data(
            """
            <gpx><trk><type>running</type><trkseg>
            <trkpt lat="46.0000" lon="14.5"><time>2026-11-18T06:30:00Z</time></trkpt>
            <trkpt lat="46.0010" lon="14.5"/><trkpt lat="46.0020" lon="14.5"/>
            <trkpt lat="46.0030" lon="14.5"><time>2026-11-18T06:32:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.utf8
        ).write(to: gaps)
        let (child, out, _) = try fx.start(["import", "--db", db, "--user", "user-0001", gaps.path])
        #expect(await child.wait().status == 0)
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("flagged files (imported, partial or with disagreeing dates): 1"), "\(text)")
        #expect(text.contains("flag partial_import: gaps.gpx activity 1: 2 of 4 trkpt without a time"), "\(text)")

        // Another such file (the next day), with --json.
        let gaps2 = fx.root.appendingPathComponent("gaps2.gpx")
        try Data(
            String(contentsOf: gaps, encoding: .utf8).replacingOccurrences(of: "2026-11-18", with: "2026-11-19").utf8
        ).write(to: gaps2)
        let (child2, out2, _) = try fx.start(["import", "--db", db, "--user", "user-0001", "--json", gaps2.path])
        #expect(await child2.wait().status == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out2)) as? [String: Any])
        #expect(json["flagged_files"] as? Int == 1)
        let flags = try #require(json["flags"] as? [[String: Any]])
        #expect(flags.map { $0["code"] as? String } == ["partial_import"])
        #expect(flags.first?["activity"] as? Int == 0)
    }
}
