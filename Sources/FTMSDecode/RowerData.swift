/// Rower Data (0x2AD1), Fitness Machine Service 1.0 §4.8, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted: Stroke Rate and Stroke Count are present when it
/// is 0. Resistance Level is sint16 with resolution 1. Rowers send a record in up to three
/// notifications (each with some flag groups); `SessionAccumulator` merges them.
public enum RowerLayout: DistanceFields, PowerFields {
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
}

public typealias RowerData = FlaggedRecord<RowerLayout>

extension FlaggedRecord where Layout == RowerLayout {
    @inlinable @inline(__always) public var strokeRateSpm: Double? {
        get { self[.strokeRateSpm] }
        set { self[.strokeRateSpm] = newValue }
    }
    @inlinable @inline(__always) public var strokeCount: Int? {
        get { self[.strokeCount] }
        set { self[.strokeCount] = newValue }
    }
    @inlinable @inline(__always) public var averageStrokeRateSpm: Double? {
        get { self[.averageStrokeRateSpm] }
        set { self[.averageStrokeRateSpm] = newValue }
    }
    @inlinable @inline(__always) public var paceSPer500m: Int? {
        get { self[.paceSPer500m] }
        set { self[.paceSPer500m] = newValue }
    }
    @inlinable @inline(__always) public var averagePaceSPer500m: Int? {
        get { self[.averagePaceSPer500m] }
        set { self[.averagePaceSPer500m] = newValue }
    }
    @inlinable @inline(__always) public var resistanceLevel: Int? {
        get { self[.resistanceLevel] }
        set { self[.resistanceLevel] = newValue }
    }
}
