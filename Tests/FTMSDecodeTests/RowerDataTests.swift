import FTMSRender
import Testing

@testable import FTMSDecode

/// Rower Data 0x2AD1 — FTMS 1.0 §4.8 as deployed (ftms-fields.md): flags u16, bit 0
/// inverted (stroke rate u8 ×0.5 + stroke count u16 when 0), b1 avg stroke rate u8 ×0.5,
/// b2 distance u24, b3 pace u16 s/500 m, b4 avg pace, b5 power s16, b6 avg power s16,
/// b7 resistance s16 (×1), b8 energy, b9 HR, b10 MET ×0.1, b11 elapsed, b12 remaining.
@Suite("Rower Data 0x2AD1 (FTMS 1.0 §4.8)")
struct RowerDataTests {
    // Hand-computed: flags 0x1FFE; 30 spm = 60 = 3C, 250 strokes = FA 00; 28.5 spm = 57 = 39;
    // 2000 m = D0 07 00; 120 s = 78 00; 125 s = 7D 00; 250 W = FA 00; 230 W = E6 00;
    // level 5 = 05 00; 100 kcal = 64 00, 800 kcal/h = 20 03, 13 kcal/min = 0D; 160 bpm = A0;
    // 9.0 MET = 90 = 5A; 480 s = E0 01; 0 s = 00 00.
    static let allFlags = "FE 1F 3C FA 00 39 D0 07 00 78 00 7D 00 FA 00 E6 00 05 00 64 00 20 03 0D A0 5A E0 01 00 00"
    static let allValue = RowerData {
        $0.strokeRateSpm = 30
        $0.strokeCount = 250
        $0.averageStrokeRateSpm = 28.5
        $0.totalDistanceM = 2000
        $0.paceSPer500m = 120
        $0.averagePaceSPer500m = 125
        $0.powerW = 250
        $0.averagePowerW = 230
        $0.resistanceLevel = 5
        $0.energy = ExpendedEnergy(totalKcal: 100, perHourKcal: 800, perMinuteKcal: 13)
        $0.heartRateBpm = 160
        $0.metabolicEquivalent = 9
        $0.elapsedTimeS = 480
        $0.remainingTimeS = 0
    }

    @Test("every flag on")
    func everyFlag() throws {
        #expect(
            pairs(decoded(0x2AD1, Self.allFlags)) == [
                p("flags", 0x1FFE), p("more_data", false), p("stroke_rate_spm", 30.0), p("stroke_count", 250),
                p("average_stroke_rate_spm", 28.5), p("total_distance_m", 2000), p("pace_s_per_500m", 120),
                p("average_pace_s_per_500m", 125), p("power_w", 250), p("average_power_w", 230),
                p("resistance_level", 5),
                p("total_energy_kcal", 100), p("energy_per_hour_kcal", 800), p("energy_per_minute_kcal", 13),
                p("heart_rate_bpm", 160), p("metabolic_equivalent", 9.0), p("elapsed_time_s", 480),
                p("remaining_time_s", 0),
            ])
        #expect(try RowerData.decode(hex(Self.allFlags)) == Self.allValue)
        #expect(Self.allValue.encode() == hex(Self.allFlags))
    }

    @Test("every flag off: only stroke rate and count")
    func everyFlagOff() {
        #expect(
            pairs(decoded(0x2AD1, "00 00 3C FA 00")) == [
                p("flags", 0), p("more_data", false), p("stroke_rate_spm", 30.0), p("stroke_count", 250),
            ])
        #expect(
            RowerData {
                $0.strokeRateSpm = 30; $0.strokeCount = 250
            }.encode() == hex("00 00 3C FA 00"))
        #expect(pairs(decoded(0x2AD1, "01 00")) == [p("flags", 1), p("more_data", true)])
    }

    @Test(
        "each flag alone",
        arguments: [
            (1, "39", [p("average_stroke_rate_spm", 28.5)]),
            (2, "D0 07 00", [p("total_distance_m", 2000)]),
            (3, "78 00", [p("pace_s_per_500m", 120)]),
            (4, "7D 00", [p("average_pace_s_per_500m", 125)]),
            (5, "FA 00", [p("power_w", 250)]),
            (6, "E6 00", [p("average_power_w", 230)]),
            (7, "05 00", [p("resistance_level", 5)]),
            (
                8, "64 00 20 03 0D",
                [p("total_energy_kcal", 100), p("energy_per_hour_kcal", 800), p("energy_per_minute_kcal", 13)]
            ),
            (9, "A0", [p("heart_rate_bpm", 160)]),
            (10, "5A", [p("metabolic_equivalent", 9.0)]),
            (11, "E0 01", [p("elapsed_time_s", 480)]),
            (12, "00 00", [p("remaining_time_s", 0)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 | (1 << bit)
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8)] + hex(field)
        #expect(
            pairs(CharacteristicDecoder.decode(uuid: 0x2AD1, kind: .notification, payload: payload))
                == [p("flags", flags), p("more_data", true)] + expected)
        #expect(try RowerData.decode(payload).encode() == payload)
        #expect(!CharacteristicDecoder.decode(uuid: 0x2AD1, kind: .notification, payload: Array(payload.dropLast())).ok)
    }

    @Test("maximum and negative values")
    func extremes() {
        // flags 0x00E0 (b5, b6, b7; bit 0 clear): stroke rate FF = 127.5, count FF FF = 65535,
        // power 00 80 = -32768, avg power FF 7F = 32767, resistance FE FF = -2.
        #expect(
            pairs(decoded(0x2AD1, "E0 00 FF FF FF 00 80 FF 7F FE FF")) == [
                p("flags", 0xE0), p("more_data", false), p("stroke_rate_spm", 127.5), p("stroke_count", 65535),
                p("power_w", -32768), p("average_power_w", 32767), p("resistance_level", -2),
            ])
    }

    @Test("one byte short, empty, trailing")
    func shortAndTrailing() {
        #expect(
            decoded(0x2AD1, String(Self.allFlags.dropLast(3))).error
                == "remaining_time_s: expected 2 bytes at offset 28, found 1")
        #expect(decoded(0x2AD1, "00 00 3C FA").error == "stroke_count: expected 2 bytes at offset 3, found 1")
        #expect(decoded(0x2AD1, "").error == "flags: expected 2 bytes at offset 0, found 0")
        #expect(pairs(decoded(0x2AD1, "00 00 3C FA 00 01 02 03")).last == p("trailing_bytes", 3))
    }

    @Test("a missing partner of the stroke pair encodes as 0")
    func partner() throws {
        #expect(RowerData { $0.strokeCount = 7 }.encode() == hex("00 00 00 07 00"))
        #expect(
            try RowerData.decode(hex("00 00 00 07 00"))
                == RowerData {
                    $0.strokeRateSpm = 0; $0.strokeCount = 7
                })
    }
}
