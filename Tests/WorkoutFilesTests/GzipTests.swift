import Foundation
import Testing

@testable import WorkoutFiles

/// `korita-zbevnica.gpx.gz` is gpxpy's korita-zbevnica.gpx compressed by Python's `gzip.compress(…, mtime=0)`.
@Suite struct GzipTests {
    @Test func gzipWrappedFileReadsLikeTheFileInside() throws {
        let plain = try WorkoutFileReader.read(url: try fixture("korita-zbevnica.gpx"))
        let wrapped = try WorkoutFileReader.read(url: try fixture("korita-zbevnica.gpx.gz"))
        #expect(wrapped == plain)
        #expect(!wrapped.issues.contains { $0.code == .extensionMismatch })
    }

    @Test func gzipCutShortIsFlagged() throws {
        let bytes = try [UInt8](Data(contentsOf: try fixture("korita-zbevnica.gpx.gz")))
        let file = try WorkoutFileReader.read(bytes: Array(bytes.prefix(bytes.count * 3 / 4)), fileName: "k.gpx.gz")
        #expect(file.issues.map(\.code).contains(.gzipTruncated))
        #expect(file.issues.map(\.code).contains(.xmlTruncated))
        #expect(file.isDamaged)
        // The first timed track is complete in the first 3/4, the second (the same outing since issue 40: one
        // activity) read up to the cut: 176 points to 10:52:22, then from 10:57:10 on, fewer than its 337.
        let samples = try #require(file.activities.first?.samples)
        #expect(file.activities.count == 1)
        #expect(samples.count > 176 && samples.count < 176 + 337)
        #expect(samples[175].time == XMLTime.parse("2010-10-03T10:52:22Z")!.date)
        #expect(samples[176].time == XMLTime.parse("2010-10-03T10:57:10Z")!.date)
    }

    @Test func gzipCutBeforeAnythingIsRejected() throws {
        let bytes = try [UInt8](Data(contentsOf: try fixture("korita-zbevnica.gpx.gz")))
        let error = #expect(throws: WorkoutFileError.self) {
            try WorkoutFileReader.read(bytes: Array(bytes.prefix(12)))
        }
        #expect(error?.code == .gzipTruncated)
    }

    @Test func corruptGzip() {
        // A gzip header followed by a deflate block of reserved type 3 (invalid).
        let bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: bytes) }
        #expect(error?.code == .gzipCorrupt)
    }
}
