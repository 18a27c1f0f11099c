/// Rower Data (0x2AD1), Fitness Machine Service 1.0 §4.8, as deployed
/// (`shared/specs/ftms-fields.md`): uint16 flags, then the flagged fields in ascending bit
/// order. Bit 0 "More Data" is inverted: Stroke Rate and Stroke Count are present when it
/// is 0. Resistance Level is sint16 with resolution 1.
///
/// Values are stored as the raw wire integers (a compact, allocation-free value); the
/// properties convert to physical units at the boundary, and setting one quantises it to
/// the field's resolution (rounded to the nearest step, saturated to the field's range).
/// Fields sent together under one flag (e.g. inclination and ramp angle) are present
/// together: setting one makes the group present, with 0 for the other.
public struct RowerData: Sendable, Equatable, CharacteristicCoding {
    public static let uuid: UInt16 = 0x2AD1
    public static let characteristicName = "rower_data"

    /// Bit i set = the fields of flag bit i are present (bit 0 NOT inverted here).
    @usableFromInline var present: UInt32 = 0
    @usableFromInline var raw_strokeRateSpm: UInt8 = 0
    @usableFromInline var raw_strokeCount: UInt16 = 0
    @usableFromInline var raw_averageStrokeRateSpm: UInt8 = 0
    @usableFromInline var raw_totalDistanceM: UInt32 = 0
    @usableFromInline var raw_paceSPer500m: UInt16 = 0
    @usableFromInline var raw_averagePaceSPer500m: UInt16 = 0
    @usableFromInline var raw_powerW: Int16 = 0
    @usableFromInline var raw_averagePowerW: Int16 = 0
    @usableFromInline var raw_resistanceLevel: Int16 = 0
    @usableFromInline var rawEnergyTotal: UInt16 = 0, rawEnergyPerHour: UInt16 = 0, rawEnergyPerMinute: UInt8 = 0
    @usableFromInline var raw_heartRateBpm: UInt8 = 0
    @usableFromInline var raw_metabolicEquivalent: UInt8 = 0
    @usableFromInline var raw_elapsedTimeS: UInt16 = 0
    @usableFromInline var raw_remainingTimeS: UInt16 = 0

    /// Flags bit 0 = 0 (with `strokeCount`); uint8, 0.5 strokes/min.
    public var strokeRateSpm: Double? {
        @inlinable get { present & (1 << 0) == 0 ? nil : scaled(raw_strokeRateSpm, 2) }
        set {
            if let newValue {
                present |= 1 << 0
                raw_strokeRateSpm = UInt8(clamping: rawValue(newValue, divisor: 2))
            } else {
                raw_strokeRateSpm = 0
                if raw_strokeCount == 0 { present &= ~(1 << 0) }
            }
        }
    }
    /// Flags bit 0 = 0 (with `strokeRateSpm`); uint16.
    public var strokeCount: Int? {
        @inlinable get { present & (1 << 0) == 0 ? nil : Int(raw_strokeCount) }
        set {
            if let newValue {
                present |= 1 << 0
                raw_strokeCount = UInt16(clamping: newValue)
            } else {
                raw_strokeCount = 0
                if raw_strokeRateSpm == 0 { present &= ~(1 << 0) }
            }
        }
    }
    /// Bit 1; uint8, 0.5 strokes/min.
    public var averageStrokeRateSpm: Double? {
        @inlinable get { present & (1 << 1) == 0 ? nil : scaled(raw_averageStrokeRateSpm, 2) }
        set {
            if let newValue {
                present |= 1 << 1
                raw_averageStrokeRateSpm = UInt8(clamping: rawValue(newValue, divisor: 2))
            } else {
                present &= ~(1 << 1); raw_averageStrokeRateSpm = 0
            }
        }
    }
    /// Bit 2; uint24, 1 m.
    public var totalDistanceM: Int? {
        @inlinable get { present & (1 << 2) == 0 ? nil : Int(raw_totalDistanceM) }
        set {
            if let newValue {
                present |= 1 << 2
                raw_totalDistanceM = UInt32(min(max(newValue, 0), 0xFF_FFFF))
            } else {
                present &= ~(1 << 2); raw_totalDistanceM = 0
            }
        }
    }
    /// Bit 3; uint16, 1 s per 500 m.
    public var paceSPer500m: Int? {
        @inlinable get { present & (1 << 3) == 0 ? nil : Int(raw_paceSPer500m) }
        set {
            if let newValue {
                present |= 1 << 3
                raw_paceSPer500m = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 3); raw_paceSPer500m = 0
            }
        }
    }
    /// Bit 4; uint16, 1 s per 500 m.
    public var averagePaceSPer500m: Int? {
        @inlinable get { present & (1 << 4) == 0 ? nil : Int(raw_averagePaceSPer500m) }
        set {
            if let newValue {
                present |= 1 << 4
                raw_averagePaceSPer500m = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 4); raw_averagePaceSPer500m = 0
            }
        }
    }
    /// Bit 5; sint16, 1 W.
    public var powerW: Int? {
        @inlinable get { present & (1 << 5) == 0 ? nil : Int(raw_powerW) }
        set {
            if let newValue {
                present |= 1 << 5
                raw_powerW = Int16(clamping: newValue)
            } else {
                present &= ~(1 << 5); raw_powerW = 0
            }
        }
    }
    /// Bit 6; sint16, 1 W.
    public var averagePowerW: Int? {
        @inlinable get { present & (1 << 6) == 0 ? nil : Int(raw_averagePowerW) }
        set {
            if let newValue {
                present |= 1 << 6
                raw_averagePowerW = Int16(clamping: newValue)
            } else {
                present &= ~(1 << 6); raw_averagePowerW = 0
            }
        }
    }
    /// Bit 7; sint16, resolution 1.
    public var resistanceLevel: Int? {
        @inlinable get { present & (1 << 7) == 0 ? nil : Int(raw_resistanceLevel) }
        set {
            if let newValue {
                present |= 1 << 7
                raw_resistanceLevel = Int16(clamping: newValue)
            } else {
                present &= ~(1 << 7); raw_resistanceLevel = 0
            }
        }
    }
    /// Bit 8: Total Energy uint16, Energy Per Hour uint16, Energy Per Minute uint8 (kcal).
    public var energy: ExpendedEnergy? {
        @inlinable get { present & (1 << 8) == 0 ? nil : ExpendedEnergy(totalKcal: Int(rawEnergyTotal), perHourKcal: Int(rawEnergyPerHour), perMinuteKcal: Int(rawEnergyPerMinute)) }
        set {
            if let newValue {
                present |= 1 << 8
                rawEnergyTotal = UInt16(clamping: newValue.totalKcal)
                rawEnergyPerHour = UInt16(clamping: newValue.perHourKcal)
                rawEnergyPerMinute = UInt8(clamping: newValue.perMinuteKcal)
            } else {
                present &= ~(1 << 8); rawEnergyTotal = 0; rawEnergyPerHour = 0; rawEnergyPerMinute = 0
            }
        }
    }
    /// Bit 9; uint8, 1 bpm.
    public var heartRateBpm: Int? {
        @inlinable get { present & (1 << 9) == 0 ? nil : Int(raw_heartRateBpm) }
        set {
            if let newValue {
                present |= 1 << 9
                raw_heartRateBpm = UInt8(clamping: newValue)
            } else {
                present &= ~(1 << 9); raw_heartRateBpm = 0
            }
        }
    }
    /// Bit 10; uint8, 0.1 MET.
    public var metabolicEquivalent: Double? {
        @inlinable get { present & (1 << 10) == 0 ? nil : scaled(raw_metabolicEquivalent, 10) }
        set {
            if let newValue {
                present |= 1 << 10
                raw_metabolicEquivalent = UInt8(clamping: rawValue(newValue, divisor: 10))
            } else {
                present &= ~(1 << 10); raw_metabolicEquivalent = 0
            }
        }
    }
    /// Bit 11; uint16, 1 s.
    public var elapsedTimeS: Int? {
        @inlinable get { present & (1 << 11) == 0 ? nil : Int(raw_elapsedTimeS) }
        set {
            if let newValue {
                present |= 1 << 11
                raw_elapsedTimeS = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 11); raw_elapsedTimeS = 0
            }
        }
    }
    /// Bit 12; uint16, 1 s.
    public var remainingTimeS: Int? {
        @inlinable get { present & (1 << 12) == 0 ? nil : Int(raw_remainingTimeS) }
        set {
            if let newValue {
                present |= 1 << 12
                raw_remainingTimeS = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 12); raw_remainingTimeS = 0
            }
        }
    }

    public init(
        strokeRateSpm: Double? = nil, strokeCount: Int? = nil, averageStrokeRateSpm: Double? = nil,
        totalDistanceM: Int? = nil, paceSPer500m: Int? = nil, averagePaceSPer500m: Int? = nil, powerW: Int? =
        nil, averagePowerW: Int? = nil, resistanceLevel: Int? = nil, energy: ExpendedEnergy? = nil,
        heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil, remainingTimeS:
        Int? = nil
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

    /// An empty value with the given groups marked present (their raw fields 0): the start
    /// of a decode.
    @inlinable init(present: UInt32) { self.present = present }

    /// Flags bit 0 as sent: true when the bit-0 fields (strokeRateSpm, strokeCount) are absent.
    public var moreData: Bool { present & 1 == 0 }

    /// The flags `encode()` writes: one bit per present group, bit 0 inverted.
    public var flags: UInt16 {
        UInt16(truncatingIfNeeded: present ^ 1)
    }

    /// Decodes one notification. Throws when the payload ends before a flagged field;
    /// trailing octets and reserved flag bits are ignored.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> RowerData { try decodeArray(payload) }
    /// Zero-copy variant.
    @inlinable @inline(__always)
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> RowerData {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    /// Octets the present groups need: flag bits whose fields take 1, 2, 3, 4, 5 octets.
    @inlinable @inline(__always) static func fieldLength(present: UInt32) -> Int {
        requiredLength(present: present, ones: 0x602, twos: 0x18F8, threes: 0x5, fours: 0x0, fives: 0x100)
    }

    @inlinable @inline(__always)
    static func read(_ c: inout ByteCursor) throws(DecodeError) -> RowerData {
        let flags = UInt32(try c.u16("flags"))
        let present = (flags ^ 1) & 0x1FFF
        var v = RowerData(present: present)
        // One length check for the whole value when it is long enough (the common case);
        // otherwise the field-by-field reads below report exactly which field is short.
        if c.remaining >= fieldLength(present: present) {
            var u = UncheckedCursor(c)
            if present & (1 << 0) != 0 { v.raw_strokeRateSpm = u.u8(); v.raw_strokeCount = u.u16() }
            if present & (1 << 1) != 0 { v.raw_averageStrokeRateSpm = u.u8() }
            if present & (1 << 2) != 0 { v.raw_totalDistanceM = u.u24() }
            if present & (1 << 3) != 0 { v.raw_paceSPer500m = u.u16() }
            if present & (1 << 4) != 0 { v.raw_averagePaceSPer500m = u.u16() }
            if present & (1 << 5) != 0 { v.raw_powerW = u.s16() }
            if present & (1 << 6) != 0 { v.raw_averagePowerW = u.s16() }
            if present & (1 << 7) != 0 { v.raw_resistanceLevel = u.s16() }
            if present & (1 << 8) != 0 { v.rawEnergyTotal = u.u16(); v.rawEnergyPerHour = u.u16(); v.rawEnergyPerMinute = u.u8() }
            if present & (1 << 9) != 0 { v.raw_heartRateBpm = u.u8() }
            if present & (1 << 10) != 0 { v.raw_metabolicEquivalent = u.u8() }
            if present & (1 << 11) != 0 { v.raw_elapsedTimeS = u.u16() }
            if present & (1 << 12) != 0 { v.raw_remainingTimeS = u.u16() }
            c.skip(to: u.offset)
            return v
        }
        return try readChecked(&c, present: present)
    }

    /// The field-by-field path for a value shorter than its flags announce: reports exactly
    /// which field is short.
    @usableFromInline
    static func readChecked(_ c: inout ByteCursor, present: UInt32) throws(DecodeError) -> RowerData {
        var v = RowerData(present: present)
        if present & (1 << 0) != 0 {
            v.raw_strokeRateSpm = try c.u8("stroke_rate_spm")
            v.raw_strokeCount = try c.u16("stroke_count")
        }
        if present & (1 << 1) != 0 { v.raw_averageStrokeRateSpm = try c.u8("average_stroke_rate_spm") }
        if present & (1 << 2) != 0 { v.raw_totalDistanceM = try c.u24("total_distance_m") }
        if present & (1 << 3) != 0 { v.raw_paceSPer500m = try c.u16("pace_s_per_500m") }
        if present & (1 << 4) != 0 { v.raw_averagePaceSPer500m = try c.u16("average_pace_s_per_500m") }
        if present & (1 << 5) != 0 { v.raw_powerW = try c.s16("power_w") }
        if present & (1 << 6) != 0 { v.raw_averagePowerW = try c.s16("average_power_w") }
        if present & (1 << 7) != 0 { v.raw_resistanceLevel = try c.s16("resistance_level") }
        if present & (1 << 8) != 0 {
            v.rawEnergyTotal = try c.u16("total_energy_kcal")
            v.rawEnergyPerHour = try c.u16("energy_per_hour_kcal")
            v.rawEnergyPerMinute = try c.u8("energy_per_minute_kcal")
        }
        if present & (1 << 9) != 0 { v.raw_heartRateBpm = try c.u8("heart_rate_bpm") }
        if present & (1 << 10) != 0 { v.raw_metabolicEquivalent = try c.u8("metabolic_equivalent") }
        if present & (1 << 11) != 0 { v.raw_elapsedTimeS = try c.u16("elapsed_time_s") }
        if present & (1 << 12) != 0 { v.raw_remainingTimeS = try c.u16("remaining_time_s") }
        return v
    }

    /// The notification payload: flags, then each present field.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 2 + Self.fieldLength(present: present))
        w.u16(flags)
        if present & (1 << 0) != 0 {
            w.u8(raw_strokeRateSpm)
            w.u16(raw_strokeCount)
        }
        if present & (1 << 1) != 0 {
            w.u8(raw_averageStrokeRateSpm)
        }
        if present & (1 << 2) != 0 {
            w.u24(raw_totalDistanceM)
        }
        if present & (1 << 3) != 0 {
            w.u16(raw_paceSPer500m)
        }
        if present & (1 << 4) != 0 {
            w.u16(raw_averagePaceSPer500m)
        }
        if present & (1 << 5) != 0 {
            w.s16(raw_powerW)
        }
        if present & (1 << 6) != 0 {
            w.s16(raw_averagePowerW)
        }
        if present & (1 << 7) != 0 {
            w.s16(raw_resistanceLevel)
        }
        if present & (1 << 8) != 0 {
            w.u16(rawEnergyTotal); w.u16(rawEnergyPerHour); w.u8(rawEnergyPerMinute)
        }
        if present & (1 << 9) != 0 {
            w.u8(raw_heartRateBpm)
        }
        if present & (1 << 10) != 0 {
            w.u8(raw_metabolicEquivalent)
        }
        if present & (1 << 11) != 0 {
            w.u16(raw_elapsedTimeS)
        }
        if present & (1 << 12) != 0 {
            w.u16(raw_remainingTimeS)
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        let flags = flags16(payload)
        f.append("flags", .int(Int(flags)))
        f.append("more_data", .bool(flags & 1 != 0))
        if present & (1 << 0) != 0 {
            f.append("stroke_rate_spm", .double(scaled(raw_strokeRateSpm, 2)))
            f.append("stroke_count", .int(Int(raw_strokeCount)))
        }
        if present & (1 << 1) != 0 {
            f.append("average_stroke_rate_spm", .double(scaled(raw_averageStrokeRateSpm, 2)))
        }
        if present & (1 << 2) != 0 {
            f.append("total_distance_m", .int(Int(raw_totalDistanceM)))
        }
        if present & (1 << 3) != 0 {
            f.append("pace_s_per_500m", .int(Int(raw_paceSPer500m)))
        }
        if present & (1 << 4) != 0 {
            f.append("average_pace_s_per_500m", .int(Int(raw_averagePaceSPer500m)))
        }
        if present & (1 << 5) != 0 {
            f.append("power_w", .int(Int(raw_powerW)))
        }
        if present & (1 << 6) != 0 {
            f.append("average_power_w", .int(Int(raw_averagePowerW)))
        }
        if present & (1 << 7) != 0 {
            f.append("resistance_level", .int(Int(raw_resistanceLevel)))
        }
        if present & (1 << 8) != 0 {
            f.append("total_energy_kcal", .int(Int(rawEnergyTotal)))
            f.append("energy_per_hour_kcal", .int(Int(rawEnergyPerHour)))
            f.append("energy_per_minute_kcal", .int(Int(rawEnergyPerMinute)))
        }
        if present & (1 << 9) != 0 {
            f.append("heart_rate_bpm", .int(Int(raw_heartRateBpm)))
        }
        if present & (1 << 10) != 0 {
            f.append("metabolic_equivalent", .double(scaled(raw_metabolicEquivalent, 10)))
        }
        if present & (1 << 11) != 0 {
            f.append("elapsed_time_s", .int(Int(raw_elapsedTimeS)))
        }
        if present & (1 << 12) != 0 {
            f.append("remaining_time_s", .int(Int(raw_remainingTimeS)))
        }
    }
}
