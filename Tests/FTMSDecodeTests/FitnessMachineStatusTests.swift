import Testing

@testable import FTMSDecode

/// Fitness Machine Status 0x2ADA — FTMS 1.0 §4.17 (Table 4.24) with the parameter formats of
/// the matching Control Point requests (§4.16.1); ftms-fields.md "0x2ADA".
@Suite("Fitness Machine Status 0x2ADA (FTMS 1.0 §4.17)")
struct FitnessMachineStatusTests {
    @Test(
        "every op code with its parameter",
        arguments: [
            ("01", FitnessMachineStatus.reset, [p("op_code", 1), p("op_name", "reset")]),
            (
                "02 02", .stoppedOrPausedByUser(controlInformation: 2),
                [p("op_code", 2), p("op_name", "stopped_or_paused_by_user"), p("control_information", 2)]
            ),
            ("03", .stoppedBySafetyKey, [p("op_code", 3), p("op_name", "stopped_by_safety_key")]),
            ("04", .startedOrResumedByUser, [p("op_code", 4), p("op_name", "started_or_resumed_by_user")]),
            (
                "05 C4 09", .targetChanged(.speed(kmh: 25)),
                [p("op_code", 5), p("op_name", "target_speed_changed"), p("target_speed_kmh", 25.0)]
            ),
            (
                "06 E7 FF", .targetChanged(.inclination(pct: -2.5)),
                [p("op_code", 6), p("op_name", "target_incline_changed"), p("target_inclination_pct", -2.5)]
            ),
            (
                "07 4B", .targetChanged(.resistanceLevel(7.5)),
                [p("op_code", 7), p("op_name", "target_resistance_level_changed"), p("target_resistance_level", 7.5)]
            ),
            (
                "08 C8 00", .targetChanged(.power(watts: 200)),
                [p("op_code", 8), p("op_name", "target_power_changed"), p("target_power_w", 200)]
            ),
            (
                "09 8C", .targetChanged(.heartRate(bpm: 140)),
                [p("op_code", 9), p("op_name", "target_heart_rate_changed"), p("target_heart_rate_bpm", 140)]
            ),
            (
                "0A F4 01", .targetChanged(.expendedEnergy(calories: 500)),
                [
                    p("op_code", 10), p("op_name", "targeted_expended_energy_changed"),
                    p("targeted_expended_energy_calories", 500),
                ]
            ),
            (
                "0B 10 27", .targetChanged(.steps(10000)),
                [p("op_code", 11), p("op_name", "targeted_number_of_steps_changed"), p("targeted_steps", 10000)]
            ),
            (
                "0C E8 03", .targetChanged(.strides(1000)),
                [p("op_code", 12), p("op_name", "targeted_number_of_strides_changed"), p("targeted_strides", 1000)]
            ),
            (
                "0D A0 86 01", .targetChanged(.distance(meters: 100_000)),
                [p("op_code", 13), p("op_name", "targeted_distance_changed"), p("targeted_distance_m", 100_000)]
            ),
            (
                "0E 08 07", .targetChanged(.trainingTime(seconds: 1800)),
                [p("op_code", 14), p("op_name", "targeted_training_time_changed"), p("targeted_training_time_s", 1800)]
            ),
            (
                "0F 2C 01 58 02", .targetChanged(.timeInHeartRateZones(seconds: [300, 600])),
                [
                    p("op_code", 15), p("op_name", "targeted_time_in_two_heart_rate_zones_changed"),
                    p("targeted_time_in_hr_zones_s", .list([.int(300), .int(600)])),
                ]
            ),
            (
                "10 01 00 02 00 03 00", .targetChanged(.timeInHeartRateZones(seconds: [1, 2, 3])),
                [
                    p("op_code", 16), p("op_name", "targeted_time_in_three_heart_rate_zones_changed"),
                    p("targeted_time_in_hr_zones_s", .list([.int(1), .int(2), .int(3)])),
                ]
            ),
            (
                "11 01 00 02 00 03 00 04 00 05 00", .targetChanged(.timeInHeartRateZones(seconds: [1, 2, 3, 4, 5])),
                [
                    p("op_code", 17), p("op_name", "targeted_time_in_five_heart_rate_zones_changed"),
                    p("targeted_time_in_hr_zones_s", .list([1, 2, 3, 4, 5].map { .int($0) })),
                ]
            ),
            // Wind -1.5 m/s = -1500 = 24 FA; grade 2.5 % = 250 = FA 00; crr 0.004 = 40 = 28; cw 0.51 = 51 = 33.
            (
                "12 24 FA FA 00 28 33",
                .targetChanged(
                    .indoorBikeSimulation(
                        BikeSimulationParameters(windSpeedMps: -1.5, gradePct: 2.5, crr: 0.004, cwKgPerM: 0.51))),
                [
                    p("op_code", 18), p("op_name", "indoor_bike_simulation_parameters_changed"),
                    p("wind_speed_mps", -1.5), p("grade_pct", 2.5), p("crr", 0.004), p("cw_kg_per_m", 0.51),
                ]
            ),
            // 2105.0 mm = 21050 = 3A 52.
            (
                "13 3A 52", .targetChanged(.wheelCircumference(mm: 2105)),
                [p("op_code", 19), p("op_name", "wheel_circumference_changed"), p("wheel_circumference_mm", 2105.0)]
            ),
            (
                "14 02", .spinDownStatus(2),
                [p("op_code", 20), p("op_name", "spin_down_status"), p("spin_down_status", 2)]
            ),
            (
                "15 B4 00", .targetChanged(.cadence(rpm: 90)),
                [p("op_code", 21), p("op_name", "targeted_cadence_changed"), p("targeted_cadence_rpm", 90.0)]
            ),
            ("FF", .controlPermissionLost, [p("op_code", 255), p("op_name", "control_permission_lost")]),
            ("00", .reserved(opCode: 0), [p("op_code", 0), p("op_name", "reserved")]),
            (
                "16 01 02", .reserved(opCode: 0x16),
                [p("op_code", 0x16), p("op_name", "reserved"), p("trailing_bytes", 2)]
            ),
        ])
    func everyOpCode(payload: String, typed: FitnessMachineStatus, expected: [Pair]) throws {
        #expect(pairs(decoded(0x2ADA, payload)) == expected)
        #expect(try FitnessMachineStatus.decode(hex(payload)) == typed)
        if case .reserved(0x16) = typed {} else { #expect(typed.encode() == hex(payload)) }
    }

    @Test(
        "a parameter one byte short is an error",
        arguments: [
            ("02", "control_information: expected 1 bytes at offset 1, found 0"),
            ("05 C4", "target_speed_kmh: expected 2 bytes at offset 1, found 1"),
            ("0D A0 86", "targeted_distance_m: expected 3 bytes at offset 1, found 2"),
            ("11 01 00 02 00 03 00 04 00 05", "targeted_time_in_hr_zones_s: expected 10 bytes at offset 1, found 9"),
            ("12 24 FA FA 00 28", "cw_kg_per_m: expected 1 bytes at offset 6, found 0"),
            ("", "op_code: expected 1 bytes at offset 0, found 0"),
        ])
    func oneByteShort(payload: String, error: String) {
        let value = decoded(0x2ADA, payload)
        #expect(!value.ok)
        #expect(value.error == error)
    }

    @Test("negative and maximum parameters")
    func extremes() {
        #expect(pairs(decoded(0x2ADA, "08 00 80")).last == p("target_power_w", -32768))
        #expect(pairs(decoded(0x2ADA, "0D FF FF FF")).last == p("targeted_distance_m", 16_777_215))
        #expect(pairs(decoded(0x2ADA, "07 FF")).last == p("target_resistance_level", 25.5))
    }
}
