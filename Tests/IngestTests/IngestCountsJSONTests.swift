import Foundation
import Store
import Testing

@testable import Ingest

/// The counts per reason are typed (`[QuarantineReason: Int]`) but their JSON is what it was with string keys: an
/// object keyed by the code, in the ledger's and the job runs' reports, the nightly summary and the file upload answer.
@Suite struct IngestCountsJSONTests {
    static func counts() -> IngestCounts {
        var c = IngestCounts()
        c.received = 5
        c.stored = 2
        c.quarantine(.unknownUser, count: 2)
        c.quarantine(reason: .other("fit_truncated"))
        return c
    }

    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func theCountsPerReasonAreAnObjectKeyedByTheCodeAsBefore() throws {
        // The bytes written when the keys were strings, spelled out.
        let before =
            #"{"dropped_deleted_user":0,"duplicates":0,"quarantined":3,"#
            + #""quarantined_by_reason":{"fit_truncated":1,"unknown_user":2},"received":5,"stale":0,"stored":2}"#
        #expect(try Self.encoded(Self.counts()) == before)
        // Nothing quarantined: an empty object, not an empty array.
        #expect(try Self.encoded(IngestCounts()).contains(#""quarantined_by_reason":{}"#))
    }

    @Test func theCountsReadBackWithBothKindsOfReason() throws {
        let json = try Self.encoded(Self.counts())
        let read = try JSONDecoder().decode(IngestCounts.self, from: Data(json.utf8))
        #expect(read == Self.counts())
        #expect(read.quarantinedByReason.keys.sorted() == [.other("fit_truncated"), .rejected(.unknownUser)])
        // A known code is read back as the ingest's rejection, another one as it is.
        #expect(read.quarantinedByReason.keys.contains { if case .rejected(.unknownUser) = $0 { true } else { false } })
        #expect(read.quarantinedByReason.keys.contains { if case .other("fit_truncated") = $0 { true } else { false } })
    }

    @Test func theReportKeptInTheLedgerIsUnchanged() throws {
        var report = IngestReport()
        report.sessions = Self.counts()
        report.batches.quarantine(.malformedJSON)
        let json = BatchProcessor.json(report)
        #expect(json.contains(#""quarantined_by_reason":{"malformed_json":1}"#))
        #expect(json.contains(#""quarantined_by_reason":{"fit_truncated":1,"unknown_user":2}"#))
        let read = try JSONDecoder().decode(IngestReport.self, from: Data(json.utf8))
        #expect(read.sessions == report.sessions && read.batches == report.batches)
        // The package's writer writes the bytes `JSONEncoder` wrote, keys in UTF-8 order ("x10" before "x9", "Z"
        // before "a") included.
        report.files.quarantine(reason: .other("x9"))
        report.files.quarantine(reason: .other("x10"), count: 3)
        report.files.quarantine(reason: .other("Z_upper"))
        report.damagedFiles = 2
        #expect(BatchProcessor.json(report) == (try Self.encoded(report)))
    }
}
