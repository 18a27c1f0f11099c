/// Treadmill Data (0x2ACD), Fitness Machine Service 1.0 §4.4, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted (Instantaneous Speed present when 0). Pace is
/// uint8 km/min with resolution 0.1 (the later uint16-seconds text is not what devices
/// send); elevation gain has resolution 0.1 m here (1 m on other machines).
public enum TreadmillLayout: SpeedFields, DistanceFields, InclinationFields {
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
}

public typealias TreadmillData = FlaggedRecord<TreadmillLayout>

extension FlaggedRecord where Layout == TreadmillLayout {
    @inlinable @inline(__always) public var positiveElevationGainM: Double? {
        get { self[.positiveElevationGainM] }
        set { self[.positiveElevationGainM] = newValue }
    }
    @inlinable @inline(__always) public var negativeElevationGainM: Double? {
        get { self[.negativeElevationGainM] }
        set { self[.negativeElevationGainM] = newValue }
    }
    @inlinable @inline(__always) public var paceKmPerMin: Double? {
        get { self[.paceKmPerMin] }
        set { self[.paceKmPerMin] = newValue }
    }
    @inlinable @inline(__always) public var averagePaceKmPerMin: Double? {
        get { self[.averagePaceKmPerMin] }
        set { self[.averagePaceKmPerMin] = newValue }
    }
    @inlinable @inline(__always) public var forceOnBeltN: Int? {
        get { self[.forceOnBeltN] }
        set { self[.forceOnBeltN] = newValue }
    }
    @inlinable @inline(__always) public var powerOutputW: Int? {
        get { self[.powerOutputW] }
        set { self[.powerOutputW] = newValue }
    }
}
