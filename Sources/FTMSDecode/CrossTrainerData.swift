/// Cross Trainer Data (0x2ACE), Fitness Machine Service 1.0 §4.5, as deployed
/// (`docs/ftms-fields.md`): **3-octet** flags, then the flagged fields in ascending
/// bit order. Bit 0 "More Data" is inverted (Instantaneous Speed present when 0); bit 15 is
/// the movement direction (0 forward, 1 backward) and has no field. Resistance Level is
/// sint16 with resolution 0.1, stride count 0.1, elevation gain 1 m.
public enum CrossTrainerLayout: FTMSDataLayout {
    public typealias Flags = UInt32
    public static let uuid: UInt16 = 0x2ACE
    public static let characteristicName = "cross_trainer_data"
    /// Bit 15: movement direction (0 forward, 1 backward), no field.
    public static var flagOnlyBits: UInt32 { 1 << 15 }

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(0, .speedKmh, .u16, 100)
        try l.field(1, .averageSpeedKmh, .u16, 100)
        try l.field(2, .totalDistanceM, .u24, 1)
        try l.field(3, .stepsPerMin, .u16, 1)
        try l.field(3, .averageStepRateStepsPerMin, .u16, 1)
        try l.field(4, .strideCount, .u16, 10)
        try l.field(5, .positiveElevationGainM, .u16, 1)
        try l.field(5, .negativeElevationGainM, .u16, 1)
        try l.field(6, .inclinationPct, .s16, 10)
        try l.field(6, .rampAngleDeg, .s16, 10)
        try l.field(7, .resistanceLevel, .s16, 10)
        try l.field(8, .powerW, .s16, 1)
        try l.field(9, .averagePowerW, .s16, 1)
        try l.energy(10)
        try l.field(11, .heartRateBpm, .u8, 1)
        try l.field(12, .metabolicEquivalent, .u8, 10)
        try l.field(13, .elapsedTimeS, .u16, 1)
        try l.field(14, .remainingTimeS, .u16, 1)
    }

    /// The names of `CrossTrainerData`'s properties: its own, and its groups'.
    public struct Fields: SpeedFields, DistanceFields, PowerFields, StepRateFields, InclinationFields {
        public typealias Layout = CrossTrainerLayout
        @inlinable public init() {}
        @inlinable public var strideCount: Field<Double> { field(.strideCount) }
        @inlinable public var negativeElevationGainM: Field<Int> { field(.negativeElevationGainM) }
        @inlinable public var resistanceLevel: Field<Double> { field(.resistanceLevel) }
        /// Flags bit 15: false forward, true backward.
        @inlinable public var movingBackward: Flag { Flag(bit: 15) }
    }
}

public typealias CrossTrainerData = FlaggedRecord<CrossTrainerLayout>
