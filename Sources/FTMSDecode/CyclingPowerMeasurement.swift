/// Cycling Power Measurement (0x2A63), Cycling Power Service 1.1 §3.2 / GATT Specification
/// Supplement "Cycling Power Measurement": uint16 flags, sint16 Instantaneous Power (W, always
/// sent: listed under bit 16), then the flagged fields in ascending bit order. Wheel event time
/// is 1/2048 s here (1/1024 s in CSC); crank event time 1/1024 s. Bits 1 (balance reference,
/// 1 = left), 3 (torque source, 1 = crank) and 12 (offset compensation indicator) are values
/// with no field; 13–15 are reserved. The extreme angles are two uint12 in 3 octets, the
/// maximum in the low 12 bits.
public enum CyclingPowerLayout: RecordLayout {
    public static let uuid: UInt16 = 0x2A63
    public static let characteristicName = "cycling_power_measurement"
    public static var flagOnlyBits: UInt32 { 1 << 1 | 1 << 3 | 1 << 12 }

    @inlinable @inline(__always)
    public static func fields<L: FieldList>(_ l: inout L) throws(L.Failure) {
        try l.field(16, .powerW, .s16, 1)
        try l.field(0, .pedalPowerBalancePct, .u8, 2)
        try l.field(2, .accumulatedTorqueNm, .u16, 32)
        try l.field(4, .cumulativeWheelRevolutions, .u32, 1)
        try l.field(4, .lastWheelEventTimeS, .u16, 2048)
        try l.field(5, .cumulativeCrankRevolutions, .u16, 1)
        try l.field(5, .lastCrankEventTimeS, .u16, 1024)
        try l.field(6, .maximumForceN, .s16, 1)
        try l.field(6, .minimumForceN, .s16, 1)
        try l.field(7, .maximumTorqueNm, .s16, 32)
        try l.field(7, .minimumTorqueNm, .s16, 32)
        try l.field(8, .maximumAngleDeg, .u12Low, 1)
        try l.field(8, .minimumAngleDeg, .u12High, 1)
        try l.field(9, .topDeadSpotAngleDeg, .u16, 1)
        try l.field(10, .bottomDeadSpotAngleDeg, .u16, 1)
        try l.field(11, .accumulatedEnergyKJ, .u16, 1)
    }

    /// The names of `CyclingPowerMeasurement`'s properties: its own, and its groups'.
    public struct Fields: RevolutionFields {
        public typealias Layout = CyclingPowerLayout
        @inlinable public init() {}
        /// Bit 0; %, resolution 0.5.
        @inlinable public var pedalPowerBalancePct: Field<Double> { field(.pedalPowerBalancePct) }
        /// Bit 1 (only meaningful with the balance): true = left pedal reference.
        @inlinable public var pedalPowerBalanceLeft: Flag { Flag(bit: 1) }
        /// Bit 2; N·m, resolution 1/32.
        @inlinable public var accumulatedTorqueNm: Field<Double> { field(.accumulatedTorqueNm) }
        /// Bit 3: true = crank based, false = wheel based.
        @inlinable public var accumulatedTorqueFromCrank: Flag { Flag(bit: 3) }
        /// Bit 6; N.
        @inlinable public var maximumForceN: Field<Int> { field(.maximumForceN) }
        @inlinable public var minimumForceN: Field<Int> { field(.minimumForceN) }
        /// Bit 7; N·m, resolution 1/32.
        @inlinable public var maximumTorqueNm: Field<Double> { field(.maximumTorqueNm) }
        @inlinable public var minimumTorqueNm: Field<Double> { field(.minimumTorqueNm) }
        /// Bit 8; degrees (uint12 each).
        @inlinable public var maximumAngleDeg: Field<Int> { field(.maximumAngleDeg) }
        @inlinable public var minimumAngleDeg: Field<Int> { field(.minimumAngleDeg) }
        /// Bit 9; degrees.
        @inlinable public var topDeadSpotAngleDeg: Field<Int> { field(.topDeadSpotAngleDeg) }
        /// Bit 10; degrees.
        @inlinable public var bottomDeadSpotAngleDeg: Field<Int> { field(.bottomDeadSpotAngleDeg) }
        /// Bit 11; kJ.
        @inlinable public var accumulatedEnergyKJ: Field<Int> { field(.accumulatedEnergyKJ) }
        /// Bit 12.
        @inlinable public var offsetCompensationIndicator: Flag { Flag(bit: 12) }
    }
}

/// The wheel (bit 4) and crank (bit 5) revolution data are `RevolutionFields`' properties.
/// Fields sent together under one flag (wheel, crank, forces, torques, angles) are present
/// together: setting one makes the pair present, with 0 for the other; the pair is absent
/// again when both are set to nil.
public typealias CyclingPowerMeasurement = FlaggedRecord<CyclingPowerLayout>

extension FlaggedRecord where Layout == CyclingPowerLayout {
    /// sint16, W (always present).
    @inlinable @inline(__always) public var powerW: Int {
        get { Int(raw[Layout.spec(.powerW).slot]) }
        set { set(.powerW, raw: newValue) }
    }
}
