/// Treadmill Data (0x2ACD), Fitness Machine Service 1.0 §4.4, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted (Instantaneous Speed present when 0). Pace is
/// uint8 km/min with resolution 0.1 (the later uint16-seconds text is not what devices
/// send); elevation gain has resolution 0.1 m here (1 m on other machines).
public struct TreadmillData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2ACD
    public static let characteristicName = "treadmill_data"

    /// Flags bit 0 = 0; uint16, 0.01 km/h.
    public var speedKmh: Double?
    /// Bit 1; uint16, 0.01 km/h.
    public var averageSpeedKmh: Double?
    /// Bit 2; uint24, 1 m.
    public var totalDistanceM: Int?
    /// Bit 3 (with `rampAngleDeg`); sint16, 0.1 %. A missing partner encodes as 0.
    public var inclinationPct: Double?
    /// Bit 3 (with `inclinationPct`); sint16, 0.1 degree.
    public var rampAngleDeg: Double?
    /// Bit 4 (with `negativeElevationGainM`); uint16, 0.1 m.
    public var positiveElevationGainM: Double?
    /// Bit 4 (with `positiveElevationGainM`); uint16, 0.1 m.
    public var negativeElevationGainM: Double?
    /// Bit 5; uint8, 0.1 km/min.
    public var paceKmPerMin: Double?
    /// Bit 6; uint8, 0.1 km/min.
    public var averagePaceKmPerMin: Double?
    /// Bit 7.
    public var energy: ExpendedEnergy?
    /// Bit 8; uint8 bpm.
    public var heartRateBpm: Int?
    /// Bit 9; uint8, 0.1 MET.
    public var metabolicEquivalent: Double?
    /// Bit 10; uint16 s.
    public var elapsedTimeS: Int?
    /// Bit 11; uint16 s.
    public var remainingTimeS: Int?
    /// Bit 12 (with `powerOutputW`); sint16, 1 N.
    public var forceOnBeltN: Int?
    /// Bit 12 (with `forceOnBeltN`); sint16, 1 W.
    public var powerOutputW: Int?

    public init(
        speedKmh: Double? = nil, averageSpeedKmh: Double? = nil, totalDistanceM: Int? = nil,
        inclinationPct: Double? = nil, rampAngleDeg: Double? = nil,
        positiveElevationGainM: Double? = nil, negativeElevationGainM: Double? = nil,
        paceKmPerMin: Double? = nil, averagePaceKmPerMin: Double? = nil, energy: ExpendedEnergy? = nil,
        heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil,
        remainingTimeS: Int? = nil, forceOnBeltN: Int? = nil, powerOutputW: Int? = nil
    ) {
        self.speedKmh = speedKmh
        self.averageSpeedKmh = averageSpeedKmh
        self.totalDistanceM = totalDistanceM
        self.inclinationPct = inclinationPct
        self.rampAngleDeg = rampAngleDeg
        self.positiveElevationGainM = positiveElevationGainM
        self.negativeElevationGainM = negativeElevationGainM
        self.paceKmPerMin = paceKmPerMin
        self.averagePaceKmPerMin = averagePaceKmPerMin
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
        self.forceOnBeltN = forceOnBeltN
        self.powerOutputW = powerOutputW
    }

    public var moreData: Bool { speedKmh == nil }

    public var flags: UInt16 {
        var flags: UInt16 = speedKmh == nil ? 1 : 0
        if averageSpeedKmh != nil { flags |= 1 << 1 }
        if totalDistanceM != nil { flags |= 1 << 2 }
        if inclinationPct != nil || rampAngleDeg != nil { flags |= 1 << 3 }
        if positiveElevationGainM != nil || negativeElevationGainM != nil { flags |= 1 << 4 }
        if paceKmPerMin != nil { flags |= 1 << 5 }
        if averagePaceKmPerMin != nil { flags |= 1 << 6 }
        if energy != nil { flags |= 1 << 7 }
        if heartRateBpm != nil { flags |= 1 << 8 }
        if metabolicEquivalent != nil { flags |= 1 << 9 }
        if elapsedTimeS != nil { flags |= 1 << 10 }
        if remainingTimeS != nil { flags |= 1 << 11 }
        if forceOnBeltN != nil || powerOutputW != nil { flags |= 1 << 12 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> TreadmillData { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> TreadmillData { try decodeBytes(bytes) }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> TreadmillData {
        let flags = try c.u16("flags")
        var v = TreadmillData()
        if !isSet(flags, 0) { v.speedKmh = scaled(try c.u16("speed_kmh"), 100) }
        if isSet(flags, 1) { v.averageSpeedKmh = scaled(try c.u16("average_speed_kmh"), 100) }
        if isSet(flags, 2) { v.totalDistanceM = Int(try c.u24("total_distance_m")) }
        if isSet(flags, 3) {
            v.inclinationPct = scaled(try c.s16("inclination_pct"), 10)
            v.rampAngleDeg = scaled(try c.s16("ramp_angle_deg"), 10)
        }
        if isSet(flags, 4) {
            v.positiveElevationGainM = scaled(try c.u16("positive_elevation_gain_m"), 10)
            v.negativeElevationGainM = scaled(try c.u16("negative_elevation_gain_m"), 10)
        }
        if isSet(flags, 5) { v.paceKmPerMin = scaled(try c.u8("pace_km_per_min"), 10) }
        if isSet(flags, 6) { v.averagePaceKmPerMin = scaled(try c.u8("average_pace_km_per_min"), 10) }
        if isSet(flags, 7) { v.energy = try ExpendedEnergy.read(&c) }
        if isSet(flags, 8) { v.heartRateBpm = Int(try c.u8("heart_rate_bpm")) }
        if isSet(flags, 9) { v.metabolicEquivalent = scaled(try c.u8("metabolic_equivalent"), 10) }
        if isSet(flags, 10) { v.elapsedTimeS = Int(try c.u16("elapsed_time_s")) }
        if isSet(flags, 11) { v.remainingTimeS = Int(try c.u16("remaining_time_s")) }
        if isSet(flags, 12) {
            v.forceOnBeltN = Int(try c.s16("force_on_belt_n"))
            v.powerOutputW = Int(try c.s16("power_output_w"))
        }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 40)
        let flags = self.flags
        w.u16(flags)
        if let speedKmh { w.u16(rawValue(speedKmh, divisor: 100)) }
        if let averageSpeedKmh { w.u16(rawValue(averageSpeedKmh, divisor: 100)) }
        if let totalDistanceM { w.u24(totalDistanceM) }
        if isSet(flags, 3) {
            w.s16(rawValue(inclinationPct ?? 0, divisor: 10))
            w.s16(rawValue(rampAngleDeg ?? 0, divisor: 10))
        }
        if isSet(flags, 4) {
            w.u16(rawValue(positiveElevationGainM ?? 0, divisor: 10))
            w.u16(rawValue(negativeElevationGainM ?? 0, divisor: 10))
        }
        if let paceKmPerMin { w.u8(rawValue(paceKmPerMin, divisor: 10)) }
        if let averagePaceKmPerMin { w.u8(rawValue(averagePaceKmPerMin, divisor: 10)) }
        if let energy { energy.write(&w) }
        if let heartRateBpm { w.u8(heartRateBpm) }
        if let metabolicEquivalent { w.u8(rawValue(metabolicEquivalent, divisor: 10)) }
        if let elapsedTimeS { w.u16(elapsedTimeS) }
        if let remainingTimeS { w.u16(remainingTimeS) }
        if isSet(flags, 12) {
            w.s16(forceOnBeltN ?? 0)
            w.s16(powerOutputW ?? 0)
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let flags = flags16(payload)
        f.append("flags", .int(Int(flags)))
        f.append("more_data", .bool(isSet(flags, 0)))
        if let speedKmh { f.append("speed_kmh", .double(speedKmh)) }
        if let averageSpeedKmh { f.append("average_speed_kmh", .double(averageSpeedKmh)) }
        if let totalDistanceM { f.append("total_distance_m", .int(totalDistanceM)) }
        if let inclinationPct { f.append("inclination_pct", .double(inclinationPct)) }
        if let rampAngleDeg { f.append("ramp_angle_deg", .double(rampAngleDeg)) }
        if let positiveElevationGainM { f.append("positive_elevation_gain_m", .double(positiveElevationGainM)) }
        if let negativeElevationGainM { f.append("negative_elevation_gain_m", .double(negativeElevationGainM)) }
        if let paceKmPerMin { f.append("pace_km_per_min", .double(paceKmPerMin)) }
        if let averagePaceKmPerMin { f.append("average_pace_km_per_min", .double(averagePaceKmPerMin)) }
        energy?.appendFields(to: &f)
        if let heartRateBpm { f.append("heart_rate_bpm", .int(heartRateBpm)) }
        if let metabolicEquivalent { f.append("metabolic_equivalent", .double(metabolicEquivalent)) }
        if let elapsedTimeS { f.append("elapsed_time_s", .int(elapsedTimeS)) }
        if let remainingTimeS { f.append("remaining_time_s", .int(remainingTimeS)) }
        if let forceOnBeltN { f.append("force_on_belt_n", .int(forceOnBeltN)) }
        if let powerOutputW { f.append("power_output_w", .int(powerOutputW)) }
    }
}
