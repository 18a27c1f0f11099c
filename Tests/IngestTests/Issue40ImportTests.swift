import Foundation
import Store
import StoreSQLite
import TestKit
import Testing

@testable import Ingest

/// A minimal FIT writer for these tests (the WorkoutFilesTests' encoder is not visible here): little-endian
/// definitions, a `file_id`, records with a timestamp and a distance, one `session`; header and file CRC by a bitwise
/// CRC-16/ARC written here.
enum TinyFIT {
    /// FIT time 0 is 1989-12-31T00:00:00Z = Unix 631_065_600.
    static let epoch: Int64 = 631_065_600

    /// A ride of `elapsedS` from FIT time `start` over `distanceM`, timer = elapsed, with 11 records.
    static func ride(start: UInt32, elapsedS: UInt32, distanceM: UInt32) -> [UInt8] {
        var data: [UInt8] = []
        func define(_ local: UInt8, _ global: UInt16, _ fields: [(UInt8, UInt8, UInt8)]) {
            data += [0x40 | local, 0, 0] + FITBytes.le(global) + [UInt8(fields.count)]
            for f in fields { data += [f.0, f.1, f.2] }
        }
        // file_id: type (enum) = 4 activity, serial_number (uint32z), time_created (uint32).
        define(0, 0, [(0, 1, 0x00), (3, 4, 0x8C), (4, 4, 0x86)])
        data += [0, 4] + FITBytes.le(UInt32(40)) + FITBytes.le(start)
        // record: timestamp, distance (cm).
        define(1, 20, [(253, 4, 0x86), (5, 4, 0x86)])
        for i in UInt32(0)...10 {
            data +=
                [1] + FITBytes.le(start + UInt32((UInt64(elapsedS) * UInt64(i) / 10))) + FITBytes.le(distanceM * 10 * i)
        }
        // session: timestamp, start_time, total_elapsed_time (ms), total_timer_time (ms), total_distance (cm), sport.
        define(2, 18, [(253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (5, 1, 0x00)])
        data +=
            [2] + FITBytes.le(start + elapsedS) + FITBytes.le(start) + FITBytes.le(elapsedS * 1000)
            + FITBytes.le(elapsedS * 1000) + FITBytes.le(distanceM * 100)
            + [2]
        var header: [UInt8] =
            [14, 0x20] + FITBytes.le(UInt16(2132)) + FITBytes.le(UInt32(data.count)) + Array(".FIT".utf8)
        header += FITBytes.le(FITBytes.crc(header))
        let body = header + data
        return body + FITBytes.le(FITBytes.crc(body))
    }
}

/// Issue 40 through the import: every case of the issue, rebuilt as a small synthetic file (no internet to fetch the
/// real ones); expected figures worked out here, never read back from the program.
@Suite struct Issue40ImportTests {
    func importing(_ h: IngestHarness, _ bytes: [UInt8], name: String) async throws -> IngestReport {
        try await RecordProcessor(store: h.store, now: { IngestHarness.received }).importWorkoutFile(
            WorkoutFileInput(
                user: IngestHarness.user, sourceKey: "import/\(name)", fileName: name, contents: .bytes(bytes)),
            source: "import", receivedAt: IngestHarness.received)
    }

    func quarantine(_ h: IngestHarness) async throws -> [QuarantineRecord] {
        try await h.store.quarantined(reason: nil, offset: 0, limit: 20)
    }

    /// 2025-12-20T08:00:00Z in FIT time: Unix 1_766_217_600 − 631_065_600.
    static let rideStart: UInt32 = 1_135_152_000
    static let rideStartMillis: Int64 = 1_766_217_600_000

    static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (b.0 - a.0) * rad, dLon = (b.1 - a.1) * rad
        let h = pow(sin(dLat / 2), 2) + cos(a.0 * rad) * cos(b.0 * rad) * pow(sin(dLon / 2), 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    static func pathLength(_ points: [(Double, Double)]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + haversine($1.0, $1.1) }
    }

    /// A 28.7-hour, 422 km ride (an ultra event) is imported whole: before issue 40 it was `invalid_duration`.
    @Test func aTwentyEightPointSevenHourRideImports() async throws {
        let h = try await IngestHarness()
        let elapsed: UInt32 = 103_320 // 28.7 · 3600
        let report = try await importing(
            h, TinyFIT.ride(start: Self.rideStart, elapsedS: elapsed, distanceM: 422_000), name: "brevet.fit")
        let why = try await quarantine(h).map(\.message)
        #expect(report.workouts.stored == 1, "\(why)")
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        #expect(w.durationS == 103_320)
        #expect(w.distanceM == 422_000)
        #expect(w.startAt == Self.rideStartMillis)
        let end: Int64 = Self.rideStartMillis + 103_320_000
        #expect(w.endAt == end)
        #expect(report.importFlags.isEmpty && report.flaggedFiles == 0)
    }

    /// What the old 24-hour bound was for stays refused, and the refusal names the file's fields the dates came from:
    /// a ride of 8 days, a start in 1995 (before 2000-01-01), a GPX dated year 0001.
    @Test func absurdDatesAreStillRefusedNamingTheirFields() async throws {
        let h = try await IngestHarness()
        let eightDays = try await importing(
            h, TinyFIT.ride(start: Self.rideStart - 8 * 86_400, elapsedS: 8 * 86_400, distanceM: 1000),
            name: "long.fit")
        #expect(eightDays.workouts.quarantinedByReason == [.rejected(.invalidDuration): 1])
        // 1995-01-01T00:00:00Z: Unix 788_918_400, FIT 157_852_800.
        let early = try await importing(
            h, TinyFIT.ride(start: 157_852_800, elapsedS: 3600, distanceM: 30_000), name: "old.fit")
        #expect(early.workouts.quarantinedByReason == [.rejected(.startTooEarly): 1])
        let year1 = """
            <gpx><trk><trkseg><trkpt lat="46.0" lon="14.0"><time>0001-01-01T00:00:00Z</time></trkpt>\
            <trkpt lat="46.001" lon="14.0"><time>0001-01-01T00:01:00Z</time></trkpt></trkseg></trk></gpx>
            """
        let ancient = try await importing(h, Array(year1.utf8), name: "year1.gpx")
        #expect(ancient.workouts.quarantinedByReason == [.rejected(.startTooEarly): 1])
        let messages = try await quarantine(h).map(\.message)
        #expect(
            messages.contains {
                $0.hasPrefix("Invalid duration: 691200 s is longer than 168 h")
                    && $0.hasSuffix("(dates read from session.start_time, session.total_elapsed_time)")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("start 1995-01-01T00:00:00.000Z is before 2000-01-01T00:00:00.000Z")
                    && $0.hasSuffix("(dates read from session.start_time, session.total_elapsed_time)")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("start 0001-01-01T00:00:00.000Z is before") && $0.contains("trkpt/time")
            }, "\(messages)")
        #expect(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).isEmpty)
    }

    /// The days bound is a workout file's: the same 25 hours as a record of an API source keep the old bound.
    @Test func theFileBoundIsOnlyForFiles() throws {
        func record(source: String, hours: Double) -> JSONValue {
            .object([
                "id": .string("w-1"), "user_id": .string("rider-1"), "source": .string(source),
                "updated_at": .string("2025-12-22T10:00:00Z"), "activity_type": .string("cycling"),
                "start": .string("2025-12-20T08:00:00Z"),
                "end": .string(RFC3339.format(millis: Self.rideStartMillis + Int64(hours * 3_600_000))),
                "duration_s": .number(hours * 3600),
            ])
        }
        let v = WorkoutValidator()
        #expect(throws: Rejection.self) {
            try v.validate(record(source: "garmin", hours: 25), receivedAt: IngestHarness.received)
        }
        #expect(throws: Rejection.self) {
            try v.validate(record(source: "apple_health", hours: 25), receivedAt: IngestHarness.received)
        }
        #expect(
            try v.validate(record(source: "garmin_fit", hours: 25), receivedAt: IngestHarness.received).durationS
                == 90_000)
        #expect(
            try v.validate(
                record(source: "apple_health", hours: 25), receivedAt: IngestHarness.received,
                file: .init(datesFrom: "Workout startDate, endDate")
            ).durationS == 90_000)
        #expect(throws: Rejection.self) {
            try v.validate(record(source: "garmin_fit", hours: 169), receivedAt: IngestHarness.received)
        }
    }

    static func lake(_ count: Int) -> [(Double, Double)] {
        (0..<count).map { i in
            let a = 2 * Double.pi * Double(i) / Double(count)
            return (46.36 + 0.0045 * sin(a), 14.09 + 0.0065 * cos(a))
        }
    }

    static func iso(_ millis: Int64) -> String { RFC3339.format(millis: millis) }

    /// One lake loop in seven tracks: one workout record with the distance of all seven.
    @Test func sevenTracksAreOneRecord() async throws {
        let h = try await IngestHarness()
        let points = Self.lake(35)
        var xml = "<gpx>"
        for track in 0..<7 {
            xml += "<trk><type>walking</type><trkseg>"
            for i in track * 5..<(track + 1) * 5 {
                let t = Self.rideStartMillis + Int64(i) * 5_000 + Int64(track) * 60_000
                xml += "<trkpt lat=\"\(points[i].0)\" lon=\"\(points[i].1)\"><time>\(Self.iso(t))</time></trkpt>"
            }
            xml += "</trkseg></trk>"
        }
        xml += "</gpx>"
        let report = try await importing(h, Array(xml.utf8), name: "lake.gpx")
        #expect(report.workouts.stored == 1)
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        let perTrack = (0..<7).map { Self.pathLength(Array(points[$0 * 5..<($0 + 1) * 5])) }
        #expect(abs(w.distanceM! - perTrack.reduce(0, +)) < 1e-6)
        #expect(w.startAt == Self.rideStartMillis)
        let end: Int64 = Self.rideStartMillis + 34 * 5_000 + 6 * 60_000
        #expect(w.endAt == end)
        // Moving: 4 intervals of 5 s in each of the seven tracks.
        let moving: Double = 7 * 4 * 5
        #expect(w.durationS == moving)
        #expect(w.activityType == "walking")
    }

    /// Points mostly without a time: the distance of the whole track is kept, the import is flagged
    /// `partial_import` (in the report, and in the quarantine list for the operator).
    @Test func untimedPointsKeepTheirDistanceAndAreFlagged() async throws {
        let h = try await IngestHarness()
        let points = Self.lake(40)
        var xml = "<gpx><trk><type>running</type><trkseg>"
        for (i, p) in points.enumerated() {
            let time = i == 0 ? Self.rideStartMillis : i == 39 ? Self.rideStartMillis + 1_200_000 : nil
            xml +=
                "<trkpt lat=\"\(p.0)\" lon=\"\(p.1)\">" + (time.map { "<time>\(Self.iso($0))</time>" } ?? "")
                + "</trkpt>"
        }
        xml += "</trkseg></trk></gpx>"
        let report = try await importing(h, Array(xml.utf8), name: "mostly-untimed.gpx")
        let why = try await quarantine(h).map(\.message)
        #expect(report.workouts.stored == 1, "\(why)")
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        #expect(abs(w.distanceM! - Self.pathLength(points)) < 1e-6)
        #expect(w.durationS == 1200)
        #expect(report.flaggedFiles == 1)
        let flag = try #require(report.importFlags.first)
        #expect(flag.code == "partial_import" && flag.activity == 0 && flag.file == "mostly-untimed.gpx")
        #expect(flag.detail.hasPrefix("38 of 40 trkpt without a time"))
        let kept = try await quarantine(h)
        #expect(kept.map(\.reasonCode.rawValue) == ["partial_import"])
        #expect(kept.first?.message.contains("38 of 40 trkpt without a time") == true)
        // The file counts as stored (flagged), not as quarantined.
        #expect(report.files.stored == 1 && report.files.quarantined == 0 && report.addsUp)
    }

    /// A GPX of positions without any timestamp is no longer refused: an activity with its distance, dated by the
    /// file's metadata, without a duration, flagged.
    @Test func aGPXWithoutTimestampsGivesItsDistance() async throws {
        let h = try await IngestHarness()
        let points = Self.lake(20)
        let trkpts = points.map { "<trkpt lat=\"\($0.0)\" lon=\"\($0.1)\"/>" }.joined()
        let xml =
            "<gpx><metadata><time>\(Self.iso(Self.rideStartMillis))</time></metadata><trk><type>hiking</type>"
            + "<trkseg>\(trkpts)</trkseg></trk></gpx>"
        let report = try await importing(h, Array(xml.utf8), name: "route-walked.gpx")
        let why = try await quarantine(h).map(\.message)
        #expect(report.workouts.stored == 1, "\(why)")
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        #expect(abs(w.distanceM! - Self.pathLength(points)) < 1e-6)
        #expect(w.durationS == 0)
        #expect(w.startAt == Self.rideStartMillis && w.endAt == Self.rideStartMillis)
        #expect(w.activityType == "hiking")
        #expect(report.importFlags.map(\.code) == ["partial_import"])
    }

    /// The issue's TCX: lap `StartTime` in year 52870, trackpoints in 2020 — stored at the trackpoints' start (it
    /// was `start_too_early`, read as 1970), the disagreement flagged.
    @Test func aTCXWithAYear52870LapIsStoredAtItsTrackpointsDates() async throws {
        let h = try await IngestHarness()
        let points = (0..<4).map {
            "<Trackpoint><Time>2020-05-17T06:30:\(String(format: "%02d", $0 * 10))Z</Time>"
                + "<HeartRateBpm><Value>\(140 + $0)</Value></HeartRateBpm></Trackpoint>"
        }.joined()
        let tcx = """
            <?xml version="1.0"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>\
            <Activity Sport="Running"><Id>52870-08-16T03:12:00Z</Id><Lap StartTime="52870-08-16T03:12:00Z">\
            <TotalTimeSeconds>30</TotalTimeSeconds><DistanceMeters>100</DistanceMeters>\
            <Track>\(points)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let report = try await importing(h, Array(tcx.utf8), name: "watch.tcx")
        let why = try await quarantine(h).map(\.message)
        #expect(report.workouts.stored == 1, "\(why)")
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        // 2020-05-17T06:30:00Z: 18_399 days · 86_400 s + 6.5 h.
        #expect(w.startAt == 1_589_697_000_000)
        #expect(w.endAt == 1_589_697_030_000)
        let mean: Double = (140.0 + 141 + 142 + 143) / 4
        #expect(w.avgHR == mean)
        #expect(report.importFlags.map(\.code) == ["dates_disagree"])
        #expect(try await quarantine(h).map(\.reasonCode.rawValue) == ["dates_disagree"])
    }

    /// A TCX with laps and no trackpoint, and one cut short: both imported and flagged `partial_import`.
    @Test func partialTCXFilesAreFlagged() async throws {
        let h = try await IngestHarness()
        let lapsOnly = """
            <TrainingCenterDatabase><Activities><Activity Sport="Biking"><Id>2025-12-20T08:00:00Z</Id>\
            <Lap StartTime="2025-12-20T08:00:00Z"><TotalTimeSeconds>1800</TotalTimeSeconds>\
            <DistanceMeters>15000</DistanceMeters></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let laps = try await importing(h, Array(lapsOnly.utf8), name: "laps.tcx")
        #expect(laps.workouts.stored == 1)
        #expect(laps.importFlags.map(\.code) == ["partial_import"])
        #expect(laps.importFlags.first?.detail.hasPrefix("no Trackpoint") == true)
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        #expect(w.durationS == 1800 && w.distanceM == 15000)

        let cut = """
            <TrainingCenterDatabase><Activities><Activity Sport="Running"><Id>2025-12-21T08:00:00Z</Id>\
            <Lap StartTime="2025-12-21T08:00:00Z"><Track>\
            <Trackpoint><Time>2025-12-21T08:00:00Z</Time></Trackpoint>\
            <Trackpoint><Time>2025-12-21T08:00:10Z</Time></Trackpoint>\
            <Trackpoint><Time>2025-12-21T08:00:20Z</Time></Track
            """
        let truncated = try await importing(h, Array(cut.utf8), name: "cut.tcx")
        #expect(truncated.workouts.stored == 1 && truncated.damagedFiles == 1)
        let flag = try #require(truncated.importFlags.first)
        #expect(flag.code == "partial_import" && flag.activity == nil)
        #expect(flag.detail.contains("xml_truncated"))

        // A heart rate with an invalid character: the record stored without that value, the file flagged, and kept
        // in the quarantine list under its flag for the operator.
        let badValue = """
            <TrainingCenterDatabase><Activities><Activity Sport="Running"><Id>2025-12-22T08:00:00Z</Id>\
            <Lap StartTime="2025-12-22T08:00:00Z"><Track>\
            <Trackpoint><Time>2025-12-22T08:00:00Z</Time><HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>\
            <Trackpoint><Time>2025-12-22T08:00:10Z</Time><HeartRateBpm><Value>1\u{1}36</Value></HeartRateBpm></Trackpoint>\
            <Trackpoint><Time>2025-12-22T08:00:20Z</Time><HeartRateBpm><Value>140</Value></HeartRateBpm></Trackpoint>\
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let value = try await importing(h, Array(badValue.utf8), name: "value.tcx")
        #expect(value.workouts.stored == 1 && value.flaggedFiles == 1)
        #expect(value.importFlags.map(\.code) == ["partial_import"])
        #expect(value.importFlags.first?.activity == 0)
        #expect(value.importFlags.first?.detail.hasSuffix("left out: HeartRateBpm 1") == true)
        let stored = try #require(
            try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first {
                $0.startAt == 1_766_390_400_000
            })
        #expect(stored.avgHR == 135 && stored.maxHR == 140)
        #expect(
            try await quarantine(h).contains {
                $0.sourceKey.hasSuffix("value.tcx") && $0.reasonCode.rawValue == "partial_import"
            })
    }

    /// Apple Health: a workout with heart-rate records and no statistics has its average and maximum when stored.
    @Test func healthWorkoutsHaveTheirHeartRateWhenStored() async throws {
        let h = try await IngestHarness()
        func hr(_ time: String, _ value: Int) -> String {
            "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"W\" unit=\"count/min\" "
                + "startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(value)\"/>"
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
            \(hr("2025-12-20 08:05:00 +0000", 131))\(hr("2025-12-20 08:15:00 +0000", 152))\
            \(hr("2025-12-20 08:25:00 +0000", 158))
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            sourceName="W" startDate="2025-12-20 08:00:00 +0000" endDate="2025-12-20 08:30:00 +0000"/>
            </HealthData>
            """
        let report = try await importing(h, Array(xml.utf8), name: "export.xml")
        #expect(report.workouts.stored == 1)
        let w = try #require(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).first)
        let mean: Double = (131.0 + 152 + 158) / 3
        #expect(w.avgHR == mean)
        #expect(w.maxHR == 158)
    }
}
