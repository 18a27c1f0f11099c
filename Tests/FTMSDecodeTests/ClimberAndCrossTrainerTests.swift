import FTMSRender
import Testing

@testable import FTMSDecode

/// Cross Trainer Data 0x2ACE — FTMS 1.0 §4.5 as deployed (ftms-fields.md): **3-octet** flags,
/// bit 0 inverted (speed), b1 avg speed, b2 distance u24, b3 step rate + avg step rate u16,
/// b4 stride count u16 ×0.1, b5 elevation gain +/- u16 (1 m), b6 inclination + ramp s16 ×0.1,
/// b7 resistance s16 ×0.1, b8 power s16, b9 avg power s16, b10 energy, b11 HR, b12 MET,
/// b13 elapsed, b14 remaining, b15 movement direction (no field).
@Suite("Cross Trainer Data 0x2ACE (FTMS 1.0 §4.5)")
struct CrossTrainerDataTests {
    // Hand-computed: flags 0x007FFE as 3 octets FE 7F 00; 10.00 km/h = E8 03; 9.50 = B6 03;
    // 3000 m = B8 0B 00; 120 /min = 78 00; 110 = 6E 00; 123.4 strides = 1234 = D2 04;
    // +15 m = 0F 00; -3 m = 03 00; 1.5 % = 0F 00; 0.9 deg = 09 00; level 8.5 = 85 = 55 00;
    // 150 W = 96 00; 140 W = 8C 00; 200 kcal = C8 00, 600 = 58 02, 10 = 0A; 130 bpm = 82;
    // 6.5 MET = 41; 900 s = 84 03; 600 s = 58 02.
    static let allFlags =
        "FE 7F 00 E8 03 B6 03 B8 0B 00 78 00 6E 00 D2 04 0F 00 03 00 0F 00 09 00 55 00 96 00 8C 00 C8 00 58 02 0A 82 41 84 03 58 02"
    static let allPairs: [Pair] = [
        p("speed_kmh", 10.0), p("average_speed_kmh", 9.5), p("total_distance_m", 3000), p("steps_per_min", 120),
        p("average_step_rate_steps_per_min", 110), p("stride_count", 123.4), p("positive_elevation_gain_m", 15),
        p("negative_elevation_gain_m", 3), p("inclination_pct", 1.5), p("ramp_angle_deg", 0.9),
        p("resistance_level", 8.5),
        p("power_w", 150), p("average_power_w", 140), p("total_energy_kcal", 200), p("energy_per_hour_kcal", 600),
        p("energy_per_minute_kcal", 10), p("heart_rate_bpm", 130), p("metabolic_equivalent", 6.5),
        p("elapsed_time_s", 900),
        p("remaining_time_s", 600),
    ]
    static let allValue = CrossTrainerData {
        $0.speedKmh = 10
        $0.averageSpeedKmh = 9.5
        $0.totalDistanceM = 3000
        $0.stepsPerMin = 120
        $0.averageStepRateStepsPerMin = 110
        $0.strideCount = 123.4
        $0.positiveElevationGainM = 15
        $0.negativeElevationGainM = 3
        $0.inclinationPct = 1.5
        $0.rampAngleDeg = 0.9
        $0.resistanceLevel = 8.5
        $0.powerW = 150
        $0.averagePowerW = 140
        $0.energy = ExpendedEnergy(totalKcal: 200, perHourKcal: 600, perMinuteKcal: 10)
        $0.heartRateBpm = 130
        $0.metabolicEquivalent = 6.5
        $0.elapsedTimeS = 900
        $0.remainingTimeS = 600
    }

    @Test("every flag on (41 octets), forward and backward")
    func everyFlag() throws {
        #expect(hex(Self.allFlags).count == 41)
        #expect(
            pairs(decoded(0x2ACE, Self.allFlags))
                == [p("flags", 0x7FFE), p("more_data", false), p("movement_direction", "forward")] + Self.allPairs)
        #expect(try CrossTrainerData.decode(hex(Self.allFlags)) == Self.allValue)
        #expect(Self.allValue.encode() == hex(Self.allFlags))
        let backward = "FE FF 00" + Self.allFlags.dropFirst(8)
        #expect(
            pairs(decoded(0x2ACE, backward))
                == [p("flags", 0xFFFE), p("more_data", false), p("movement_direction", "backward")] + Self.allPairs)
        var value = Self.allValue
        value.movingBackward = true
        #expect(value.encode() == hex(backward))
    }

    @Test("every flag off; reserved bits 16–23 read nothing")
    func everyFlagOff() {
        #expect(
            pairs(decoded(0x2ACE, "00 00 00 E8 03")) == [
                p("flags", 0), p("more_data", false), p("movement_direction", "forward"), p("speed_kmh", 10.0),
            ])
        #expect(
            pairs(decoded(0x2ACE, "01 00 FF")) == [
                p("flags", 0xFF0001), p("more_data", true), p("movement_direction", "forward"),
            ])
    }

    @Test(
        "each flag alone",
        arguments: [
            (1, "B6 03", [p("average_speed_kmh", 9.5)]),
            (2, "B8 0B 00", [p("total_distance_m", 3000)]),
            (3, "78 00 6E 00", [p("steps_per_min", 120), p("average_step_rate_steps_per_min", 110)]),
            (4, "D2 04", [p("stride_count", 123.4)]),
            (5, "0F 00 03 00", [p("positive_elevation_gain_m", 15), p("negative_elevation_gain_m", 3)]),
            (6, "0F 00 09 00", [p("inclination_pct", 1.5), p("ramp_angle_deg", 0.9)]),
            (7, "55 00", [p("resistance_level", 8.5)]),
            (8, "96 00", [p("power_w", 150)]),
            (9, "8C 00", [p("average_power_w", 140)]),
            (
                10, "C8 00 58 02 0A",
                [p("total_energy_kcal", 200), p("energy_per_hour_kcal", 600), p("energy_per_minute_kcal", 10)]
            ),
            (11, "82", [p("heart_rate_bpm", 130)]),
            (12, "41", [p("metabolic_equivalent", 6.5)]),
            (13, "84 03", [p("elapsed_time_s", 900)]),
            (14, "58 02", [p("remaining_time_s", 600)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 | (1 << bit)
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8), 0] + hex(field)
        #expect(
            pairs(CharacteristicDecoder.decode(uuid: 0x2ACE, kind: .notification, payload: payload))
                == [p("flags", flags), p("more_data", true), p("movement_direction", "forward")] + expected)
        #expect(try CrossTrainerData.decode(payload).encode() == payload)
        #expect(!CharacteristicDecoder.decode(uuid: 0x2ACE, kind: .notification, payload: Array(payload.dropLast())).ok)
    }

    @Test("negative values, short and trailing")
    func extremes() {
        // flags 0x0000C1 (b6 incline, b7 resistance; More Data; bit 8? no): 01 C0 00 →
        // b0 More Data, b6, b7. Incline -1.0 = F6 FF, ramp -0.5 = FB FF, resistance -0.1 = FF FF.
        #expect(
            pairs(decoded(0x2ACE, "C1 00 00 F6 FF FB FF FF FF")) == [
                p("flags", 0xC1), p("more_data", true), p("movement_direction", "forward"),
                p("inclination_pct", -1.0), p("ramp_angle_deg", -0.5), p("resistance_level", -0.1),
            ])
        #expect(decoded(0x2ACE, "00 00").error == "flags: expected 3 bytes at offset 0, found 2")
        #expect(
            decoded(0x2ACE, String(Self.allFlags.dropLast(3))).error
                == "remaining_time_s: expected 2 bytes at offset 39, found 1")
        #expect(pairs(decoded(0x2ACE, "00 00 00 E8 03 01")).last == p("trailing_bytes", 1))
    }
}

/// Step Climber Data 0x2ACF — FTMS 1.0 §4.6: flags u16, bit 0 inverted (floors + step count
/// u16), b1 step rate u16, b2 avg step rate u16, b3 elevation gain u16 (1 m), b4 energy,
/// b5 HR, b6 MET ×0.1, b7 elapsed, b8 remaining.
@Suite("Step Climber Data 0x2ACF (FTMS 1.0 §4.6)")
struct StepClimberDataTests {
    // flags 0x01FE; 12 floors = 0C 00, 345 steps = 59 01; 80 /min = 50 00; 75 = 4B 00;
    // 36 m = 24 00; 90 kcal = 5A 00, 540 = 1C 02, 9 = 09; 140 bpm = 8C; 8.2 MET = 52;
    // 600 s = 58 02; 300 s = 2C 01.
    static let allFlags = "FE 01 0C 00 59 01 50 00 4B 00 24 00 5A 00 1C 02 09 8C 52 58 02 2C 01"

    @Test("every flag on")
    func everyFlag() throws {
        #expect(
            pairs(decoded(0x2ACF, Self.allFlags)) == [
                p("flags", 0x01FE), p("more_data", false), p("floors", 12), p("step_count", 345),
                p("steps_per_min", 80),
                p("average_step_rate_steps_per_min", 75), p("positive_elevation_gain_m", 36),
                p("total_energy_kcal", 90),
                p("energy_per_hour_kcal", 540), p("energy_per_minute_kcal", 9), p("heart_rate_bpm", 140),
                p("metabolic_equivalent", 8.2), p("elapsed_time_s", 600), p("remaining_time_s", 300),
            ])
        let value = StepClimberData {
            $0.floors = 12
            $0.stepCount = 345
            $0.stepsPerMin = 80
            $0.averageStepRateStepsPerMin = 75
            $0.positiveElevationGainM = 36
            $0.energy = ExpendedEnergy(totalKcal: 90, perHourKcal: 540, perMinuteKcal: 9)
            $0.heartRateBpm = 140
            $0.metabolicEquivalent = 8.2
            $0.elapsedTimeS = 600
            $0.remainingTimeS = 300
        }
        #expect(try StepClimberData.decode(hex(Self.allFlags)) == value)
        #expect(value.encode() == hex(Self.allFlags))
    }

    @Test("every flag off")
    func everyFlagOff() {
        #expect(
            pairs(decoded(0x2ACF, "00 00 0C 00 59 01")) == [
                p("flags", 0), p("more_data", false), p("floors", 12), p("step_count", 345),
            ])
        #expect(pairs(decoded(0x2ACF, "01 00")) == [p("flags", 1), p("more_data", true)])
    }

    @Test(
        "each flag alone",
        arguments: [
            (1, "50 00", [p("steps_per_min", 80)]),
            (2, "4B 00", [p("average_step_rate_steps_per_min", 75)]),
            (3, "24 00", [p("positive_elevation_gain_m", 36)]),
            (
                4, "5A 00 1C 02 09",
                [p("total_energy_kcal", 90), p("energy_per_hour_kcal", 540), p("energy_per_minute_kcal", 9)]
            ),
            (5, "8C", [p("heart_rate_bpm", 140)]),
            (6, "52", [p("metabolic_equivalent", 8.2)]),
            (7, "58 02", [p("elapsed_time_s", 600)]),
            (8, "2C 01", [p("remaining_time_s", 300)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 | (1 << bit)
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8)] + hex(field)
        #expect(
            pairs(CharacteristicDecoder.decode(uuid: 0x2ACF, kind: .notification, payload: payload))
                == [p("flags", flags), p("more_data", true)] + expected)
        #expect(try StepClimberData.decode(payload).encode() == payload)
        #expect(!CharacteristicDecoder.decode(uuid: 0x2ACF, kind: .notification, payload: Array(payload.dropLast())).ok)
    }

    @Test("maximum values, short, trailing, reserved bits")
    func extremes() {
        #expect(
            pairs(decoded(0x2ACF, "00 FE FF FF FF FF")) == [
                p("flags", 0xFE00), p("more_data", false), p("floors", 65535), p("step_count", 65535),
            ])
        #expect(decoded(0x2ACF, "00 00 0C 00 59").error == "step_count: expected 2 bytes at offset 4, found 1")
        #expect(pairs(decoded(0x2ACF, "01 00 09")).last == p("trailing_bytes", 1))
    }
}

/// Stair Climber Data 0x2AD0 — FTMS 1.0 §4.7: flags u16, bit 0 inverted (floors u16),
/// b1 step rate, b2 avg step rate, b3 elevation gain u16 (1 m), b4 stride count u16 (×1),
/// b5 energy, b6 HR, b7 MET ×0.1, b8 elapsed, b9 remaining.
@Suite("Stair Climber Data 0x2AD0 (FTMS 1.0 §4.7)")
struct StairClimberDataTests {
    // flags 0x03FE; 20 floors = 14 00; 60 /min = 3C 00; 58 = 3A 00; 60 m = 3C 00;
    // 500 strides = F4 01; 150 kcal = 96 00, 700 = BC 02, 11 = 0B; 150 bpm = 96; 9.9 MET = 63;
    // 1200 s = B0 04; 0 s = 00 00.
    static let allFlags = "FE 03 14 00 3C 00 3A 00 3C 00 F4 01 96 00 BC 02 0B 96 63 B0 04 00 00"

    @Test("every flag on")
    func everyFlag() throws {
        #expect(
            pairs(decoded(0x2AD0, Self.allFlags)) == [
                p("flags", 0x03FE), p("more_data", false), p("floors", 20), p("steps_per_min", 60),
                p("average_step_rate_steps_per_min", 58), p("positive_elevation_gain_m", 60), p("stride_count", 500),
                p("total_energy_kcal", 150), p("energy_per_hour_kcal", 700), p("energy_per_minute_kcal", 11),
                p("heart_rate_bpm", 150), p("metabolic_equivalent", 9.9), p("elapsed_time_s", 1200),
                p("remaining_time_s", 0),
            ])
        let value = StairClimberData {
            $0.floors = 20
            $0.stepsPerMin = 60
            $0.averageStepRateStepsPerMin = 58
            $0.positiveElevationGainM = 60
            $0.strideCount = 500
            $0.energy = ExpendedEnergy(totalKcal: 150, perHourKcal: 700, perMinuteKcal: 11)
            $0.heartRateBpm = 150
            $0.metabolicEquivalent = 9.9
            $0.elapsedTimeS = 1200
            $0.remainingTimeS = 0
        }
        #expect(try StairClimberData.decode(hex(Self.allFlags)) == value)
        #expect(value.encode() == hex(Self.allFlags))
    }

    @Test("every flag off")
    func everyFlagOff() {
        #expect(pairs(decoded(0x2AD0, "00 00 14 00")) == [p("flags", 0), p("more_data", false), p("floors", 20)])
        #expect(pairs(decoded(0x2AD0, "01 00")) == [p("flags", 1), p("more_data", true)])
    }

    @Test(
        "each flag alone",
        arguments: [
            (1, "3C 00", [p("steps_per_min", 60)]),
            (2, "3A 00", [p("average_step_rate_steps_per_min", 58)]),
            (3, "3C 00", [p("positive_elevation_gain_m", 60)]),
            (4, "F4 01", [p("stride_count", 500)]),
            (
                5, "96 00 BC 02 0B",
                [p("total_energy_kcal", 150), p("energy_per_hour_kcal", 700), p("energy_per_minute_kcal", 11)]
            ),
            (6, "96", [p("heart_rate_bpm", 150)]),
            (7, "63", [p("metabolic_equivalent", 9.9)]),
            (8, "B0 04", [p("elapsed_time_s", 1200)]),
            (9, "00 00", [p("remaining_time_s", 0)]),
        ])
    func eachFlagAlone(bit: Int, field: String, expected: [Pair]) throws {
        let flags = 1 | (1 << bit)
        let payload = [UInt8(flags & 0xFF), UInt8(flags >> 8)] + hex(field)
        #expect(
            pairs(CharacteristicDecoder.decode(uuid: 0x2AD0, kind: .notification, payload: payload))
                == [p("flags", flags), p("more_data", true)] + expected)
        #expect(try StairClimberData.decode(payload).encode() == payload)
        #expect(!CharacteristicDecoder.decode(uuid: 0x2AD0, kind: .notification, payload: Array(payload.dropLast())).ok)
    }

    @Test("maximum values, short, trailing")
    func extremes() {
        #expect(
            pairs(decoded(0x2AD0, "10 00 FF FF FF FF")) == [
                p("flags", 0x10), p("more_data", false), p("floors", 65535), p("stride_count", 65535),
            ])
        #expect(
            decoded(0x2AD0, String(Self.allFlags.dropLast(3))).error
                == "remaining_time_s: expected 2 bytes at offset 21, found 1")
        #expect(pairs(decoded(0x2AD0, "00 00 14 00 EE")).last == p("trailing_bytes", 1))
    }
}
