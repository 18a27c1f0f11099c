/// Parameter formats shared by the Fitness Machine Control Point (FTMS 1.0 §4.16.1,
/// Table 4.15) and the Fitness Machine Status (FTMS 1.0 §4.17, Table 4.24): a status op
/// code carries the same parameter as the request that would have caused it.

/// How an op code's parameter is sent, each written once here; the request and the status
/// list their op codes against these (`ControlPointRequest.operation`,
/// `FitnessMachineStatus.operation`), and reading, encoding and rendering follow from that.
enum ParameterFormat: Sendable {
    case none
    /// One field: contract name, wire type, and the divisor of a fractional value (nil for
    /// an integer).
    case scalar(String, WireType, divisor: Double?)
    /// `count` uint16 seconds (2, 3 or 5 heart-rate zones).
    case zones(count: Int)
    case simulation

    static let targetSpeed = scalar("target_speed_kmh", .u16, divisor: 100)
    static let targetInclination = scalar("target_inclination_pct", .s16, divisor: 10)
    static let targetResistanceLevel = scalar("target_resistance_level", .u8, divisor: 10)
    static let targetPower = scalar("target_power_w", .s16, divisor: nil)
    static let targetHeartRate = scalar("target_heart_rate_bpm", .u8, divisor: nil)
    /// 1 stop, 2 pause.
    static let controlInformation = scalar("control_information", .u8, divisor: nil)
    static let targetedExpendedEnergy = scalar("targeted_expended_energy_calories", .u16, divisor: nil)
    static let targetedSteps = scalar("targeted_steps", .u16, divisor: nil)
    static let targetedStrides = scalar("targeted_strides", .u16, divisor: nil)
    static let targetedDistance = scalar("targeted_distance_m", .u24, divisor: nil)
    static let targetedTrainingTime = scalar("targeted_training_time_s", .u16, divisor: nil)
    static let wheelCircumference = scalar("wheel_circumference_mm", .u16, divisor: 10)
    static let targetedCadence = scalar("targeted_cadence_rpm", .u16, divisor: 2)

    func read(_ c: inout ByteCursor) throws(DecodeError) -> ParameterValue {
        switch self {
        case .none: return .none
        case .scalar(let name, let type, let divisor):
            let raw: Int
            switch type {
            case .u8: raw = Int(try c.u8(name))
            case .s16: raw = Int(try c.s16(name))
            case .u24: raw = Int(try c.u24(name))
            default: raw = Int(try c.u16(name)) // .u16; no parameter is of another type
            }
            return divisor.map { .double(Double(raw) / $0) } ?? .int(raw)
        case .zones(let count): return .zones(try readZones(&c, count: count))
        case .simulation: return .simulation(try BikeSimulationParameters.read(&c))
        }
    }

    /// Writes `value` as this format sends it (nothing for `.none`: a reserved op code).
    func write(_ value: ParameterValue, _ w: inout ByteWriter) {
        switch (self, value) {
        case (.scalar(_, let type, nil), .int(let v)): w.write(type, v)
        case (.scalar(_, let type, let divisor?), .double(let v)): w.write(type, rawValue(v, divisor: divisor))
        case (_, .zones(let zones)): for z in normalisedZones(zones).zones { w.u16(z) }
        case (_, .simulation(let sim)): sim.write(&w)
        default: break
        }
    }

    /// A physical value as this scalar format carries it (an integer rounded to the nearest).
    func value(_ x: Double) -> ParameterValue {
        if case .scalar(_, _, nil) = self { .int(rawValue(x, divisor: 1)) } else { .double(x) }
    }

    func append(_ value: ParameterValue, to f: inout DecodedFields) {
        switch (self, value) {
        case (.scalar(let name, _, _), .int(let v)): f.append(name, .int(v))
        case (.scalar(let name, _, _), .double(let v)): f.append(name, .double(v))
        case (_, .zones(let zones)): f.append("targeted_time_in_hr_zones_s", .list(zones.map { .int($0) }))
        case (_, .simulation(let sim)): sim.appendFields(to: &f)
        default: break
        }
    }
}

/// One op code of the request or the status: its name, its parameter, and the case made from
/// the parameter as read (nil for a reserved op code).
typealias Operation<Value> = (name: String, parameter: ParameterFormat, make: ((ParameterValue) -> Value)?)

/// A Control Point request or a Fitness Machine Status: an op code, then its parameter. The
/// conforming enum gives its op table and the way from a case to its op code and parameter;
/// reading, encoding and rendering are these, shared.
protocol OpCodeMessage {
    static func operation(_ op: UInt8) -> Operation<Self>
    static func reserved(opCode: UInt8) -> Self
    var parts: (op: UInt8, parameter: ParameterValue) { get }
}

extension OpCodeMessage {
    /// The parameter of `op`, read after the op code.
    static func read(op: UInt8, _ c: inout ByteCursor) throws(DecodeError) -> Self {
        let operation = operation(op)
        return try operation.make?(operation.parameter.read(&c)) ?? .reserved(opCode: op)
    }

    func encodeMessage() -> [UInt8] {
        let (op, parameter) = parts
        var w = ByteWriter(capacity: 12)
        w.u8(op)
        Self.operation(op).parameter.write(parameter, &w)
        return w.bytes
    }

    /// `op_code`, `op_name`, then the parameter's fields.
    func appendMessageFields(op: UInt8, to f: inout DecodedFields) {
        f.append("op_code", .int(Int(op)))
        f.append("op_name", .string(Self.operation(op).name))
        Self.operation(op).parameter.append(parts.parameter, to: &f)
    }
}

/// A parameter as a request or status case carries it. An op code's `make` is given what its
/// format reads, so the accessors' fallbacks are never used.
enum ParameterValue: Sendable, Equatable {
    case none
    case int(Int)
    case double(Double)
    case zones([Int])
    case simulation(BikeSimulationParameters)

    var int: Int { if case .int(let v) = self { v } else { 0 } }
    var double: Double { if case .double(let v) = self { v } else { 0 } }
    /// An integer or a fractional value as a number.
    var number: Double { if case .int(let v) = self { Double(v) } else { double } }
    var zones: [Int] { if case .zones(let v) = self { v } else { [] } }
    var simulation: BikeSimulationParameters {
        if case .simulation(let v) = self {
            v
        } else {
            BikeSimulationParameters(windSpeedMps: 0, gradePct: 0, crr: 0, cwKgPerM: 0)
        }
    }
}

extension ByteWriter {
    /// A parameter's raw integer, saturated to its wire type.
    mutating func write(_ type: WireType, _ value: Int) {
        switch type {
        case .u8: u8(value)
        case .s16: s16(value)
        case .u24: u24(value)
        default: u16(value) // .u16; no parameter is of another type
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

    /// The four fields, in wire order.
    static let fields: [ParameterFormat] = [
        .scalar("wind_speed_mps", .s16, divisor: 1000), .scalar("grade_pct", .s16, divisor: 100),
        .scalar("crr", .u8, divisor: 10000), .scalar("cw_kg_per_m", .u8, divisor: 100),
    ]
    var values: [Double] { [windSpeedMps, gradePct, crr, cwKgPerM] }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> BikeSimulationParameters {
        var v: [Double] = []
        for field in fields { v.append(try field.read(&c).number) }
        return BikeSimulationParameters(windSpeedMps: v[0], gradePct: v[1], crr: v[2], cwKgPerM: v[3])
    }

    func write(_ w: inout ByteWriter) { for (field, x) in zip(Self.fields, values) { field.write(.double(x), &w) } }

    func appendFields(to f: inout DecodedFields) {
        for (field, x) in zip(Self.fields, values) { field.append(.double(x), to: &f) }
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
