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

    public var powerW: Int
    /// Bit 0; %, resolution 0.5.
    public var pedalPowerBalancePct: Double?
    /// Bit 1 (only meaningful with the balance): true = left pedal reference.
    public var pedalPowerBalanceLeft: Bool
    /// Bit 2; N·m, resolution 1/32.
    public var accumulatedTorqueNm: Double?
    /// Bit 3: true = crank based, false = wheel based.
    public var accumulatedTorqueFromCrank: Bool
    /// Bit 4 (with `lastWheelEventTimeS`).
    public var cumulativeWheelRevolutions: UInt32?
    /// Bit 4; s, resolution 1/2048.
    public var lastWheelEventTimeS: Double?
    /// Bit 5 (with `lastCrankEventTimeS`).
    public var cumulativeCrankRevolutions: UInt16?
    /// Bit 5; s, resolution 1/1024.
    public var lastCrankEventTimeS: Double?
    /// Bit 6; N.
    public var maximumForceN: Int?
    public var minimumForceN: Int?
    /// Bit 7; N·m, resolution 1/32.
    public var maximumTorqueNm: Double?
    public var minimumTorqueNm: Double?
    /// Bit 8; degrees (uint12 each).
    public var maximumAngleDeg: Int?
    public var minimumAngleDeg: Int?
    /// Bit 9; degrees.
    public var topDeadSpotAngleDeg: Int?
    /// Bit 10; degrees.
    public var bottomDeadSpotAngleDeg: Int?
    /// Bit 11; kJ.
    public var accumulatedEnergyKJ: Int?
    /// Bit 12.
    public var offsetCompensationIndicator: Bool

    @inlinable
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
        self.cumulativeWheelRevolutions = cumulativeWheelRevolutions
        self.lastWheelEventTimeS = lastWheelEventTimeS
        self.cumulativeCrankRevolutions = cumulativeCrankRevolutions
        self.lastCrankEventTimeS = lastCrankEventTimeS
        self.maximumForceN = maximumForceN
        self.minimumForceN = minimumForceN
        self.maximumTorqueNm = maximumTorqueNm
        self.minimumTorqueNm = minimumTorqueNm
        self.maximumAngleDeg = maximumAngleDeg
        self.minimumAngleDeg = minimumAngleDeg
        self.topDeadSpotAngleDeg = topDeadSpotAngleDeg
        self.bottomDeadSpotAngleDeg = bottomDeadSpotAngleDeg
        self.accumulatedEnergyKJ = accumulatedEnergyKJ
        self.offsetCompensationIndicator = offsetCompensationIndicator
    }

    /// The flags `encode()` writes. Pairs (wheel, crank, forces, torques, angles) are sent
    /// when either member is set; the missing one encodes as 0.
    public var flags: UInt16 {
        var flags: UInt16 = 0
        if pedalPowerBalancePct != nil { flags |= 1 << 0 }
        if pedalPowerBalanceLeft { flags |= 1 << 1 }
        if accumulatedTorqueNm != nil { flags |= 1 << 2 }
        if accumulatedTorqueFromCrank { flags |= 1 << 3 }
        if cumulativeWheelRevolutions != nil || lastWheelEventTimeS != nil { flags |= 1 << 4 }
        if cumulativeCrankRevolutions != nil || lastCrankEventTimeS != nil { flags |= 1 << 5 }
        if maximumForceN != nil || minimumForceN != nil { flags |= 1 << 6 }
        if maximumTorqueNm != nil || minimumTorqueNm != nil { flags |= 1 << 7 }
        if maximumAngleDeg != nil || minimumAngleDeg != nil { flags |= 1 << 8 }
        if topDeadSpotAngleDeg != nil { flags |= 1 << 9 }
        if bottomDeadSpotAngleDeg != nil { flags |= 1 << 10 }
        if accumulatedEnergyKJ != nil { flags |= 1 << 11 }
        if offsetCompensationIndicator { flags |= 1 << 12 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> CyclingPowerMeasurement { try decodeArray(payload) }
    @inlinable @inline(__always)
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> CyclingPowerMeasurement {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    @inlinable @inline(__always)
    static func read(_ c: inout ByteCursor) throws(DecodeError) -> CyclingPowerMeasurement {
        let flags = try c.u16("flags")
        var v = CyclingPowerMeasurement(
            powerW: Int(try c.s16("power_w")), pedalPowerBalanceLeft: isSet(flags, 1),
            accumulatedTorqueFromCrank: isSet(flags, 3), offsetCompensationIndicator: isSet(flags, 12))
        if isSet(flags, 0) { v.pedalPowerBalancePct = scaled(try c.u8("pedal_power_balance_pct"), 2) }
        if isSet(flags, 2) { v.accumulatedTorqueNm = scaled(try c.u16("accumulated_torque_nm"), 32) }
        if isSet(flags, 4) {
            v.cumulativeWheelRevolutions = try c.u32("cumulative_wheel_revolutions")
            v.lastWheelEventTimeS = scaled(try c.u16("last_wheel_event_time_s"), 2048)
        }
        if isSet(flags, 5) {
            v.cumulativeCrankRevolutions = try c.u16("cumulative_crank_revolutions")
            v.lastCrankEventTimeS = scaled(try c.u16("last_crank_event_time_s"), 1024)
        }
        if isSet(flags, 6) {
            v.maximumForceN = Int(try c.s16("maximum_force_n"))
            v.minimumForceN = Int(try c.s16("minimum_force_n"))
        }
        if isSet(flags, 7) {
            v.maximumTorqueNm = scaled(try c.s16("maximum_torque_nm"), 32)
            v.minimumTorqueNm = scaled(try c.s16("minimum_torque_nm"), 32)
        }
        if isSet(flags, 8) {
            let angles = try c.u24("maximum_angle_deg")
            v.maximumAngleDeg = Int(angles & 0xFFF)
            v.minimumAngleDeg = Int(angles >> 12)
        }
        if isSet(flags, 9) { v.topDeadSpotAngleDeg = Int(try c.u16("top_dead_spot_angle_deg")) }
        if isSet(flags, 10) { v.bottomDeadSpotAngleDeg = Int(try c.u16("bottom_dead_spot_angle_deg")) }
        if isSet(flags, 11) { v.accumulatedEnergyKJ = Int(try c.u16("accumulated_energy_kj")) }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 34)
        let flags = self.flags
        w.u16(flags)
        w.s16(powerW)
        if let pedalPowerBalancePct { w.u8(rawValue(pedalPowerBalancePct, divisor: 2)) }
        if let accumulatedTorqueNm { w.u16(rawValue(accumulatedTorqueNm, divisor: 32)) }
        if isSet(flags, 4) {
            w.u32(cumulativeWheelRevolutions ?? 0)
            w.u16(rawValue(lastWheelEventTimeS ?? 0, divisor: 2048))
        }
        if isSet(flags, 5) {
            w.u16(cumulativeCrankRevolutions ?? 0)
            w.u16(rawValue(lastCrankEventTimeS ?? 0, divisor: 1024))
        }
        if isSet(flags, 6) {
            w.s16(maximumForceN ?? 0)
            w.s16(minimumForceN ?? 0)
        }
        if isSet(flags, 7) {
            w.s16(rawValue(maximumTorqueNm ?? 0, divisor: 32))
            w.s16(rawValue(minimumTorqueNm ?? 0, divisor: 32))
        }
        if isSet(flags, 8) {
            let maxAngle = UInt32(clamping: min(max(maximumAngleDeg ?? 0, 0), 0xFFF))
            let minAngle = UInt32(clamping: min(max(minimumAngleDeg ?? 0, 0), 0xFFF))
            w.u24(maxAngle | minAngle << 12)
        }
        if let topDeadSpotAngleDeg { w.u16(topDeadSpotAngleDeg) }
        if let bottomDeadSpotAngleDeg { w.u16(bottomDeadSpotAngleDeg) }
        if let accumulatedEnergyKJ { w.u16(accumulatedEnergyKJ) }
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
        if let cumulativeWheelRevolutions { f.append("cumulative_wheel_revolutions", .int(Int(cumulativeWheelRevolutions))) }
        if let lastWheelEventTimeS { f.append("last_wheel_event_time_s", .double(lastWheelEventTimeS)) }
        if let cumulativeCrankRevolutions { f.append("cumulative_crank_revolutions", .int(Int(cumulativeCrankRevolutions))) }
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
