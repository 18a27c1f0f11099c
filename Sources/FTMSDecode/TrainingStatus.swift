/// Training Status (0x2AD3), Fitness Machine Service 1.0 §4.10: uint8 flags (bit 0
/// Training Status String present, bit 1 Extended String), uint8 Training Status, and when
/// bit 0 is set a UTF-8 string filling the rest of the value (possibly empty).
public struct TrainingStatus: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2AD3
    public static let characteristicName = "training_status"

    /// The Training Status values 0x00–0x0F (FTMS 1.0 §4.10.1.2, Table 4.20).
    public static let names = [
        "other", "idle", "warming_up", "low_intensity_interval", "high_intensity_interval",
        "recovery_interval", "isometric", "heart_rate_control", "fitness_test",
        "speed_outside_control_region_low", "speed_outside_control_region_high", "cool_down",
        "watt_control", "manual_mode_quick_start", "pre_workout", "post_workout",
    ]

    public static func statusName(_ status: UInt8) -> String {
        Int(status) < names.count ? names[Int(status)] : "reserved"
    }

    /// Raw Training Status (see `names`).
    public var status: UInt8
    /// Flags bit 1.
    public var extendedString: Bool
    /// Flags bit 0: the string (possibly empty); nil when the bit is clear.
    public var statusString: String?

    public init(status: UInt8, statusString: String? = nil, extendedString: Bool = false) {
        self.status = status
        self.statusString = statusString
        self.extendedString = extendedString
    }

    public var statusName: String { Self.statusName(status) }

    public var flags: UInt8 { (statusString != nil ? 1 : 0) | (extendedString ? 2 : 0) }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> TrainingStatus { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> TrainingStatus {
        try decodeBytes(bytes)
    }

    package static func read(_ c: inout ByteCursor) throws(DecodeError) -> TrainingStatus {
        let flags = try c.u8("flags")
        let status = try c.u8("training_status")
        var v = TrainingStatus(status: status, extendedString: flags & 2 != 0)
        if flags & 1 != 0 { v.statusString = String(decoding: c.rest(), as: UTF8.self) }
        return v
    }

    /// Only the Training Status byte (no string allocation), with the same errors as `decode(bytes:)`.
    public static func decodeStatus(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> UInt8 {
        var c = ByteCursor(bytes)
        _ = try c.u8("flags")
        return try c.u8("training_status")
    }

    /// The value: flags, status, then the string's UTF-8 (truncated to fit one 244-octet
    /// blob record, at a character boundary).
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 2 + (statusString?.utf8.count ?? 0))
        w.u8(flags)
        w.u8(status)
        if let statusString { w.bytes += utf8(statusString, budget: BlobReader.maxPayloadLength - 2) }
        return w.bytes
    }
}
