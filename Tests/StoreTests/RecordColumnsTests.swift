import PropertyBased
import Testing

@testable import Store

/// The columns a recording is split into before LZ4 (`RecordColumns`, docs/raw-ble-blob.md, "How the store keeps a
/// recording"): `join` gives back every byte `split` was given, for recordings of every shape (records of any UUID,
/// kind, length and time, times going backwards, a tail cut short) and for bytes that are no recording at all; forged
/// columns are an error, never a crash or other bytes.
@Suite struct RecordColumnsTests {
    /// One record: time step (ms), UUID, kind, payload. The five known UUIDs keep one length each (2, 8, 11, 20 and 13
    /// bytes, as a characteristic mostly does), so payloads are written as differences from the one before, eight bytes
    /// at a time and byte by byte; any other UUID has a payload of 0–30 bytes.
    static var recordGenerator: Generator<[UInt8], AnySequence<Any>> {
        zip(
            Gen.int(in: 0...2_000_000),
            Gen.int(in: 0...5),
            Gen.int(in: 0...3),
            Gen.int(in: 0...255).array(of: 0...30)
        )
        .map { step, uuidChoice, kind, payload in
            let uuids: [UInt16] = [0x2AD2, 0x2A37, 0x2A63, 0x2AD9, 0x2ACC]
            let uuid = uuidChoice < uuids.count ? uuids[uuidChoice] : UInt16(truncatingIfNeeded: step &* 31)
            let lengths = [2, 8, 11, 20, 13]
            let payload =
                uuidChoice < uuids.count
                ? (0..<lengths[uuidChoice]).map { payload.isEmpty ? 0 : payload[$0 % payload.count] } : payload
            // A step above 10⁶ stands for a time going backwards (the walk must not care): the top bits flipped.
            let t = step > 1_000_000 ? UInt32(truncatingIfNeeded: step) | 0x8000_0000 : UInt32(step)
            return [
                UInt8(truncatingIfNeeded: t), UInt8(truncatingIfNeeded: t >> 8), UInt8(truncatingIfNeeded: t >> 16),
                UInt8(truncatingIfNeeded: t >> 24), UInt8(truncatingIfNeeded: uuid),
                UInt8(truncatingIfNeeded: uuid >> 8),
                UInt8(kind), UInt8(payload.count),
            ] + payload.map { UInt8($0) }
        }
        .eraseToAny()
    }

    /// A header's 16 bytes, records whose times accumulate (mostly forwards), and a tail of 0–12 bytes.
    static var recordingGenerator: Generator<[UInt8], AnySequence<Any>> {
        zip(
            Gen.int(in: 0...255).array(of: 16...16),
            recordGenerator.array(of: 0...60),
            Gen.int(in: 0...255).array(of: 0...12)
        )
        .map { header, records, tail in
            var bytes = header.map { UInt8($0) }
            var time: UInt32 = 0
            for record in records {
                var r = record
                let step = UInt32(r[0]) | UInt32(r[1]) << 8 | UInt32(r[2]) << 16 | UInt32(r[3]) << 24
                time = time &+ step
                for k in 0..<4 { r[k] = UInt8(truncatingIfNeeded: time >> (8 * k)) }
                bytes += r
            }
            return bytes + tail.map { UInt8($0) }
        }
        .eraseToAny()
    }

    static let orders: [RecordColumns.PayloadOrder] = [.records, .byteColumns]

    @Test(arguments: orders) func recordingsComeBackWhole(_ order: RecordColumns.PayloadOrder) async {
        await propertyCheck(count: 400, input: Self.recordingGenerator) { recording in
            let columns = RecordColumns.split(recording, order: order)
            #expect(columns != nil)
            #expect((try? RecordColumns.join(columns ?? [], order: order)) == recording)
        }
    }

    /// Any bytes at all (no recording: the walk reads lengths from wherever they fall) come back whole too.
    @Test(arguments: orders) func anyBytesComeBackWhole(_ order: RecordColumns.PayloadOrder) async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...255).array(of: 16...600)) { values in
            let bytes = values.map { UInt8($0) }
            #expect((try? RecordColumns.join(RecordColumns.split(bytes, order: order) ?? [], order: order)) == bytes)
        }
    }

    /// Forged columns (a frame's checksum only proves the bytes are the ones written): an error, or bytes — never a
    /// crash, never a read past the end.
    @Test(arguments: orders) func forgedColumnsAreAnErrorOrBytesNeverACrash(
        _ order: RecordColumns.PayloadOrder
    ) async throws {
        await propertyCheck(count: 400, input: Gen.int(in: 0...255).array(of: 0...200)) { values in
            _ = try? RecordColumns.join(values.map { UInt8($0) }, order: order)
        }
        #expect(throws: StoredRecordingError.self) {
            try RecordColumns.join([UInt8](repeating: 0, count: 19), order: order)
        }
        // 16 header bytes, a count of 2³² − 1 records in 4 bytes.
        #expect(throws: StoredRecordingError.self) {
            try RecordColumns.join([UInt8](repeating: 0, count: 16) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0], order: order)
        }
        // One record whose time runs past 5 bytes of LEB128, one whose fifth byte holds more than the top 4 bits, and
        // two records' times where the columns end after one: each is named, never read past.
        let header = [UInt8](repeating: 0, count: 16) + [1, 0, 0, 0]
        let noPayload: [UInt8] = [0x37, 0x2A, 0, 0]
        #expect(throws: StoredRecordingError.corruptFrame("recording columns: record 0's time runs past its 5 bytes")) {
            try RecordColumns.join(header + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01] + noPayload, order: order)
        }
        #expect(throws: StoredRecordingError.corruptFrame("recording columns: record 0's time is above 2³²")) {
            try RecordColumns.join(header + [0xFF, 0xFF, 0xFF, 0xFF, 0x10] + noPayload, order: order)
        }
        // The largest time, 2³² − 1, takes all 5 bytes.
        #expect(
            try RecordColumns.join(header + [0xFF, 0xFF, 0xFF, 0xFF, 0x0F] + noPayload, order: order)
                == [UInt8](repeating: 0, count: 16) + [0xFF, 0xFF, 0xFF, 0xFF] + noPayload)
        #expect(throws: StoredRecordingError.corruptFrame("recording columns: the records' times are cut short")) {
            try RecordColumns.join(
                [UInt8](repeating: 0, count: 16) + [2, 0, 0, 0] + [0x81, 0x01] + [UInt8](repeating: 0x80, count: 9),
                order: order)
        }
        // One record announcing 9 payload bytes, with 2 present.
        #expect(throws: StoredRecordingError.self) {
            try RecordColumns.join(
                [UInt8](repeating: 0, count: 16) + [1, 0, 0, 0] + [5] + [0x37, 0x2A, 0, 9] + [1, 2], order: order)
        }
        #expect(RecordColumns.split([UInt8](repeating: 0, count: 15), order: order) == nil)
    }

    /// The records' times at every width of their LEB128 differences, the boundaries on both sides (two bytes have a
    /// path of their own in `join`): the bytes written out by hand, and the recording back whole.
    @Test(arguments: orders) func timesAtEveryWidth(_ order: RecordColumns.PayloadOrder) throws {
        let steps: [(UInt32, [UInt8])] = [
            (0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (1_000, [0xE8, 0x07]), (16_383, [0xFF, 0x7F]),
            (16_384, [0x80, 0x80, 0x01]), (2_097_151, [0xFF, 0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01]),
            (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F]), (268_435_456, [0x80, 0x80, 0x80, 0x80, 0x01]),
            (4_294_967_295, [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), // a step back of 1 ms, modulo 2³²
        ]
        var recording = Array("SFRB".utf8) + [1, 1, 0, 0] + [UInt8](repeating: 0x11, count: 8)
        var time: UInt32 = 0
        for (i, (step, _)) in steps.enumerated() {
            time = time &+ step
            recording += withUnsafeBytes(of: time.littleEndian, Array.init) + [0x37, 0x2A, 0, 1, UInt8(i)]
        }
        let columns = try #require(RecordColumns.split(recording, order: order))
        let times = steps.flatMap(\.1)
        #expect(Array(columns[16..<20]) == [UInt8(steps.count), 0, 0, 0])
        #expect(Array(columns[20..<(20 + times.count)]) == times)
        #expect(try RecordColumns.join(columns, order: order) == recording)
    }

    /// The split form of a small recording, written out by hand from the layout (docs/raw-ble-blob.md, "How the store
    /// keeps a recording"): two heart-rate records one second apart (the second's payload written as differences from
    /// the first's), a power record, and a tail of 3 bytes; in both payload orders.
    @Test func theLayoutByHand() throws {
        let header: [UInt8] = Array("SFRB".utf8) + [1, 1, 0, 0] + [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x00]
        let recording: [UInt8] =
            header
            + [0xE8, 0x03, 0, 0, 0x37, 0x2A, 0, 2, 0x00, 120] // t = 1000, 2A37, notification, 2 bytes: 120 bpm
            + [0xD0, 0x07, 0, 0, 0x37, 0x2A, 0, 2, 0x00, 118] // t = 2000, 118 bpm
            + [0xD0, 0x07, 0, 0, 0x63, 0x2A, 0, 4, 0x00, 0x00, 0xFA, 0x00] // t = 2000, 2A63, 250 W
            + [0x01, 0x02, 0x03] // cut short
        let expected: [UInt8] =
            header
            + [3, 0, 0, 0] // three records
            + [0xE8, 0x07, 0xE8, 0x07, 0x00] // 1000 and 1000 in LEB128, then 0
            + [0x37, 0x2A, 0, 2, 0x37, 0x2A, 0, 2, 0x63, 0x2A, 0, 4]
            + [0x00, 120] + [0x00, 0xFE] + [0x00, 0x00, 0xFA, 0x00] // 118 − 120 = −2 = 0xFE
            + [0x01, 0x02, 0x03]
        #expect(RecordColumns.split(recording, order: .records) == expected)
        #expect(try RecordColumns.join(expected, order: .records) == recording)
        // Byte columns: the two 2-byte payloads' first bytes, then their second bytes; then the one 4-byte payload.
        let expectedByteColumns: [UInt8] =
            Array(expected[..<(expected.count - 11)]) + [0x00, 0x00, 120, 0xFE] + [0x00, 0x00, 0xFA, 0x00]
            + [0x01, 0x02, 0x03]
        #expect(RecordColumns.split(recording, order: .byteColumns) == expectedByteColumns)
        #expect(try RecordColumns.join(expectedByteColumns, order: .byteColumns) == recording)
    }
}
