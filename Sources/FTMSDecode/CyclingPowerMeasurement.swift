/// Cycling Power Measurement (0x2A63), Cycling Power Service 1.1 §3.2 / GATT Specification
/// Supplement "Cycling Power Measurement": uint16 flags, sint16 Instantaneous Power (W),
/// then the flagged fields in ascending bit order. Wheel event time is 1/2048 s here
/// (1/1024 s in CSC); crank event time 1/1024 s.
///
/// Flags: 0 pedal power balance (uint8 ×0.5 %), 1 balance reference (1 = left),
/// 2 accumulated torque (uint16 /32 N·m), 3 torque source (1 = crank), 4 wheel revolution
/// data (uint32 + uint16), 5 crank revolution data (uint16 + uint16), 6 extreme force
/// magnitudes (sint16 max, min N), 7 extreme torque magnitudes (sint16 max, min /32 N·m),
/// 8 extreme angles (two uint12 in 3 octets, maximum in the low 12 bits), 9 top dead spot
/// angle (uint16 deg), 10 bottom dead spot angle (uint16 deg), 11 accumulated energy
/// (uint16 kJ), 12 offset compensation indicator, 13–15 reserved.
public struct CyclingPowerMeasurement: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2A63
    public static let characteristicName = "cycling_power_measurement"

    // Stored as the raw wire integers (a compact, trivially copyable value, like the FTMS
    // data characteristics); the properties convert to physical units, and setting one
    // quantises it to the field's resolution (nearest step, saturated to the field's range).
    // Fields sent together under one flag (wheel, crank, forces, torques, angles) are present
    // together: setting one makes the pair present, with 0 for the other; the pair is absent
    // again when both are set to nil.

    /// Flags bits 0–12 as sent (bits 13–15 are reserved and dropped).
    @usableFromInline var present: UInt16 = 0
    @usableFromInline var raw_powerW: Int16 = 0
    @usableFromInline var raw_balance: UInt8 = 0
    @usableFromInline var raw_accumulatedTorque: UInt16 = 0
    @usableFromInline var raw_wheelRevolutions: UInt32 = 0
    @usableFromInline var raw_wheelEventTime: UInt16 = 0
    @usableFromInline var raw_crankRevolutions: UInt16 = 0
    @usableFromInline var raw_crankEventTime: UInt16 = 0
    @usableFromInline var raw_maximumForce: Int16 = 0
    @usableFromInline var raw_minimumForce: Int16 = 0
    @usableFromInline var raw_maximumTorque: Int16 = 0
    @usableFromInline var raw_minimumTorque: Int16 = 0
    @usableFromInline var raw_maximumAngle: UInt16 = 0
    @usableFromInline var raw_minimumAngle: UInt16 = 0
    @usableFromInline var raw_topDeadSpot: UInt16 = 0
    @usableFromInline var raw_bottomDeadSpot: UInt16 = 0
    @usableFromInline var raw_accumulatedEnergy: UInt16 = 0

    @inlinable init(present: UInt16) { self.present = present }

    /// sint16, W (always present).
    public var powerW: Int {
        @inlinable get { Int(raw_powerW) }
        set { raw_powerW = Int16(clamping: newValue) }
    }
    /// Bit 0; %, resolution 0.5.
    public var pedalPowerBalancePct: Double? {
        @inlinable get { present & (1 << 0) == 0 ? nil : scaled(raw_balance, 2) }
        set { setGroup(0, newValue != nil) { $0.raw_balance = UInt8(clamping: rawValue(newValue ?? 0, divisor: 2)) } }
    }
    /// Bit 1 (only meaningful with the balance): true = left pedal reference.
    public var pedalPowerBalanceLeft: Bool {
        @inlinable get { present & (1 << 1) != 0 }
        set { setGroup(1, newValue) { _ in } }
    }
    /// Bit 2; N·m, resolution 1/32.
    public var accumulatedTorqueNm: Double? {
        @inlinable get { present & (1 << 2) == 0 ? nil : scaled(raw_accumulatedTorque, 32) }
        set {
            setGroup(2, newValue != nil) {
                $0.raw_accumulatedTorque = UInt16(clamping: rawValue(newValue ?? 0, divisor: 32))
            }
        }
    }
    /// Bit 3: true = crank based, false = wheel based.
    public var accumulatedTorqueFromCrank: Bool {
        @inlinable get { present & (1 << 3) != 0 }
        set { setGroup(3, newValue) { _ in } }
    }
    /// Bit 4 (with `lastWheelEventTimeS`).
    public var cumulativeWheelRevolutions: UInt32? {
        @inlinable get { present & (1 << 4) == 0 ? nil : raw_wheelRevolutions }
        set {
            raw_wheelRevolutions = newValue ?? 0
            setPairMember(4, newValue != nil, otherIsZero: raw_wheelEventTime == 0)
        }
    }
    /// Bit 4; s, resolution 1/2048.
    public var lastWheelEventTimeS: Double? {
        @inlinable get { present & (1 << 4) == 0 ? nil : scaled(raw_wheelEventTime, 2048) }
        set {
            raw_wheelEventTime = UInt16(clamping: rawValue(newValue ?? 0, divisor: 2048))
            setPairMember(4, newValue != nil, otherIsZero: raw_wheelRevolutions == 0)
        }
    }
    /// Bit 5 (with `lastCrankEventTimeS`).
    public var cumulativeCrankRevolutions: UInt16? {
        @inlinable get { present & (1 << 5) == 0 ? nil : raw_crankRevolutions }
        set {
            raw_crankRevolutions = newValue ?? 0
            setPairMember(5, newValue != nil, otherIsZero: raw_crankEventTime == 0)
        }
    }
    /// Bit 5; s, resolution 1/1024.
    public var lastCrankEventTimeS: Double? {
        @inlinable get { present & (1 << 5) == 0 ? nil : scaled(raw_crankEventTime, 1024) }
        set {
            raw_crankEventTime = UInt16(clamping: rawValue(newValue ?? 0, divisor: 1024))
            setPairMember(5, newValue != nil, otherIsZero: raw_crankRevolutions == 0)
        }
    }
    /// Bit 6; N.
    public var maximumForceN: Int? {
        @inlinable get { present & (1 << 6) == 0 ? nil : Int(raw_maximumForce) }
        set {
            raw_maximumForce = Int16(clamping: newValue ?? 0)
            setPairMember(6, newValue != nil, otherIsZero: raw_minimumForce == 0)
        }
    }
    public var minimumForceN: Int? {
        @inlinable get { present & (1 << 6) == 0 ? nil : Int(raw_minimumForce) }
        set {
            raw_minimumForce = Int16(clamping: newValue ?? 0)
            setPairMember(6, newValue != nil, otherIsZero: raw_maximumForce == 0)
        }
    }
    /// Bit 7; N·m, resolution 1/32.
    public var maximumTorqueNm: Double? {
        @inlinable get { present & (1 << 7) == 0 ? nil : scaled(raw_maximumTorque, 32) }
        set {
            raw_maximumTorque = Int16(clamping: rawValue(newValue ?? 0, divisor: 32))
            setPairMember(7, newValue != nil, otherIsZero: raw_minimumTorque == 0)
        }
    }
    public var minimumTorqueNm: Double? {
        @inlinable get { present & (1 << 7) == 0 ? nil : scaled(raw_minimumTorque, 32) }
        set {
            raw_minimumTorque = Int16(clamping: rawValue(newValue ?? 0, divisor: 32))
            setPairMember(7, newValue != nil, otherIsZero: raw_maximumTorque == 0)
        }
    }
    /// Bit 8; degrees (uint12 each).
    public var maximumAngleDeg: Int? {
        @inlinable get { present & (1 << 8) == 0 ? nil : Int(raw_maximumAngle) }
        set {
            raw_maximumAngle = UInt16(min(max(newValue ?? 0, 0), 0xFFF))
            setPairMember(8, newValue != nil, otherIsZero: raw_minimumAngle == 0)
        }
    }
    public var minimumAngleDeg: Int? {
        @inlinable get { present & (1 << 8) == 0 ? nil : Int(raw_minimumAngle) }
        set {
            raw_minimumAngle = UInt16(min(max(newValue ?? 0, 0), 0xFFF))
            setPairMember(8, newValue != nil, otherIsZero: raw_maximumAngle == 0)
        }
    }
    /// Bit 9; degrees.
    public var topDeadSpotAngleDeg: Int? {
        @inlinable get { present & (1 << 9) == 0 ? nil : Int(raw_topDeadSpot) }
        set { setGroup(9, newValue != nil) { $0.raw_topDeadSpot = UInt16(clamping: newValue ?? 0) } }
    }
    /// Bit 10; degrees.
    public var bottomDeadSpotAngleDeg: Int? {
        @inlinable get { present & (1 << 10) == 0 ? nil : Int(raw_bottomDeadSpot) }
        set { setGroup(10, newValue != nil) { $0.raw_bottomDeadSpot = UInt16(clamping: newValue ?? 0) } }
    }
    /// Bit 11; kJ.
    public var accumulatedEnergyKJ: Int? {
        @inlinable get { present & (1 << 11) == 0 ? nil : Int(raw_accumulatedEnergy) }
        set { setGroup(11, newValue != nil) { $0.raw_accumulatedEnergy = UInt16(clamping: newValue ?? 0) } }
    }
    /// Bit 12.
    public var offsetCompensationIndicator: Bool {
        @inlinable get { present & (1 << 12) != 0 }
        set { setGroup(12, newValue) { _ in } }
    }

    /// Sets or clears flag `bit`; `store` writes the raw field(s) (with 0 when clearing).
    private mutating func setGroup(_ bit: Int, _ isPresent: Bool, _ store: (inout Self) -> Void) {
        store(&self)
        if isPresent { present |= 1 << bit } else { present &= ~(1 << bit) }
    }

    /// One member of a pair set (present) or cleared: the pair stays present while the other
    /// member is nonzero.
    private mutating func setPairMember(_ bit: Int, _ isPresent: Bool, otherIsZero: Bool) {
        if isPresent { present |= 1 << bit } else if otherIsZero { present &= ~(1 << bit) }
    }

    public init(
        powerW: Int, pedalPowerBalancePct: Double? = nil, pedalPowerBalanceLeft: Bool = false,
        accumulatedTorqueNm: Double? = nil, accumulatedTorqueFromCrank: Bool = false,
        cumulativeWheelRevolutions: UInt32? = nil, lastWheelEventTimeS: Double? = nil,
        cumulativeCrankRevolutions: UInt16? = nil, lastCrankEventTimeS: Double? = nil,
        maximumForceN: Int? = nil, minimumForceN: Int? = nil, maximumTorqueNm: Double? = nil,
        minimumTorqueNm: Double? = nil, maximumAngleDeg: Int? = nil, minimumAngleDeg: Int? = nil,
        topDeadSpotAngleDeg: Int? = nil, bottomDeadSpotAngleDeg: Int? = nil, accumulatedEnergyKJ: Int? = nil,
        offsetCompensationIndicator: Bool = false
    ) {
        self.powerW = powerW
        self.pedalPowerBalancePct = pedalPowerBalancePct
        self.pedalPowerBalanceLeft = pedalPowerBalanceLeft
        self.accumulatedTorqueNm = accumulatedTorqueNm
        self.accumulatedTorqueFromCrank = accumulatedTorqueFromCrank
        // Pairs: only the members given, so a nil member never clears its given partner.
        if let cumulativeWheelRevolutions { self.cumulativeWheelRevolutions = cumulativeWheelRevolutions }
        if let lastWheelEventTimeS { self.lastWheelEventTimeS = lastWheelEventTimeS }
        if let cumulativeCrankRevolutions { self.cumulativeCrankRevolutions = cumulativeCrankRevolutions }
        if let lastCrankEventTimeS { self.lastCrankEventTimeS = lastCrankEventTimeS }
        if let maximumForceN { self.maximumForceN = maximumForceN }
        if let minimumForceN { self.minimumForceN = minimumForceN }
        if let maximumTorqueNm { self.maximumTorqueNm = maximumTorqueNm }
        if let minimumTorqueNm { self.minimumTorqueNm = minimumTorqueNm }
        if let maximumAngleDeg { self.maximumAngleDeg = maximumAngleDeg }
        if let minimumAngleDeg { self.minimumAngleDeg = minimumAngleDeg }
        self.topDeadSpotAngleDeg = topDeadSpotAngleDeg
        self.bottomDeadSpotAngleDeg = bottomDeadSpotAngleDeg
        self.accumulatedEnergyKJ = accumulatedEnergyKJ
        self.offsetCompensationIndicator = offsetCompensationIndicator
    }

    /// The flags `encode()` writes: one bit per present field or pair, and the flag-only
    /// bits 1, 3 and 12.
    public var flags: UInt16 { present }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> CyclingPowerMeasurement {
        try decodeArray(payload)
    }
    @inlinable @inline(__always)
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> CyclingPowerMeasurement {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    /// Octets the flagged fields need after flags and power: bits whose fields take 1, 2, 3, 4, 6 octets.
    @inlinable @inline(__always) static func fieldLength(present: UInt32) -> Int {
        // Bit 4 (wheel: 4 + 2) counts as 2 + 4; bits 5–7 take 4 (two uint16/sint16).
        requiredLength(present: present, ones: 0x1, twos: 0xE14, threes: 0x100, fours: 0xF0, fives: 0x0)
    }

    @inlinable @inline(__always)
    static func read(_ c: inout ByteCursor) throws(DecodeError) -> CyclingPowerMeasurement {
        let flags = try c.u16("flags")
        let power = try c.s16("power_w")
        let present = flags & 0x1FFF
        var v = CyclingPowerMeasurement(present: present)
        v.raw_powerW = power
        // One length check for the whole value (the common case); otherwise the checked
        // reads name the first short field.
        guard c.remaining >= fieldLength(present: UInt32(present)) else { return try readChecked(&c, into: v) }
        var u = UncheckedCursor(c)
        if present & (1 << 0) != 0 { v.raw_balance = u.u8() }
        if present & (1 << 2) != 0 { v.raw_accumulatedTorque = u.u16() }
        if present & (1 << 4) != 0 { v.raw_wheelRevolutions = u.u32(); v.raw_wheelEventTime = u.u16() }
        if present & (1 << 5) != 0 { v.raw_crankRevolutions = u.u16(); v.raw_crankEventTime = u.u16() }
        if present & (1 << 6) != 0 { v.raw_maximumForce = u.s16(); v.raw_minimumForce = u.s16() }
        if present & (1 << 7) != 0 { v.raw_maximumTorque = u.s16(); v.raw_minimumTorque = u.s16() }
        if present & (1 << 8) != 0 {
            let angles = u.u24()
            v.raw_maximumAngle = UInt16(truncatingIfNeeded: angles & 0xFFF)
            v.raw_minimumAngle = UInt16(truncatingIfNeeded: angles >> 12)
        }
        if present & (1 << 9) != 0 { v.raw_topDeadSpot = u.u16() }
        if present & (1 << 10) != 0 { v.raw_bottomDeadSpot = u.u16() }
        if present & (1 << 11) != 0 { v.raw_accumulatedEnergy = u.u16() }
        c.skip(to: u.offset)
        return v
    }

    /// The field-by-field path for a value shorter than its flags announce: names the
    /// first short field.
    @usableFromInline
    static func readChecked(_ c: inout ByteCursor, into value: CyclingPowerMeasurement) throws(DecodeError)
        -> CyclingPowerMeasurement
    {
        var v = value
        let present = v.present
        if present & (1 << 0) != 0 { v.raw_balance = try c.u8("pedal_power_balance_pct") }
        if present & (1 << 2) != 0 { v.raw_accumulatedTorque = try c.u16("accumulated_torque_nm") }
        if present & (1 << 4) != 0 {
            v.raw_wheelRevolutions = try c.u32("cumulative_wheel_revolutions")
            v.raw_wheelEventTime = try c.u16("last_wheel_event_time_s")
        }
        if present & (1 << 5) != 0 {
            v.raw_crankRevolutions = try c.u16("cumulative_crank_revolutions")
            v.raw_crankEventTime = try c.u16("last_crank_event_time_s")
        }
        if present & (1 << 6) != 0 {
            v.raw_maximumForce = try c.s16("maximum_force_n")
            v.raw_minimumForce = try c.s16("minimum_force_n")
        }
        if present & (1 << 7) != 0 {
            v.raw_maximumTorque = try c.s16("maximum_torque_nm")
            v.raw_minimumTorque = try c.s16("minimum_torque_nm")
        }
        if present & (1 << 8) != 0 {
            let angles = try c.u24("maximum_angle_deg")
            v.raw_maximumAngle = UInt16(truncatingIfNeeded: angles & 0xFFF)
            v.raw_minimumAngle = UInt16(truncatingIfNeeded: angles >> 12)
        }
        if present & (1 << 9) != 0 { v.raw_topDeadSpot = try c.u16("top_dead_spot_angle_deg") }
        if present & (1 << 10) != 0 { v.raw_bottomDeadSpot = try c.u16("bottom_dead_spot_angle_deg") }
        if present & (1 << 11) != 0 { v.raw_accumulatedEnergy = try c.u16("accumulated_energy_kj") }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 4 + Self.fieldLength(present: UInt32(present)))
        w.u16(present)
        w.s16(raw_powerW)
        if present & (1 << 0) != 0 { w.u8(raw_balance) }
        if present & (1 << 2) != 0 { w.u16(raw_accumulatedTorque) }
        if present & (1 << 4) != 0 { w.u32(raw_wheelRevolutions); w.u16(raw_wheelEventTime) }
        if present & (1 << 5) != 0 { w.u16(raw_crankRevolutions); w.u16(raw_crankEventTime) }
        if present & (1 << 6) != 0 { w.s16(raw_maximumForce); w.s16(raw_minimumForce) }
        if present & (1 << 7) != 0 { w.s16(raw_maximumTorque); w.s16(raw_minimumTorque) }
        if present & (1 << 8) != 0 { w.u24(UInt32(raw_maximumAngle) | UInt32(raw_minimumAngle) << 12) }
        if present & (1 << 9) != 0 { w.u16(raw_topDeadSpot) }
        if present & (1 << 10) != 0 { w.u16(raw_bottomDeadSpot) }
        if present & (1 << 11) != 0 { w.u16(raw_accumulatedEnergy) }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        f.append("flags", .int(Int(flags16(payload))))
        f.append("power_w", .int(powerW))
        f.append("offset_compensation_indicator", .bool(offsetCompensationIndicator))
        if let pedalPowerBalancePct {
            f.append("pedal_power_balance_pct", .double(pedalPowerBalancePct))
            f.append("pedal_power_balance_reference", .string(pedalPowerBalanceLeft ? "left" : "unknown"))
        }
        if let accumulatedTorqueNm {
            f.append("accumulated_torque_nm", .double(accumulatedTorqueNm))
            f.append("accumulated_torque_source", .string(accumulatedTorqueFromCrank ? "crank" : "wheel"))
        }
        if let cumulativeWheelRevolutions {
            f.append("cumulative_wheel_revolutions", .int(Int(cumulativeWheelRevolutions)))
        }
        if let lastWheelEventTimeS { f.append("last_wheel_event_time_s", .double(lastWheelEventTimeS)) }
        if let cumulativeCrankRevolutions {
            f.append("cumulative_crank_revolutions", .int(Int(cumulativeCrankRevolutions)))
        }
        if let lastCrankEventTimeS { f.append("last_crank_event_time_s", .double(lastCrankEventTimeS)) }
        if let maximumForceN { f.append("maximum_force_n", .int(maximumForceN)) }
        if let minimumForceN { f.append("minimum_force_n", .int(minimumForceN)) }
        if let maximumTorqueNm { f.append("maximum_torque_nm", .double(maximumTorqueNm)) }
        if let minimumTorqueNm { f.append("minimum_torque_nm", .double(minimumTorqueNm)) }
        if let maximumAngleDeg { f.append("maximum_angle_deg", .int(maximumAngleDeg)) }
        if let minimumAngleDeg { f.append("minimum_angle_deg", .int(minimumAngleDeg)) }
        if let topDeadSpotAngleDeg { f.append("top_dead_spot_angle_deg", .int(topDeadSpotAngleDeg)) }
        if let bottomDeadSpotAngleDeg { f.append("bottom_dead_spot_angle_deg", .int(bottomDeadSpotAngleDeg)) }
        if let accumulatedEnergyKJ { f.append("accumulated_energy_kj", .int(accumulatedEnergyKJ)) }
    }
}
