import Foundation
import Testing

@testable import WorkoutFiles

/// The values of Fixtures/health/export.xml, worked out by hand:
/// running 2024-03-01 07:00–07:35 +0100 = 06:00–06:35Z (Unix 1709272800), 30 min of 35 active, pause 07:10–07:15,
/// 5.2 km, 310 kcal, HR 150 avg / 172 max, 4200 cm climbed, HR records inside at 07:05:09, 07:20:00, 07:35:00
/// (141, 155, 160; those at 06:59:59 and 08:00:00 are outside); route of three points 0.001° of latitude apart.
/// Cycling 2024-03-02 18:00–19:00 −0500 = 23:00–00:00Z, indoor, 30 km and 2092 kJ (= 500 kcal) in WorkoutStatistics.
let runStart: TimeInterval = 1_709_272_800
let rideStart: TimeInterval = 1_709_420_400

func checkHealthSummaries(_ file: WorkoutFile) throws {
    #expect(file.activities.count == 2)
    let run = file.activities[0]
    #expect(run.sport == .running)
    #expect(run.sourceSport == "HKWorkoutActivityTypeRunning")
    #expect(run.start == Date(timeIntervalSince1970: runStart))
    #expect(run.utcOffsetSeconds == 3600)
    #expect(run.durationS == 2100)
    #expect(run.movingTimeS == 1800)
    #expect(run.distanceM == 5200)
    #expect(run.energyKcal == 310)
    #expect(run.avgHeartRateBpm == 150)
    #expect(run.maxHeartRateBpm == 172)
    #expect(run.elevationGainM == 42)
    #expect(
        run.pauses == [
            Pause(start: Date(timeIntervalSince1970: runStart + 600), end: Date(timeIntervalSince1970: runStart + 900))
        ])
    #expect(run.device?.product == "Anna\u{2019}s Apple Watch")
    #expect(run.sourceIdentity.hasPrefix("health:"))
    let ride = file.activities[1]
    #expect(ride.sport == .indoorCycling)
    #expect(ride.start == Date(timeIntervalSince1970: rideStart))
    #expect(ride.utcOffsetSeconds == -18_000)
    #expect(ride.durationS == 3600)
    #expect(ride.movingTimeS == 3600)
    #expect(ride.distanceM == 30_000)
    #expect(abs(ride.energyKcal! - 500) < 1e-9)
    #expect(ride.samples.isEmpty)
    #expect(ride.sourceIdentity != run.sourceIdentity)
}

func checkRouteMerged(_ run: ImportedActivity) {
    // HR at +309 s (141) and the first route point at the same instant are one sample.
    #expect(run.samples.map { $0.time.timeIntervalSince1970 - runStart } == [309, 339, 369, 1200, 2100])
    #expect(run.samples.map(\.heartRateBpm) == [141, nil, nil, 155, 160])
    #expect(run.samples.map(\.latitude) == [51, 51.001, 51.002, nil, nil])
    #expect(run.samples.map(\.speedMps) == [3.3, 3.7, 3.7, nil, nil])
    #expect(run.samples[2].altitudeM == 12.5)
    #expect(abs(run.trackDistanceM! - meridian(0.002)) < 1e-6)
    #expect(run.distanceUsedM == 5200) // the workout's own figure, not the route's
    #expect(run.issues.isEmpty)
}

@Suite struct HealthExportReaderTests {
    @Test func exportXMLInMemoryWithoutRoutes() throws {
        let bytes = try [UInt8](Data(contentsOf: try fixture("health/export.xml")))
        let file = try WorkoutFileReader.read(bytes: bytes, fileName: "export.xml")
        #expect(file.format == .appleHealthXML)
        #expect(file.issues.isEmpty)
        try checkHealthSummaries(file)
        let run = file.activities[0]
        #expect(run.samples.map(\.heartRateBpm) == [141, 155, 160])
        #expect(run.issues.map(\.code) == [.routeMissing])
    }

    @Test func exportXMLOnDiskFindsTheRouteBesideIt() throws {
        let file = try WorkoutFileReader.read(url: try fixture("health/export.xml"))
        try checkHealthSummaries(file)
        checkRouteMerged(file.activities[0])
    }

    @Test(arguments: ["health-export.zip", "health-export-stored.zip"]) func exportZip(name: String) throws {
        let file = try WorkoutFileReader.read(url: try fixture(name))
        #expect(file.format == .appleHealthZip)
        #expect(file.issues.isEmpty)
        try checkHealthSummaries(file)
        checkRouteMerged(file.activities[0])
        // Same from memory.
        let inMemory = try WorkoutFileReader.read(bytes: [UInt8](Data(contentsOf: try fixture(name))), fileName: name)
        #expect(inMemory == file)
    }

    @Test func zipWithoutExportXML() throws {
        let error = #expect(throws: WorkoutFileError.self) {
            try WorkoutFileReader.read(url: try fixture("health-no-export.zip"))
        }
        #expect(error?.code == .zipNoExportXML)
    }

    @Test func zipWithBadCRCIsFlaggedAndRead() throws {
        let file = try WorkoutFileReader.read(url: try fixture("health-export-bad-crc.zip"))
        #expect(file.issues.map(\.code) == [.zipBadCRC])
        try checkHealthSummaries(file)
    }

    @Test func zipCutShortIsCorrupt() throws {
        let bytes = try [UInt8](Data(contentsOf: try fixture("health-export.zip")))
        let error = #expect(throws: WorkoutFileError.self) {
            try WorkoutFileReader.read(bytes: Array(bytes.prefix(bytes.count / 2)))
        }
        #expect(error?.code == .zipCorrupt)
    }

    @Test func exportThatStopsHalfWayKeepsCompleteWorkouts() throws {
        let text = try String(contentsOf: try fixture("health/export.xml"), encoding: .utf8)
        let cut = text.range(of: "<Workout workoutActivityType=\"HKWorkoutActivityTypeCycling\"")!.upperBound
        let file = try WorkoutFileReader.read(bytes: Array(text[..<cut].utf8))
        #expect(file.issues.map(\.code) == [.xmlTruncated])
        #expect(file.activities.count == 1)
        #expect(file.activities[0].distanceM == 5200)
        #expect(file.activities[0].samples.map(\.heartRateBpm) == [141, 155, 160])
    }

    @Test func healthDataRootIsRequired() {
        let xml = "<!DOCTYPE HealthData [ <!ELEMENT HealthData ANY> ]><Other/>"
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: Array(xml.utf8)) }
        #expect(error?.code == .unknownFormat)
    }
}
