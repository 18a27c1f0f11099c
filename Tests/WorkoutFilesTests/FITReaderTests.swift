import Foundation
import Testing

@testable import WorkoutFiles

/// FIT seconds used throughout: 1_000_000_000 s after 1989-12-31T00:00:00Z is 2021-09-08T01:46:40Z
/// (Unix 1_631_065_600; checked with Python: datetime(1989,12,31,tzinfo=utc) + timedelta(seconds=1e9)).
let t0: UInt32 = 1_000_000_000
let t0Unix: TimeInterval = 1_631_065_600

/// A complete activity: file_id, device_info, sport, developer field description, records (one with a developer
/// field), timer events with a 300 s pause, lap, session, activity with local_timestamp two hours ahead.
func sampleActivity(bigEndian: Bool = false) -> FITEncoder {
    var e = FITEncoder()
    e.define(
        local: 0, global: 0, bigEndian: bigEndian,
        fields: [(0, .enumeration(4)), (1, .u16(1)), (2, .u16(3121)), (3, .u32z(3_912_345_678)), (4, .u32(0))])
    e.data(local: 0, [.enumeration(4), .u16(1), .u16(3121), .u32z(3_912_345_678), .u32(t0 - 10)])
    e.define(local: 1, global: 23, bigEndian: bigEndian, fields: [(253, .u32(0)), (0, .u8(0)), (5, .u16(0))])
    e.data(local: 1, [.u32(t0), .u8(0), .u16(1234)])
    e.define(
        local: 2, global: 12, bigEndian: bigEndian,
        fields: [(0, .enumeration(0)), (1, .enumeration(0)), (3, .string("", size: 8))])
    e.data(local: 2, [.enumeration(1), .enumeration(3), .string("Trail", size: 8)])
    // developer_data_id and field_description: developer 0, field 1 is "Form Power", uint16, watts.
    e.define(local: 3, global: 207, bigEndian: bigEndian, fields: [(3, .u8(0))])
    e.data(local: 3, [.u8(0)])
    e.define(
        local: 3, global: 206, bigEndian: bigEndian,
        fields: [(0, .u8(0)), (1, .u8(0)), (2, .u8(0)), (3, .string("", size: 16)), (8, .string("", size: 4))])
    e.data(local: 3, [.u8(0), .u8(1), .u8(0x84), .string("Form Power", size: 16), .string("W", size: 4)])
    // Timer start.
    e.define(
        local: 4, global: 21, bigEndian: bigEndian,
        fields: [(253, .u32(0)), (0, .enumeration(0)), (1, .enumeration(0))])
    e.data(local: 4, [.u32(t0), .enumeration(0), .enumeration(0)])
    // Records: timestamp, lat, long, altitude, hr, cadence, distance, speed, power, temperature.
    let recordFields: [(UInt8, FITValue)] = [
        (253, .u32(0)), (0, .s32(0)), (1, .s32(0)), (2, .u16(0)), (3, .u8(0)), (4, .u8(0)),
        (5, .u32(0)), (6, .u16(0)), (7, .u16(0)), (13, .s8(0)),
    ]
    e.define(
        local: 5, global: 20, bigEndian: bigEndian, fields: recordFields,
        developer: [.init(number: 1, size: 2, index: 0)])
    // 2^29 semicircles = 45°, −2^28 = −22.5°; altitude 2600 → 20 m; distance 123456 → 1234.56 m; speed 3500 → 3.5 m/s.
    e.data(
        local: 5,
        [
            .u32(t0), .s32(1 << 29), .s32(-(1 << 28)), .u16(2600), .u8(150), .u8(85), .u32(123_456), .u16(3500),
            .u16(250), .s8(-5),
        ],
        developer: [FITValue.u16(270).bytes(bigEndian: bigEndian)])
    // Invalid values everywhere but the timestamp: lat/long 0x7FFFFFFF, altitude/speed/power 0xFFFF, hr/cadence 0xFF.
    e.data(
        local: 5,
        [
            .u32(t0 + 1), .s32(0x7FFF_FFFF), .s32(0x7FFF_FFFF), .u16(0xFFFF), .u8(0xFF), .u8(0xFF), .u32(0xFFFF_FFFF),
            .u16(0xFFFF), .u16(0xFFFF), .s8(0x7F),
        ],
        developer: [FITValue.u16(0xFFFF).bytes(bigEndian: bigEndian)])
    // Pause 1000 → 1300, final stop at 3600.
    e.data(local: 4, [.u32(t0 + 1000), .enumeration(0), .enumeration(1)])
    e.data(local: 4, [.u32(t0 + 1300), .enumeration(0), .enumeration(0)])
    e.data(local: 4, [.u32(t0 + 3600), .enumeration(0), .enumeration(4)])
    // Lap (start, elapsed, timer, distance, calories, avg/max hr, avg power).
    e.define(
        local: 6, global: 19, bigEndian: bigEndian,
        fields: [
            (253, .u32(0)), (2, .u32(0)), (7, .u32(0)), (8, .u32(0)), (9, .u32(0)),
            (11, .u16(0)), (15, .u8(0)), (16, .u8(0)), (19, .u16(0)),
        ])
    e.data(
        local: 6,
        [
            .u32(t0 + 3600), .u32(t0), .u32(3_600_000), .u32(3_300_000), .u32(1_000_000), .u16(700), .u8(140), .u8(175),
            .u16(230),
        ])
    // Session: sport running / trail, elapsed 3600 s, timer 3300 s, 10 km, 700 kcal, hr 140/175, ascent 120 m.
    e.define(
        local: 7, global: 18, bigEndian: bigEndian,
        fields: [
            (253, .u32(0)), (2, .u32(0)), (5, .enumeration(0)), (6, .enumeration(0)),
            (7, .u32(0)), (8, .u32(0)), (9, .u32(0)), (11, .u16(0)), (16, .u8(0)),
            (17, .u8(0)), (22, .u16(0)),
        ])
    e.data(
        local: 7,
        [
            .u32(t0 + 3600), .u32(t0), .enumeration(1), .enumeration(3), .u32(3_600_000), .u32(3_300_000),
            .u32(1_000_000),
            .u16(700), .u8(140), .u8(175), .u16(120),
        ])
    // Activity: local_timestamp 7200 s ahead of timestamp.
    e.define(local: 8, global: 34, bigEndian: bigEndian, fields: [(253, .u32(0)), (5, .u32(0))])
    e.data(local: 8, [.u32(t0 + 3600), .u32(t0 + 3600 + 7200)])
    return e
}

@Suite struct FITReaderTests {
    @Test func crcMatchesTheCheckValue() {
        // CRC-16/ARC check value of "123456789" is 0xBB3D (catalogue of parametrised CRC algorithms).
        #expect(FITCRC.checksum(Array("123456789".utf8)) == 0xBB3D)
        #expect(crc16ARC(Array("123456789".utf8)) == 0xBB3D)
    }

    @Test func byteTableEqualsTheNibbleForm() {
        // Every byte from every 16-bit state sampled: the byte-table checksum equals the SDK's nibble steps.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        for _ in 0..<4096 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        var nibble: UInt16 = 0
        for b in bytes { nibble = FITCRC.update(nibble, b) }
        #expect(FITCRC.checksum(bytes) == nibble)
        #expect(FITCRC.checksum(bytes) == crc16ARC(bytes))
        for crc in stride(from: 0, through: 0xFFFF, by: 257) {
            for byte in 0...255 {
                #expect(FITCRC.checksum([UInt8(byte)], from: UInt16(crc)) == FITCRC.update(UInt16(crc), UInt8(byte)))
            }
        }
    }

    @Test func slicingEqualsTheByteTable() {
        // The decoder's sixteen-then-eight-bytes-a-step CRC over every length 0…64 and every start offset 0…8, from
        // several states.
        var state: UInt64 = 0x0123_4567_89AB_CDEF
        var bytes: [UInt8] = []
        for _ in 0..<80 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        bytes.withUnsafeBytes { raw in
            for start in 0...8 {
                for length in 0...64 {
                    for crc: UInt16 in [0, 0x1234, 0xFFFF, 0xA001] {
                        let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
                        #expect(FITCRC.checksum(slice, from: crc) == FITCRC.checksum(Array(slice), from: crc))
                    }
                }
            }
        }
    }

    @Test(arguments: [false, true]) func completeActivity(bigEndian: Bool) throws {
        let file = try WorkoutFileReader.read(bytes: sampleActivity(bigEndian: bigEndian).file(), fileName: "run.fit")
        #expect(file.format == .fit)
        #expect(file.issues.isEmpty)
        let a = try #require(file.activities.first)
        #expect(file.activities.count == 1)
        #expect(a.sport == .trailRunning)
        #expect(a.sourceSport == "running/trail")
        #expect(a.start == Date(timeIntervalSince1970: t0Unix))
        #expect(a.utcOffsetSeconds == 7200)
        #expect(a.durationS == 3600)
        #expect(a.movingTimeS == 3300)
        #expect(a.distanceM == 10_000)
        #expect(a.energyKcal == 700)
        #expect(a.avgHeartRateBpm == 140)
        #expect(a.maxHeartRateBpm == 175)
        #expect(a.elevationGainM == 120)
        #expect(
            a.pauses == [
                Pause(
                    start: Date(timeIntervalSince1970: t0Unix + 1000), end: Date(timeIntervalSince1970: t0Unix + 1300))
            ])
        #expect(
            a.laps == [
                Lap(
                    start: Date(timeIntervalSince1970: t0Unix), durationS: 3600, movingTimeS: 3300, distanceM: 10_000,
                    energyKcal: 700, avgHeartRateBpm: 140, maxHeartRateBpm: 175, avgPowerW: 230)
            ])
        #expect(
            a.device
                == Device(manufacturer: "garmin", product: "3121", serialNumber: "3912345678", softwareVersion: "12.34")
        )
        #expect(a.sourceIdentity == "fit:3912345678:\(t0 - 10):0")
        #expect(a.samples.count == 2)
        let s = a.samples[0]
        #expect(s.time == Date(timeIntervalSince1970: t0Unix))
        #expect(s.latitude == 45)
        #expect(s.longitude == -22.5)
        #expect(s.altitudeM == 20)
        #expect(s.heartRateBpm == 150)
        #expect(s.cadenceRpm == 85)
        #expect(s.distanceM == 1234.56)
        #expect(s.speedMps == 3.5)
        #expect(s.powerW == 250)
        #expect(s.temperatureC == -5)
        #expect(s.developer == ["Form Power": 270])
        // The second record holds only invalid values: every channel absent, not zero.
        #expect(a.samples[1] == Sample(time: Date(timeIntervalSince1970: t0Unix + 1)))
    }

    @Test func twelveByteHeaderWithoutCRC() throws {
        let file = try WorkoutFileReader.read(bytes: sampleActivity().file(headerSize: 12))
        #expect(file.issues.isEmpty)
        #expect(file.activities.first?.distanceM == 10_000)
    }

    @Test func headerCRCZeroMeansNotComputed() throws {
        let file = try WorkoutFileReader.read(bytes: sampleActivity().file(headerCRC: 0))
        #expect(file.issues.isEmpty)
    }

    @Test func badHeaderCRCIsFlaggedAndRead() throws {
        let file = try WorkoutFileReader.read(bytes: sampleActivity().file(headerCRC: 0x1234))
        #expect(file.issues.map(\.code) == [.fitBadHeaderCRC])
        #expect(file.isDamaged)
        #expect(file.activities.first?.movingTimeS == 3300)
    }

    @Test func badFileCRCIsFlaggedAndRead() throws {
        let file = try WorkoutFileReader.read(bytes: sampleActivity().file(breakFileCRC: true))
        #expect(file.issues.map(\.code) == [.fitBadCRC])
        #expect(file.activities.first?.distanceM == 10_000)
        #expect(file.activities.first?.samples.count == 2)
    }

    /// A recording cut off: header announcing more data than there is; complete records kept, the partial one
    /// dropped, no session so the summary comes from the records.
    @Test func truncatedKeepsCompleteRecords() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 20, fields: [(253, .u32(0)), (3, .u8(0)), (5, .u32(0))])
        for i in 0..<10 { e.data(local: 0, [.u32(t0 + UInt32(i)), .u8(100 + UInt8(i)), .u32(UInt32(i) * 300)]) }
        let whole = e.file()
        // header 14 + definition (6 + 3·3 = 15) + 10 records of 10 bytes; cut 4 bytes into the 8th record.
        let cut = Array(whole.prefix(14 + 15 + 7 * 10 + 4))
        let file = try WorkoutFileReader.read(bytes: cut)
        #expect(file.issues.map(\.code) == [.fitTruncated])
        let a = try #require(file.activities.first)
        #expect(a.samples.map(\.heartRateBpm) == [100, 101, 102, 103, 104, 105, 106])
        #expect(a.durationS == 6)
        #expect(a.distanceM == 18) // last record: 6 · 300 / 100 m
        #expect(a.issues.map(\.code.rawValue) == ["fit_no_session"])
        #expect(a.sport == .other)
    }

    @Test func truncatedBeforeAnyRecordIsRejected() {
        let whole = sampleActivity().file()
        let error = #expect(throws: WorkoutFileError.self) {
            try WorkoutFileReader.read(bytes: Array(whole.prefix(20)))
        }
        #expect(error?.code == .fitTruncated)
    }

    @Test func compressedTimestampsIncludingRollover() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 20, fields: [(253, .u32(0)), (3, .u8(0))])
        e.define(local: 1, global: 20, fields: [(3, .u8(0))])
        // t0 is a multiple of 32 (1e9 = 32 · 31_250_000). Last timestamp t0+30 (low bits 30).
        e.data(local: 0, [.u32(t0 + 30), .u8(120)])
        e.compressed(local: 1, offset: 31, [.u8(121)]) // 31 ≥ 30: t0+31
        e.compressed(local: 1, offset: 2, [.u8(122)]) // 2 < 31: rolls over to t0+32+2
        e.compressed(local: 1, offset: 2, [.u8(123)]) // same offset again: same second t0+34
        e.compressed(local: 1, offset: 5, [.u8(124)]) // t0+37
        let file = try WorkoutFileReader.read(bytes: e.file())
        let samples = try #require(file.activities.first?.samples)
        #expect(samples.map { $0.time.timeIntervalSince1970 - t0Unix } == [30, 31, 34, 34, 37])
        #expect(samples.map(\.heartRateBpm) == [120, 121, 122, 123, 124])
    }

    @Test func undescribedDeveloperFieldIsSkippedSafely() throws {
        var e = FITEncoder()
        e.define(
            local: 0, global: 20, fields: [(253, .u32(0)), (3, .u8(0))],
            developer: [.init(number: 7, size: 4, index: 0)])
        e.data(local: 0, [.u32(t0), .u8(130)], developer: [[1, 2, 3, 4]])
        e.data(local: 0, [.u32(t0 + 1), .u8(131)], developer: [[5, 6, 7, 8]])
        let file = try WorkoutFileReader.read(bytes: e.file())
        #expect(file.issues.map(\.code) == [.fitUndescribedDeveloperField])
        #expect(file.activities.first?.samples.map(\.heartRateBpm) == [130, 131])
        #expect(file.activities.first?.samples.allSatisfy { $0.developer.isEmpty } == true)
    }

    @Test func developerFieldScaleAndOffset() throws {
        var e = FITEncoder()
        e.define(
            local: 1, global: 206,
            fields: [(0, .u8(0)), (1, .u8(0)), (2, .u8(0)), (3, .string("", size: 8)), (6, .u8(0)), (7, .s8(0))])
        // Scale 10, offset 5: value = raw / 10 − 5; raw 415 → 36.5.
        e.data(local: 1, [.u8(2), .u8(9), .u8(0x84), .string("core", size: 8), .u8(10), .s8(5)])
        e.define(local: 0, global: 20, fields: [(253, .u32(0))], developer: [.init(number: 9, size: 2, index: 2)])
        e.data(local: 0, [.u32(t0)], developer: [FITValue.u16(415).bytes(bigEndian: false)])
        let file = try WorkoutFileReader.read(bytes: e.file())
        #expect(file.activities.first?.samples.first?.developer == ["core": 36.5])
    }

    @Test func chainedFilesGiveOneActivityEach() throws {
        var second = FITEncoder()
        second.define(
            local: 0, global: 18,
            fields: [
                (253, .u32(0)), (2, .u32(0)), (5, .enumeration(0)), (6, .enumeration(0)), (7, .u32(0)), (9, .u32(0)),
            ])
        second.data(
            local: 0,
            [.u32(t0 + 9000), .u32(t0 + 5000), .enumeration(2), .enumeration(6), .u32(4_000_000), .u32(3_000_000)])
        let bytes = sampleActivity().file() + second.file()
        let file = try WorkoutFileReader.read(bytes: bytes)
        #expect(file.issues.isEmpty)
        #expect(file.activities.count == 2)
        #expect(file.activities[0].sport == .trailRunning)
        #expect(file.activities[1].sport == .indoorCycling)
        #expect(file.activities[1].start == Date(timeIntervalSince1970: t0Unix + 5000))
        #expect(file.activities[1].durationS == 4000)
        #expect(file.activities[1].distanceM == 30_000)
        #expect(file.activities[1].sourceIdentity == "fit:-:-:f1:0")
    }

    @Test func trailingGarbageAfterAFileIsFlagged() throws {
        let file = try WorkoutFileReader.read(bytes: sampleActivity().file() + [1, 2, 3])
        #expect(file.issues.map(\.code) == [.fitTrailingBytes])
        #expect(file.activities.count == 1)
    }

    @Test func dataBeforeItsDefinitionStopsWithCompleteRecordsKept() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 20, fields: [(253, .u32(0)), (3, .u8(0))])
        e.data(local: 0, [.u32(t0), .u8(90)])
        e.raw([0x05, 1, 2, 3]) // data for local type 5, never defined
        e.data(local: 0, [.u32(t0 + 1), .u8(91)])
        let file = try WorkoutFileReader.read(bytes: e.file())
        #expect(file.issues.map(\.code) == [.fitUndefinedLocalMessage])
        #expect(file.activities.first?.samples.map(\.heartRateBpm) == [90])
    }

    @Test func unknownMessagesAreNotedAndSkipped() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0xFF01, fields: [(0, .u32(0)), (1, .string("", size: 5))])
        e.data(local: 0, [.u32(7), .string("abc", size: 5)])
        e.define(local: 1, global: 20, fields: [(253, .u32(0)), (7, .u16(0))])
        e.data(local: 1, [.u32(t0), .u16(321)])
        let file = try WorkoutFileReader.read(bytes: e.file())
        #expect(file.issues.map(\.code) == [.fitUnknownMessage])
        #expect(file.issues.first?.detail == "global message 65281 not used")
        #expect(file.activities.first?.samples.first?.powerW == 321)
    }

    /// Invalid value of every base type the encoder writes, in the field it belongs to.
    @Test func invalidValuesPerBaseType() throws {
        var e = FITEncoder()
        e.define(
            local: 0, global: 20,
            fields: [(253, .u32(0)), (3, .u8(0)), (13, .s8(0)), (9, .s16(0)), (5, .u32(0)), (0, .s32(0)), (1, .s32(0))])
        e.data(local: 0, [.u32(t0), .u8(0xFF), .s8(0x7F), .s16(0x7FFF), .u32(0xFFFF_FFFF), .s32(0x7FFF_FFFF), .s32(0)])
        // uint8z: 0 invalid; float32 NaN pattern invalid (speed here as float32 is unusual but legal per base type).
        e.define(local: 1, global: 20, fields: [(253, .u32(0)), (4, .u8(0)), (7, .u16(0))])
        e.data(local: 1, [.u32(t0 + 1), .u8(0), .u16(0)])
        let file = try WorkoutFileReader.read(bytes: e.file())
        let samples = try #require(file.activities.first?.samples)
        #expect(samples[0] == Sample(time: Date(timeIntervalSince1970: t0Unix)))
        // Zero is a value for uint8/uint16 (not the z types): recorded zeros stay zeros.
        #expect(samples[1].cadenceRpm == 0)
        #expect(samples[1].powerW == 0)
        var bytes: [UInt8] = Array(repeating: 0, count: 8)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: UInt32.max, toByteOffset: 0, as: UInt32.self) }
        bytes.withUnsafeBytes { raw in
            #expect(FITBaseType.float32.number(raw, at: 0, bigEndian: false) == nil)
            #expect(FITBaseType.uint8z.number(raw, at: 4, bigEndian: false) == nil)
            #expect(FITBaseType.uint16z.number(raw, at: 4, bigEndian: false) == nil)
            #expect(FITBaseType.uint32z.number(raw, at: 4, bigEndian: false) == nil)
            #expect(FITBaseType.enumeration.number(raw, at: 0, bigEndian: false) == nil)
            #expect(FITBaseType.byte.number(raw, at: 0, bigEndian: false) == nil)
            #expect(FITBaseType.uint8.number(raw, at: 4, bigEndian: false) == 0)
        }
    }

    @Test func notAFITHeader() {
        var bytes = sampleActivity().file()
        bytes[9] = 0x58 // ".XIT"
        #expect(throws: WorkoutFileError(code: .unknownFormat, detail: "not FIT, TCX, GPX or a Health export")) {
            try WorkoutFileReader.read(bytes: bytes)
        }
        var small = sampleActivity().file()
        small[0] = 8 // header size below 12
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: small) }
        #expect(error?.code == .fitBadHeader)
    }

    @Test func feedingEveryPrefixNeverTraps() throws {
        let whole = sampleActivity().file()
        for n in 0...whole.count {
            _ = try? WorkoutFileReader.read(bytes: Array(whole.prefix(n)))
        }
    }
}

@Suite struct FITFieldTypeTests {
    /// Found by the fuzzer: position fields declared as uint32 (not the profile's sint32) decode to angles beyond
    /// ±180°; such a position is dropped, the rest of the record kept.
    @Test func positionOffTheEarthIsDropped() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 20, fields: [(253, .u32(0)), (0, .u32(0)), (1, .u32(0)), (3, .u8(0))])
        // 0xF0000000 semicircles as uint32 = 4026531840 · 180 / 2^31 = 337.5°.
        e.data(local: 0, [.u32(t0), .u32(0xF000_0000), .u32(0x1000_0000), .u8(99)])
        // 0x10000000 = 22.5°, in range.
        e.data(local: 0, [.u32(t0 + 1), .u32(0x1000_0000), .u32(0x1000_0000), .u8(98)])
        let samples = try #require(try WorkoutFileReader.read(bytes: e.file()).activities.first?.samples)
        #expect(samples[0].latitude == nil)
        #expect(samples[0].longitude == nil)
        #expect(samples[0].heartRateBpm == 99)
        #expect(samples[1].latitude == 22.5)
        #expect(samples[1].longitude == 22.5)
    }
}

@Suite struct FITSessionSplitTests {
    /// Found by the fuzzer: two sessions over the same span each took every record. A record belongs to the first
    /// session holding it; a multisport file's sessions (back to back) each get their own.
    @Test func recordsGoToOneSessionOnly() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 20, fields: [(253, .u32(0)), (3, .u8(0))])
        for i in 0..<10 { e.data(local: 0, [.u32(t0 + UInt32(i)), .u8(100 + UInt8(i))]) }
        e.define(local: 1, global: 18, fields: [(253, .u32(0)), (2, .u32(0)), (5, .enumeration(0)), (7, .u32(0))])
        e.data(local: 1, [.u32(t0 + 4), .u32(t0), .enumeration(5), .u32(4_000)]) // swim 0–4 s
        e.data(local: 1, [.u32(t0 + 9), .u32(t0 + 5), .enumeration(2), .u32(4_000)]) // bike 5–9 s
        e.data(local: 1, [.u32(t0 + 9), .u32(t0), .enumeration(1), .u32(9_000)]) // overlapping both: damaged
        let file = try WorkoutFileReader.read(bytes: e.file())
        #expect(file.activities.map(\.sport) == [.swimming, .cycling, .running])
        #expect(
            file.activities.map { $0.samples.compactMap(\.heartRateBpm) } == [
                [100, 101, 102, 103, 104], [105, 106, 107, 108, 109], [],
            ])
    }
}
