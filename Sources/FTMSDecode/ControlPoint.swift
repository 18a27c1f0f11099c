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

    package static func read(_ c: inout ByteCursor) throws(DecodeError) -> ControlPointMessage {
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
}

/// A Control Point request (FTMS 1.0 §4.16.1, Table 4.15). The op codes 0x02–0x06 and
/// 0x09–0x14 set a target (`MachineTarget`, where the numbering is), except 0x13, spin down.
public enum ControlPointRequest: Sendable, Equatable {
    case requestControl
    case reset
    case setTarget(MachineTarget)
    case startOrResume
    /// 1 stop, 2 pause.
    case stopOrPause(controlInformation: Int)
    /// 1 start, 2 ignore.
    case spinDownControl(Int)
    /// An op code the specification reserves; no parameter is read.
    case reserved(opCode: UInt8)

    static let spinDownOpCode = MachineTarget.requestOpCode(slot: MachineTarget.spinDownSlot)

    public var opCode: UInt8 {
        switch self {
        case .requestControl: 0x00
        case .reset: 0x01
        case .setTarget(let target): target.requestOpCode
        case .startOrResume: 0x07
        case .stopOrPause: 0x08
        case .spinDownControl: Self.spinDownOpCode
        case .reserved(let op): op
        }
    }

    /// snake_case of the specification's op code names; `"reserved"` otherwise.
    public static func opName(_ op: UInt8) -> String {
        switch op {
        case 0x00: "request_control"
        case 0x01: "reset"
        case 0x07: "start_or_resume"
        case 0x08: "stop_or_pause"
        case 0x80: "response_code"
        default: MachineTarget.slot(requestOp: op).map { MachineTarget.slots[$0].request } ?? "reserved"
        }
    }

    static func read(op: UInt8, _ c: inout ByteCursor) throws(DecodeError) -> ControlPointRequest {
        switch op {
        case 0x00: return .requestControl
        case 0x01: return .reset
        case 0x07: return .startOrResume
        case 0x08: return .stopOrPause(controlInformation: Int(try c.u8("control_information")))
        case Self.spinDownOpCode: return .spinDownControl(Int(try c.u8("spin_down_control")))
        default:
            guard let slot = MachineTarget.slot(requestOp: op) else { return .reserved(opCode: op) }
            return .setTarget(try MachineTarget.read(slot: slot, &c))
        }
    }

    /// The value the app writes: op code, then the parameter.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 12)
        w.u8(opCode)
        switch self {
        case .requestControl, .reset, .startOrResume, .reserved: break
        case .setTarget(let target): target.write(&w)
        case .stopOrPause(let info): w.u8(info)
        case .spinDownControl(let control): w.u8(control)
        }
        return w.bytes
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
        if request == ControlPointRequest.spinDownOpCode && result == 0x01 && c.remaining >= 4 {
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
}
