/// Parameter formats shared by the Fitness Machine Control Point (FTMS 1.0 §4.16.1,
/// Table 4.15) and the Fitness Machine Status (FTMS 1.0 §4.17, Table 4.24): a status op
/// code carries the same parameter as the request that would have caused it.

/// A target of the machine: what the app sets with a Control Point request (Table 4.15) and what
/// the machine reports changed in a Fitness Machine Status (Table 4.24), with one parameter format
/// for both. The targets are numbered by `slot`, in the order both tables list them (slot 15,
/// between wheel circumference and cadence, is spin down, which is not a target: its parameters
/// differ between request and status):
///
/// | slot | request op | status op | parameter |
/// |---|---|---|---|
/// | 0 | 0x02 | 0x05 | target_speed_kmh u16 ×0.01 |
/// | 1 | 0x03 | 0x06 | target_inclination_pct s16 ×0.1 |
/// | 2 | 0x04 | 0x07 | target_resistance_level u8 ×0.1 |
/// | 3 | 0x05 | 0x08 | target_power_w s16 |
/// | 4 | 0x06 | 0x09 | target_heart_rate_bpm u8 |
/// | 5 | 0x09 | 0x0A | targeted_expended_energy_calories u16 |
/// | 6 | 0x0A | 0x0B | targeted_steps u16 |
/// | 7 | 0x0B | 0x0C | targeted_strides u16 |
/// | 8 | 0x0C | 0x0D | targeted_distance_m u24 |
/// | 9 | 0x0D | 0x0E | targeted_training_time_s u16 |
/// | 10–12 | 0x0E–0x10 | 0x0F–0x11 | targeted_time_in_hr_zones_s 2/3/5 × u16 |
/// | 13 | 0x11 | 0x12 | wind_speed_mps s16 ×0.001, grade_pct s16 ×0.01, crr u8 ×0.0001, cw_kg_per_m u8 ×0.01 |
/// | 14 | 0x12 | 0x13 | wheel_circumference_mm u16 ×0.1 |
/// | 16 | 0x14 | 0x15 | targeted_cadence_rpm u16 ×0.5 |
///
/// A status op code is the slot + 0x05; a request op code is the slot + 0x02 up to the heart rate
/// and the slot + 0x04 after it (0x07 and 0x08 are start and stop).
public enum MachineTarget: Sendable, Equatable {
    case speed(kmh: Double)
    case inclination(pct: Double)
    /// uint8, 0.1.
    case resistanceLevel(Double)
    case power(watts: Int)
    case heartRate(bpm: Int)
    case expendedEnergy(calories: Int)
    case steps(Int)
    case strides(Int)
    case distance(meters: Int)
    case trainingTime(seconds: Int)
    /// 2, 3 or 5 zones (slot 10, 11, 12 by count; other counts are padded to the next size).
    case timeInHeartRateZones(seconds: [Int])
    case indoorBikeSimulation(BikeSimulationParameters)
    case wheelCircumference(mm: Double)
    case cadence(rpm: Double)

    /// Spin down's slot: in both tables' order, but not a target.
    static let spinDownSlot = 15

    /// The op names of each slot, as the specification's (snake_case): (request, status).
    static let names: [(request: String, status: String)] = [
        ("set_target_speed", "target_speed_changed"),
        ("set_target_inclination", "target_incline_changed"),
        ("set_target_resistance_level", "target_resistance_level_changed"),
        ("set_target_power", "target_power_changed"),
        ("set_target_heart_rate", "target_heart_rate_changed"),
        ("set_targeted_expended_energy", "targeted_expended_energy_changed"),
        ("set_targeted_number_of_steps", "targeted_number_of_steps_changed"),
        ("set_targeted_number_of_strides", "targeted_number_of_strides_changed"),
        ("set_targeted_distance", "targeted_distance_changed"),
        ("set_targeted_training_time", "targeted_training_time_changed"),
        ("set_targeted_time_in_two_heart_rate_zones", "targeted_time_in_two_heart_rate_zones_changed"),
        ("set_targeted_time_in_three_heart_rate_zones", "targeted_time_in_three_heart_rate_zones_changed"),
        ("set_targeted_time_in_five_heart_rate_zones", "targeted_time_in_five_heart_rate_zones_changed"),
        ("set_indoor_bike_simulation_parameters", "indoor_bike_simulation_parameters_changed"),
        ("set_wheel_circumference", "wheel_circumference_changed"),
        ("spin_down_control", "spin_down_status"),
        ("set_targeted_cadence", "targeted_cadence_changed"),
    ]

    var slot: Int {
        switch self {
        case .speed: 0
        case .inclination: 1
        case .resistanceLevel: 2
        case .power: 3
        case .heartRate: 4
        case .expendedEnergy: 5
        case .steps: 6
        case .strides: 7
        case .distance: 8
        case .trainingTime: 9
        case .timeInHeartRateZones(let zones): 10 + normalisedZones(zones).sizeIndex
        case .indoorBikeSimulation: 13
        case .wheelCircumference: 14
        case .cadence: 16
        }
    }

    var requestOpCode: UInt8 { Self.requestOpCode(slot: slot) }
    var statusOpCode: UInt8 { Self.statusOpCode(slot: slot) }
    static func requestOpCode(slot: Int) -> UInt8 { UInt8(slot < 5 ? slot + 0x02 : slot + 0x04) }
    static func statusOpCode(slot: Int) -> UInt8 { UInt8(slot + 0x05) }

    /// The slot of a request op code, nil for the ops that are not in the table.
    static func slot(requestOp op: UInt8) -> Int? {
        switch op {
        case 0x02...0x06: Int(op) - 0x02
        case 0x09...0x14: Int(op) - 0x04
        default: nil
        }
    }

    /// The slot of a status op code, nil for the ops that are not in the table.
    static func slot(statusOp op: UInt8) -> Int? { (0x05...0x15).contains(op) ? Int(op) - 0x05 : nil }

    /// The parameter of target `slot` (not `spinDownSlot`).
    static func read(slot: Int, _ c: inout ByteCursor) throws(DecodeError) -> MachineTarget {
        switch slot {
        case 0: .speed(kmh: scaled(try c.u16("target_speed_kmh"), 100))
        case 1: .inclination(pct: scaled(try c.s16("target_inclination_pct"), 10))
        case 2: .resistanceLevel(scaled(try c.u8("target_resistance_level"), 10))
        case 3: .power(watts: Int(try c.s16("target_power_w")))
        case 4: .heartRate(bpm: Int(try c.u8("target_heart_rate_bpm")))
        case 5: .expendedEnergy(calories: Int(try c.u16("targeted_expended_energy_calories")))
        case 6: .steps(Int(try c.u16("targeted_steps")))
        case 7: .strides(Int(try c.u16("targeted_strides")))
        case 8: .distance(meters: Int(try c.u24("targeted_distance_m")))
        case 9: .trainingTime(seconds: Int(try c.u16("targeted_training_time_s")))
        case 10, 11, 12: .timeInHeartRateZones(seconds: try readZones(&c, count: [2, 3, 5][slot - 10]))
        case 13: .indoorBikeSimulation(try BikeSimulationParameters.read(&c))
        case 14: .wheelCircumference(mm: scaled(try c.u16("wheel_circumference_mm"), 10))
        default: .cadence(rpm: scaled(try c.u16("targeted_cadence_rpm"), 2))
        }
    }

    func write(_ w: inout ByteWriter) {
        switch self {
        case .speed(let kmh): w.u16(rawValue(kmh, divisor: 100))
        case .inclination(let pct): w.s16(rawValue(pct, divisor: 10))
        case .resistanceLevel(let level): w.u8(rawValue(level, divisor: 10))
        case .power(let watts): w.s16(watts)
        case .heartRate(let bpm): w.u8(bpm)
        case .expendedEnergy(let value), .steps(let value), .strides(let value), .trainingTime(let value):
            w.u16(value)
        case .distance(let meters): w.u24(meters)
        case .timeInHeartRateZones(let zones): for z in normalisedZones(zones).zones { w.u16(z) }
        case .indoorBikeSimulation(let sim): sim.write(&w)
        case .wheelCircumference(let mm): w.u16(rawValue(mm, divisor: 10))
        case .cadence(let rpm): w.u16(rawValue(rpm, divisor: 2))
        }
    }

    func appendFields(to f: inout DecodedFields) {
        switch self {
        case .speed(let kmh): f.append("target_speed_kmh", .double(kmh))
        case .inclination(let pct): f.append("target_inclination_pct", .double(pct))
        case .resistanceLevel(let level): f.append("target_resistance_level", .double(level))
        case .power(let watts): f.append("target_power_w", .int(watts))
        case .heartRate(let bpm): f.append("target_heart_rate_bpm", .int(bpm))
        case .expendedEnergy(let calories): f.append("targeted_expended_energy_calories", .int(calories))
        case .steps(let steps): f.append("targeted_steps", .int(steps))
        case .strides(let strides): f.append("targeted_strides", .int(strides))
        case .distance(let meters): f.append("targeted_distance_m", .int(meters))
        case .trainingTime(let seconds): f.append("targeted_training_time_s", .int(seconds))
        case .timeInHeartRateZones(let zones): f.append("targeted_time_in_hr_zones_s", zonesField(zones))
        case .indoorBikeSimulation(let sim): sim.appendFields(to: &f)
        case .wheelCircumference(let mm): f.append("wheel_circumference_mm", .double(mm))
        case .cadence(let rpm): f.append("targeted_cadence_rpm", .double(rpm))
        }
    }
}

/// Indoor Bike Simulation Parameters (FTMS 1.0 §4.16.2.18): wind speed sint16 0.001 m/s,
/// grade sint16 0.01 %, rolling resistance coefficient uint8 0.0001, wind resistance
/// coefficient uint8 0.01 kg/m.
public struct BikeSimulationParameters: Sendable, Equatable {
    public var windSpeedMps: Double
    public var gradePct: Double
    public var crr: Double
    public var cwKgPerM: Double

    public init(windSpeedMps: Double, gradePct: Double, crr: Double, cwKgPerM: Double) {
        self.windSpeedMps = windSpeedMps
        self.gradePct = gradePct
        self.crr = crr
        self.cwKgPerM = cwKgPerM
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> BikeSimulationParameters {
        let wind = scaled(try c.s16("wind_speed_mps"), 1000)
        let grade = scaled(try c.s16("grade_pct"), 100)
        let crr = scaled(try c.u8("crr"), 10000)
        let cw = scaled(try c.u8("cw_kg_per_m"), 100)
        return BikeSimulationParameters(windSpeedMps: wind, gradePct: grade, crr: crr, cwKgPerM: cw)
    }

    func write(_ w: inout ByteWriter) {
        w.s16(rawValue(windSpeedMps, divisor: 1000))
        w.s16(rawValue(gradePct, divisor: 100))
        w.u8(rawValue(crr, divisor: 10000))
        w.u8(rawValue(cwKgPerM, divisor: 100))
    }

    func appendFields(to f: inout DecodedFields) {
        f.append("wind_speed_mps", .double(windSpeedMps))
        f.append("grade_pct", .double(gradePct))
        f.append("crr", .double(crr))
        f.append("cw_kg_per_m", .double(cwKgPerM))
    }
}

/// The targeted time in 2, 3 or 5 heart-rate zones: `count` uint16 seconds.
func readZones(_ c: inout ByteCursor, count: Int) throws(DecodeError) -> [Int] {
    try c.need(2 * count, "targeted_time_in_hr_zones_s")
    var zones: [Int] = []
    zones.reserveCapacity(count)
    for _ in 0..<count { zones.append(Int(try c.u16("targeted_time_in_hr_zones_s"))) }
    return zones
}

/// Zones normalised to 2, 3 or 5 entries (padded with 0, extra entries dropped), and the
/// index 0/1/2 of that size.
func normalisedZones(_ zones: [Int]) -> (zones: [Int], sizeIndex: Int) {
    let size = zones.count <= 2 ? 2 : zones.count == 3 ? 3 : 5
    var out = Array(zones.prefix(size))
    while out.count < size { out.append(0) }
    return (out, size == 2 ? 0 : size == 3 ? 1 : 2)
}

func zonesField(_ zones: [Int]) -> FieldValue { .list(zones.map { .int($0) }) }
