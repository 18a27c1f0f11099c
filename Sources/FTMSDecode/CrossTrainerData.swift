/// Cross Trainer Data (0x2ACE), Fitness Machine Service 1.0 §4.5, as deployed
/// (`shared/specs/ftms-fields.md`): **3-octet** flags, then the flagged fields in ascending
/// bit order. Bit 0 "More Data" is inverted (Instantaneous Speed present when 0); bit 15 is
/// the movement direction (0 forward, 1 backward) and has no field. Resistance Level is
/// sint16 with resolution 0.1, stride count 0.1, elevation gain 1 m.
public struct CrossTrainerData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2ACE
    public static let characteristicName = "cross_trainer_data"

    /// Flags bit 0 = 0; uint16, 0.01 km/h.
    public var speedKmh: Double?
    /// Bit 1; uint16, 0.01 km/h.
    public var averageSpeedKmh: Double?
    /// Bit 2; uint24, 1 m.
    public var totalDistanceM: Int?
    /// Bit 3 (with `averageStepRateStepsPerMin`); uint16, 1 /min. A missing partner encodes as 0.
    public var stepsPerMin: Int?
    /// Bit 3 (with `stepsPerMin`); uint16, 1 /min.
    public var averageStepRateStepsPerMin: Int?
    /// Bit 4; uint16, 0.1.
    public var strideCount: Double?
    /// Bit 5 (with negative); uint16, 1 m.
    public var positiveElevationGainM: Int?
    /// Bit 5 (with positive); uint16, 1 m.
    public var negativeElevationGainM: Int?
    /// Bit 6 (with `rampAngleDeg`); sint16, 0.1 %.
    public var inclinationPct: Double?
    /// Bit 6 (with `inclinationPct`); sint16, 0.1 degree.
    public var rampAngleDeg: Double?
    /// Bit 7; sint16, 0.1.
    public var resistanceLevel: Double?
    /// Bit 8; sint16, 1 W.
    public var powerW: Int?
    /// Bit 9; sint16, 1 W.
    public var averagePowerW: Int?
    /// Bit 10.
    public var energy: ExpendedEnergy?
    /// Bit 11; uint8 bpm.
    public var heartRateBpm: Int?
    /// Bit 12; uint8, 0.1 MET.
    public var metabolicEquivalent: Double?
    /// Bit 13; uint16 s.
    public var elapsedTimeS: Int?
    /// Bit 14; uint16 s.
    public var remainingTimeS: Int?
    /// Bit 15: false forward, true backward.
    public var movingBackward: Bool

    public init(
        speedKmh: Double? = nil, averageSpeedKmh: Double? = nil, totalDistanceM: Int? = nil,
        stepsPerMin: Int? = nil, averageStepRateStepsPerMin: Int? = nil, strideCount: Double? = nil,
        positiveElevationGainM: Int? = nil, negativeElevationGainM: Int? = nil,
        inclinationPct: Double? = nil, rampAngleDeg: Double? = nil, resistanceLevel: Double? = nil,
        powerW: Int? = nil, averagePowerW: Int? = nil, energy: ExpendedEnergy? = nil, heartRateBpm: Int? = nil,
        metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil, remainingTimeS: Int? = nil,
        movingBackward: Bool = false
    ) {
        self.speedKmh = speedKmh
        self.averageSpeedKmh = averageSpeedKmh
        self.totalDistanceM = totalDistanceM
        self.stepsPerMin = stepsPerMin
        self.averageStepRateStepsPerMin = averageStepRateStepsPerMin
        self.strideCount = strideCount
        self.positiveElevationGainM = positiveElevationGainM
        self.negativeElevationGainM = negativeElevationGainM
        self.inclinationPct = inclinationPct
        self.rampAngleDeg = rampAngleDeg
        self.resistanceLevel = resistanceLevel
        self.powerW = powerW
        self.averagePowerW = averagePowerW
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
        self.movingBackward = movingBackward
    }

    public var moreData: Bool { speedKmh == nil }

    /// The 24-bit flags `encode()` writes.
    public var flags: UInt32 {
        var flags: UInt32 = speedKmh == nil ? 1 : 0
        if averageSpeedKmh != nil { flags |= 1 << 1 }
        if totalDistanceM != nil { flags |= 1 << 2 }
        if stepsPerMin != nil || averageStepRateStepsPerMin != nil { flags |= 1 << 3 }
        if strideCount != nil { flags |= 1 << 4 }
        if positiveElevationGainM != nil || negativeElevationGainM != nil { flags |= 1 << 5 }
        if inclinationPct != nil || rampAngleDeg != nil { flags |= 1 << 6 }
        if resistanceLevel != nil { flags |= 1 << 7 }
        if powerW != nil { flags |= 1 << 8 }
        if averagePowerW != nil { flags |= 1 << 9 }
        if energy != nil { flags |= 1 << 10 }
        if heartRateBpm != nil { flags |= 1 << 11 }
        if metabolicEquivalent != nil { flags |= 1 << 12 }
        if elapsedTimeS != nil { flags |= 1 << 13 }
        if remainingTimeS != nil { flags |= 1 << 14 }
        if movingBackward { flags |= 1 << 15 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> CrossTrainerData { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> CrossTrainerData { try decodeBytes(bytes) }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> CrossTrainerData {
        let flags = try c.u24("flags")
        var v = CrossTrainerData(movingBackward: isSet(flags, 15))
        if !isSet(flags, 0) { v.speedKmh = scaled(try c.u16("speed_kmh"), 100) }
        if isSet(flags, 1) { v.averageSpeedKmh = scaled(try c.u16("average_speed_kmh"), 100) }
        if isSet(flags, 2) { v.totalDistanceM = Int(try c.u24("total_distance_m")) }
        if isSet(flags, 3) {
            v.stepsPerMin = Int(try c.u16("steps_per_min"))
            v.averageStepRateStepsPerMin = Int(try c.u16("average_step_rate_steps_per_min"))
        }
        if isSet(flags, 4) { v.strideCount = scaled(try c.u16("stride_count"), 10) }
        if isSet(flags, 5) {
            v.positiveElevationGainM = Int(try c.u16("positive_elevation_gain_m"))
            v.negativeElevationGainM = Int(try c.u16("negative_elevation_gain_m"))
        }
        if isSet(flags, 6) {
            v.inclinationPct = scaled(try c.s16("inclination_pct"), 10)
            v.rampAngleDeg = scaled(try c.s16("ramp_angle_deg"), 10)
        }
        if isSet(flags, 7) { v.resistanceLevel = scaled(try c.s16("resistance_level"), 10) }
        if isSet(flags, 8) { v.powerW = Int(try c.s16("power_w")) }
        if isSet(flags, 9) { v.averagePowerW = Int(try c.s16("average_power_w")) }
        if isSet(flags, 10) { v.energy = try ExpendedEnergy.read(&c) }
        if isSet(flags, 11) { v.heartRateBpm = Int(try c.u8("heart_rate_bpm")) }
        if isSet(flags, 12) { v.metabolicEquivalent = scaled(try c.u8("metabolic_equivalent"), 10) }
        if isSet(flags, 13) { v.elapsedTimeS = Int(try c.u16("elapsed_time_s")) }
        if isSet(flags, 14) { v.remainingTimeS = Int(try c.u16("remaining_time_s")) }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 40)
        let flags = self.flags
        w.u24(flags)
        if let speedKmh { w.u16(rawValue(speedKmh, divisor: 100)) }
        if let averageSpeedKmh { w.u16(rawValue(averageSpeedKmh, divisor: 100)) }
        if let totalDistanceM { w.u24(totalDistanceM) }
        if isSet(flags, 3) {
            w.u16(stepsPerMin ?? 0)
            w.u16(averageStepRateStepsPerMin ?? 0)
        }
        if let strideCount { w.u16(rawValue(strideCount, divisor: 10)) }
        if isSet(flags, 5) {
            w.u16(positiveElevationGainM ?? 0)
            w.u16(negativeElevationGainM ?? 0)
        }
        if isSet(flags, 6) {
            w.s16(rawValue(inclinationPct ?? 0, divisor: 10))
            w.s16(rawValue(rampAngleDeg ?? 0, divisor: 10))
        }
        if let resistanceLevel { w.s16(rawValue(resistanceLevel, divisor: 10)) }
        if let powerW { w.s16(powerW) }
        if let averagePowerW { w.s16(averagePowerW) }
        if let energy { energy.write(&w) }
        if let heartRateBpm { w.u8(heartRateBpm) }
        if let metabolicEquivalent { w.u8(rawValue(metabolicEquivalent, divisor: 10)) }
        if let elapsedTimeS { w.u16(elapsedTimeS) }
        if let remainingTimeS { w.u16(remainingTimeS) }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let flags = UInt32(payload[0]) | UInt32(payload[1]) << 8 | UInt32(payload[2]) << 16
        f.append("flags", .int(Int(flags)))
        f.append("more_data", .bool(isSet(flags, 0)))
        f.append("movement_direction", .string(movingBackward ? "backward" : "forward"))
        if let speedKmh { f.append("speed_kmh", .double(speedKmh)) }
        if let averageSpeedKmh { f.append("average_speed_kmh", .double(averageSpeedKmh)) }
        if let totalDistanceM { f.append("total_distance_m", .int(totalDistanceM)) }
        if let stepsPerMin { f.append("steps_per_min", .int(stepsPerMin)) }
        if let averageStepRateStepsPerMin { f.append("average_step_rate_steps_per_min", .int(averageStepRateStepsPerMin)) }
        if let strideCount { f.append("stride_count", .double(strideCount)) }
        if let positiveElevationGainM { f.append("positive_elevation_gain_m", .int(positiveElevationGainM)) }
        if let negativeElevationGainM { f.append("negative_elevation_gain_m", .int(negativeElevationGainM)) }
        if let inclinationPct { f.append("inclination_pct", .double(inclinationPct)) }
        if let rampAngleDeg { f.append("ramp_angle_deg", .double(rampAngleDeg)) }
        if let resistanceLevel { f.append("resistance_level", .double(resistanceLevel)) }
        if let powerW { f.append("power_w", .int(powerW)) }
        if let averagePowerW { f.append("average_power_w", .int(averagePowerW)) }
        energy?.appendFields(to: &f)
        if let heartRateBpm { f.append("heart_rate_bpm", .int(heartRateBpm)) }
        if let metabolicEquivalent { f.append("metabolic_equivalent", .double(metabolicEquivalent)) }
        if let elapsedTimeS { f.append("elapsed_time_s", .int(elapsedTimeS)) }
        if let remainingTimeS { f.append("remaining_time_s", .int(remainingTimeS)) }
    }
}
