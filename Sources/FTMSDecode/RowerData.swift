/// Rower Data (0x2AD1), Fitness Machine Service 1.0 §4.8, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted: Stroke Rate and Stroke Count are present when it
/// is 0. Resistance Level is sint16 with resolution 1.
public struct RowerData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2AD1
    public static let characteristicName = "rower_data"

    /// Flags bit 0 = 0 (with `strokeCount`); uint8, 0.5 strokes/min.
    public var strokeRateSpm: Double?
    /// Flags bit 0 = 0 (with `strokeRateSpm`); uint16. If only one of the pair is set,
    /// `encode()` writes 0 for the other.
    public var strokeCount: Int?
    /// Bit 1; uint8, 0.5 strokes/min.
    public var averageStrokeRateSpm: Double?
    /// Bit 2; uint24, 1 m.
    public var totalDistanceM: Int?
    /// Bit 3; uint16, 1 s per 500 m.
    public var paceSPer500m: Int?
    /// Bit 4; uint16, 1 s per 500 m.
    public var averagePaceSPer500m: Int?
    /// Bit 5; sint16, 1 W.
    public var powerW: Int?
    /// Bit 6; sint16, 1 W.
    public var averagePowerW: Int?
    /// Bit 7; sint16, 1.
    public var resistanceLevel: Int?
    /// Bit 8.
    public var energy: ExpendedEnergy?
    /// Bit 9; uint8 bpm.
    public var heartRateBpm: Int?
    /// Bit 10; uint8, 0.1 MET.
    public var metabolicEquivalent: Double?
    /// Bit 11; uint16 s.
    public var elapsedTimeS: Int?
    /// Bit 12; uint16 s.
    public var remainingTimeS: Int?

    public init(
        strokeRateSpm: Double? = nil, strokeCount: Int? = nil, averageStrokeRateSpm: Double? = nil,
        totalDistanceM: Int? = nil, paceSPer500m: Int? = nil, averagePaceSPer500m: Int? = nil,
        powerW: Int? = nil, averagePowerW: Int? = nil, resistanceLevel: Int? = nil,
        energy: ExpendedEnergy? = nil, heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil,
        elapsedTimeS: Int? = nil, remainingTimeS: Int? = nil
    ) {
        self.strokeRateSpm = strokeRateSpm
        self.strokeCount = strokeCount
        self.averageStrokeRateSpm = averageStrokeRateSpm
        self.totalDistanceM = totalDistanceM
        self.paceSPer500m = paceSPer500m
        self.averagePaceSPer500m = averagePaceSPer500m
        self.powerW = powerW
        self.averagePowerW = averagePowerW
        self.resistanceLevel = resistanceLevel
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
    }

    /// Flags bit 0 as sent: true when Stroke Rate / Stroke Count are absent.
    public var moreData: Bool { strokeRateSpm == nil && strokeCount == nil }

    /// The flags `encode()` writes.
    public var flags: UInt16 {
        var flags: UInt16 = moreData ? 1 : 0
        if averageStrokeRateSpm != nil { flags |= 1 << 1 }
        if totalDistanceM != nil { flags |= 1 << 2 }
        if paceSPer500m != nil { flags |= 1 << 3 }
        if averagePaceSPer500m != nil { flags |= 1 << 4 }
        if powerW != nil { flags |= 1 << 5 }
        if averagePowerW != nil { flags |= 1 << 6 }
        if resistanceLevel != nil { flags |= 1 << 7 }
        if energy != nil { flags |= 1 << 8 }
        if heartRateBpm != nil { flags |= 1 << 9 }
        if metabolicEquivalent != nil { flags |= 1 << 10 }
        if elapsedTimeS != nil { flags |= 1 << 11 }
        if remainingTimeS != nil { flags |= 1 << 12 }
        return flags
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> RowerData { try decodeArray(payload) }
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> RowerData { try decodeBytes(bytes) }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> RowerData {
        let flags = try c.u16("flags")
        var v = RowerData()
        if !isSet(flags, 0) {
            v.strokeRateSpm = scaled(try c.u8("stroke_rate_spm"), 2)
            v.strokeCount = Int(try c.u16("stroke_count"))
        }
        if isSet(flags, 1) { v.averageStrokeRateSpm = scaled(try c.u8("average_stroke_rate_spm"), 2) }
        if isSet(flags, 2) { v.totalDistanceM = Int(try c.u24("total_distance_m")) }
        if isSet(flags, 3) { v.paceSPer500m = Int(try c.u16("pace_s_per_500m")) }
        if isSet(flags, 4) { v.averagePaceSPer500m = Int(try c.u16("average_pace_s_per_500m")) }
        if isSet(flags, 5) { v.powerW = Int(try c.s16("power_w")) }
        if isSet(flags, 6) { v.averagePowerW = Int(try c.s16("average_power_w")) }
        if isSet(flags, 7) { v.resistanceLevel = Int(try c.s16("resistance_level")) }
        if isSet(flags, 8) { v.energy = try ExpendedEnergy.read(&c) }
        if isSet(flags, 9) { v.heartRateBpm = Int(try c.u8("heart_rate_bpm")) }
        if isSet(flags, 10) { v.metabolicEquivalent = scaled(try c.u8("metabolic_equivalent"), 10) }
        if isSet(flags, 11) { v.elapsedTimeS = Int(try c.u16("elapsed_time_s")) }
        if isSet(flags, 12) { v.remainingTimeS = Int(try c.u16("remaining_time_s")) }
        return v
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 32)
        w.u16(flags)
        if !moreData {
            w.u8(rawValue(strokeRateSpm ?? 0, divisor: 2))
            w.u16(strokeCount ?? 0)
        }
        if let averageStrokeRateSpm { w.u8(rawValue(averageStrokeRateSpm, divisor: 2)) }
        if let totalDistanceM { w.u24(totalDistanceM) }
        if let paceSPer500m { w.u16(paceSPer500m) }
        if let averagePaceSPer500m { w.u16(averagePaceSPer500m) }
        if let powerW { w.s16(powerW) }
        if let averagePowerW { w.s16(averagePowerW) }
        if let resistanceLevel { w.s16(resistanceLevel) }
        if let energy { energy.write(&w) }
        if let heartRateBpm { w.u8(heartRateBpm) }
        if let metabolicEquivalent { w.u8(rawValue(metabolicEquivalent, divisor: 10)) }
        if let elapsedTimeS { w.u16(elapsedTimeS) }
        if let remainingTimeS { w.u16(remainingTimeS) }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let flags = flags16(payload)
        f.append("flags", .int(Int(flags)))
        f.append("more_data", .bool(isSet(flags, 0)))
        if let strokeRateSpm { f.append("stroke_rate_spm", .double(strokeRateSpm)) }
        if let strokeCount { f.append("stroke_count", .int(strokeCount)) }
        if let averageStrokeRateSpm { f.append("average_stroke_rate_spm", .double(averageStrokeRateSpm)) }
        if let totalDistanceM { f.append("total_distance_m", .int(totalDistanceM)) }
        if let paceSPer500m { f.append("pace_s_per_500m", .int(paceSPer500m)) }
        if let averagePaceSPer500m { f.append("average_pace_s_per_500m", .int(averagePaceSPer500m)) }
        if let powerW { f.append("power_w", .int(powerW)) }
        if let averagePowerW { f.append("average_power_w", .int(averagePowerW)) }
        if let resistanceLevel { f.append("resistance_level", .int(resistanceLevel)) }
        energy?.appendFields(to: &f)
        if let heartRateBpm { f.append("heart_rate_bpm", .int(heartRateBpm)) }
        if let metabolicEquivalent { f.append("metabolic_equivalent", .double(metabolicEquivalent)) }
        if let elapsedTimeS { f.append("elapsed_time_s", .int(elapsedTimeS)) }
        if let remainingTimeS { f.append("remaining_time_s", .int(remainingTimeS)) }
    }
}
