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
public enum ControlPointRequest: Sendable, Equatable, OpCodeMessage {
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

    /// Every op code once, with its name (snake_case of the specification's; `"reserved"`
    /// otherwise) and its parameter.
    static func operation(_ op: UInt8) -> Operation<ControlPointRequest> {
        switch op {
        case 0x00: ("request_control", .none, { _ in .requestControl })
        case 0x01: ("reset", .none, { _ in .reset })
        case 0x02: ("set_target_speed", .targetSpeed, { .setTargetSpeed(kmh: $0.double) })
        case 0x03: ("set_target_inclination", .targetInclination, { .setTargetInclination(pct: $0.double) })
        case 0x04:
            ("set_target_resistance_level", .targetResistanceLevel, { .setTargetResistanceLevel(level: $0.double) })
        case 0x05: ("set_target_power", .targetPower, { .setTargetPower(watts: $0.int) })
        case 0x06: ("set_target_heart_rate", .targetHeartRate, { .setTargetHeartRate(bpm: $0.int) })
        case 0x07: ("start_or_resume", .none, { _ in .startOrResume })
        case 0x08: ("stop_or_pause", .controlInformation, { .stopOrPause(controlInformation: $0.int) })
        case 0x09:
            ("set_targeted_expended_energy", .targetedExpendedEnergy, { .setTargetedExpendedEnergy(calories: $0.int) })
        case 0x0A: ("set_targeted_number_of_steps", .targetedSteps, { .setTargetedNumberOfSteps(steps: $0.int) })
        case 0x0B:
            ("set_targeted_number_of_strides", .targetedStrides, { .setTargetedNumberOfStrides(strides: $0.int) })
        case 0x0C: ("set_targeted_distance", .targetedDistance, { .setTargetedDistance(meters: $0.int) })
        case 0x0D: ("set_targeted_training_time", .targetedTrainingTime, { .setTargetedTrainingTime(seconds: $0.int) })
        case 0x0E: ("set_targeted_time_in_two_heart_rate_zones", .zones(count: 2), zoneTimes)
        case 0x0F: ("set_targeted_time_in_three_heart_rate_zones", .zones(count: 3), zoneTimes)
        case 0x10: ("set_targeted_time_in_five_heart_rate_zones", .zones(count: 5), zoneTimes)
        case 0x11:
            (
                "set_indoor_bike_simulation_parameters", .simulation,
                { .setIndoorBikeSimulationParameters($0.simulation) }
            )
        case 0x12: ("set_wheel_circumference", .wheelCircumference, { .setWheelCircumference(mm: $0.double) })
        case 0x13: ("spin_down_control", .scalar("spin_down_control", .u8, divisor: nil), { .spinDownControl($0.int) })
        case 0x14: ("set_targeted_cadence", .targetedCadence, { .setTargetedCadence(rpm: $0.double) })
        case 0x80: ("response_code", .none, nil)
        default: ("reserved", .none, nil)
        }
    }

    private static let zoneTimes: (ParameterValue) -> Self = { .setTargetedTimeInHeartRateZones(seconds: $0.zones) }

    /// The case as its op code and parameter value (`operation(op).make` is the way back).
    var parts: (op: UInt8, parameter: ParameterValue) {
        switch self {
        case .requestControl: (0x00, .none)
        case .reset: (0x01, .none)
        case .setTargetSpeed(let kmh): (0x02, .double(kmh))
        case .setTargetInclination(let pct): (0x03, .double(pct))
        case .setTargetResistanceLevel(let level): (0x04, .double(level))
        case .setTargetPower(let watts): (0x05, .int(watts))
        case .setTargetHeartRate(let bpm): (0x06, .int(bpm))
        case .startOrResume: (0x07, .none)
        case .stopOrPause(let info): (0x08, .int(info))
        case .setTargetedExpendedEnergy(let calories): (0x09, .int(calories))
        case .setTargetedNumberOfSteps(let steps): (0x0A, .int(steps))
        case .setTargetedNumberOfStrides(let strides): (0x0B, .int(strides))
        case .setTargetedDistance(let meters): (0x0C, .int(meters))
        case .setTargetedTrainingTime(let seconds): (0x0D, .int(seconds))
        case .setTargetedTimeInHeartRateZones(let zones):
            (0x0E + UInt8(normalisedZones(zones).sizeIndex), .zones(zones))
        case .setIndoorBikeSimulationParameters(let sim): (0x11, .simulation(sim))
        case .setWheelCircumference(let mm): (0x12, .double(mm))
        case .spinDownControl(let control): (0x13, .int(control))
        case .setTargetedCadence(let rpm): (0x14, .double(rpm))
        case .reserved(let op): (op, .none)
        }
    }

    public var opCode: UInt8 { parts.op }

    /// snake_case of the specification's op code names; `"reserved"` otherwise.
    public static func opName(_ op: UInt8) -> String { operation(op).name }

    /// The value the app writes: op code, then the parameter.
    public func encode() -> [UInt8] { encodeMessage() }

    func appendFields(to f: inout DecodedFields) { appendMessageFields(op: opCode, to: &f) }
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
