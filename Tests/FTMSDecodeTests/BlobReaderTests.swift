import FTMSRender
import Testing

@testable import FTMSDecode

/// raw-ble-blob.md, "Example": one Indoor Bike Data notification 1.5 s after
/// 2025-12-24T10:00:00Z (1766570400000 ms) on an indoor bike.
let specExampleBlob = hex(
    """
    53 46 52 42 01 01 00 00  00 19 CD 4F 9B 01 00 00
    DC 05 00 00 D2 2A 00 08
    44 00 C4 09 B4 00 C8 00
    """)

@Suite("Blob reader and writer (raw-ble-blob.md)")
struct BlobReaderTests {
    @Test("writer reproduces the spec example byte for byte")
    func writerReproducesSpecExample() {
        var writer = BlobWriter(machine: .indoorBike, startMillis: 1_766_570_400_000)
        let payload = IndoorBikeData {
            $0.speedKmh = 25.00
            $0.cadenceRpm = 90
            $0.powerW = 200
        }.encode()
        #expect(payload == hex("44 00 C4 09 B4 00 C8 00"))
        writer.append(timeMillis: 1500, uuid: 0x2AD2, kind: .notification, payload: payload)
        #expect(writer.bytes == specExampleBlob)
        #expect(writer.recordCount == 1)
    }

    @Test("reader decodes the spec example")
    func readerDecodesSpecExample() throws {
        let blob = try BlobReader.read(specExampleBlob)
        #expect(blob.header == BlobHeader(version: 1, machineRaw: 1, startMillis: 1_766_570_400_000))
        #expect(blob.header.machine == .indoorBike)
        #expect(
            blob.records == [
                BlobRecord(timeMillis: 1500, uuid: 0x2AD2, kind: .notification, payload: hex("44 00 C4 09 B4 00 C8 00"))
            ])
        #expect(blob.end == .complete)
        let value = blob.records[0].decoded()
        #expect(value.ok)
        #expect(
            pairs(value) == [
                p("flags", 0x44), p("more_data", false), p("speed_kmh", 25.0), p("cadence_rpm", 90.0),
                p("power_w", 200),
            ])
        #expect(
            value.jsonObject(timeMillis: 1500, kind: .notification)
                == #"{"t_ms":1500,"uuid":"0x2AD2","characteristic":"indoor_bike_data","kind":"notification","ok":true,"fields":{"flags":68,"more_data":false,"speed_kmh":25.0,"cadence_rpm":90.0,"power_w":200}}"#
        )
    }

    @Test("header only: complete, no records")
    func headerOnly() throws {
        let blob = try BlobReader.read(Array(specExampleBlob.prefix(16)))
        #expect(blob.records.isEmpty)
        #expect(blob.end == .complete)
    }

    @Test("shorter than 16 bytes is rejected, saying so", arguments: [0, 1, 4, 15])
    func tooShort(length: Int) {
        #expect(throws: BlobError.tooShort(length: length)) {
            try BlobReader.read(Array(specExampleBlob.prefix(length)))
        }
        #expect(
            BlobError.tooShort(length: length).description
                == "blob too short: \(length) bytes, the header alone needs 16")
    }

    @Test("another magic is rejected, showing the bytes found")
    func badMagic() {
        var bytes = specExampleBlob
        bytes[3] = 0x43 // "SFRC"
        #expect(throws: BlobError.badMagic([0x53, 0x46, 0x52, 0x43])) { try BlobReader.read(bytes) }
        #expect(
            BlobError.badMagic([0x53, 0x46, 0x52, 0x43]).description
                == #"bad magic: expected 53 46 52 42 ("SFRB"), found 53 46 52 43"#)
    }

    @Test("another version is rejected", arguments: [UInt8(0), 2, 255])
    func unsupportedVersion(version: UInt8) {
        var bytes = specExampleBlob
        bytes[4] = version
        #expect(throws: BlobError.unsupportedVersion(version)) { try BlobReader.read(bytes) }
        #expect(BlobError.unsupportedVersion(version).description.contains("unsupported blob version \(version)"))
    }

    @Test("reserved bytes are ignored, unlisted machine kept raw, negative start")
    func headerFields() throws {
        var bytes = specExampleBlob
        bytes[5] = 9
        bytes[6] = 0xAB
        bytes[7] = 0xCD
        // start = -1 ms (all ones): signed 64-bit.
        for i in 8..<16 { bytes[i] = 0xFF }
        let blob = try BlobReader.read(bytes)
        #expect(blob.header.machineRaw == 9)
        #expect(blob.header.machine == .unknown)
        #expect(blob.header.startMillis == -1)
        #expect(blob.records.count == 1)
    }

    @Test("a record header cut short is a truncation at the record's offset", arguments: 1...7)
    func truncatedRecordHeader(extra: Int) throws {
        let bytes = specExampleBlob + Array(hex("D0 07 00 00 37 2A 00 02").prefix(extra))
        let blob = try BlobReader.read(bytes)
        #expect(blob.records.count == 1)
        #expect(blob.end == .truncated(offset: 32))
    }

    @Test("a payload cut short is a truncation; earlier records are kept")
    func truncatedPayload() throws {
        let cut = Array(specExampleBlob.dropLast(1))
        let blob = try BlobReader.read(cut)
        #expect(blob.records.isEmpty)
        #expect(blob.end == .truncated(offset: 16))
        #expect(blob.end.description == "truncated at byte offset 16")

        var writer = BlobWriter(machine: .rower, startMillis: 0)
        writer.append(timeMillis: 0, uuid: 0x2A37, kind: .notification, payload: hex("00 48"))
        writer.append(timeMillis: 1000, uuid: 0x2A37, kind: .notification, payload: hex("00 49"))
        let partial = Array(writer.bytes.dropLast(1))
        let read = try BlobReader.read(partial)
        #expect(read.records == [BlobRecord(timeMillis: 0, uuid: 0x2A37, kind: .notification, payload: hex("00 48"))])
        #expect(read.end == .truncated(offset: 26))
    }

    @Test("time going backwards is corruption at that record")
    func timeBackwards() throws {
        var writer = BlobWriter(machine: .indoorBike, startMillis: 0)
        writer.append(timeMillis: 2000, uuid: 0x2A37, kind: .notification, payload: hex("00 48"))
        writer.append(timeMillis: 2000, uuid: 0x2A37, kind: .notification, payload: hex("00 49")) // equal is fine
        writer.append(timeMillis: 1999, uuid: 0x2A37, kind: .notification, payload: hex("00 4A"))
        writer.append(timeMillis: 3000, uuid: 0x2A37, kind: .notification, payload: hex("00 4B"))
        let blob = try BlobReader.read(writer.bytes)
        #expect(blob.records.count == 2)
        #expect(
            blob.end == .corrupted(offset: 36, reason: "record time 1999 ms is before the previous record's 2000 ms"))
    }

    @Test("length above 244 is corruption, 244 is fine")
    func lengthAbove244() throws {
        var writer = BlobWriter(machine: .indoorBike, startMillis: 0)
        writer.append(timeMillis: 0, uuid: 0x1234, kind: .notification, payload: [UInt8](repeating: 7, count: 244))
        var bytes = writer.bytes
        bytes += hex("01 00 00 00 37 2A 00 F5") + [UInt8](repeating: 0, count: 245)
        let blob = try BlobReader.read(bytes)
        #expect(blob.records.count == 1)
        #expect(blob.records[0].payload.count == 244)
        #expect(blob.end == .corrupted(offset: 16 + 8 + 244, reason: "record length 245 exceeds 244"))
    }

    @Test("unknown UUIDs and kinds are kept, zero-length payloads are records")
    func unknownKept() throws {
        var writer = BlobWriter(machine: .treadmill, startMillis: 5)
        writer.append(timeMillis: 1, uuid: 0xFFF1, kindRaw: 9, payload: hex("01 02"))
        writer.append(timeMillis: 2, uuid: 0x2AD2, kind: .notification, payload: [])
        let blob = try BlobReader.read(writer.bytes)
        #expect(
            blob.records == [
                BlobRecord(timeMillis: 1, uuid: 0xFFF1, kindRaw: 9, payload: [1, 2]),
                BlobRecord(timeMillis: 2, uuid: 0x2AD2, kindRaw: 0, payload: []),
            ])
        #expect(blob.records[0].kind == nil)
        #expect(blob.end == .complete)
        let unknown = blob.records[0].decoded()
        #expect(unknown.characteristic == "unknown" && unknown.ok)
        #expect(
            unknown.jsonObject(timeMillis: 1, kindRaw: 9)
                == #"{"t_ms":1,"uuid":"0xFFF1","characteristic":"unknown","kind":"unknown_9","ok":true,"fields":{"length":2,"hex":"0102"}}"#
        )
        let empty = blob.records[1].decoded()
        #expect(!empty.ok)
        #expect(
            empty.jsonObject(timeMillis: 2, kind: .notification)
                == #"{"t_ms":2,"uuid":"0x2AD2","characteristic":"indoor_bike_data","kind":"notification","ok":false,"error":"flags: expected 2 bytes at offset 0, found 0"}"#
        )
    }

    /// The app writes incrementally: every prefix of a valid blob reads as the records
    /// that are complete in it, truncated at the first incomplete one (NIO-style
    /// "fed byte by byte" check).
    @Test("every prefix reads as a prefix of the records")
    func everyPrefix() throws {
        var writer = BlobWriter(machine: .rower, startMillis: 42)
        var offsets: [Int] = []
        for i in 0..<6 {
            offsets.append(writer.bytes.count)
            writer.append(
                timeMillis: UInt32(i * 250), uuid: 0x2AD1, kind: .notification,
                payload: [UInt8](repeating: UInt8(i), count: i * 3))
        }
        let whole = try BlobReader.read(writer.bytes)
        #expect(whole.records.count == 6 && whole.end == .complete)
        for length in 16...writer.bytes.count {
            let blob = try BlobReader.read(Array(writer.bytes.prefix(length)))
            let complete = offsets.indices.filter { i in
                let end = i + 1 < offsets.count ? offsets[i + 1] : writer.bytes.count
                return end <= length
            }.count
            #expect(blob.records == Array(whole.records.prefix(complete)))
            if length == writer.bytes.count || offsets.contains(length) {
                #expect(blob.end == .complete)
            } else {
                #expect(blob.end == .truncated(offset: offsets[complete]))
            }
        }
    }

    @Test("zero-copy scan sees the same records as read")
    func scanMatchesRead() throws {
        var writer = BlobWriter(machine: .indoorBike, startMillis: 0)
        for i in 0..<20 {
            writer.append(
                timeMillis: UInt32(i * 100), uuid: i % 2 == 0 ? 0x2AD2 : 0x2A37, kind: .notification,
                payload: [UInt8](repeating: UInt8(i), count: i))
        }
        let bytes = writer.bytes + [0x01] // a truncated tail
        let read = try BlobReader.read(bytes)
        var seen: [BlobRecord] = []
        var offsets: [Int] = []
        let scanned: Result<(header: BlobHeader, end: BlobEnd), BlobError> = bytes.withUnsafeBytes { raw in
            do throws(BlobError) {
                return .success(
                    try BlobReader.scan(raw) { view in
                        seen.append(view.record)
                        offsets.append(view.offset)
                    })
            } catch {
                return .failure(error)
            }
        }
        let result = try scanned.get()
        #expect(seen == read.records)
        #expect(result.header == read.header)
        #expect(result.end == read.end)
        #expect(result.end == .truncated(offset: writer.bytes.count))
        #expect(offsets.first == 16)
    }
}
