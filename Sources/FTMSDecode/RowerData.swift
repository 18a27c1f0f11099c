/// Rower Data (0x2AD1), Fitness Machine Service 1.0 §4.8, as deployed
/// (`docs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted: Stroke Rate and Stroke Count are present when it
/// is 0. Resistance Level is sint16 with resolution 1. Rowers send a record in up to three
/// notifications (each with some flag groups); `SessionAccumulator` merges them.
public enum RowerLayout: FTMSDataLayout {
    public static let uuid: UInt16 = 0x2AD1
    public static let characteristicName = "rower_data"

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .strokeRateSpm, .u8, 2)
        try l.field(0, .strokeCount, .u16, 1)
        try l.field(1, .averageStrokeRateSpm, .u8, 2)
        try l.field(2, .totalDistanceM, .u24, 1)
        try l.field(3, .paceSPer500m, .u16, 1)
        try l.field(4, .averagePaceSPer500m, .u16, 1)
        try l.field(5, .powerW, .s16, 1)
        try l.field(6, .averagePowerW, .s16, 1)
        try l.field(7, .resistanceLevel, .s16, 1)
        try l.energy(8)
        try l.field(9, .heartRateBpm, .u8, 1)
        try l.field(10, .metabolicEquivalent, .u8, 10)
        try l.field(11, .elapsedTimeS, .u16, 1)
        try l.field(12, .remainingTimeS, .u16, 1)
    }

    /// The names of `RowerData`'s properties: its own, and its groups'.
    public struct Fields: DistanceFields, PowerFields {
        public typealias Layout = RowerLayout
        @inlinable public init() {}
        @inlinable public var strokeRateSpm: Field<Double> { field(.strokeRateSpm) }
        @inlinable public var strokeCount: Field<Int> { field(.strokeCount) }
        @inlinable public var averageStrokeRateSpm: Field<Double> { field(.averageStrokeRateSpm) }
        @inlinable public var paceSPer500m: Field<Int> { field(.paceSPer500m) }
        @inlinable public var averagePaceSPer500m: Field<Int> { field(.averagePaceSPer500m) }
        @inlinable public var resistanceLevel: Field<Int> { field(.resistanceLevel) }
    }
}

public typealias RowerData = FlaggedRecord<RowerLayout>
