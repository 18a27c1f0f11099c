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
public enum FitnessMachineStatus: Sendable, Equatable, CharacteristicCoding {
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

    public var opCode: UInt8 {
        switch self {
        case .reset: 0x01
        case .stoppedOrPausedByUser: 0x02
        case .stoppedBySafetyKey: 0x03
        case .startedOrResumedByUser: 0x04
        case .targetSpeedChanged: 0x05
        case .targetInclineChanged: 0x06
        case .targetResistanceLevelChanged: 0x07
        case .targetPowerChanged: 0x08
        case .targetHeartRateChanged: 0x09
        case .targetedExpendedEnergyChanged: 0x0A
        case .targetedStepsChanged: 0x0B
        case .targetedStridesChanged: 0x0C
        case .targetedDistanceChanged: 0x0D
        case .targetedTrainingTimeChanged: 0x0E
        case .targetedTimeInHeartRateZonesChanged(let zones): 0x0F + UInt8(normalisedZones(zones).sizeIndex)
        case .indoorBikeSimulationParametersChanged: 0x12
        case .wheelCircumferenceChanged: 0x13
        case .spinDownStatus: 0x14
        case .targetedCadenceChanged: 0x15
        case .controlPermissionLost: 0xFF
        case .reserved(let op): op
        }
    }

    /// The op name for any op code byte (`"reserved"` for reserved ones).
    public static func opName(_ op: UInt8) -> String {
        switch op {
        case 0x01: "reset"
        case 0x02: "stopped_or_paused_by_user"
        case 0x03: "stopped_by_safety_key"
        case 0x04: "started_or_resumed_by_user"
        case 0x05: "target_speed_changed"
        case 0x06: "target_incline_changed"
        case 0x07: "target_resistance_level_changed"
        case 0x08: "target_power_changed"
        case 0x09: "target_heart_rate_changed"
        case 0x0A: "targeted_expended_energy_changed"
        case 0x0B: "targeted_number_of_steps_changed"
        case 0x0C: "targeted_number_of_strides_changed"
        case 0x0D: "targeted_distance_changed"
        case 0x0E: "targeted_training_time_changed"
        case 0x0F: "targeted_time_in_two_heart_rate_zones_changed"
        case 0x10: "targeted_time_in_three_heart_rate_zones_changed"
        case 0x11: "targeted_time_in_five_heart_rate_zones_changed"
        case 0x12: "indoor_bike_simulation_parameters_changed"
        case 0x13: "wheel_circumference_changed"
        case 0x14: "spin_down_status"
        case 0x15: "targeted_cadence_changed"
        case 0xFF: "control_permission_lost"
        default: "reserved"
        }
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> FitnessMachineStatus {
        try decodeArray(payload)
    }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> FitnessMachineStatus {
        try decodeBytes(bytes)
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> FitnessMachineStatus {
        let op = try c.u8("op_code")
        switch op {
        case 0x01: return .reset
        case 0x02: return .stoppedOrPausedByUser(controlInformation: Int(try c.u8("control_information")))
        case 0x03: return .stoppedBySafetyKey
        case 0x04: return .startedOrResumedByUser
        case 0x05: return .targetSpeedChanged(kmh: scaled(try c.u16("target_speed_kmh"), 100))
        case 0x06: return .targetInclineChanged(pct: scaled(try c.s16("target_inclination_pct"), 10))
        case 0x07: return .targetResistanceLevelChanged(level: scaled(try c.u8("target_resistance_level"), 10))
        case 0x08: return .targetPowerChanged(watts: Int(try c.s16("target_power_w")))
        case 0x09: return .targetHeartRateChanged(bpm: Int(try c.u8("target_heart_rate_bpm")))
        case 0x0A: return .targetedExpendedEnergyChanged(calories: Int(try c.u16("targeted_expended_energy_calories")))
        case 0x0B: return .targetedStepsChanged(steps: Int(try c.u16("targeted_steps")))
        case 0x0C: return .targetedStridesChanged(strides: Int(try c.u16("targeted_strides")))
        case 0x0D: return .targetedDistanceChanged(meters: Int(try c.u24("targeted_distance_m")))
        case 0x0E: return .targetedTrainingTimeChanged(seconds: Int(try c.u16("targeted_training_time_s")))
        case 0x0F: return .targetedTimeInHeartRateZonesChanged(seconds: try readZones(&c, count: 2))
        case 0x10: return .targetedTimeInHeartRateZonesChanged(seconds: try readZones(&c, count: 3))
        case 0x11: return .targetedTimeInHeartRateZonesChanged(seconds: try readZones(&c, count: 5))
        case 0x12: return .indoorBikeSimulationParametersChanged(try BikeSimulationParameters.read(&c))
        case 0x13: return .wheelCircumferenceChanged(mm: scaled(try c.u16("wheel_circumference_mm"), 10))
        case 0x14: return .spinDownStatus(Int(try c.u8("spin_down_status")))
        case 0x15: return .targetedCadenceChanged(rpm: scaled(try c.u16("targeted_cadence_rpm"), 2))
        case 0xFF: return .controlPermissionLost
        default: return .reserved(opCode: op)
        }
    }

    /// The notification payload: op code, then the parameter.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 12)
        w.u8(opCode)
        switch self {
        case .reset, .stoppedBySafetyKey, .startedOrResumedByUser, .controlPermissionLost, .reserved: break
        case .stoppedOrPausedByUser(let info): w.u8(info)
        case .targetSpeedChanged(let kmh): w.u16(rawValue(kmh, divisor: 100))
        case .targetInclineChanged(let pct): w.s16(rawValue(pct, divisor: 10))
        case .targetResistanceLevelChanged(let level): w.u8(rawValue(level, divisor: 10))
        case .targetPowerChanged(let watts): w.s16(watts)
        case .targetHeartRateChanged(let bpm): w.u8(bpm)
        case .targetedExpendedEnergyChanged(let calories): w.u16(calories)
        case .targetedStepsChanged(let steps): w.u16(steps)
        case .targetedStridesChanged(let strides): w.u16(strides)
        case .targetedDistanceChanged(let meters): w.u24(meters)
        case .targetedTrainingTimeChanged(let seconds): w.u16(seconds)
        case .targetedTimeInHeartRateZonesChanged(let zones): for z in normalisedZones(zones).zones { w.u16(z) }
        case .indoorBikeSimulationParametersChanged(let sim): sim.write(&w)
        case .wheelCircumferenceChanged(let mm): w.u16(rawValue(mm, divisor: 10))
        case .spinDownStatus(let status): w.u8(status)
        case .targetedCadenceChanged(let rpm): w.u16(rawValue(rpm, divisor: 2))
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let op = payload[0]
        f.append("op_code", .int(Int(op)))
        f.append("op_name", .string(Self.opName(op)))
        switch self {
        case .reset, .stoppedBySafetyKey, .startedOrResumedByUser, .controlPermissionLost, .reserved: break
        case .stoppedOrPausedByUser(let info): f.append("control_information", .int(info))
        case .targetSpeedChanged(let kmh): f.append("target_speed_kmh", .double(kmh))
        case .targetInclineChanged(let pct): f.append("target_inclination_pct", .double(pct))
        case .targetResistanceLevelChanged(let level): f.append("target_resistance_level", .double(level))
        case .targetPowerChanged(let watts): f.append("target_power_w", .int(watts))
        case .targetHeartRateChanged(let bpm): f.append("target_heart_rate_bpm", .int(bpm))
        case .targetedExpendedEnergyChanged(let calories): f.append("targeted_expended_energy_calories", .int(calories))
        case .targetedStepsChanged(let steps): f.append("targeted_steps", .int(steps))
        case .targetedStridesChanged(let strides): f.append("targeted_strides", .int(strides))
        case .targetedDistanceChanged(let meters): f.append("targeted_distance_m", .int(meters))
        case .targetedTrainingTimeChanged(let seconds): f.append("targeted_training_time_s", .int(seconds))
        case .targetedTimeInHeartRateZonesChanged(let zones): f.append("targeted_time_in_hr_zones_s", zonesField(zones))
        case .indoorBikeSimulationParametersChanged(let sim): sim.appendFields(to: &f)
        case .wheelCircumferenceChanged(let mm): f.append("wheel_circumference_mm", .double(mm))
        case .spinDownStatus(let status): f.append("spin_down_status", .int(status))
        case .targetedCadenceChanged(let rpm): f.append("targeted_cadence_rpm", .double(rpm))
        }
    }
}
