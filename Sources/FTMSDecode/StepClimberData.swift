/// Step Climber Data (0x2ACF), Fitness Machine Service 1.0 §4.6: uint16 flags, then the
/// flagged fields in ascending bit order. Bit 0 "More Data" is inverted: Floors and Step
/// Count are present when it is 0. Elevation gain 1 m.
public enum StepClimberLayout: FTMSDataLayout {
    public static let uuid: UInt16 = 0x2ACF
    public static let characteristicName = "step_climber_data"

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .floors, .u16, 1)
        try l.field(0, .stepCount, .u16, 1)
        try l.field(1, .stepsPerMin, .u16, 1)
        try l.field(2, .averageStepRateStepsPerMin, .u16, 1)
        try l.field(3, .positiveElevationGainM, .u16, 1)
        try l.energy(4)
        try l.field(5, .heartRateBpm, .u8, 1)
        try l.field(6, .metabolicEquivalent, .u8, 10)
        try l.field(7, .elapsedTimeS, .u16, 1)
        try l.field(8, .remainingTimeS, .u16, 1)
    }

    /// The names of `StepClimberData`'s properties: its own, and its groups'.
    public struct Fields: StepRateFields, ClimbFields {
        public typealias Layout = StepClimberLayout
        @inlinable public init() {}
        @inlinable public var stepCount: Field<Int> { field(.stepCount) }
    }
}

public typealias StepClimberData = FlaggedRecord<StepClimberLayout>
