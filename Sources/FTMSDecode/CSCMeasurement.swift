/// CSC Measurement (0x2A5B), Cycling Speed and Cadence Service 1.0 §3.1 / GATT
/// Specification Supplement "CSC Measurement": uint8 flags; bit 0 wheel revolution data
/// (uint32 cumulative wheel revolutions + uint16 last wheel event time, **1/1024 s**);
/// bit 1 crank revolution data (uint16 cumulative crank revolutions + uint16 last crank
/// event time, 1/1024 s); bits 2–7 reserved. Counters and event times roll over; the
/// session assembler turns them into increments and cadence.
public struct CSCMeasurement: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2A5B
    public static let characteristicName = "csc_measurement"

    public var cumulativeWheelRevolutions: UInt32?
    /// s, resolution 1/1024.
    public var lastWheelEventTimeS: Double?
    public var cumulativeCrankRevolutions: UInt16?
    /// s, resolution 1/1024.
    public var lastCrankEventTimeS: Double?

    public init(
        cumulativeWheelRevolutions: UInt32? = nil, lastWheelEventTimeS: Double? = nil,
        cumulativeCrankRevolutions: UInt16? = nil, lastCrankEventTimeS: Double? = nil
    ) {
        self.cumulativeWheelRevolutions = cumulativeWheelRevolutions
        self.lastWheelEventTimeS = lastWheelEventTimeS
        self.cumulativeCrankRevolutions = cumulativeCrankRevolutions
        self.lastCrankEventTimeS = lastCrankEventTimeS
    }

    public var flags: UInt8 {
        var flags: UInt8 = 0
        if cumulativeWheelRevolutions != nil || lastWheelEventTimeS != nil { flags |= 1 }
        if cumulativeCrankRevolutions != nil || lastCrankEventTimeS != nil { flags |= 2 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> CSCMeasurement { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> CSCMeasurement {
        try decodeBytes(bytes)
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> CSCMeasurement {
        let flags = try c.u8("flags")
        var v = CSCMeasurement()
        if flags & 1 != 0 {
            v.cumulativeWheelRevolutions = try c.u32("cumulative_wheel_revolutions")
            v.lastWheelEventTimeS = scaled(try c.u16("last_wheel_event_time_s"), 1024)
        }
        if flags & 2 != 0 {
            v.cumulativeCrankRevolutions = try c.u16("cumulative_crank_revolutions")
            v.lastCrankEventTimeS = scaled(try c.u16("last_crank_event_time_s"), 1024)
        }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 11)
        let flags = self.flags
        w.u8(flags)
        if flags & 1 != 0 {
            w.u32(cumulativeWheelRevolutions ?? 0)
            w.u16(rawValue(lastWheelEventTimeS ?? 0, divisor: 1024))
        }
        if flags & 2 != 0 {
            w.u16(cumulativeCrankRevolutions ?? 0)
            w.u16(rawValue(lastCrankEventTimeS ?? 0, divisor: 1024))
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        f.append("flags", .int(Int(payload[0])))
        if let cumulativeWheelRevolutions {
            f.append("cumulative_wheel_revolutions", .int(Int(cumulativeWheelRevolutions)))
        }
        if let lastWheelEventTimeS { f.append("last_wheel_event_time_s", .double(lastWheelEventTimeS)) }
        if let cumulativeCrankRevolutions {
            f.append("cumulative_crank_revolutions", .int(Int(cumulativeCrankRevolutions)))
        }
        if let lastCrankEventTimeS { f.append("last_crank_event_time_s", .double(lastCrankEventTimeS)) }
    }
}
