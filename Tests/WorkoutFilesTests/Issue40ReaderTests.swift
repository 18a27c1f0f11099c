import Foundation
import Testing

@testable import WorkoutFiles

/// Issue 40 at the readers: files as their devices meant them. Each case of the issue is rebuilt here as a small
/// synthetic file (no real file of those cases could be fetched: no internet); the expected figures are worked out in
/// the test (haversine by hand, times by arithmetic), never read back from the reader.
@Suite struct Issue40ReaderTests {
    /// Haversine over the mean Earth radius, written here independently of `Geo`.
    static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (b.0 - a.0) * rad, dLon = (b.1 - a.1) * rad
        let h = pow(sin(dLat / 2), 2) + cos(a.0 * rad) * cos(b.0 * rad) * pow(sin(dLon / 2), 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    static func pathLength(_ points: [(Double, Double)]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + haversine($1.0, $1.1) }
    }

    /// Points around a lake: `count` points on a circle of radius ≈ 500 m round 46.36° N 14.09° E (Bled).
    static func lakeLoop(_ count: Int) -> [(Double, Double)] {
        (0..<count).map { i in
            let a = 2 * Double.pi * Double(i) / Double(count)
            return (46.36 + 0.0045 * sin(a), 14.09 + 0.0065 * cos(a))
        }
    }

    static func iso(_ t: TimeInterval) -> String { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: t)) }

    static let start0: TimeInterval = 1_717_218_000 // 2024-06-01T05:00:00Z

    /// One lake loop recorded in 7 tracks (the device started a new track at each stop): one outing, one activity.
    @Test func sevenTracksOfOneOutingAreOneActivity() throws {
        let points = Self.lakeLoop(70)
        var xml = "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        for track in 0..<7 {
            xml += "<trk><name>Lake \(track + 1)</name><type>running</type><trkseg>"
            for i in track * 10..<(track + 1) * 10 {
                // 5 s between points; 60 s more between tracks (the stop).
                let t = Self.start0 + Double(i) * 5 + Double(track) * 60
                xml += "<trkpt lat=\"\(points[i].0)\" lon=\"\(points[i].1)\"><time>\(Self.iso(t))</time></trkpt>"
            }
            xml += "</trkseg></trk>"
        }
        xml += "</gpx>"
        let file = try WorkoutFileReader.read(bytes: Array(xml.utf8), fileName: "lake.gpx")
        #expect(file.activities.count == 1)
        let a = try #require(file.activities.first)
        #expect(a.start == Date(timeIntervalSince1970: Self.start0))
        // Last point: index 69, 69·5 s + 6 stops of 60 s.
        let elapsed: Double = 69 * 5 + 6 * 60
        #expect(a.durationS == elapsed)
        // Moving: 9 intervals of 5 s in each of 7 tracks; the stops between tracks are pauses.
        let moving: Double = 7 * 9 * 5
        #expect(a.movingTimeS == moving)
        #expect(a.samples.count == 70)
        // The sum of the seven tracks' lengths; the unrecorded step between two tracks is not counted (gpxpy's
        // length_2d does the same).
        let perTrack = (0..<7).map { Self.pathLength(Array(points[$0 * 10..<($0 + 1) * 10])) }
        #expect(abs(a.trackDistanceM! - perTrack.reduce(0, +)) < 1e-6)
        #expect(a.sourceIdentity == "gpx:\(Int(Self.start0)):0")
        #expect(a.issues.isEmpty)
        #expect(a.datesFrom == "trkpt/time (first and last)")
    }

    /// Tracks whose `type`s name different sports are the file saying they are different activities.
    @Test func tracksOfDifferentSportsStaySeparate() throws {
        let xml = """
            <gpx><trk><type>cycling</type><trkseg>\
            <trkpt lat="46.0" lon="14.0"><time>2024-06-01T05:00:00Z</time></trkpt>\
            <trkpt lat="46.001" lon="14.0"><time>2024-06-01T05:00:05Z</time></trkpt></trkseg></trk>\
            <trk><type>running</type><trkseg>\
            <trkpt lat="46.001" lon="14.0"><time>2024-06-01T06:00:00Z</time></trkpt>\
            <trkpt lat="46.002" lon="14.0"><time>2024-06-01T06:00:05Z</time></trkpt></trkseg></trk></gpx>
            """
        let file = try WorkoutFileReader.read(bytes: Array(xml.utf8))
        #expect(file.activities.map(\.sport) == [.cycling, .running])
        #expect(
            file.activities.map(\.sourceIdentity) == ["gpx:\(Int(Self.start0)):0", "gpx:\(Int(Self.start0) + 3600):1"])
    }

    /// Points mostly without `<time>`: the track's distance counts all of them; the duration is the timed points'
    /// span; the activity is flagged `partial_import` saying how many points had no time.
    @Test func untimedPointsKeepTheirDistanceAndFlagAPartialImport() throws {
        let points = Self.lakeLoop(40)
        var xml = "<gpx><trk><type>running</type><trkseg>"
        for (i, p) in points.enumerated() {
            // Only the first two and the last point have a time.
            let time = i < 2 ? Self.start0 + Double(i) * 5 : i == 39 ? Self.start0 + 600 : nil
            xml +=
                "<trkpt lat=\"\(p.0)\" lon=\"\(p.1)\">" + (time.map { "<time>\(Self.iso($0))</time>" } ?? "")
                + "</trkpt>"
        }
        xml += "</trkseg></trk></gpx>"
        let file = try WorkoutFileReader.read(bytes: Array(xml.utf8))
        let a = try #require(file.activities.first)
        #expect(file.activities.count == 1)
        #expect(abs(a.trackDistanceM! - Self.pathLength(points)) < 1e-6)
        #expect(a.distanceUsedM == a.trackDistanceM)
        #expect(a.durationS == 600)
        #expect(a.movingTimeS == nil)
        #expect(a.durationUsedS == 600)
        #expect(a.samples.count == 3)
        #expect(a.durationKnown == false)
        let flag = try #require(a.issues.first { $0.code == .partialImport })
        #expect(flag.detail.hasPrefix("37 of 40 trkpt without a time"))
    }

    /// A GPX of positions and no time at all: one activity dated by `metadata/time`, with its distance and no
    /// duration, flagged. Without `metadata/time` nothing dates it: `no_activity`, saying why.
    @Test func aGPXOfPositionsWithoutTimesGivesItsDistance() throws {
        let points = Self.lakeLoop(12)
        let trkpts = points.map { "<trkpt lat=\"\($0.0)\" lon=\"\($0.1)\"/>" }.joined()
        let dated =
            "<gpx><metadata><time>2024-06-01T05:00:00Z</time></metadata><trk><trkseg>\(trkpts)</trkseg></trk></gpx>"
        let file = try WorkoutFileReader.read(bytes: Array(dated.utf8))
        let a = try #require(file.activities.first)
        #expect(a.start == Date(timeIntervalSince1970: Self.start0))
        #expect(a.durationS == 0)
        #expect(abs(a.trackDistanceM! - Self.pathLength(points)) < 1e-6)
        #expect(a.samples.isEmpty)
        #expect(a.datesFrom == "metadata/time")
        #expect(a.issues.map(\.code) == [.partialImport])

        let undated = "<gpx><trk><trkseg>\(trkpts)</trkseg></trk></gpx>"
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: Array(undated.utf8)) }
        #expect(error?.code == .noActivity)
        #expect(error?.detail.contains("trk without timed points") == true)
    }

    static func tcx(id: String?, lapStart: String, trackpoints: [(String, Double)]) -> [UInt8] {
        let points = trackpoints.map { time, hr in
            "<Trackpoint><Time>\(time)</Time><HeartRateBpm><Value>\(hr)</Value></HeartRateBpm></Trackpoint>"
        }.joined()
        return Array(
            """
            <?xml version="1.0"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>\
            <Activity Sport="Running">\(id.map { "<Id>\($0)</Id>" } ?? "")<Lap StartTime="\(lapStart)">\
            <TotalTimeSeconds>30</TotalTimeSeconds><DistanceMeters>100</DistanceMeters>\
            <Track>\(points)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """.utf8)
    }

    /// The issue's TCX: its lap `StartTime` is in year 52870 while every trackpoint is dated 2020. The start comes
    /// from the trackpoints (not 1970), and the disagreement is flagged.
    @Test func aLapStartInYear52870YieldsToTheTrackpoints() throws {
        let times = (0..<4).map { "2020-05-17T06:30:\(String(format: "%02d", $0 * 10))Z" }
        let bytes = Self.tcx(
            id: "52870-08-16T03:12:00Z", lapStart: "52870-08-16T03:12:00Z",
            trackpoints: times.map { ($0, 120) })
        let file = try WorkoutFileReader.read(bytes: bytes)
        let a = try #require(file.activities.first)
        // 2020-05-17T06:30:00Z = Unix 1_589_697_000 (18_399 days · 86_400 + 23_400 s).
        #expect(a.start == Date(timeIntervalSince1970: 1_589_697_000))
        #expect(a.durationS == 30)
        #expect(a.datesFrom == "Trackpoint/Time, Trackpoint/Time (last)")
        let flag = try #require(a.issues.first { $0.code == .datesDisagree })
        #expect(flag.detail.contains("Lap StartTime"))
    }

    /// A readable header date far from the samples (an `Id` in 1970) and one trackpoint of ten in 1970: the
    /// majority of the trackpoints wins, the stray point is left out, both disagreements are flagged.
    @Test func theMajorityOfTimedSamplesWins() throws {
        var points = (0..<9).map { ("2020-05-17T06:30:\(String(format: "%02d", $0 * 5))Z", 130.0) }
        points.insert(("1970-01-01T00:00:07Z", 90), at: 4)
        let bytes = Self.tcx(id: "1970-01-01T00:00:00Z", lapStart: "2020-05-17T06:30:00Z", trackpoints: points)
        let a = try #require(try WorkoutFileReader.read(bytes: bytes).activities.first)
        #expect(a.start == Date(timeIntervalSince1970: 1_589_697_000))
        #expect(a.samples.count == 9)
        #expect(a.samples.allSatisfy { $0.heartRateBpm == 130 })
        #expect(a.durationS == 40)
        #expect(a.datesFrom == "Lap StartTime, Trackpoint/Time (last)")
        let flag = try #require(a.issues.first { $0.code == .datesDisagree })
        #expect(flag.detail.contains("1 of 10 Trackpoint/Time"))
        #expect(flag.detail.contains("Activity/Id"))
        // Where they agree, nothing is flagged.
        let agreeing = Self.tcx(
            id: "2020-05-17T06:30:00Z", lapStart: "2020-05-17T06:30:00Z",
            trackpoints: [("2020-05-17T06:30:00Z", 120), ("2020-05-17T06:30:10Z", 121)])
        let b = try #require(try WorkoutFileReader.read(bytes: agreeing).activities.first)
        #expect(b.issues.isEmpty)
        // The lap's 30 s end after the last trackpoint (10 s).
        #expect(b.datesFrom == "Activity/Id, Lap StartTime + TotalTimeSeconds")
        #expect(b.durationS == 30)
    }

    /// A TCX with laps and no trackpoint: the laps' totals, flagged as a partial import.
    @Test func aTCXWithoutTrackpointsIsFlagged() throws {
        let bytes = Self.tcx(id: "2020-05-17T06:30:00Z", lapStart: "2020-05-17T06:30:00Z", trackpoints: [])
        let a = try #require(try WorkoutFileReader.read(bytes: bytes).activities.first)
        #expect(a.movingTimeS == 30 && a.distanceM == 100)
        #expect(a.issues.map(\.code) == [.partialImport])
        #expect(a.datesFrom == "Activity/Id, Lap StartTime + TotalTimeSeconds")
    }

    /// A trackpoint whose `Time` holds an invalid character is left out, and the activity says so.
    @Test func aTrackpointWithAnInvalidCharacterIsFlagged() throws {
        let bytes = Self.tcx(
            id: "2020-05-17T06:30:00Z", lapStart: "2020-05-17T06:30:00Z",
            trackpoints: [
                ("2020-05-17T06:30:00Z", 120), ("2020-05-17T06:30:1\u{1}0Z", 121), ("2020-05-17T06:30:20Z", 122),
            ])
        let a = try #require(try WorkoutFileReader.read(bytes: bytes).activities.first)
        #expect(a.samples.map(\.heartRateBpm) == [120, 122])
        let flag = try #require(a.issues.first { $0.code == .partialImport })
        #expect(flag.detail.hasPrefix("1 of 3 Trackpoint without a readable Time"))
    }

    /// A value whose text is not a number (an invalid character in a heart rate, a letter in an altitude) is left
    /// out, and the activity says which and how many; an empty value is not given, not unreadable. TCX and GPX.
    @Test func aValueWithAnInvalidCharacterIsFlagged() throws {
        let trackpoints = [
            "<Trackpoint><Time>2020-05-17T06:30:00Z</Time><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>",
            "<Trackpoint><Time>2020-05-17T06:30:10Z</Time><AltitudeMeters>31o.5</AltitudeMeters>"
                + "<HeartRateBpm><Value>1\u{1}21</Value></HeartRateBpm><Cadence></Cadence></Trackpoint>",
            "<Trackpoint><Time>2020-05-17T06:30:20Z</Time><HeartRateBpm><Value>122</Value></HeartRateBpm>"
                + "<Extensions><TPX><Watts>2\u{1}00</Watts></TPX></Extensions></Trackpoint>",
        ]
        let tcx = Array(
            """
            <?xml version="1.0"?>
            <TrainingCenterDatabase><Activities><Activity Sport="Biking"><Id>2020-05-17T06:30:00Z</Id>\
            <Lap StartTime="2020-05-17T06:30:00Z"><TotalTimeSeconds>20</TotalTimeSeconds><Track>\
            \(trackpoints.joined())</Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """.utf8)
        let a = try #require(try WorkoutFileReader.read(bytes: tcx).activities.first)
        #expect(a.samples.map(\.heartRateBpm) == [120, nil, 122])
        #expect(a.samples.map(\.altitudeM) == [nil, nil, nil])
        #expect(a.samples.map(\.powerW) == [nil, nil, nil])
        #expect(a.samples[1].cadenceRpm == nil)
        #expect(
            a.issues == [
                ReadIssue(
                    code: .partialImport,
                    detail:
                        "3 values not a number (an invalid character, …), left out: AltitudeMeters 1, HeartRateBpm 1, "
                        + "TPX/Watts 1")
            ])

        let points = (0..<3).map { i in
            "<trkpt lat=\"45.0\" lon=\"14.\(i)\"><time>\(Self.iso(Self.start0 + Double(i) * 5))</time>"
                + "<extensions><hr>\(i == 1 ? "1\u{1}40" : "140")</hr><cad></cad></extensions></trkpt>"
        }
        let gpx = "<gpx><trk><trkseg>\(points.joined())</trkseg></trk></gpx>"
        let b = try #require(try WorkoutFileReader.read(bytes: Array(gpx.utf8)).activities.first)
        #expect(b.samples.map(\.heartRateBpm) == [140, nil, 140])
        #expect(
            b.issues == [
                ReadIssue(
                    code: .partialImport, detail: "1 value not a number (an invalid character, …), left out: hr 1")
            ])
    }

    /// A 28.7-hour ride is read whole (the bound is the import's; the reader has none): the session's figures.
    @Test func aTwentyEightHourFITRideIsReadWhole() throws {
        let elapsed: UInt32 = 103_320 // 28.7 h
        var e = FITEncoder()
        e.define(local: 0, global: 0, fields: [(0, .enumeration(4)), (3, .u32z(1)), (4, .u32(0))])
        e.data(local: 0, [.enumeration(4), .u32z(77), .u32(t0)])
        e.define(local: 1, global: 20, fields: [(253, .u32(0)), (5, .u32(0))])
        for i: UInt32 in 0...10 {
            let time: UInt32 = t0 + i * elapsed / 10
            let distance: UInt32 = i * 4_220_000
            e.data(local: 1, [.u32(time), .u32(distance)])
        }
        e.define(
            local: 2, global: 18,
            fields: [(253, .u32(0)), (2, .u32(0)), (7, .u32(0)), (8, .u32(0)), (9, .u32(0)), (5, .enumeration(0))])
        let session: [FITValue] = [
            .u32(t0 + elapsed), .u32(t0), .u32(elapsed * 1000), .u32(elapsed * 1000), .u32(42_200_000), .enumeration(2),
        ]
        e.data(local: 2, session)
        let a = try #require(try WorkoutFileReader.read(bytes: e.file()).activities.first)
        #expect(a.durationS == 103_320)
        #expect(a.distanceM == 422_000)
        #expect(a.start == Date(timeIntervalSince1970: t0Unix))
        #expect(a.datesFrom == "session.start_time, session.total_elapsed_time")
    }

    /// A FIT session whose start_time is far from its records (FIT time 0: 1989-12-31), and one record of twelve
    /// stamped 1989 among records of 2021: the records' majority gives the dates, the disagreement is flagged.
    @Test func aFITSessionStartFarFromItsRecordsYieldsToThem() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, fields: [(0, .enumeration(4)), (3, .u32z(1)), (4, .u32(0))])
        e.data(local: 0, [.enumeration(4), .u32z(77), .u32(t0)])
        e.define(local: 1, global: 20, fields: [(253, .u32(0)), (3, .u8(0))])
        e.data(local: 1, [.u32(5), .u8(60)])
        for i: UInt32 in 0..<11 {
            let time: UInt32 = t0 + i * 60
            e.data(local: 1, [.u32(time), .u8(UInt8(120 + i))])
        }
        e.define(
            local: 2, global: 18,
            fields: [(253, .u32(0)), (2, .u32(0)), (7, .u32(0)), (8, .u32(0)), (5, .enumeration(0))])
        let session: [FITValue] = [.u32(t0 + 600), .u32(1), .u32(600_000), .u32(600_000), .enumeration(1)]
        e.data(local: 2, session)
        let a = try #require(try WorkoutFileReader.read(bytes: e.file()).activities.first)
        #expect(a.start == Date(timeIntervalSince1970: t0Unix))
        #expect(a.durationS == 600)
        #expect(a.samples.count == 11)
        #expect(a.samples.first?.heartRateBpm == 120)
        #expect(a.datesFrom == "record.timestamp (first and last)")
        let flag = try #require(a.issues.first { $0.code == .datesDisagree })
        #expect(flag.detail.contains("1 of 12 record.timestamp"))
        #expect(flag.detail.contains("session start"))
        // Average HR from the kept records: 120…130.
        let mean: Double = (120.0 + 130) / 2
        #expect(a.avgHeartRateBpm == mean)
    }

    /// Apple Health: a workout without heart-rate statistics gets its average and maximum from the heart-rate records
    /// inside it when it is read (before issue 40 they stayed null until `pipeline recompute`).
    @Test func aHealthWorkoutWithoutStatisticsGetsItsHeartRateFromItsRecords() throws {
        func hr(_ time: String, _ value: Int) -> String {
            "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"W\" unit=\"count/min\" "
                + "startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(value)\"/>"
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
            \(hr("2024-03-01 07:00:30 +0000", 120))\(hr("2024-03-01 07:10:00 +0000", 150))\
            \(hr("2024-03-01 07:20:00 +0000", 163))\(hr("2024-03-01 08:00:00 +0000", 90))
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            sourceName="W" startDate="2024-03-01 07:00:00 +0000" endDate="2024-03-01 07:30:00 +0000"/>
            </HealthData>
            """
        let file = try HealthExportReader.read(xmlBytes: Array(xml.utf8))
        let a = try #require(file.activities.first)
        // The three records inside 07:00–07:30 (the one at 08:00 is outside): mean (120 + 150 + 163) / 3.
        let mean: Double = (120.0 + 150 + 163) / 3
        #expect(a.avgHeartRateBpm == mean)
        #expect(a.maxHeartRateBpm == 163)
        #expect(a.datesFrom == "Workout startDate, endDate")
    }
}
