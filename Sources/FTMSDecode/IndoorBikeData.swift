/// Indoor Bike Data (0x2AD2), Fitness Machine Service 1.0 §4.9, as deployed
/// (`docs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted: Instantaneous Speed is present when it is 0.
/// Resistance Level is sint16 with resolution 1 (the later uint8 text is not what devices send).
public enum IndoorBikeLayout: FTMSDataLayout {
    public static let uuid: UInt16 = 0x2AD2
    public static let characteristicName = "indoor_bike_data"

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .speedKmh, .u16, 100)
        try l.field(1, .averageSpeedKmh, .u16, 100)
        try l.field(2, .cadenceRpm, .u16, 2)
        try l.field(3, .averageCadenceRpm, .u16, 2)
        try l.field(4, .totalDistanceM, .u24, 1)
        try l.field(5, .resistanceLevel, .s16, 1)
        try l.field(6, .powerW, .s16, 1)
        try l.field(7, .averagePowerW, .s16, 1)
        try l.energy(8)
        try l.field(9, .heartRateBpm, .u8, 1)
        try l.field(10, .metabolicEquivalent, .u8, 10)
        try l.field(11, .elapsedTimeS, .u16, 1)
        try l.field(12, .remainingTimeS, .u16, 1)
    }

    /// The names of `IndoorBikeData`'s properties: its own, and its groups'.
    public struct Fields: SpeedFields, DistanceFields, PowerFields {
        public typealias Layout = IndoorBikeLayout
        @inlinable public init() {}
        @inlinable public var cadenceRpm: Field<Double> { field(.cadenceRpm) }
        @inlinable public var averageCadenceRpm: Field<Double> { field(.averageCadenceRpm) }
        @inlinable public var resistanceLevel: Field<Int> { field(.resistanceLevel) }
    }
}

public typealias IndoorBikeData = FlaggedRecord<IndoorBikeLayout>
