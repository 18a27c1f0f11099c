/// Treadmill Data (0x2ACD), Fitness Machine Service 1.0 §4.4, as deployed
/// (`docs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted (Instantaneous Speed present when 0). Pace is
/// uint8 km/min with resolution 0.1 (the later uint16-seconds text is not what devices
/// send); elevation gain has resolution 0.1 m here (1 m on other machines).
public enum TreadmillLayout: FTMSDataLayout {
    public static let uuid: UInt16 = 0x2ACD
    public static let characteristicName = "treadmill_data"

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .speedKmh, .u16, 100)
        try l.field(1, .averageSpeedKmh, .u16, 100)
        try l.field(2, .totalDistanceM, .u24, 1)
        try l.field(3, .inclinationPct, .s16, 10)
        try l.field(3, .rampAngleDeg, .s16, 10)
        try l.field(4, .positiveElevationGainM, .u16, 10)
        try l.field(4, .negativeElevationGainM, .u16, 10)
        try l.field(5, .paceKmPerMin, .u8, 10)
        try l.field(6, .averagePaceKmPerMin, .u8, 10)
        try l.energy(7)
        try l.field(8, .heartRateBpm, .u8, 1)
        try l.field(9, .metabolicEquivalent, .u8, 10)
        try l.field(10, .elapsedTimeS, .u16, 1)
        try l.field(11, .remainingTimeS, .u16, 1)
        try l.field(12, .forceOnBeltN, .s16, 1)
        try l.field(12, .powerOutputW, .s16, 1)
    }

    /// The names of `TreadmillData`'s properties: its own, and its groups'.
    public struct Fields: SpeedFields, DistanceFields, InclinationFields {
        public typealias Layout = TreadmillLayout
        @inlinable public init() {}
        @inlinable public var positiveElevationGainM: Field<Double> { field(.positiveElevationGainM) }
        @inlinable public var negativeElevationGainM: Field<Double> { field(.negativeElevationGainM) }
        @inlinable public var paceKmPerMin: Field<Double> { field(.paceKmPerMin) }
        @inlinable public var averagePaceKmPerMin: Field<Double> { field(.averagePaceKmPerMin) }
        @inlinable public var forceOnBeltN: Field<Int> { field(.forceOnBeltN) }
        @inlinable public var powerOutputW: Field<Int> { field(.powerOutputW) }
    }
}

public typealias TreadmillData = FlaggedRecord<TreadmillLayout>
