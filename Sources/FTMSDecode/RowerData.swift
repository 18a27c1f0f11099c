/// Rower Data (0x2AD1), Fitness Machine Service 1.0 §4.8, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
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
}

public typealias RowerData = FlaggedRecord<RowerLayout>

extension FlaggedRecord where Layout == RowerLayout {
    @inlinable public var strokeRateSpm: Double? {
        @inline(__always) get { self[.strokeRateSpm] } set { self[.strokeRateSpm] = newValue }
    }
    @inlinable public var strokeCount: Int? { @inline(__always) get { self[.strokeCount] } set { self[.strokeCount] = newValue } }
    @inlinable public var averageStrokeRateSpm: Double? {
        @inline(__always) get { self[.averageStrokeRateSpm] } set { self[.averageStrokeRateSpm] = newValue }
    }
    @inlinable public var totalDistanceM: Int? {
        @inline(__always) get { self[.totalDistanceM] } set { self[.totalDistanceM] = newValue }
    }
    @inlinable public var paceSPer500m: Int? { @inline(__always) get { self[.paceSPer500m] } set { self[.paceSPer500m] = newValue } }
    @inlinable public var averagePaceSPer500m: Int? {
        @inline(__always) get { self[.averagePaceSPer500m] } set { self[.averagePaceSPer500m] = newValue }
    }
    @inlinable public var powerW: Int? { @inline(__always) get { self[.powerW] } set { self[.powerW] = newValue } }
    @inlinable public var averagePowerW: Int? { @inline(__always) get { self[.averagePowerW] } set { self[.averagePowerW] = newValue } }
    @inlinable public var resistanceLevel: Int? {
        @inline(__always) get { self[.resistanceLevel] } set { self[.resistanceLevel] = newValue }
    }
    @inlinable public var heartRateBpm: Int? { @inline(__always) get { self[.heartRateBpm] } set { self[.heartRateBpm] = newValue } }
    @inlinable public var metabolicEquivalent: Double? {
        @inline(__always) get { self[.metabolicEquivalent] } set { self[.metabolicEquivalent] = newValue }
    }
    @inlinable public var elapsedTimeS: Int? { @inline(__always) get { self[.elapsedTimeS] } set { self[.elapsedTimeS] = newValue } }
    @inlinable public var remainingTimeS: Int? {
        @inline(__always) get { self[.remainingTimeS] } set { self[.remainingTimeS] = newValue }
    }

    public init(
        strokeRateSpm: Double? = nil, strokeCount: Int? = nil, averageStrokeRateSpm: Double? = nil,
        totalDistanceM: Int? = nil, paceSPer500m: Int? = nil, averagePaceSPer500m: Int? = nil, powerW: Int? = nil,
        averagePowerW: Int? = nil, resistanceLevel: Int? = nil, energy: ExpendedEnergy? = nil,
        heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil,
        remainingTimeS: Int? = nil
    ) {
        self.init(present: 0)
        self.strokeRateSpm = strokeRateSpm; self.strokeCount = strokeCount
        self.averageStrokeRateSpm = averageStrokeRateSpm; self.totalDistanceM = totalDistanceM
        self.paceSPer500m = paceSPer500m; self.averagePaceSPer500m = averagePaceSPer500m; self.powerW = powerW
        self.averagePowerW = averagePowerW; self.resistanceLevel = resistanceLevel; self.energy = energy
        self.heartRateBpm = heartRateBpm; self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS; self.remainingTimeS = remainingTimeS
    }
}
