/// Fitness Machine Status (0x2ADA), FTMS 1.0 §4.17 (Table 4.24): an op code and its parameter.
/// The op codes 0x05–0x15 report a target changed, with the parameter of the Control Point request
/// that sets it (`MachineTarget`, where the numbering of both tables is): target speed changed
/// 0x05, …, targeted cadence changed 0x15. The others:
///
/// | op | name | parameter |
/// |---|---|---|
/// | 0x01 | reset | — |
/// | 0x02 | stopped_or_paused_by_user | control_information u8 (1 stop, 2 pause) |
/// | 0x03 | stopped_by_safety_key | — |
/// | 0x04 | started_or_resumed_by_user | — |
/// | 0x14 | spin_down_status | spin_down_status u8 (1 requested, 2 success, 3 error, 4 stop pedalling) |
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
    /// Op codes 0x05–0x13 and 0x15.
    case targetChanged(MachineTarget)
    /// 1 spin down requested, 2 success, 3 error, 4 stop pedalling.
    case spinDownStatus(Int)
    case controlPermissionLost
    /// An op code the specification reserves; no parameter is read.
    case reserved(opCode: UInt8)

    static let spinDownOpCode = MachineTarget.statusOpCode(slot: MachineTarget.spinDownSlot)

    public var opCode: UInt8 {
        switch self {
        case .reset: 0x01
        case .stoppedOrPausedByUser: 0x02
        case .stoppedBySafetyKey: 0x03
        case .startedOrResumedByUser: 0x04
        case .targetChanged(let target): target.statusOpCode
        case .spinDownStatus: Self.spinDownOpCode
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
        case 0xFF: "control_permission_lost"
        default: MachineTarget.slot(statusOp: op).map { MachineTarget.slots[$0].status } ?? "reserved"
        }
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> FitnessMachineStatus {
        try decodeArray(payload)
    }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> FitnessMachineStatus {
        try decodeBytes(bytes)
    }

    package static func read(_ c: inout ByteCursor) throws(DecodeError) -> FitnessMachineStatus {
        let op = try c.u8("op_code")
        switch op {
        case 0x01: return .reset
        case 0x02: return .stoppedOrPausedByUser(controlInformation: Int(try c.u8("control_information")))
        case 0x03: return .stoppedBySafetyKey
        case 0x04: return .startedOrResumedByUser
        case Self.spinDownOpCode: return .spinDownStatus(Int(try c.u8("spin_down_status")))
        case 0xFF: return .controlPermissionLost
        default:
            guard let slot = MachineTarget.slot(statusOp: op) else { return .reserved(opCode: op) }
            return .targetChanged(try MachineTarget.read(slot: slot, &c))
        }
    }

    /// The notification payload: op code, then the parameter.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 12)
        w.u8(opCode)
        switch self {
        case .reset, .stoppedBySafetyKey, .startedOrResumedByUser, .controlPermissionLost, .reserved: break
        case .stoppedOrPausedByUser(let info): w.u8(info)
        case .targetChanged(let target): target.write(&w)
        case .spinDownStatus(let status): w.u8(status)
        }
        return w.bytes
    }
}
