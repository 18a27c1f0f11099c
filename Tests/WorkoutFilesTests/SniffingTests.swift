import Foundation
import Testing

@testable import WorkoutFiles

@Suite struct SniffingTests {
    @Test func formatsAreRecognisedByContent() throws {
        #expect(WorkoutFileReader.sniff(sampleActivity().file()) == .fit)
        #expect(WorkoutFileReader.sniff(Array(sampleTCX.utf8)) == .tcx)
        #expect(WorkoutFileReader.sniff(Array(sampleGPX.utf8)) == .gpx)
        #expect(
            WorkoutFileReader.sniff(try [UInt8](Data(contentsOf: try fixture("health/export.xml")))) == .appleHealthXML)
        #expect(
            WorkoutFileReader.sniff(try [UInt8](Data(contentsOf: try fixture("health-export.zip")))) == .appleHealthZip)
        #expect(WorkoutFileReader.sniff(Array("<html><body/></html>".utf8)) == nil)
        #expect(WorkoutFileReader.sniff(Array("hello".utf8)) == nil)
    }

    @Test func wrongExtensionIsReadAndNoted() throws {
        let gpxAsFIT = try WorkoutFileReader.read(bytes: Array(sampleGPX.utf8), fileName: "ride.fit")
        #expect(gpxAsFIT.format == .gpx)
        #expect(gpxAsFIT.issues.map(\.code) == [.extensionMismatch])
        #expect(gpxAsFIT.activities.count == 1)
        #expect(!gpxAsFIT.isDamaged)
        let fitAsTCX = try WorkoutFileReader.read(bytes: sampleActivity().file(), fileName: "RUN.TCX")
        #expect(fitAsTCX.format == .fit)
        #expect(fitAsTCX.issues == [ReadIssue(code: .extensionMismatch, detail: "a .tcx file holds fit")])
    }

    @Test func emptyAndBlankFiles() throws {
        for bytes in [[], Array("  \n\t ".utf8), [UInt8](repeating: 0, count: 100)] {
            let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: bytes) }
            #expect(error?.code == .emptyFile)
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).fit")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(url: empty) }
        #expect(error?.code == .emptyFile)
    }

    @Test func otherContentIsUnknown() {
        for text in ["<html><body/></html>", "id,time\n1,2\n", "{\"workouts\": []}"] {
            let error = #expect(throws: WorkoutFileError.self) {
                try WorkoutFileReader.read(bytes: Array(text.utf8), fileName: "x.gpx")
            }
            #expect(error?.code == .unknownFormat)
        }
    }

    @Test func missingFileIsUnreadable() {
        let error = #expect(throws: WorkoutFileError.self) {
            try WorkoutFileReader.read(url: URL(fileURLWithPath: "/nonexistent/\(UUID()).fit"))
        }
        #expect(error?.code == .unreadable)
    }

    @Test func recordSources() {
        #expect(FileFormat.fit.recordSource == "garmin_fit")
        #expect(FileFormat.appleHealthZip.recordSource == "apple_health")
        #expect(FileFormat.appleHealthXML.recordSource == "apple_health")
    }
}
