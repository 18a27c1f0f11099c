/// CSC Measurement (0x2A5B), Cycling Speed and Cadence Service 1.0 §3.1 / GATT
/// Specification Supplement "CSC Measurement": uint8 flags; bit 0 wheel revolution data
/// (uint32 cumulative wheel revolutions + uint16 last wheel event time, **1/1024 s**);
/// bit 1 crank revolution data (uint16 cumulative crank revolutions + uint16 last crank
/// event time, 1/1024 s); bits 2–7 reserved. Counters and event times roll over; the
/// session assembler turns them into increments and cadence.
public enum CSCLayout: RecordLayout {
    public typealias Flags = UInt8
    public static let uuid: UInt16 = 0x2A5B
    public static let characteristicName = "csc_measurement"

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .cumulativeWheelRevolutions, .u32, 1)
        try l.field(0, .lastWheelEventTimeS, .u16, 1024)
        try l.field(1, .cumulativeCrankRevolutions, .u16, 1)
        try l.field(1, .lastCrankEventTimeS, .u16, 1024)
    }

    /// The names of `CSCMeasurement`'s properties: its own, and its groups'.
    public struct Fields: RevolutionFields {
        public typealias Layout = CSCLayout
        @inlinable public init() {}
    }
}

/// The wheel pair and the crank pair are each present together (as in
/// `CyclingPowerMeasurement`): setting one member makes its pair present, with 0 for the
/// other. Their properties are `RevolutionFields`' (event times in s, resolution 1/1024).
public typealias CSCMeasurement = FlaggedRecord<CSCLayout>
