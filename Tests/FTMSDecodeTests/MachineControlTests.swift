import FTMSRender
import Testing

@testable import FTMSDecode

/// Fitness Machine Control Point 0x2AD9 — FTMS 1.0 §4.16 (Table 4.15 requests, §4.16.2.22
/// response), parameter formats per ftms-fields.md.
@Suite("Fitness Machine Control Point 0x2AD9 (FTMS 1.0 §4.16)")
struct ControlPointTests {
    @Test(
        "every request op code with its parameter",
        arguments: [
            ("00", ControlPointRequest.requestControl, [p("op_code", 0), p("op_name", "request_control")]),
            ("01", .reset, [p("op_code", 1), p("op_name", "reset")]),
            (
                "02 E8 03", .setTarget(.speed(kmh: 10)),
                [p("op_code", 2), p("op_name", "set_target_speed"), p("target_speed_kmh", 10.0)]
            ),
            (
                "03 F6 FF", .setTarget(.inclination(pct: -1)),
                [p("op_code", 3), p("op_name", "set_target_inclination"), p("target_inclination_pct", -1.0)]
            ),
            (
                "04 64", .setTarget(.resistanceLevel(10)),
                [p("op_code", 4), p("op_name", "set_target_resistance_level"), p("target_resistance_level", 10.0)]
            ),
            (
                "05 2C 01", .setTarget(.power(watts: 300)),
                [p("op_code", 5), p("op_name", "set_target_power"), p("target_power_w", 300)]
            ),
            (
                "06 96", .setTarget(.heartRate(bpm: 150)),
                [p("op_code", 6), p("op_name", "set_target_heart_rate"), p("target_heart_rate_bpm", 150)]
            ),
            ("07", .startOrResume, [p("op_code", 7), p("op_name", "start_or_resume")]),
            (
                "08 01", .stopOrPause(controlInformation: 1),
                [p("op_code", 8), p("op_name", "stop_or_pause"), p("control_information", 1)]
            ),
            (
                "09 F4 01", .setTarget(.expendedEnergy(calories: 500)),
                [
                    p("op_code", 9), p("op_name", "set_targeted_expended_energy"),
                    p("targeted_expended_energy_calories", 500),
                ]
            ),
            (
                "0A 10 27", .setTarget(.steps(10000)),
                [p("op_code", 10), p("op_name", "set_targeted_number_of_steps"), p("targeted_steps", 10000)]
            ),
            (
                "0B E8 03", .setTarget(.strides(1000)),
                [p("op_code", 11), p("op_name", "set_targeted_number_of_strides"), p("targeted_strides", 1000)]
            ),
            (
                "0C 10 27 00", .setTarget(.distance(meters: 10000)),
                [p("op_code", 12), p("op_name", "set_targeted_distance"), p("targeted_distance_m", 10000)]
            ),
            (
                "0D 10 0E", .setTarget(.trainingTime(seconds: 3600)),
                [p("op_code", 13), p("op_name", "set_targeted_training_time"), p("targeted_training_time_s", 3600)]
            ),
            (
                "0E 3C 00 78 00", .setTarget(.timeInHeartRateZones(seconds: [60, 120])),
                [
                    p("op_code", 14), p("op_name", "set_targeted_time_in_two_heart_rate_zones"),
                    p("targeted_time_in_hr_zones_s", .list([.int(60), .int(120)])),
                ]
            ),
            (
                "0F 3C 00 78 00 B4 00", .setTarget(.timeInHeartRateZones(seconds: [60, 120, 180])),
                [
                    p("op_code", 15), p("op_name", "set_targeted_time_in_three_heart_rate_zones"),
                    p("targeted_time_in_hr_zones_s", .list([.int(60), .int(120), .int(180)])),
                ]
            ),
            (
                "10 01 00 02 00 03 00 04 00 05 00", .setTarget(.timeInHeartRateZones(seconds: [1, 2, 3, 4, 5])),
                [
                    p("op_code", 16), p("op_name", "set_targeted_time_in_five_heart_rate_zones"),
                    p("targeted_time_in_hr_zones_s", .list([1, 2, 3, 4, 5].map { .int($0) })),
                ]
            ),
            // Wind 2.0 m/s = 2000 = D0 07; grade -4.5 % = -450 = 3E FE; crr 0.0033 = 33 = 21; cw 0.6 = 60 = 3C.
            (
                "11 D0 07 3E FE 21 3C",
                .setTarget(
                    .indoorBikeSimulation(
                        BikeSimulationParameters(windSpeedMps: 2, gradePct: -4.5, crr: 0.0033, cwKgPerM: 0.6))),
                [
                    p("op_code", 17), p("op_name", "set_indoor_bike_simulation_parameters"), p("wind_speed_mps", 2.0),
                    p("grade_pct", -4.5), p("crr", 0.0033), p("cw_kg_per_m", 0.6),
                ]
            ),
            (
                "12 3A 52", .setTarget(.wheelCircumference(mm: 2105)),
                [p("op_code", 18), p("op_name", "set_wheel_circumference"), p("wheel_circumference_mm", 2105.0)]
            ),
            (
                "13 01", .spinDownControl(1),
                [p("op_code", 19), p("op_name", "spin_down_control"), p("spin_down_control", 1)]
            ),
            (
                "14 B5 00", .setTarget(.cadence(rpm: 90.5)),
                [p("op_code", 20), p("op_name", "set_targeted_cadence"), p("targeted_cadence_rpm", 90.5)]
            ),
            ("15", .reserved(opCode: 0x15), [p("op_code", 0x15), p("op_name", "reserved")]),
            ("7F", .reserved(opCode: 0x7F), [p("op_code", 0x7F), p("op_name", "reserved")]),
        ])
    func everyRequest(payload: String, request: ControlPointRequest, expected: [Pair]) throws {
        #expect(pairs(decoded(0x2AD9, payload, kind: .write)) == expected)
        #expect(try ControlPointMessage.decode(hex(payload)) == .request(request))
        #expect(request.encode() == hex(payload))
    }

    @Test(
        "responses with every result code, and the spin-down speeds",
        arguments: [
            (
                "80 05 01",
                [
                    p("request_op_code", 5), p("request_op_name", "set_target_power"), p("result_code", 1),
                    p("result_name", "success"),
                ]
            ),
            (
                "80 05 02",
                [
                    p("request_op_code", 5), p("request_op_name", "set_target_power"), p("result_code", 2),
                    p("result_name", "op_code_not_supported"),
                ]
            ),
            (
                "80 02 03",
                [
                    p("request_op_code", 2), p("request_op_name", "set_target_speed"), p("result_code", 3),
                    p("result_name", "invalid_parameter"),
                ]
            ),
            (
                "80 07 04",
                [
                    p("request_op_code", 7), p("request_op_name", "start_or_resume"), p("result_code", 4),
                    p("result_name", "operation_failed"),
                ]
            ),
            (
                "80 05 05",
                [
                    p("request_op_code", 5), p("request_op_name", "set_target_power"), p("result_code", 5),
                    p("result_name", "control_not_permitted"),
                ]
            ),
            (
                "80 05 00",
                [
                    p("request_op_code", 5), p("request_op_name", "set_target_power"), p("result_code", 0),
                    p("result_name", "reserved"),
                ]
            ),
            (
                "80 55 06",
                [
                    p("request_op_code", 0x55), p("request_op_name", "reserved"), p("result_code", 6),
                    p("result_name", "reserved"),
                ]
            ),
            // Spin down started: target speed low 20.00 km/h = D0 07, high 35.00 = AC 0D.
            (
                "80 13 01 D0 07 AC 0D",
                [
                    p("request_op_code", 0x13), p("request_op_name", "spin_down_control"), p("result_code", 1),
                    p("result_name", "success"), p("target_speed_low_kmh", 20.0), p("target_speed_high_kmh", 35.0),
                ]
            ),
            // Not a success: the four octets are trailing.
            (
                "80 13 04 D0 07 AC 0D",
                [
                    p("request_op_code", 0x13), p("request_op_name", "spin_down_control"), p("result_code", 4),
                    p("result_name", "operation_failed"), p("trailing_bytes", 4),
                ]
            ),
            // Success with fewer than four more octets: no speeds, trailing.
            (
                "80 13 01 D0 07",
                [
                    p("request_op_code", 0x13), p("request_op_name", "spin_down_control"), p("result_code", 1),
                    p("result_name", "success"), p("trailing_bytes", 2),
                ]
            ),
        ])
    func responses(payload: String, expected: [Pair]) {
        #expect(
            pairs(decoded(0x2AD9, payload, kind: .indication)) == [p("op_code", 0x80), p("op_name", "response_code")]
                + expected)
    }

    @Test(
        "one byte short is an error",
        arguments: [
            ("", "op_code: expected 1 bytes at offset 0, found 0"),
            ("80", "request_op_code: expected 1 bytes at offset 1, found 0"),
            ("80 05", "result_code: expected 1 bytes at offset 2, found 0"),
            ("02 E8", "target_speed_kmh: expected 2 bytes at offset 1, found 1"),
            ("0C 10 27", "targeted_distance_m: expected 3 bytes at offset 1, found 2"),
            ("0F 3C 00 78 00 B4", "targeted_time_in_hr_zones_s: expected 6 bytes at offset 1, found 5"),
            ("11 D0 07 3E FE 21", "cw_kg_per_m: expected 1 bytes at offset 6, found 0"),
        ])
    func oneByteShort(payload: String, error: String) {
        #expect(decoded(0x2AD9, payload, kind: .write).error == error)
    }

    @Test("encoders: response, zone padding, saturation")
    func encoders() {
        #expect(
            ControlPointResponse(requestOpCode: 0x13, resultCode: 1, targetSpeedLowKmh: 20, targetSpeedHighKmh: 35)
                .encode() == hex("80 13 01 D0 07 AC 0D"))
        #expect(
            ControlPointMessage.response(ControlPointResponse(requestOpCode: 0, resultCode: 1)).encode()
                == hex("80 00 01"))
        #expect(
            ControlPointRequest.setTarget(.timeInHeartRateZones(seconds: [1, 2, 3, 4])).encode()
                == hex("10 01 00 02 00 03 00 04 00 00 00"))
        #expect(ControlPointRequest.setTarget(.power(watts: -40000)).encode() == hex("05 00 80"))
    }

    /// FTMS 1.0 Table 4.24: a status op code carries the parameter of the request that sets the
    /// same target, and is three above the request's for 0x02–0x06, one above from 0x09 on.
    @Test(
        "a target's parameter is the same in the request and in the status",
        arguments: [
            MachineTarget.speed(kmh: 12.34), .inclination(pct: -3.5), .resistanceLevel(4.2), .power(watts: -5),
            .heartRate(bpm: 171), .expendedEnergy(calories: 650), .steps(1234), .strides(99), .distance(meters: 42_195),
            .trainingTime(seconds: 5400), .timeInHeartRateZones(seconds: [5, 6]),
            .timeInHeartRateZones(seconds: [5, 6, 7]), .timeInHeartRateZones(seconds: [1, 2, 3, 4, 5]),
            .indoorBikeSimulation(BikeSimulationParameters(windSpeedMps: 0.5, gradePct: 8, crr: 0.005, cwKgPerM: 0.3)),
            .wheelCircumference(mm: 2096.5), .cadence(rpm: 85.5),
        ])
    func sameParameter(target: MachineTarget) throws {
        let request = ControlPointRequest.setTarget(target).encode()
        let status = FitnessMachineStatus.targetChanged(target).encode()
        #expect(request.dropFirst() == status.dropFirst())
        #expect(status[0] == request[0] + (request[0] <= 0x06 ? 3 : 1))
        #expect(try ControlPointMessage.decode(request) == .request(.setTarget(target)))
        #expect(try FitnessMachineStatus.decode(status) == .targetChanged(target))
    }

    /// Wire → value → wire is the identity for every target op and parameter, in the request and in the status,
    /// and both read the same target: all-zero and all-ones parameters, then 300 random ones per op. Parameter
    /// lengths from Table 4.15 (written out here, not taken from the decoder).
    @Test("every target parameter survives decode and encode, in the request and the status")
    func targetParametersRoundTrip() throws {
        let lengths: [UInt8: Int] = [
            0x02: 2, 0x03: 2, 0x04: 1, 0x05: 2, 0x06: 1, 0x09: 2, 0x0A: 2, 0x0B: 2, 0x0C: 3, 0x0D: 2, 0x0E: 4, 0x0F: 6,
            0x10: 10, 0x11: 6, 0x12: 2, 0x14: 2,
        ]
        var rng = SplitMix64(seed: 0x2AD9_2ADA)
        for (requestOp, length) in lengths.sorted(by: { $0.key < $1.key }) {
            let statusOp = requestOp + (requestOp <= 0x06 ? 3 : 1)
            var parameters = [[UInt8](repeating: 0, count: length), [UInt8](repeating: 0xFF, count: length)]
            for _ in 0..<300 { parameters.append((0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
            for parameter in parameters {
                let request = [requestOp] + parameter
                let status = [statusOp] + parameter
                guard case .request(let decoded) = try ControlPointMessage.decode(request),
                    case .setTarget(let target) = decoded
                else {
                    Issue.record("op \(requestOp): not read as a target")
                    continue
                }
                #expect(decoded.encode() == request, "request \(request)")
                #expect(try FitnessMachineStatus.decode(status) == .targetChanged(target), "status \(status)")
                #expect(FitnessMachineStatus.targetChanged(target).encode() == status, "status \(status)")
            }
        }
    }
}

/// Training Status 0x2AD3 — FTMS 1.0 §4.10: flags u8 (b0 string present, b1 extended),
/// status u8 (Table 4.20 names), UTF-8 string filling the rest when b0 is set.
@Suite("Training Status 0x2AD3 (FTMS 1.0 §4.10)")
struct TrainingStatusTests {
    @Test("every status name, reserved above 0x0F", arguments: Array(0...0x10))
    func names(status: Int) {
        let names = [
            "other", "idle", "warming_up", "low_intensity_interval", "high_intensity_interval", "recovery_interval",
            "isometric", "heart_rate_control", "fitness_test", "speed_outside_control_region_low",
            "speed_outside_control_region_high", "cool_down", "watt_control", "manual_mode_quick_start",
            "pre_workout", "post_workout",
        ]
        let value = CharacteristicDecoder.decode(uuid: 0x2AD3, kind: .notification, payload: [0, UInt8(status)])
        #expect(
            pairs(value) == [
                p("flags", 0), p("training_status", status),
                p("training_status_name", status < 16 ? names[status] : "reserved"), p("extended_string", false),
            ])
    }

    @Test("string flag: the rest of the value as UTF-8, possibly empty")
    func strings() throws {
        // "Manual" = 4D 61 6E 75 61 6C; "Zone ✓" has a 3-octet character E2 9C 93.
        #expect(
            pairs(decoded(0x2AD3, "01 0D 4D 61 6E 75 61 6C")) == [
                p("flags", 1), p("training_status", 13), p("training_status_name", "manual_mode_quick_start"),
                p("extended_string", false), p("training_status_string", "Manual"),
            ])
        #expect(
            pairs(decoded(0x2AD3, "03 02")) == [
                p("flags", 3), p("training_status", 2), p("training_status_name", "warming_up"),
                p("extended_string", true),
                p("training_status_string", ""),
            ])
        #expect(pairs(decoded(0x2AD3, "01 00 5A 6F 6E 65 20 E2 9C 93")).last == p("training_status_string", "Zone ✓"))
        // String flag clear: trailing octets ignored. Reserved flag bits 2–7 read nothing.
        #expect(
            pairs(decoded(0x2AD3, "FC 01 41")) == [
                p("flags", 0xFC), p("training_status", 1), p("training_status_name", "idle"),
                p("extended_string", false), p("trailing_bytes", 1),
            ])
        let value = TrainingStatus(status: 13, statusString: "Manual")
        #expect(value.encode() == hex("01 0D 4D 61 6E 75 61 6C"))
        #expect(try TrainingStatus.decode(hex("01 0D 4D 61 6E 75 61 6C")) == value)
    }

    @Test("short payloads are errors")
    func short() {
        #expect(decoded(0x2AD3, "").error == "flags: expected 1 bytes at offset 0, found 0")
        #expect(decoded(0x2AD3, "01").error == "training_status: expected 1 bytes at offset 1, found 0")
    }
}

/// Fitness Machine Feature 0x2ACC — FTMS 1.0 §4.3 (Tables 4.2, 4.3): u32 + u32.
@Suite("Fitness Machine Feature 0x2ACC (FTMS 1.0 §4.3)")
struct FitnessMachineFeatureTests {
    @Test("named bits in ascending order; reserved bits unnamed")
    func features() throws {
        // Machine bits 1, 2, 14 and reserved 31 = 0x80004006 = 06 40 00 80; target bits 1, 3 = 0x0A.
        #expect(
            pairs(decoded(0x2ACC, "06 40 00 80 0A 00 00 00", kind: .readResponse)) == [
                p("machine_features", 0x8000_4006), p("target_setting_features", 0x0A),
                p(
                    "machine_feature_names",
                    .list([.string("cadence"), .string("total_distance"), .string("power_measurement")])),
                p("target_setting_names", .list([.string("inclination_target"), .string("power_target")])),
            ])
        #expect(
            FitnessMachineFeature(machineFeatures: 0x8000_4006, targetSettingFeatures: 0x0A).encode()
                == hex("06 40 00 80 0A 00 00 00"))
    }

    @Test("every flag on / off")
    func allAndNone() {
        let all = decoded(0x2ACC, "FF FF 01 00 FF FF 01 00")
        #expect(
            all.fields["machine_feature_names"] == .list(FitnessMachineFeature.machineFeatureNames.map { .string($0) }))
        #expect(
            all.fields["target_setting_names"] == .list(FitnessMachineFeature.targetSettingNames.map { .string($0) }))
        #expect(
            FitnessMachineFeature.machineFeatureNames.count == 17
                && FitnessMachineFeature.targetSettingNames.count == 17)
        #expect(
            pairs(decoded(0x2ACC, "00 00 00 00 00 00 00 00")) == [
                p("machine_features", 0), p("target_setting_features", 0), p("machine_feature_names", .list([])),
                p("target_setting_names", .list([])),
            ])
    }

    @Test("needs 8 octets")
    func short() {
        #expect(
            decoded(0x2ACC, "06 40 00 80 0A 00 00").error == "machine_features: expected 8 bytes at offset 0, found 7")
        #expect(pairs(decoded(0x2ACC, "00 00 00 00 00 00 00 00 00")).last == p("trailing_bytes", 1))
    }
}

/// Supported ranges 0x2AD4–0x2AD8 — FTMS 1.0 §4.11–§4.15 as deployed (resistance range is
/// 3 × 16-bit with resolution 0.1).
@Suite("Supported ranges 0x2AD4–0x2AD8 (FTMS 1.0 §4.11–4.15)")
struct SupportedRangeTests {
    @Test(
        "each range",
        arguments: [
            // 0.50 km/h = 50 = 32 00; 20.00 = 2000 = D0 07; 0.10 = 10 = 0A 00.
            (
                UInt16(0x2AD4), "32 00 D0 07 0A 00", "supported_speed_range",
                [p("minimum_speed_kmh", 0.5), p("maximum_speed_kmh", 20.0), p("minimum_increment_kmh", 0.1)]
            ),
            // -3.0 % = -30 = E2 FF; 15.0 = 150 = 96 00; 0.5 = 5 = 05 00.
            (
                0x2AD5, "E2 FF 96 00 05 00", "supported_inclination_range",
                [
                    p("minimum_inclination_pct", -3.0), p("maximum_inclination_pct", 15.0),
                    p("minimum_increment_pct", 0.5),
                ]
            ),
            // An Elite trainer answers 6 octets: 1.0 = 0A 00, 24.0 = F0 00, 1.0 = 0A 00.
            (
                0x2AD6, "0A 00 F0 00 0A 00", "supported_resistance_level_range",
                [
                    p("minimum_resistance_level", 1.0), p("maximum_resistance_level", 24.0),
                    p("minimum_increment_resistance_level", 1.0),
                ]
            ),
            (
                0x2AD7, "28 C8 01", "supported_heart_rate_range",
                [p("minimum_heart_rate_bpm", 40), p("maximum_heart_rate_bpm", 200), p("minimum_increment_bpm", 1)]
            ),
            // -100 W = 9C FF; 2000 W = D0 07; 1 W = 01 00.
            (
                0x2AD8, "9C FF D0 07 01 00", "supported_power_range",
                [p("minimum_power_w", -100), p("maximum_power_w", 2000), p("minimum_increment_w", 1)]
            ),
        ])
    func ranges(uuid: UInt16, payload: String, name: String, expected: [Pair]) throws {
        let value = decoded(uuid, payload, kind: .readResponse)
        #expect(value.characteristic == name)
        #expect(pairs(value) == expected)
        let kind = SupportedRange.Kind(rawValue: uuid)!
        #expect(try SupportedRange.decode(kind: kind, hex(payload)).encode() == hex(payload))
        #expect(!decoded(uuid, String(payload.dropLast(3))).ok)
        #expect(pairs(decoded(uuid, payload + " 00")).last == p("trailing_bytes", 1))
    }

    @Test("short errors name the field")
    func short() {
        #expect(decoded(0x2AD6, "0A 00 F0").error == "maximum_resistance_level: expected 2 bytes at offset 2, found 1")
        #expect(decoded(0x2AD7, "28 C8").error == "minimum_increment_bpm: expected 1 bytes at offset 2, found 0")
    }
}

/// Device Information strings (DIS 1.1): 0x2A29, 0x2A24, 0x2A26.
@Suite("Device Information strings")
struct DeviceInformationTests {
    @Test("UTF-8 values, NUL padding dropped, empty is an error")
    func strings() throws {
        #expect(
            pairs(decoded(0x2A29, "53 6F 6C 69 64 46 6F 63 75 73", kind: .readResponse)) == [
                p("manufacturer_name", "SolidFocus")
            ])
        #expect(decoded(0x2A29, "41").characteristic == "manufacturer_name_string")
        #expect(pairs(decoded(0x2A24, "53 46 2D 42 00 00")) == [p("model_number", "SF-B")])
        #expect(pairs(decoded(0x2A26, "32 2E 34 2E 31")) == [p("firmware_revision", "2.4.1")])
        #expect(decoded(0x2A26, "").error == "firmware_revision: expected 1 bytes at offset 0, found 0")
        #expect(DeviceInformationString(kind: .modelNumber, value: "SF-B").encode() == hex("53 46 2D 42"))
        #expect(try DeviceInformationString.decode(kind: .firmwareRevision, hex("32 2E 34 2E 31")).value == "2.4.1")
    }
}
