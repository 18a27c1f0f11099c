import FTMSRender
import Testing

@testable import FTMSDecode

/// Heart Rate Measurement 0x2A37 — Heart Rate Service 1.0 §3.1, GATT Specification
/// Supplement §3.113: flags u8 (b0 u16 HR, b1–2 contact, b3 energy u16 kJ, b4 RR list
/// u16 /1024 s), HR u8 or u16.
@Suite("Heart Rate Measurement 0x2A37 (GSS §3.113)")
struct HeartRateMeasurementTests {
    @Test("every flag off: uint8 heart rate, contact not supported")
    func everyFlagOff() throws {
        #expect(
            pairs(decoded(0x2A37, "00 48")) == [
                p("flags", 0), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported"),
            ])
        #expect(HeartRateMeasurement(heartRateBpm: 72).encode() == hex("00 48"))
    }

    @Test("every flag on: uint16 HR, contact detected, energy, RR intervals")
    func everyFlag() throws {
        // flags 0x1F: 72 bpm as u16 = 48 00; 300 kJ = 2C 01; RR 1024/1024 = 1.0 s (00 04),
        // 512/1024 = 0.5 s (00 02).
        #expect(
            pairs(decoded(0x2A37, "1F 48 00 2C 01 00 04 00 02")) == [
                p("flags", 0x1F), p("heart_rate_bpm", 72), p("sensor_contact", "detected"),
                p("energy_expended_kj", 300),
                p("rr_intervals_s", .list([.double(1.0), .double(0.5)])),
            ])
        let value = HeartRateMeasurement(
            heartRateBpm: 72, uses16BitHeartRate: true, sensorContact: .detected,
            energyExpendedKJ: 300, rrIntervalsS: [1.0, 0.5])
        #expect(try HeartRateMeasurement.decode(hex("1F 48 00 2C 01 00 04 00 02")) == value)
        #expect(value.encode() == hex("1F 48 00 2C 01 00 04 00 02"))
    }

    @Test(
        "each flag alone",
        arguments: [
            ("01 48 01", [p("flags", 1), p("heart_rate_bpm", 328), p("sensor_contact", "not_supported")]),
            ("02 48", [p("flags", 2), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported")]),
            ("04 48", [p("flags", 4), p("heart_rate_bpm", 72), p("sensor_contact", "not_detected")]),
            ("06 48", [p("flags", 6), p("heart_rate_bpm", 72), p("sensor_contact", "detected")]),
            (
                "08 48 E8 03",
                [
                    p("flags", 8), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported"),
                    p("energy_expended_kj", 1000),
                ]
            ),
            (
                "10 48 33 03",
                [
                    p("flags", 16), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported"),
                    p("rr_intervals_s", .list([.double(0.7998046875)])),
                ]
            ),
            // RR flag with no intervals: an empty list.
            (
                "10 48",
                [
                    p("flags", 16), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported"),
                    p("rr_intervals_s", .list([])),
                ]
            ),
            // Reserved bits 5–7 read nothing.
            ("E0 48", [p("flags", 0xE0), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported")]),
        ])
    func eachFlagAlone(payload: String, expected: [Pair]) {
        #expect(pairs(decoded(0x2A37, payload)) == expected)
    }

    @Test("maximum values; 16-bit chosen automatically above 255")
    func extremes() throws {
        #expect(pairs(decoded(0x2A37, "01 FF FF"))[1] == p("heart_rate_bpm", 65535))
        #expect(HeartRateMeasurement(heartRateBpm: 300).encode() == hex("01 2C 01"))
        #expect(pairs(decoded(0x2A37, "10 48 FF FF")).last == p("rr_intervals_s", .list([.double(65535.0 / 1024)])))
    }

    @Test("short payloads are errors; an odd RR byte is trailing")
    func shortAndTrailing() {
        #expect(decoded(0x2A37, "").error == "flags: expected 1 bytes at offset 0, found 0")
        #expect(decoded(0x2A37, "00").error == "heart_rate_bpm: expected 1 bytes at offset 1, found 0")
        #expect(decoded(0x2A37, "01 48").error == "heart_rate_bpm: expected 2 bytes at offset 1, found 1")
        #expect(decoded(0x2A37, "08 48 E8").error == "energy_expended_kj: expected 2 bytes at offset 2, found 1")
        #expect(
            pairs(decoded(0x2A37, "10 48 00 04 07")) == [
                p("flags", 16), p("heart_rate_bpm", 72), p("sensor_contact", "not_supported"),
                p("rr_intervals_s", .list([.double(1.0)])), p("trailing_bytes", 1),
            ])
        #expect(pairs(decoded(0x2A37, "00 48 01")).last == p("trailing_bytes", 1))
    }
}

@Suite("RR interval storage")
struct RRIntervalStorageTests {
    @Test("more intervals than the inline nine (a 244-octet value holds 121)")
    func manyIntervals() throws {
        // flags 0x10, 60 bpm, then 121 intervals of n × 8 / 1024 s.
        var payload: [UInt8] = [0x10, 60]
        for n in 1...121 { payload += [UInt8((n * 8) & 0xFF), UInt8((n * 8) >> 8)] }
        #expect(payload.count == 244)
        let value = try HeartRateMeasurement.decode(payload)
        #expect(value.rrIntervals?.count == 121)
        #expect(value.rrIntervals?.raw(at: 0) == 8)
        #expect(value.rrIntervals?.raw(at: 9) == 80)
        #expect(value.rrIntervals?.raw(at: 120) == 968)
        #expect(value.rrIntervalsS?.last == 968.0 / 1024)
        #expect(value.encode() == payload)
        let decodedValue = CharacteristicDecoder.decode(uuid: 0x2A37, kind: .notification, payload: payload)
        guard case .list(let list) = decodedValue.fields["rr_intervals_s"] else { Issue.record("no list"); return }
        #expect(list.count == 121 && list[120] == .double(968.0 / 1024))
    }

    @Test("setting seconds quantises to 1/1024 s")
    func quantise() {
        var value = HeartRateMeasurement(heartRateBpm: 60, rrIntervalsS: [1.0, 0.5004])
        #expect(value.rrIntervalsS == [1.0, 512.0 / 1024])
        value.rrIntervalsS = nil
        #expect(value.encode() == hex("00 3C"))
    }
}
