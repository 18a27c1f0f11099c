import FTMSRender
import Testing

@testable import FTMSDecode

/// Treadmill Data 0x2ACD — FTMS 1.0 §4.4 as deployed (ftms-fields.md): flags u16, bit 0
/// inverted (speed), b1 avg speed, b2 distance u24, b3 inclination s16 ×0.1 + ramp angle
/// s16 ×0.1, b4 elevation gain +/- u16 ×0.1 m, b5 pace u8 ×0.1 km/min, b6 avg pace u8,
/// b7 energy, b8 HR, b9 MET ×0.1, b10 elapsed, b11 remaining, b12 force s16 + power s16.
@Suite("Treadmill Data 0x2ACD (FTMS 1.0 §4.4)")
struct TreadmillDataTests {
    // Hand-computed: flags 0x1FFE; 12.00 km/h = 1200 = B0 04; 11.50 = 1150 = 7E 04;
    // 5000 m = 88 13 00; 2.5 % = 25 = 19 00; 1.4 deg = 14 = 0E 00; +12.3 m = 123 = 7B 00;
    // -4.0 m = 40 = 28 00; 0.2 km/min = 02; 0.2 = 02; 250 kcal = FA 00, 700 = BC 02, 12 = 0C;
    // 150 bpm = 96; 10.0 MET = 64; 1500 s = DC 05; 300 s = 2C 01; 50 N = 32 00; 180 W = B4 00.
    static let allFlags =
        "FE 1F B0 04 7E 04 88 13 00 19 00 0E 00 7B 00 28 00 02 02 FA 00 BC 02 0C 96 64 DC 05 2C 01 32 00 B4 00"
    static let allValue = TreadmillData {
        $0.speedKmh = 12
        $0.averageSpeedKmh = 11.5
        $0.totalDistanceM = 5000
        $0.inclinationPct = 2.5
        $0.rampAngleDeg = 1.4
        $0.positiveElevationGainM = 12.3
        $0.negativeElevationGainM = 4
        $0.paceKmPerMin = 0.2
        $0.averagePaceKmPerMin = 0.2
        $0.energy = ExpendedEnergy(totalKcal: 250, perHourKcal: 700, perMinuteKcal: 12)
        $0.heartRateBpm = 150
        $0.metabolicEquivalent = 10
        $0.elapsedTimeS = 1500
        $0.remainingTimeS = 300
        $0.forceOnBeltN = 50
        $0.powerOutputW = 180
    }

    @Test("every flag on (34 octets)")
    func everyFlag() throws {
        #expect(hex(Self.allFlags).count == 34)
        #expect(
            pairs(decoded(0x2ACD, Self.allFlags)) == [
                p("flags", 0x1FFE), p("more_data", false), p("speed_kmh", 12.0), p("average_speed_kmh", 11.5),
                p("total_distance_m", 5000), p("inclination_pct", 2.5), p("ramp_angle_deg", 1.4),
                p("positive_elevation_gain_m", 12.3), p("negative_elevation_gain_m", 4.0), p("pace_km_per_min", 0.2),
                p("average_pace_km_per_min", 0.2), p("total_energy_kcal", 250), p("energy_per_hour_kcal", 700),
                p("energy_per_minute_kcal", 12), p("heart_rate_bpm", 150), p("metabolic_equivalent", 10.0),
                p("elapsed_time_s", 1500), p("remaining_time_s", 300), p("force_on_belt_n", 50),
                p("power_output_w", 180),
            ])
        #expect(try TreadmillData.decode(hex(Self.allFlags)) == Self.allValue)
        #expect(Self.allValue.encode() == hex(Self.allFlags))
    }

    @Test("every flag off")
    func everyFlagOff() {
        #expect(pairs(decoded(0x2ACD, "00 00 B0 04")) == [p("flags", 0), p("more_data", false), p("speed_kmh", 12.0)])
        #expect(pairs(decoded(0x2ACD, "01 00")) == [p("flags", 1), p("more_data", true)])
    }

    @Test(
        "each flag alone",
        arguments: [
            (1, "7E 04", [p("average_speed_kmh", 11.5)]),
            (2, "88 13 00", [p("total_distance_m", 5000)]),
            (3, "19 00 0E 00", [p("inclination_pct", 2.5), p("ramp_angle_deg", 1.4)]),
            (4, "7B 00 28 00", [p("positive_elevation_gain_m", 12.3), p("negative_elevation_gain_m", 4.0)]),
            (5, "02", [p("pace_km_per_min", 0.2)]),
            (6, "02", [p("average_pace_km_per_min", 0.2)]),
            (
                7, "FA 00 BC 02 0C",
                [p("total_energy_kcal", 250), p("energy_per_hour_kcal", 700), p("energy_per_minute_kcal", 12)]
            ),
            (8, "96", [p("heart_rate_bpm", 150)]),
            (9, "64", [p("metabolic_equivalent", 10.0)]),
            (10, "DC 05", [p("elapsed_time_s", 1500)]),
            (11, "2C 01", [p("remaining_time_s", 300)]),
            (12, "32 00 B4 00", [p("force_on_belt_n", 50), p("power_output_w", 180)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 | (1 << bit)
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8)] + hex(field)
        #expect(
            pairs(CharacteristicDecoder.decode(uuid: 0x2ACD, kind: .notification, payload: payload))
                == [p("flags", flags), p("more_data", true)] + expected)
        #expect(try TreadmillData.decode(payload).encode() == payload)
        #expect(!CharacteristicDecoder.decode(uuid: 0x2ACD, kind: .notification, payload: Array(payload.dropLast())).ok)
    }

    @Test("negative and maximum values; 0x7FFF inclination stays a plain number")
    func extremes() {
        // flags 0x1008: incline -3.5 % = -35 = DD FF, ramp 0x7FFF = 3276.7, force -20 N = EC FF,
        // power FF FF = -1 W; bit 0 clear so speed FF FF = 655.35 first.
        #expect(
            pairs(decoded(0x2ACD, "08 10 FF FF DD FF FF 7F EC FF FF FF")) == [
                p("flags", 0x1008), p("more_data", false), p("speed_kmh", 655.35), p("inclination_pct", -3.5),
                p("ramp_angle_deg", 3276.7), p("force_on_belt_n", -20), p("power_output_w", -1),
            ])
    }

    @Test("one byte short and trailing bytes")
    func shortAndTrailing() {
        #expect(
            decoded(0x2ACD, String(Self.allFlags.dropLast(3))).error
                == "power_output_w: expected 2 bytes at offset 32, found 1")
        #expect(pairs(decoded(0x2ACD, "00 00 B0 04 00")).last == p("trailing_bytes", 1))
    }
}
