/// Parameter formats shared by the Fitness Machine Control Point (FTMS 1.0 §4.16.1,
/// Table 4.15) and the Fitness Machine Status (FTMS 1.0 §4.17, Table 4.24): a status op
/// code carries the same parameter as the request that would have caused it.

/// A target of the machine: what the app sets with a Control Point request (Table 4.15) and what
/// the machine reports changed in a Fitness Machine Status (Table 4.24), with one parameter format
/// for both. The targets are numbered by `slot`, in the order both tables list them, from target speed (0) to
/// targeted cadence (16); slot 15, between wheel circumference and cadence, is spin down, which is not a target (its
/// parameters differ between request and status). Each slot's op names and parameter fields are one row of `slots`.
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

    /// One row per slot, in both tables' order: the op names (snake_case, as the specification's) and the parameter's
    /// fields in wire order. Decoding, encoding and rendering follow it; only the zones (one list field) and spin down
    /// (no parameter here: it is not a target) are read or rendered apart.
    package static let slots: [(request: String, status: String, parameter: [Parameter])] = [
        ("set_target_speed", "target_speed_changed", [Parameter("target_speed_kmh", .u16, 100)]),
        ("set_target_inclination", "target_incline_changed", [Parameter("target_inclination_pct", .s16, 10)]),
        (
            "set_target_resistance_level", "target_resistance_level_changed",
            [Parameter("target_resistance_level", .u8, 10)]
        ),
        ("set_target_power", "target_power_changed", [Parameter("target_power_w", .s16, 1)]),
        ("set_target_heart_rate", "target_heart_rate_changed", [Parameter("target_heart_rate_bpm", .u8, 1)]),
        (
            "set_targeted_expended_energy", "targeted_expended_energy_changed",
            [Parameter("targeted_expended_energy_calories", .u16, 1)]
        ),
        ("set_targeted_number_of_steps", "targeted_number_of_steps_changed", [Parameter("targeted_steps", .u16, 1)]),
        (
            "set_targeted_number_of_strides", "targeted_number_of_strides_changed",
            [Parameter("targeted_strides", .u16, 1)]
        ),
        ("set_targeted_distance", "targeted_distance_changed", [Parameter("targeted_distance_m", .u24, 1)]),
        (
            "set_targeted_training_time", "targeted_training_time_changed",
            [Parameter("targeted_training_time_s", .u16, 1)]
        ),
        ("set_targeted_time_in_two_heart_rate_zones", "targeted_time_in_two_heart_rate_zones_changed", zones(2)),
        ("set_targeted_time_in_three_heart_rate_zones", "targeted_time_in_three_heart_rate_zones_changed", zones(3)),
        ("set_targeted_time_in_five_heart_rate_zones", "targeted_time_in_five_heart_rate_zones_changed", zones(5)),
        (
            "set_indoor_bike_simulation_parameters", "indoor_bike_simulation_parameters_changed",
            [
                Parameter("wind_speed_mps", .s16, 1000), Parameter("grade_pct", .s16, 100),
                Parameter("crr", .u8, 10000), Parameter("cw_kg_per_m", .u8, 100),
            ]
        ),
        ("set_wheel_circumference", "wheel_circumference_changed", [Parameter("wheel_circumference_mm", .u16, 10)]),
        ("spin_down_control", "spin_down_status", []),
        ("set_targeted_cadence", "targeted_cadence_changed", [Parameter("targeted_cadence_rpm", .u16, 2)]),
    ]

    /// One field of a parameter: contract name, wire type, divisor (1 for the integer fields).
    package struct Parameter: Sendable {
        package let name: String
        package let type: WireType
        package let divisor: Double
        init(_ name: String, _ type: WireType, _ divisor: Double) {
            (self.name, self.type, self.divisor) = (name, type, divisor)
        }
    }

    /// The targeted time in `count` heart-rate zones: `count` uint16 seconds, one list field.
    static func zones(_ count: Int) -> [Parameter] {
        Array(repeating: Parameter("targeted_time_in_hr_zones_s", .u16, 1), count: count)
    }

    package var slot: Int {
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

    /// The parameter's values in their units, in the order of its fields (`slots`).
    package var values: [Double] {
        switch self {
        case .speed(let value), .inclination(let value), .resistanceLevel(let value), .wheelCircumference(let value),
            .cadence(let value):
            [value]
        case .power(let value), .heartRate(let value), .expendedEnergy(let value), .steps(let value),
            .strides(let value), .distance(let value), .trainingTime(let value):
            [Double(value)]
        case .timeInHeartRateZones(let zones): normalisedZones(zones).zones.map(Double.init)
        case .indoorBikeSimulation(let p): [p.windSpeedMps, p.gradePct, p.crr, p.cwKgPerM]
        }
    }

    /// The target of `slot` (not `spinDownSlot`) with these values.
    init(slot: Int, values v: InlineArray<5, Double>) {
        self =
            switch slot {
            case 0: .speed(kmh: v[0])
            case 1: .inclination(pct: v[0])
            case 2: .resistanceLevel(v[0])
            case 3: .power(watts: Int(v[0]))
            case 4: .heartRate(bpm: Int(v[0]))
            case 5: .expendedEnergy(calories: Int(v[0]))
            case 6: .steps(Int(v[0]))
            case 7: .strides(Int(v[0]))
            case 8: .distance(meters: Int(v[0]))
            case 9: .trainingTime(seconds: Int(v[0]))
            case 10, 11, 12: .timeInHeartRateZones(seconds: (0..<[2, 3, 5][slot - 10]).map { Int(v[$0]) })
            case 13:
                .indoorBikeSimulation(
                    BikeSimulationParameters(windSpeedMps: v[0], gradePct: v[1], crr: v[2], cwKgPerM: v[3]))
            case 14: .wheelCircumference(mm: v[0])
            default: .cadence(rpm: v[0])
            }
    }

    /// The parameter of target `slot` (not `spinDownSlot`). The zones are checked whole first, so that a short list is
    /// one error for the list.
    static func read(slot: Int, _ c: inout ByteCursor) throws(DecodeError) -> MachineTarget {
        let fields = slots[slot].parameter
        if (10...12).contains(slot) { try c.need(2 * fields.count, "targeted_time_in_hr_zones_s") }
        var values = InlineArray<5, Double>(repeating: 0) // no allocation for a status record
        for (i, field) in fields.enumerated() { values[i] = Double(try c.read(field.type, field.name)) / field.divisor }
        return MachineTarget(slot: slot, values: values)
    }

    func write(_ w: inout ByteWriter) {
        for (field, value) in zip(Self.slots[slot].parameter, values) {
            w.write(field.type, rawValue(value, divisor: field.divisor))
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
}

/// Zones normalised to 2, 3 or 5 entries (padded with 0, extra entries dropped), and the
/// index 0/1/2 of that size.
func normalisedZones(_ zones: [Int]) -> (zones: [Int], sizeIndex: Int) {
    let size = zones.count <= 2 ? 2 : zones.count == 3 ? 3 : 5
    var out = Array(zones.prefix(size))
    while out.count < size { out.append(0) }
    return (out, size == 2 ? 0 : size == 3 ? 1 : 2)
}
