import FTMSRender
import Testing

@testable import FTMSDecode

/// Indoor Bike Data 0x2AD2 — FTMS 1.0 §4.9 as deployed (ftms-fields.md): flags u16, bit 0
/// inverted (speed when 0), b1 avg speed, b2 cadence, b3 avg cadence, b4 distance u24,
/// b5 resistance s16 (×1), b6 power s16, b7 avg power s16, b8 energy (u16 u16 u8),
/// b9 HR u8, b10 MET u8 ×0.1, b11 elapsed u16, b12 remaining u16.
@Suite("Indoor Bike Data 0x2AD2 (FTMS 1.0 §4.9)")
struct IndoorBikeDataTests {
    // Hand-computed: flags 0x1FFE (bits 1–12, bit 0 clear so speed present);
    // 25.00 km/h = 2500 = C4 09; 24.50 = 2450 = 92 09; 90 rpm = 180 = B4 00;
    // 85.5 rpm = 171 = AB 00; 12345 m = 39 30 00; level 17 = 11 00; 200 W = C8 00;
    // 180 W = B4 00; 123 kcal = 7B 00, 600 kcal/h = 58 02, 10 kcal/min = 0A; 142 bpm = 8E;
    // 7.5 MET = 75 = 4B; 3600 s = 10 0E; 1200 s = B0 04.
    static let allFlags = "FE 1F C4 09 92 09 B4 00 AB 00 39 30 00 11 00 C8 00 B4 00 7B 00 58 02 0A 8E 4B 10 0E B0 04"
    static let allFields: [Pair] = [
        p("flags", 0x1FFE), p("more_data", false), p("speed_kmh", 25.0), p("average_speed_kmh", 24.5),
        p("cadence_rpm", 90.0), p("average_cadence_rpm", 85.5), p("total_distance_m", 12345),
        p("resistance_level", 17), p("power_w", 200), p("average_power_w", 180),
        p("total_energy_kcal", 123), p("energy_per_hour_kcal", 600), p("energy_per_minute_kcal", 10),
        p("heart_rate_bpm", 142), p("metabolic_equivalent", 7.5), p("elapsed_time_s", 3600),
        p("remaining_time_s", 1200),
    ]
    static let allValue = IndoorBikeData {
        $0.speedKmh = 25
        $0.averageSpeedKmh = 24.5
        $0.cadenceRpm = 90
        $0.averageCadenceRpm = 85.5
        $0.totalDistanceM = 12345
        $0.resistanceLevel = 17
        $0.powerW = 200
        $0.averagePowerW = 180
        $0.energy = ExpendedEnergy(totalKcal: 123, perHourKcal: 600, perMinuteKcal: 10)
        $0.heartRateBpm = 142
        $0.metabolicEquivalent = 7.5
        $0.elapsedTimeS = 3600
        $0.remainingTimeS = 1200
    }

    @Test("every flag on")
    func everyFlag() throws {
        let value = decoded(0x2AD2, Self.allFlags)
        #expect(value.ok && value.characteristic == "indoor_bike_data")
        #expect(pairs(value) == Self.allFields)
        #expect(try IndoorBikeData.decode(hex(Self.allFlags)) == Self.allValue)
        #expect(Self.allValue.encode() == hex(Self.allFlags))
    }

    @Test("every flag off: only Instantaneous Speed (bit 0 = 0 means present)")
    func everyFlagOff() throws {
        #expect(pairs(decoded(0x2AD2, "00 00 C4 09")) == [p("flags", 0), p("more_data", false), p("speed_kmh", 25.0)])
        #expect(IndoorBikeData { $0.speedKmh = 25 }.encode() == hex("00 00 C4 09"))
        // More Data set and nothing else: a valid, empty notification.
        #expect(pairs(decoded(0x2AD2, "01 00")) == [p("flags", 1), p("more_data", true)])
        #expect(IndoorBikeData().encode() == hex("01 00"))
        #expect(try IndoorBikeData.decode(hex("01 00")) == IndoorBikeData())
    }

    /// Each flag alone, with More Data set so only that field is present.
    @Test(
        "each flag alone",
        arguments: [
            (1, "92 09", [p("average_speed_kmh", 24.5)]),
            (2, "B4 00", [p("cadence_rpm", 90.0)]),
            (3, "AB 00", [p("average_cadence_rpm", 85.5)]),
            (4, "39 30 00", [p("total_distance_m", 12345)]),
            (5, "11 00", [p("resistance_level", 17)]),
            (6, "C8 00", [p("power_w", 200)]),
            (7, "B4 00", [p("average_power_w", 180)]),
            (
                8, "7B 00 58 02 0A",
                [p("total_energy_kcal", 123), p("energy_per_hour_kcal", 600), p("energy_per_minute_kcal", 10)]
            ),
            (9, "8E", [p("heart_rate_bpm", 142)]),
            (10, "4B", [p("metabolic_equivalent", 7.5)]),
            (11, "10 0E", [p("elapsed_time_s", 3600)]),
            (12, "B0 04", [p("remaining_time_s", 1200)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 | (1 << bit)
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8)] + hex(field)
        let value = CharacteristicDecoder.decode(uuid: 0x2AD2, kind: .notification, payload: payload)
        #expect(pairs(value) == [p("flags", flags), p("more_data", true)] + expected)
        // The encoder sets exactly this flag.
        let typed = try IndoorBikeData.decode(payload)
        #expect(typed.flags == UInt16(flags))
        #expect(typed.encode() == payload)
        // One byte short of this flag's field is an error naming it.
        let short = CharacteristicDecoder.decode(uuid: 0x2AD2, kind: .notification, payload: Array(payload.dropLast()))
        #expect(!short.ok)
        let width = hex(field).count
        let firstName = expected[0].name
        if width <= 3 || bit != 8 {
            #expect(short.error == "\(firstName): expected \(width) bytes at offset 2, found \(width - 1)")
        } else {
            #expect(short.error == "energy_per_minute_kcal: expected 1 bytes at offset 6, found 0")
        }
    }

    @Test("maximum and negative values")
    func extremes() throws {
        // Bits 0=0 (speed), 4 (distance), 5 (resistance), 6 (power), 7 (avg power), 9 (HR):
        // flags 0x02F0. Speed FF FF = 655.35 (no "not available" mapping in decode);
        // distance FF FF FF = 16777215; resistance 00 80 = -32768; power FF 7F = 32767;
        // avg power FF FF = -1; HR FF = 255.
        let value = decoded(0x2AD2, "F0 02 FF FF FF FF FF 00 80 FF 7F FF FF FF")
        #expect(
            pairs(value) == [
                p("flags", 0x02F0), p("more_data", false), p("speed_kmh", 655.35), p("total_distance_m", 16_777_215),
                p("resistance_level", -32768), p("power_w", 32767), p("average_power_w", -1), p("heart_rate_bpm", 255),
            ])
        let typed = IndoorBikeData {
            $0.speedKmh = 655.35
            $0.totalDistanceM = 16_777_215
            $0.resistanceLevel = -32768
            $0.powerW = 32767
            $0.averagePowerW = -1
            $0.heartRateBpm = 255
        }
        #expect(typed.encode() == hex("F0 02 FF FF FF FF FF 00 80 FF 7F FF FF FF"))
        // Negative resistance and power, e.g. a trainer driving the flywheel: -5 = FB FF, -12 W = F4 FF.
        #expect(
            pairs(decoded(0x2AD2, "61 00 FB FF F4 FF")) == [
                p("flags", 0x61), p("more_data", true), p("resistance_level", -5), p("power_w", -12),
            ])
        // Encoders saturate instead of trapping.
        #expect(
            IndoorBikeData {
                $0.totalDistanceM = 1 << 30
                $0.powerW = 100_000
            }.encode() == hex("51 00 FF FF FF FF 7F"))
    }

    @Test("one byte short of the flagged fields is an error, not a crash")
    func oneByteShort() {
        let payload = hex(Self.allFlags).dropLast()
        let value = CharacteristicDecoder.decode(uuid: 0x2AD2, kind: .notification, payload: Array(payload))
        #expect(!value.ok)
        #expect(value.fields.isEmpty)
        #expect(value.error == "remaining_time_s: expected 2 bytes at offset 28, found 1")
        #expect(throws: DecodeError(field: "remaining_time_s", expected: 2, offset: 28, found: 1)) {
            try IndoorBikeData.decode(Array(payload))
        }
        #expect(decoded(0x2AD2, "").error == "flags: expected 2 bytes at offset 0, found 0")
        #expect(decoded(0x2AD2, "44").error == "flags: expected 2 bytes at offset 0, found 1")
    }

    @Test("trailing bytes are ignored and reported")
    func trailingBytes() throws {
        let value = decoded(0x2AD2, "44 00 C4 09 B4 00 C8 00 AA BB")
        #expect(value.ok)
        #expect(
            pairs(value) == [
                p("flags", 0x44), p("more_data", false), p("speed_kmh", 25.0), p("cadence_rpm", 90.0),
                p("power_w", 200), p("trailing_bytes", 2),
            ])
        #expect(
            try IndoorBikeData.decode(hex("44 00 C4 09 B4 00 C8 00 AA BB"))
                == IndoorBikeData {
                    $0.speedKmh = 25
                    $0.cadenceRpm = 90
                    $0.powerW = 200
                })
    }

    @Test("reserved flag bits 13–15 read nothing")
    func reservedBits() {
        let value = decoded(0x2AD2, "44 E0 C4 09 B4 00 C8 00")
        #expect(
            pairs(value) == [
                p("flags", 0xE044), p("more_data", false), p("speed_kmh", 25.0), p("cadence_rpm", 90.0),
                p("power_w", 200),
            ])
    }

    @Test("encode/decode round trip over random values")
    func roundTrip() throws {
        var rng = SeededGenerator(seed: 0x2AD2)
        for _ in 0..<2000 {
            func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &rng) ? make() : nil }
            let v = IndoorBikeData {
                $0.speedKmh = maybe { Double(Int.random(in: 0...0xFFFF, using: &rng)) / 100 }
                $0.averageSpeedKmh = maybe { Double(Int.random(in: 0...0xFFFF, using: &rng)) / 100 }
                $0.cadenceRpm = maybe { Double(Int.random(in: 0...0xFFFF, using: &rng)) / 2 }
                $0.averageCadenceRpm = maybe { Double(Int.random(in: 0...0xFFFF, using: &rng)) / 2 }
                $0.totalDistanceM = maybe { Int.random(in: 0...0xFF_FFFF, using: &rng) }
                $0.resistanceLevel = maybe { Int.random(in: -32768...32767, using: &rng) }
                $0.powerW = maybe { Int.random(in: -32768...32767, using: &rng) }
                $0.averagePowerW = maybe { Int.random(in: -32768...32767, using: &rng) }
                $0.energy = maybe {
                    ExpendedEnergy(
                        totalKcal: Int.random(in: 0...0xFFFF, using: &rng),
                        perHourKcal: Int.random(in: 0...0xFFFF, using: &rng),
                        perMinuteKcal: Int.random(in: 0...0xFF, using: &rng))
                }
                $0.heartRateBpm = maybe { Int.random(in: 0...255, using: &rng) }
                $0.metabolicEquivalent = maybe { Double(Int.random(in: 0...255, using: &rng)) / 10 }
                $0.elapsedTimeS = maybe { Int.random(in: 0...0xFFFF, using: &rng) }
                $0.remainingTimeS = maybe { Int.random(in: 0...0xFFFF, using: &rng) }
            }
            #expect(try IndoorBikeData.decode(v.encode()) == v)
        }
    }
}

@Suite("Typed value semantics (raw storage)")
struct TypedValueSemanticsTests {
    @Test("setting a value quantises it to the field's resolution; nil removes the field")
    func quantisation() {
        var v = IndoorBikeData {
            $0.speedKmh = 25.004; $0.cadenceRpm = 90.3
        }
        #expect(v.speedKmh == 25.0 && v.cadenceRpm == 90.5)
        v.cadenceRpm = nil
        #expect(v.flags == 0x0000 && v.encode() == hex("00 00 C4 09"))
        v.speedKmh = nil
        #expect(v.moreData && v == IndoorBikeData())
    }

    @Test("fields sent under one flag are present together")
    func groups() {
        var t = TreadmillData { $0.rampAngleDeg = 1.4 }
        #expect(t.inclinationPct == 0 && t.rampAngleDeg == 1.4)
        #expect(t.encode() == hex("09 00 00 00 0E 00"))
        t.rampAngleDeg = nil
        #expect(t.flags == 0x0001)
        #expect(
            RowerData { $0.strokeCount = 7 }
                == RowerData {
                    $0.strokeRateSpm = 0; $0.strokeCount = 7
                })
    }
}
