/// Fitness Machine Status (0x2ADA), FTMS 1.0 §4.17 (Table 4.24): an op code and the
/// parameter of the matching Control Point request. The numbering is offset from the
/// Control Point's: three above for the targets 0x02–0x06 (set target power 0x05 →
/// target power changed 0x08), one above from 0x09 on (set targeted cadence 0x14 →
/// targeted cadence changed 0x15).
///
/// | op | name | parameter |
/// |---|---|---|
/// | 0x01 | reset | — |
/// | 0x02 | stopped_or_paused_by_user | control_information u8 (1 stop, 2 pause) |
/// | 0x03 | stopped_by_safety_key | — |
/// | 0x04 | started_or_resumed_by_user | — |
/// | 0x05 | target_speed_changed | target_speed_kmh u16 ×0.01 |
/// | 0x06 | target_incline_changed | target_inclination_pct s16 ×0.1 |
/// | 0x07 | target_resistance_level_changed | target_resistance_level u8 ×0.1 |
/// | 0x08 | target_power_changed | target_power_w s16 |
/// | 0x09 | target_heart_rate_changed | target_heart_rate_bpm u8 |
/// | 0x0A | targeted_expended_energy_changed | targeted_expended_energy_calories u16 |
/// | 0x0B | targeted_number_of_steps_changed | targeted_steps u16 |
/// | 0x0C | targeted_number_of_strides_changed | targeted_strides u16 |
/// | 0x0D | targeted_distance_changed | targeted_distance_m u24 |
/// | 0x0E | targeted_training_time_changed | targeted_training_time_s u16 |
/// | 0x0F/0x10/0x11 | targeted_time_in_two/three/five_heart_rate_zones_changed | targeted_time_in_hr_zones_s 2/3/5 × u16 |
/// | 0x12 | indoor_bike_simulation_parameters_changed | wind_speed_mps, grade_pct, crr, cw_kg_per_m |
/// | 0x13 | wheel_circumference_changed | wheel_circumference_mm u16 ×0.1 |
/// | 0x14 | spin_down_status | spin_down_status u8 (1 requested, 2 success, 3 error, 4 stop pedalling) |
/// | 0x15 | targeted_cadence_changed | targeted_cadence_rpm u16 ×0.5 |
/// | 0xFF | control_permission_lost | — |
/// | other | reserved | — |
public enum FitnessMachineStatus: Sendable, Equatable, CharacteristicCoding, OpCodeMessage {
    public static let uuid: UInt16 = 0x2ADA
    public static let characteristicName = "fitness_machine_status"

    case reset
    /// `controlInformation`: 1 stop, 2 pause (raw, other values kept as sent).
    case stoppedOrPausedByUser(controlInformation: Int)
    case stoppedBySafetyKey
    case startedOrResumedByUser
    case targetSpeedChanged(kmh: Double)
    case targetInclineChanged(pct: Double)
    case targetResistanceLevelChanged(level: Double)
    case targetPowerChanged(watts: Int)
    case targetHeartRateChanged(bpm: Int)
    case targetedExpendedEnergyChanged(calories: Int)
    case targetedStepsChanged(steps: Int)
    case targetedStridesChanged(strides: Int)
    case targetedDistanceChanged(meters: Int)
    case targetedTrainingTimeChanged(seconds: Int)
    /// 2, 3 or 5 zones (op 0x0F, 0x10, 0x11 by count; other counts are padded to the next size).
    case targetedTimeInHeartRateZonesChanged(seconds: [Int])
    case indoorBikeSimulationParametersChanged(BikeSimulationParameters)
    case wheelCircumferenceChanged(mm: Double)
    /// 1 spin down requested, 2 success, 3 error, 4 stop pedalling.
    case spinDownStatus(Int)
    case targetedCadenceChanged(rpm: Double)
    case controlPermissionLost
    /// An op code the specification reserves; no parameter is read.
    case reserved(opCode: UInt8)

    /// Every op code once, with its name (`"reserved"` for reserved ones) and its parameter.
    static func operation(_ op: UInt8) -> Operation<FitnessMachineStatus> {
        switch op {
        case 0x01: ("reset", .none, { _ in .reset })
        case 0x02:
            ("stopped_or_paused_by_user", .controlInformation, { .stoppedOrPausedByUser(controlInformation: $0.int) })
        case 0x03: ("stopped_by_safety_key", .none, { _ in .stoppedBySafetyKey })
        case 0x04: ("started_or_resumed_by_user", .none, { _ in .startedOrResumedByUser })
        case 0x05: ("target_speed_changed", .targetSpeed, { .targetSpeedChanged(kmh: $0.double) })
        case 0x06: ("target_incline_changed", .targetInclination, { .targetInclineChanged(pct: $0.double) })
        case 0x07:
            (
                "target_resistance_level_changed", .targetResistanceLevel,
                { .targetResistanceLevelChanged(level: $0.double) }
            )
        case 0x08: ("target_power_changed", .targetPower, { .targetPowerChanged(watts: $0.int) })
        case 0x09: ("target_heart_rate_changed", .targetHeartRate, { .targetHeartRateChanged(bpm: $0.int) })
        case 0x0A:
            (
                "targeted_expended_energy_changed", .targetedExpendedEnergy,
                { .targetedExpendedEnergyChanged(calories: $0.int) }
            )
        case 0x0B: ("targeted_number_of_steps_changed", .targetedSteps, { .targetedStepsChanged(steps: $0.int) })
        case 0x0C:
            ("targeted_number_of_strides_changed", .targetedStrides, { .targetedStridesChanged(strides: $0.int) })
        case 0x0D: ("targeted_distance_changed", .targetedDistance, { .targetedDistanceChanged(meters: $0.int) })
        case 0x0E:
            ("targeted_training_time_changed", .targetedTrainingTime, { .targetedTrainingTimeChanged(seconds: $0.int) })
        case 0x0F: ("targeted_time_in_two_heart_rate_zones_changed", .zones(count: 2), zoneTimes)
        case 0x10: ("targeted_time_in_three_heart_rate_zones_changed", .zones(count: 3), zoneTimes)
        case 0x11: ("targeted_time_in_five_heart_rate_zones_changed", .zones(count: 5), zoneTimes)
        case 0x12:
            (
                "indoor_bike_simulation_parameters_changed", .simulation,
                { .indoorBikeSimulationParametersChanged($0.simulation) }
            )
        case 0x13: ("wheel_circumference_changed", .wheelCircumference, { .wheelCircumferenceChanged(mm: $0.double) })
        case 0x14: ("spin_down_status", .scalar("spin_down_status", .u8, divisor: nil), { .spinDownStatus($0.int) })
        case 0x15: ("targeted_cadence_changed", .targetedCadence, { .targetedCadenceChanged(rpm: $0.double) })
        case 0xFF: ("control_permission_lost", .none, { _ in .controlPermissionLost })
        default: ("reserved", .none, nil)
        }
    }

    private static let zoneTimes: (ParameterValue) -> Self = { .targetedTimeInHeartRateZonesChanged(seconds: $0.zones) }

    /// The case as its op code and parameter value (`operation(op).make` is the way back).
    var parts: (op: UInt8, parameter: ParameterValue) {
        switch self {
        case .reset: (0x01, .none)
        case .stoppedOrPausedByUser(let info): (0x02, .int(info))
        case .stoppedBySafetyKey: (0x03, .none)
        case .startedOrResumedByUser: (0x04, .none)
        case .targetSpeedChanged(let kmh): (0x05, .double(kmh))
        case .targetInclineChanged(let pct): (0x06, .double(pct))
        case .targetResistanceLevelChanged(let level): (0x07, .double(level))
        case .targetPowerChanged(let watts): (0x08, .int(watts))
        case .targetHeartRateChanged(let bpm): (0x09, .int(bpm))
        case .targetedExpendedEnergyChanged(let calories): (0x0A, .int(calories))
        case .targetedStepsChanged(let steps): (0x0B, .int(steps))
        case .targetedStridesChanged(let strides): (0x0C, .int(strides))
        case .targetedDistanceChanged(let meters): (0x0D, .int(meters))
        case .targetedTrainingTimeChanged(let seconds): (0x0E, .int(seconds))
        case .targetedTimeInHeartRateZonesChanged(let zones):
            (0x0F + UInt8(normalisedZones(zones).sizeIndex), .zones(zones))
        case .indoorBikeSimulationParametersChanged(let sim): (0x12, .simulation(sim))
        case .wheelCircumferenceChanged(let mm): (0x13, .double(mm))
        case .spinDownStatus(let status): (0x14, .int(status))
        case .targetedCadenceChanged(let rpm): (0x15, .double(rpm))
        case .controlPermissionLost: (0xFF, .none)
        case .reserved(let op): (op, .none)
        }
    }

    public var opCode: UInt8 { parts.op }

    /// The op name for any op code byte (`"reserved"` for reserved ones).
    public static func opName(_ op: UInt8) -> String { operation(op).name }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> FitnessMachineStatus {
        try decodeArray(payload)
    }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> FitnessMachineStatus {
        try decodeBytes(bytes)
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> FitnessMachineStatus {
        try read(op: c.u8("op_code"), &c)
    }

    /// The notification payload: op code, then the parameter.
    public func encode() -> [UInt8] { encodeMessage() }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        appendMessageFields(op: payload[0], to: &f)
    }
}
