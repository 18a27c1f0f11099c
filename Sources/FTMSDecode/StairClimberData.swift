/// Stair Climber Data (0x2AD0), Fitness Machine Service 1.0 §4.7: uint16 flags, then the
/// flagged fields in ascending bit order. Bit 0 "More Data" is inverted: Floors is present
/// when it is 0. Elevation gain 1 m, stride count resolution 1.
public enum StairClimberLayout: FTMSDataLayout {
    public static let uuid: UInt16 = 0x2AD0
    public static let characteristicName = "stair_climber_data"

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .floors, .u16, 1)
        try l.field(1, .stepsPerMin, .u16, 1)
        try l.field(2, .averageStepRateStepsPerMin, .u16, 1)
        try l.field(3, .positiveElevationGainM, .u16, 1)
        try l.field(4, .strideCount, .u16, 1)
        try l.energy(5)
        try l.field(6, .heartRateBpm, .u8, 1)
        try l.field(7, .metabolicEquivalent, .u8, 10)
        try l.field(8, .elapsedTimeS, .u16, 1)
        try l.field(9, .remainingTimeS, .u16, 1)
    }

    /// The names of `StairClimberData`'s properties: its own, and its groups'.
    public struct Fields: StepRateFields, ClimbFields {
        public typealias Layout = StairClimberLayout
        @inlinable public init() {}
        @inlinable public var strideCount: Field<Int> { field(.strideCount) }
    }
}

public typealias StairClimberData = FlaggedRecord<StairClimberLayout>
