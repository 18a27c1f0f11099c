import Foundation
import Testing

@testable import WorkoutFiles

/// Mean Earth radius the module uses; along a meridian the haversine distance is exactly R·Δφ.
let earthR = 6_371_008.8
func meridian(_ degrees: Double) -> Double { earthR * degrees * Double.pi / 180 }

let sampleTCX = """
    <?xml version="1.0" encoding="UTF-8"?>
    <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
     <Activities>
      <Activity Sport="Biking">
       <Id>2024-05-04T08:00:00.000+02:00</Id>
       <Lap StartTime="2024-05-04T06:00:00Z">
        <TotalTimeSeconds>600.0</TotalTimeSeconds>
        <DistanceMeters>5000.0</DistanceMeters>
        <MaximumSpeed>12.5</MaximumSpeed>
        <Calories>150</Calories>
        <AverageHeartRateBpm><Value>130</Value></AverageHeartRateBpm>
        <MaximumHeartRateBpm><Value>150</Value></MaximumHeartRateBpm>
        <Intensity>Active</Intensity>
        <Cadence>88</Cadence>
        <TriggerMethod>Manual</TriggerMethod>
        <Track>
         <Trackpoint><Time>2024-05-04T06:00:00Z</Time><Position><LatitudeDegrees>0.0</LatitudeDegrees><LongitudeDegrees>0.0</LongitudeDegrees></Position><AltitudeMeters>100.0</AltitudeMeters><DistanceMeters>0.0</DistanceMeters><HeartRateBpm><Value>120</Value></HeartRateBpm><Cadence>80</Cadence><Extensions><ns3:TPX><ns3:Speed>8.0</ns3:Speed><ns3:Watts>200</ns3:Watts></ns3:TPX></Extensions></Trackpoint>
         <Trackpoint><Time>2024-05-04T06:00:01Z</Time><Position><LatitudeDegrees>0.001</LatitudeDegrees><LongitudeDegrees>0.0</LongitudeDegrees></Position><AltitudeMeters>101.0</AltitudeMeters><DistanceMeters>111.2</DistanceMeters><HeartRateBpm><Value>140</Value></HeartRateBpm><Cadence>90</Cadence><Extensions><ns3:TPX><ns3:Speed>9.0</ns3:Speed><ns3:Watts>220</ns3:Watts></ns3:TPX></Extensions></Trackpoint>
        </Track>
        <Extensions><ns3:LX><ns3:AvgSpeed>8.3</ns3:AvgSpeed><ns3:AvgWatts>210</ns3:AvgWatts></ns3:LX></Extensions>
       </Lap>
       <Lap StartTime="2024-05-04T06:10:00Z">
        <TotalTimeSeconds>900.0</TotalTimeSeconds>
        <DistanceMeters>7000.0</DistanceMeters>
        <Calories>250</Calories>
        <AverageHeartRateBpm><Value>140</Value></AverageHeartRateBpm>
        <MaximumHeartRateBpm><Value>160</Value></MaximumHeartRateBpm>
        <Intensity>Active</Intensity>
        <TriggerMethod>Manual</TriggerMethod>
        <Track>
         <Trackpoint><Time>2024-05-04T06:10:00Z</Time><Position><LatitudeDegrees>0.002</LatitudeDegrees><LongitudeDegrees>0.0</LongitudeDegrees></Position><HeartRateBpm><Value>150</Value></HeartRateBpm></Trackpoint>
        </Track>
       </Lap>
       <Creator xsi:type="Device_t"><Name>Edge 530</Name><UnitId>3333333333</UnitId><ProductID>3121</ProductID><Version><VersionMajor>9</VersionMajor><VersionMinor>10</VersionMinor></Version></Creator>
      </Activity>
     </Activities>
    </TrainingCenterDatabase>
    """

/// 2024-05-04T06:00:00Z (date -u -d … +%s).
let tcxStart: TimeInterval = 1_714_802_400

@Suite struct TCXReaderTests {
    @Test func readsLapsTrackpointsAndExtensions() throws {
        let file = try WorkoutFileReader.read(bytes: Array(sampleTCX.utf8), fileName: "ride.tcx")
        #expect(file.format == .tcx)
        #expect(file.issues.isEmpty)
        let a = try #require(file.activities.first)
        #expect(a.sport == .cycling)
        #expect(a.sourceSport == "Biking")
        #expect(a.sourceIdentity == "tcx:2024-05-04T08:00:00.000+02:00")
        #expect(a.start == Date(timeIntervalSince1970: tcxStart))
        #expect(a.utcOffsetSeconds == 7200)
        #expect(a.movingTimeS == 1500) // 600 + 900
        #expect(a.durationS == 1500) // second lap ends at 06:25:00
        #expect(a.distanceM == 12_000) // 5000 + 7000
        #expect(a.energyKcal == 400) // 150 + 250
        let meanHR: Double = (120.0 + 140 + 150) / 3
        #expect(a.avgHeartRateBpm == meanHR)
        #expect(a.maxHeartRateBpm == 160)
        let track = try #require(a.trackDistanceM)
        #expect(abs(track - meridian(0.002)) < 1e-6)
        #expect(a.laps.count == 2)
        #expect(
            a.laps[0]
                == Lap(
                    start: Date(timeIntervalSince1970: tcxStart), movingTimeS: 600, distanceM: 5000, energyKcal: 150,
                    avgHeartRateBpm: 130, maxHeartRateBpm: 150, avgPowerW: 210))
        #expect(a.samples.count == 3)
        #expect(
            a.samples[1]
                == Sample(
                    time: Date(timeIntervalSince1970: tcxStart + 1), latitude: 0.001, longitude: 0, altitudeM: 101,
                    distanceM: 111.2, speedMps: 9, powerW: 220, heartRateBpm: 140, cadenceRpm: 90))
        #expect(a.device == Device(product: "Edge 530", serialNumber: "3333333333", softwareVersion: "9.10"))
    }

    @Test(arguments: [1, 5, 333]) func anyChunkingGivesTheSameActivity(chunkSize: Int) throws {
        var source = MemoryChunks(Array(sampleTCX.utf8), chunkSize: chunkSize)
        let split = try TCXReader.read(&source)
        #expect(split == (try TCXReader.read(bytes: Array(sampleTCX.utf8))))
    }

    @Test func stopsHalfWayKeepsWhatWasRead() throws {
        let cut = sampleTCX.range(of: "<TotalTimeSeconds>900.0")!.lowerBound
        let file = try WorkoutFileReader.read(bytes: Array(sampleTCX[..<cut].utf8))
        #expect(file.issues.map(\.code) == [.xmlTruncated])
        #expect(file.isDamaged)
        let a = try #require(file.activities.first)
        #expect(a.laps.count == 2) // the second only with its start
        #expect(a.movingTimeS == 600)
        #expect(a.distanceM == 5000)
        #expect(a.samples.count == 2)
    }

    @Test func notWellFormedIsRejected() {
        let broken = sampleTCX.replacingOccurrences(of: "</Calories>", with: "</Calorie>")
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: Array(broken.utf8)) }
        #expect(error?.code == .xmlNotWellFormed)
    }
}
