import FTMSRender
import SessionAssembly
import Testing

@testable import FTMSDecode

/// "The same stream fed whole and record by record gives the same result" (issue 3, Tests),
/// in the NIO verifier's spirit: one blob carrying a value of every characteristic, decoded
/// (1) value by value, (2) from the owned records of `BlobReader.read`, (3) zero-copy during
/// `BlobReader.scan`, and (4) from every prefix of the blob as it would be read while the
/// app is still writing it.
@Suite("Whole stream vs record by record")
struct StreamConsistencyTests {
    static let values: [(UInt16, RecordKind, String)] = [
        (0x2A29, .readResponse, "53 6F 6C 69 64 46 6F 63 75 73"),
        (0x2A24, .readResponse, "53 46 2D 42"),
        (0x2A26, .readResponse, "32 2E 34 2E 31"),
        (0x2ACC, .readResponse, "06 40 00 80 0A 00 00 00"),
        (0x2AD4, .readResponse, "32 00 D0 07 0A 00"),
        (0x2AD5, .readResponse, "E2 FF 96 00 05 00"),
        (0x2AD6, .readResponse, "0A 00 F0 00 0A 00"),
        (0x2AD7, .readResponse, "28 C8 01"),
        (0x2AD8, .readResponse, "9C FF D0 07 01 00"),
        (0x2AD9, .write, "00"),
        (0x2AD9, .indication, "80 00 01"),
        (0x2AD9, .write, "11 D0 07 3E FE 21 3C"),
        (0x2ADA, .notification, "12 24 FA FA 00 28 33"),
        (0x2AD3, .notification, "01 0D 4D 61 6E 75 61 6C"),
        (0x2AD2, .notification, IndoorBikeDataTests.allFlags),
        (0x2AD1, .notification, RowerDataTests.allFlags),
        (0x2ACD, .notification, TreadmillDataTests.allFlags),
        (0x2ACE, .notification, CrossTrainerDataTests.allFlags),
        (0x2ACF, .notification, StepClimberDataTests.allFlags),
        (0x2AD0, .notification, StairClimberDataTests.allFlags),
        (0x2A37, .notification, "1F 48 00 2C 01 00 04 00 02"),
        (0x2A63, .notification, CyclingPowerMeasurementTests.allFlags),
        (0x2A5B, .notification, "03 E8 03 00 00 00 04 32 00 00 08"),
        (0x2AD2, .notification, "44 00 C4 09 B4"), // short: ok false, decoding goes on
        (0xFFF0, .notification, "01 02 03"), // unknown: skipped, not rejected
        (0x2ADA, .notification, "04"),
    ]

    static func blob() -> (bytes: [UInt8], offsets: [Int]) {
        var w = BlobWriter(machine: .indoorBike, startMillis: 1_766_570_400_000)
        var offsets: [Int] = []
        for (i, (uuid, kind, payload)) in values.enumerated() {
            offsets.append(w.bytes.count)
            w.append(timeMillis: UInt32(i * 333), uuid: uuid, kind: kind, payload: hex(payload))
        }
        return (w.bytes, offsets)
    }

    @Test("owned records, zero-copy views and direct decoding agree")
    func wholeStream() throws {
        let (bytes, _) = Self.blob()
        let direct = Self.values.map { CharacteristicDecoder.decode(uuid: $0.0, kind: $0.1, payload: hex($0.2)) }
        #expect(direct.filter { !$0.ok }.count == 1)
        #expect(direct.map(\.characteristic).filter { $0 == "unknown" }.count == 1)
        let blob = try BlobReader.read(bytes)
        #expect(blob.end == .complete)
        #expect(blob.records.map { $0.decoded() } == direct)
        var viewed: [DecodedValue] = []
        let scanned: Result<(header: BlobHeader, end: BlobEnd), BlobError> = bytes.withUnsafeBytes { raw in
            do throws(BlobError) {
                return .success(
                    try BlobReader.scan(raw) { view in
                        viewed.append(
                            CharacteristicDecoder.decode(uuid: view.uuid, kind: view.kind, bytes: view.payload))
                    })
            } catch { return .failure(error) }
        }
        #expect(try scanned.get().end == .complete)
        #expect(viewed == direct)
        // JSON lines are the same too.
        for (i, record) in blob.records.enumerated() {
            #expect(
                record.decoded().jsonObject(timeMillis: record.timeMillis, kindRaw: record.kindRaw)
                    == direct[i].jsonObject(timeMillis: UInt32(i * 333), kind: Self.values[i].1))
        }
    }

    @Test("every prefix decodes to a prefix of the records, byte by byte")
    func prefixes() throws {
        let (bytes, offsets) = Self.blob()
        let all = try BlobReader.read(bytes).records.map { $0.decoded() }
        for length in 16...bytes.count {
            let blob = try BlobReader.read(Array(bytes.prefix(length)))
            let complete = offsets.indices.filter { i in
                (i + 1 < offsets.count ? offsets[i + 1] : bytes.count) <= length
            }.count
            #expect(blob.records.map { $0.decoded() } == Array(all.prefix(complete)))
            let atBoundary = length == bytes.count || offsets.contains(length)
            #expect(blob.end == (atBoundary ? .complete : .truncated(offset: offsets[complete])))
        }
    }

    @Test("the assembler sees the same series from every split of the record stream")
    func assemblerSplits() throws {
        let (bytes, _) = Self.blob()
        let blob = try BlobReader.read(bytes)
        let whole = SessionAssembler.assemble(blob)
        #expect(whole.decodeErrors == 1 && whole.unknownRecords == 1 && whole.recordCount == Self.values.count)
        for split in 0...blob.records.count {
            var first = SessionAccumulator(header: blob.header)
            for record in blob.records.prefix(split) { first.add(record) }
            // Continue in a copy: value semantics, so the split point cannot matter.
            var second = first
            for record in blob.records.dropFirst(split) { second.add(record) }
            #expect(second.finish(end: .complete) == whole)
        }
    }
}
