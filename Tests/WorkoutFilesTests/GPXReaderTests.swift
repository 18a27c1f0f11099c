import Foundation
import Testing

@testable import WorkoutFiles

let sampleGPX = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="StravaGPX" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
     <metadata><time>2024-06-01T05:00:00Z</time></metadata>
     <trk><name>Morning Ride</name><type>cycling</type>
      <trkseg>
       <trkpt lat="10.0" lon="20.0"><ele>5.0</ele><time>2024-06-01T05:00:00Z</time><extensions><power>180</power><gpxtpx:TrackPointExtension><gpxtpx:atemp>21</gpxtpx:atemp><gpxtpx:hr>110</gpxtpx:hr><gpxtpx:cad>75</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
       <trkpt lat="10.0001" lon="20.0"><ele>5.5</ele><time>2024-06-01T05:00:01Z</time><extensions><power>190</power><gpxtpx:TrackPointExtension><gpxtpx:hr>112</gpxtpx:hr><gpxtpx:cad>76</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
       <trkpt lat="10.0002" lon="20.0"><time>2024-06-01T05:00:02Z</time></trkpt>
      </trkseg>
      <trkseg>
       <trkpt lat="10.0003" lon="20.0"><time>2024-06-01T05:05:00Z</time></trkpt>
       <trkpt lat="10.0004" lon="20.0"><time>2024-06-01T05:05:01Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>130</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
      </trkseg>
     </trk>
    </gpx>
    """

/// 2024-06-01T05:00:00Z.
let gpxStart: TimeInterval = 1_717_218_000

func fixture(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent(name)
}

@Suite struct GPXReaderTests {
    @Test func readsTrackAndGarminExtensions() throws {
        let file = try WorkoutFileReader.read(bytes: Array(sampleGPX.utf8), fileName: "ride.gpx")
        #expect(file.format == .gpx)
        #expect(file.issues.isEmpty)
        let a = try #require(file.activities.first)
        #expect(a.sport == .cycling)
        #expect(a.start == Date(timeIntervalSince1970: gpxStart))
        #expect(a.utcOffsetSeconds == nil)
        #expect(a.durationS == 301)
        // 2 s in the first segment + 1 s in the second; the 298 s between segments is a pause.
        #expect(a.movingTimeS == 3)
        #expect(a.distanceM == nil)
        #expect(abs(a.trackDistanceM! - meridian(0.0004)) < 1e-6)
        #expect(a.distanceUsedM == a.trackDistanceM)
        #expect(a.samples.count == 5)
        #expect(
            a.samples[0]
                == Sample(
                    time: Date(timeIntervalSince1970: gpxStart), latitude: 10, longitude: 20, altitudeM: 5,
                    powerW: 180, heartRateBpm: 110, cadenceRpm: 75, temperatureC: 21))
        let meanHR: Double = (110.0 + 112 + 130) / 3
        #expect(a.avgHeartRateBpm == meanHR)
        #expect(a.maxHeartRateBpm == 130)
        #expect(a.sourceIdentity == "gpx:\(Int(gpxStart)):0")
    }

    /// gpxpy's korita-zbevnica.gpx: four tracks, the first empty, the second without times (a saved copy: not
    /// counted), the last two the device's "ACTIVE LOG" and "ACTIVE LOG #2" of one outing — one activity since issue
    /// 40 (the time between them a pause). The per-track values are gpxpy 1.6.2's.
    @Test func gpxpyKoritaZbevnica() throws {
        let file = try WorkoutFileReader.read(url: try fixture("korita-zbevnica.gpx"))
        #expect(file.activities.count == 1)
        let notes = Dictionary(uniqueKeysWithValues: file.issues.map { ($0.code, $0.count) })
        #expect(notes[.noActivity] == 2)
        #expect(notes[.badValue] == 358)
        let a = file.activities[0]
        let points = 176 + 337
        #expect(a.samples.count == points)
        // 2010-10-03T09:36:30Z to 10:57:10Z + 8541 s (gpxpy point times).
        #expect(a.start == XMLTime.parse("2010-10-03T09:36:30Z")!.date)
        let elapsed: Double = 4840 + 8541
        #expect(a.durationS == elapsed)
        #expect(a.samples[0].latitude == 45.452595614)
        #expect(a.samples[0].longitude == 14.018194014)
        #expect(a.samples[0].altitudeM == 753.330322)
        #expect(a.samples[176].time == XMLTime.parse("2010-10-03T10:57:10Z")!.date)
        // Σ gpxpy.geo.haversine_distance · 6371008.8 / 6378137 for each track; the step between the two tracks (from
        // 45.461438103, 14.010044122 to 45.461436091, 14.010305721, ≈ 20 m) is not counted, as in gpxpy's length_2d.
        #expect(abs(a.trackDistanceM! - (2282.044610108018 + 3979.4993908370716)) < 1e-6)
        #expect(a.sourceIdentity.hasSuffix(":2"))
        #expect(a.issues.isEmpty)
    }

    @Test func gpxpyTrackWithSpeed() throws {
        let file = try WorkoutFileReader.read(url: try fixture("track_with_speed.gpx"))
        let a = try #require(file.activities.first)
        #expect(a.samples.map(\.speedMps) == [1.2, 2.2, 3.2])
        #expect(a.samples.map(\.altitudeM) == [48.962041, 58.166437, 53.381747])
        #expect(a.durationS == 13)
        #expect(a.movingTimeS == 13)
        #expect(abs(a.trackDistanceM! - 18.64416715297305) < 1e-6)
    }

    @Test func pointsWithoutTimeAreCountedNotPlaced() throws {
        let xml =
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"1\" lon=\"2\"><time>2024-06-01T05:00:00Z</time></trkpt></trkseg></trk></gpx>"
        let file = try WorkoutFileReader.read(bytes: Array(xml.utf8))
        #expect(file.issues == [ReadIssue(code: .badValue, detail: "trkpt without a readable time")])
        #expect(file.activities.first?.samples.count == 1)
        #expect(file.activities.first?.durationS == 0)
    }

    @Test func trackWithoutTimesIsNoActivity() {
        let xml = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: Array(xml.utf8)) }
        #expect(error?.code == .noActivity)
    }

    @Test func gpxThatStopsHalfWay() throws {
        let cut = sampleGPX.range(of: "<trkpt lat=\"10.0003\"")!.lowerBound
        let file = try WorkoutFileReader.read(bytes: Array(sampleGPX[..<cut].utf8))
        #expect(file.issues.map(\.code) == [.xmlTruncated])
        #expect(file.activities.first?.samples.count == 3)
        #expect(file.activities.first?.durationS == 2)
    }
}
