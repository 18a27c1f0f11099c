import Foundation
import Ingest
import Store
import StoreSQLite
import Testing

@testable import Pipeline

/// Issue 40: one ride exported by three services — Garmin Connect's GPX (heart rate), Strava's GPX of it (with power)
/// and the watch's TCX — imported in every order gives the same records and the same figures: each file is a
/// recording of its own (no shared id quarantined as `conflict`), the three are linked as one activity, and the
/// primary is the richest (the one with power) whatever came first.
///
/// The three files here have no pause (moving and elapsed times against each other: `ActivityOverlapTests`); a group
/// whose primary is decided by its distance (an indoor ride's Edge and Zwift files) and any subset of six recordings in
/// any order: `Issue40PrimaryPropertyTests`.
@Suite struct Issue40ImportOrderTests {
    static let user = UserID("rider-40")
    /// 2025-12-20T08:00:00Z.
    static let startMillis: Int64 = 1_766_217_600_000
    static let received: Int64 = 1_766_577_600_000

    /// 61 points 5 s apart, 0.0002° of latitude (≈ 22 m) apart: 300 s of riding.
    static let points = (0..<61).map { i in (lat: 46.0 + Double(i) * 0.0002, lon: 14.5, hr: 130 + i % 7) }

    static func time(_ i: Int) -> String { RFC3339.format(millis: startMillis + Int64(i) * 5_000) }

    static func gpx(creator: String, power: Bool) -> [UInt8] {
        let trkpts = points.enumerated().map { i, p -> String in
            "<trkpt lat=\"\(p.lat)\" lon=\"\(p.lon)\"><time>\(time(i))</time><extensions>"
                + (power ? "<power>\(200 + i % 11)</power>" : "")
                + "<gpxtpx:TrackPointExtension><gpxtpx:hr>\(p.hr)</gpxtpx:hr></gpxtpx:TrackPointExtension>"
                + "</extensions></trkpt>"
        }.joined()
        return Array(
            ("<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"\(creator)\" "
                + "xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\">"
                + "<trk><type>cycling</type><trkseg>\(trkpts)</trkseg></trk></gpx>").utf8)
    }

    static func tcx() -> [UInt8] {
        let trackpoints = points.enumerated().map { i, p -> String in
            "<Trackpoint><Time>\(time(i))</Time><Position><LatitudeDegrees>\(p.lat)</LatitudeDegrees>"
                + "<LongitudeDegrees>\(p.lon)</LongitudeDegrees></Position>"
                + "<HeartRateBpm><Value>\(p.hr)</Value></HeartRateBpm></Trackpoint>"
        }.joined()
        return Array(
            ("<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"><Id>\(time(0))</Id>"
                + "<Lap StartTime=\"\(time(0))\"><TotalTimeSeconds>300</TotalTimeSeconds>"
                + "<DistanceMeters>1330</DistanceMeters><Track>\(trackpoints)</Track></Lap>"
                + "<Creator><Name>Edge 530</Name><UnitId>3999999999</UnitId></Creator>"
                + "</Activity></Activities></TrainingCenterDatabase>").utf8)
    }

    static let files: [(name: String, bytes: [UInt8])] = [
        ("garmin-connect.gpx", gpx(creator: "Garmin Connect", power: false)),
        ("strava.gpx", gpx(creator: "StravaGPX", power: true)),
        ("edge.tcx", tcx()),
    ]

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i -> [[T]] in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }

    struct Outcome: Equatable {
        var records: [String]
        var primary: String
        var linked: [String]
        /// The primary's source and whether its samples carry power.
        var primarySource: String
        var primaryHasPower: Bool
        var stats: UserStats
    }

    func importAll(_ order: [(name: String, bytes: [UInt8])]) async throws -> Outcome {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        try await store.upsertUser(User(id: Self.user, timeZone: "UTC", createdAt: 0))
        let processor = RecordProcessor(store: store, now: { Self.received })
        for file in order {
            let report = try await processor.importWorkoutFile(
                WorkoutFileInput(
                    user: Self.user, sourceKey: "import/\(file.name)", fileName: file.name, contents: .bytes(file.bytes)
                ),
                source: "import", receivedAt: Self.received)
            #expect(report.workouts.stored == 1 && report.workouts.quarantined == 0, "\(file.name): \(report)")
        }
        let records = try await store.workouts(user: Self.user, includeDeleted: false)
        let duplicates = try await ActivityDuplicates.resolve(store: store, user: Self.user)
        let group = try #require(duplicates.groups.first)
        #expect(duplicates.groups.count == 1)
        let stats = try await StatsService(store: store, now: { Self.received }).compute(Self.user)
        let primary = try #require(records.first { "workout:\($0.workoutID.rawValue)" == group.primary.id })
        return Outcome(
            records: records.map(\.workoutID.rawValue).sorted(), primary: group.primary.id,
            linked: group.linked.map(\.id).sorted(), primarySource: primary.source.rawValue,
            primaryHasPower: primary.samplesJSON?.contains("\"power_w\"") ?? false, stats: stats)
    }

    @Test func everyOrderGivesTheSameRecordsPrimaryAndFigures() async throws {
        let orders = Self.permutations(Self.files)
        #expect(orders.count == 6)
        var outcomes: [Outcome] = []
        for order in orders { outcomes.append(try await importAll(order)) }
        let first = try #require(outcomes.first)
        for (order, outcome) in zip(orders, outcomes) {
            #expect(outcome == first, "order \(order.map(\.name))")
        }
        // Three recordings kept, one activity counted, and the primary is Strava's GPX: the one with power.
        #expect(first.records.count == 3)
        #expect(first.linked.count == 2)
        #expect(first.stats.workoutTotalCount == 1)
        #expect(first.primarySource == "gpx" && first.primaryHasPower)
        // The figures are the primary's: 300 s moving, the track's distance (60 steps of 0.0002° along a meridian,
        // R·Δφ), written out here.
        #expect(first.stats.workoutTotalDuration == 300)
        let metres = 6_371_008.8 * 0.012 * Double.pi / 180
        #expect(abs(first.stats.workoutTotalDistance - metres) < 1e-6)
    }
}
