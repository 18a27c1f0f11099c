/// Fitness Machine Control Point (0x2AD9), FTMS 1.0 §4.16: the app writes a request (op
/// code + parameter, Table 4.15); the machine indicates a response (op 0x80 Response Code,
/// request op code, result code, and for a successful Spin Down Control start the target
/// speed low and high, §4.16.2.20).
public enum ControlPointMessage: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2AD9
    public static let characteristicName = "fitness_machine_control_point"

    case request(ControlPointRequest)
    case response(ControlPointResponse)

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ControlPointMessage {
        try decodeArray(payload)
    }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> ControlPointMessage {
        try decodeBytes(bytes)
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> ControlPointMessage {
        let op = try c.u8("op_code")
        if op == ControlPointResponse.opCode { return .response(try ControlPointResponse.read(&c)) }
        return .request(try ControlPointRequest.read(op: op, &c))
    }

    public func encode() -> [UInt8] {
        switch self {
        case .request(let request): request.encode()
        case .response(let response): response.encode()
        }
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        switch self {
        case .request(let request): request.appendFields(to: &f)
        case .response(let response): response.appendFields(to: &f)
        }
    }
}

/// A Control Point request (FTMS 1.0 §4.16.1, Table 4.15).
public enum ControlPointRequest: Sendable, Equatable {
    case requestControl
    case reset
    case setTargetSpeed(kmh: Double)
    case setTargetInclination(pct: Double)
    /// uint8, 0.1.
    case setTargetResistanceLevel(level: Double)
    case setTargetPower(watts: Int)
    case setTargetHeartRate(bpm: Int)
    case startOrResume
    /// 1 stop, 2 pause.
    case stopOrPause(controlInformation: Int)
    case setTargetedExpendedEnergy(calories: Int)
    case setTargetedNumberOfSteps(steps: Int)
    case setTargetedNumberOfStrides(strides: Int)
    case setTargetedDistance(meters: Int)
    case setTargetedTrainingTime(seconds: Int)
    /// 2, 3 or 5 zones (op 0x0E, 0x0F, 0x10 by count; other counts are padded to the next size).
    case setTargetedTimeInHeartRateZones(seconds: [Int])
    case setIndoorBikeSimulationParameters(BikeSimulationParameters)
    case setWheelCircumference(mm: Double)
    /// 1 start, 2 ignore.
    case spinDownControl(Int)
    case setTargetedCadence(rpm: Double)
    /// An op code the specification reserves; no parameter is read.
    case reserved(opCode: UInt8)

    public var opCode: UInt8 {
        switch self {
        case .requestControl: 0x00
        case .reset: 0x01
        case .setTargetSpeed: 0x02
        case .setTargetInclination: 0x03
        case .setTargetResistanceLevel: 0x04
        case .setTargetPower: 0x05
        case .setTargetHeartRate: 0x06
        case .startOrResume: 0x07
        case .stopOrPause: 0x08
        case .setTargetedExpendedEnergy: 0x09
        case .setTargetedNumberOfSteps: 0x0A
        case .setTargetedNumberOfStrides: 0x0B
        case .setTargetedDistance: 0x0C
        case .setTargetedTrainingTime: 0x0D
        case .setTargetedTimeInHeartRateZones(let zones): 0x0E + UInt8(normalisedZones(zones).sizeIndex)
        case .setIndoorBikeSimulationParameters: 0x11
        case .setWheelCircumference: 0x12
        case .spinDownControl: 0x13
        case .setTargetedCadence: 0x14
        case .reserved(let op): op
        }
    }

    /// snake_case of the specification's op code names; `"reserved"` otherwise.
    public static func opName(_ op: UInt8) -> String {
        switch op {
        case 0x00: "request_control"
        case 0x01: "reset"
        case 0x02: "set_target_speed"
        case 0x03: "set_target_inclination"
        case 0x04: "set_target_resistance_level"
        case 0x05: "set_target_power"
        case 0x06: "set_target_heart_rate"
        case 0x07: "start_or_resume"
        case 0x08: "stop_or_pause"
        case 0x09: "set_targeted_expended_energy"
        case 0x0A: "set_targeted_number_of_steps"
        case 0x0B: "set_targeted_number_of_strides"
        case 0x0C: "set_targeted_distance"
        case 0x0D: "set_targeted_training_time"
        case 0x0E: "set_targeted_time_in_two_heart_rate_zones"
        case 0x0F: "set_targeted_time_in_three_heart_rate_zones"
        case 0x10: "set_targeted_time_in_five_heart_rate_zones"
        case 0x11: "set_indoor_bike_simulation_parameters"
        case 0x12: "set_wheel_circumference"
        case 0x13: "spin_down_control"
        case 0x14: "set_targeted_cadence"
        case 0x80: "response_code"
        default: "reserved"
        }
    }

    static func read(op: UInt8, _ c: inout ByteCursor) throws(DecodeError) -> ControlPointRequest {
        switch op {
        case 0x00: return .requestControl
        case 0x01: return .reset
        case 0x02: return .setTargetSpeed(kmh: scaled(try c.u16("target_speed_kmh"), 100))
        case 0x03: return .setTargetInclination(pct: scaled(try c.s16("target_inclination_pct"), 10))
        case 0x04: return .setTargetResistanceLevel(level: scaled(try c.u8("target_resistance_level"), 10))
        case 0x05: return .setTargetPower(watts: Int(try c.s16("target_power_w")))
        case 0x06: return .setTargetHeartRate(bpm: Int(try c.u8("target_heart_rate_bpm")))
        case 0x07: return .startOrResume
        case 0x08: return .stopOrPause(controlInformation: Int(try c.u8("control_information")))
        case 0x09: return .setTargetedExpendedEnergy(calories: Int(try c.u16("targeted_expended_energy_calories")))
        case 0x0A: return .setTargetedNumberOfSteps(steps: Int(try c.u16("targeted_steps")))
        case 0x0B: return .setTargetedNumberOfStrides(strides: Int(try c.u16("targeted_strides")))
        case 0x0C: return .setTargetedDistance(meters: Int(try c.u24("targeted_distance_m")))
        case 0x0D: return .setTargetedTrainingTime(seconds: Int(try c.u16("targeted_training_time_s")))
        case 0x0E: return .setTargetedTimeInHeartRateZones(seconds: try readZones(&c, count: 2))
        case 0x0F: return .setTargetedTimeInHeartRateZones(seconds: try readZones(&c, count: 3))
        case 0x10: return .setTargetedTimeInHeartRateZones(seconds: try readZones(&c, count: 5))
        case 0x11: return .setIndoorBikeSimulationParameters(try BikeSimulationParameters.read(&c))
        case 0x12: return .setWheelCircumference(mm: scaled(try c.u16("wheel_circumference_mm"), 10))
        case 0x13: return .spinDownControl(Int(try c.u8("spin_down_control")))
        case 0x14: return .setTargetedCadence(rpm: scaled(try c.u16("targeted_cadence_rpm"), 2))
        default: return .reserved(opCode: op)
        }
    }

    /// The value the app writes: op code, then the parameter.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 12)
        w.u8(opCode)
        switch self {
        case .requestControl, .reset, .startOrResume, .reserved: break
        case .setTargetSpeed(let kmh): w.u16(rawValue(kmh, divisor: 100))
        case .setTargetInclination(let pct): w.s16(rawValue(pct, divisor: 10))
        case .setTargetResistanceLevel(let level): w.u8(rawValue(level, divisor: 10))
        case .setTargetPower(let watts): w.s16(watts)
        case .setTargetHeartRate(let bpm): w.u8(bpm)
        case .stopOrPause(let info): w.u8(info)
        case .setTargetedExpendedEnergy(let calories): w.u16(calories)
        case .setTargetedNumberOfSteps(let steps): w.u16(steps)
        case .setTargetedNumberOfStrides(let strides): w.u16(strides)
        case .setTargetedDistance(let meters): w.u24(meters)
        case .setTargetedTrainingTime(let seconds): w.u16(seconds)
        case .setTargetedTimeInHeartRateZones(let zones): for z in normalisedZones(zones).zones { w.u16(z) }
        case .setIndoorBikeSimulationParameters(let sim): sim.write(&w)
        case .setWheelCircumference(let mm): w.u16(rawValue(mm, divisor: 10))
        case .spinDownControl(let control): w.u8(control)
        case .setTargetedCadence(let rpm): w.u16(rawValue(rpm, divisor: 2))
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields) {
        f.append("op_code", .int(Int(opCode)))
        f.append("op_name", .string(Self.opName(opCode)))
        switch self {
        case .requestControl, .reset, .startOrResume, .reserved: break
        case .setTargetSpeed(let kmh): f.append("target_speed_kmh", .double(kmh))
        case .setTargetInclination(let pct): f.append("target_inclination_pct", .double(pct))
        case .setTargetResistanceLevel(let level): f.append("target_resistance_level", .double(level))
        case .setTargetPower(let watts): f.append("target_power_w", .int(watts))
        case .setTargetHeartRate(let bpm): f.append("target_heart_rate_bpm", .int(bpm))
        case .stopOrPause(let info): f.append("control_information", .int(info))
        case .setTargetedExpendedEnergy(let calories): f.append("targeted_expended_energy_calories", .int(calories))
        case .setTargetedNumberOfSteps(let steps): f.append("targeted_steps", .int(steps))
        case .setTargetedNumberOfStrides(let strides): f.append("targeted_strides", .int(strides))
        case .setTargetedDistance(let meters): f.append("targeted_distance_m", .int(meters))
        case .setTargetedTrainingTime(let seconds): f.append("targeted_training_time_s", .int(seconds))
        case .setTargetedTimeInHeartRateZones(let zones): f.append("targeted_time_in_hr_zones_s", zonesField(zones))
        case .setIndoorBikeSimulationParameters(let sim): sim.appendFields(to: &f)
        case .setWheelCircumference(let mm): f.append("wheel_circumference_mm", .double(mm))
        case .spinDownControl(let control): f.append("spin_down_control", .int(control))
        case .setTargetedCadence(let rpm): f.append("targeted_cadence_rpm", .double(rpm))
        }
    }
}

/// A Control Point response (FTMS 1.0 §4.16.2.22, Table 4.23): op 0x80, the request's op
/// code, the result code (0x01 success, 0x02 op code not supported, 0x03 invalid parameter,
/// 0x04 operation failed, 0x05 control not permitted, others reserved).
public struct ControlPointResponse: Sendable, Equatable {
    public static let opCode: UInt8 = 0x80

    public var requestOpCode: UInt8
    public var resultCode: UInt8
    /// Only for request 0x13 (Spin Down Control) with success: uint16 ×0.01 km/h.
    public var targetSpeedLowKmh: Double?
    public var targetSpeedHighKmh: Double?

    public init(
        requestOpCode: UInt8, resultCode: UInt8, targetSpeedLowKmh: Double? = nil, targetSpeedHighKmh: Double? = nil
    ) {
        self.requestOpCode = requestOpCode
        self.resultCode = resultCode
        self.targetSpeedLowKmh = targetSpeedLowKmh
        self.targetSpeedHighKmh = targetSpeedHighKmh
    }

    public static func resultName(_ code: UInt8) -> String {
        switch code {
        case 0x01: "success"
        case 0x02: "op_code_not_supported"
        case 0x03: "invalid_parameter"
        case 0x04: "operation_failed"
        case 0x05: "control_not_permitted"
        default: "reserved"
        }
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> ControlPointResponse {
        let request = try c.u8("request_op_code")
        let result = try c.u8("result_code")
        var v = ControlPointResponse(requestOpCode: request, resultCode: result)
        if request == 0x13 && result == 0x01 && c.remaining >= 4 {
            v.targetSpeedLowKmh = scaled(try c.u16("target_speed_low_kmh"), 100)
            v.targetSpeedHighKmh = scaled(try c.u16("target_speed_high_kmh"), 100)
        }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 7)
        w.u8(Self.opCode)
        w.u8(requestOpCode)
        w.u8(resultCode)
        if targetSpeedLowKmh != nil || targetSpeedHighKmh != nil {
            w.u16(rawValue(targetSpeedLowKmh ?? 0, divisor: 100))
            w.u16(rawValue(targetSpeedHighKmh ?? 0, divisor: 100))
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields) {
        f.append("op_code", .int(Int(Self.opCode)))
        f.append("op_name", .string("response_code"))
        f.append("request_op_code", .int(Int(requestOpCode)))
        f.append("request_op_name", .string(ControlPointRequest.opName(requestOpCode)))
        f.append("result_code", .int(Int(resultCode)))
        f.append("result_name", .string(Self.resultName(resultCode)))
        if let targetSpeedLowKmh { f.append("target_speed_low_kmh", .double(targetSpeedLowKmh)) }
        if let targetSpeedHighKmh { f.append("target_speed_high_kmh", .double(targetSpeedHighKmh)) }
    }
}
