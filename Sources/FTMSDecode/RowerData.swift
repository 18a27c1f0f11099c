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
public struct RowerData: Sendable, Equatable, CharacteristicCoding, FlaggedDataCharacteristic {
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
        @inlinable get {
            present & (1 << 8) == 0
                ? nil
                : ExpendedEnergy(
                    totalKcal: Int(rawEnergyTotal), perHourKcal: Int(rawEnergyPerHour),
                    perMinuteKcal: Int(rawEnergyPerMinute))
        }
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
        totalDistanceM: Int? = nil, paceSPer500m: Int? = nil, averagePaceSPer500m: Int? = nil,
        powerW: Int? =
            nil, averagePowerW: Int? = nil, resistanceLevel: Int? = nil, energy: ExpendedEnergy? = nil,
        heartRateBpm: Int? = nil, metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil,
        remainingTimeS:
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

    /// Streaming decode: each present field to `visitor`, no value built (`DataFieldVisitor`).
    @inlinable @inline(__always)
    public static func decode<V: DataFieldVisitor>(bytes: UnsafeRawBufferPointer, into visitor: inout V)
        throws(DecodeError)
    {
        var cursor = ByteCursor(bytes)
        try visitFields(&cursor, &visitor)
    }

    @usableFromInline static let flagOctets = 2
    @usableFromInline static let fieldBits: UInt32 = 0x1FFF

    /// The fields in wire order (§4.8): flag bit, field, wire type, divisor.
    @inlinable @inline(__always)
    static func walk<S: FieldSource, V: DataFieldVisitor>(_ w: inout FieldWalk<S>, _ v: inout V) throws(DecodeError) {
        if w.has(0) {
            try w.read(.strokeRateSpm, .u8, 2, &v)
            try w.read(.strokeCount, .u16, 1, &v)
        }
        try w.field(1, .averageStrokeRateSpm, .u8, 2, &v)
        try w.field(2, .totalDistanceM, .u24, 1, &v)
        try w.field(3, .paceSPer500m, .u16, 1, &v)
        try w.field(4, .averagePaceSPer500m, .u16, 1, &v)
        try w.field(5, .powerW, .s16, 1, &v)
        try w.field(6, .averagePowerW, .s16, 1, &v)
        try w.field(7, .resistanceLevel, .s16, 1, &v)
        try w.energy(8, &v)
        try w.field(9, .heartRateBpm, .u8, 1, &v)
        try w.field(10, .metabolicEquivalent, .u8, 10, &v)
        try w.field(11, .elapsedTimeS, .u16, 1, &v)
        try w.field(12, .remainingTimeS, .u16, 1, &v)
    }

    /// Builds the value from the walk (`read` is `FlaggedDataCharacteristic`'s).
    @usableFromInline
    struct Builder: DataValueBuilder {
        @usableFromInline var value: RowerData
        @inlinable init() { value = RowerData(present: 0) }
        @inlinable mutating func flags(_ raw: UInt32) { value.present = (raw ^ 1) & fieldBits }
        @inlinable mutating func field(_ field: DataField, raw: Int, divisor: Double) {
            switch field {
            case .strokeRateSpm: value.raw_strokeRateSpm = UInt8(truncatingIfNeeded: raw)
            case .strokeCount: value.raw_strokeCount = UInt16(truncatingIfNeeded: raw)
            case .averageStrokeRateSpm: value.raw_averageStrokeRateSpm = UInt8(truncatingIfNeeded: raw)
            case .totalDistanceM: value.raw_totalDistanceM = UInt32(truncatingIfNeeded: raw)
            case .paceSPer500m: value.raw_paceSPer500m = UInt16(truncatingIfNeeded: raw)
            case .averagePaceSPer500m: value.raw_averagePaceSPer500m = UInt16(truncatingIfNeeded: raw)
            case .powerW: value.raw_powerW = Int16(truncatingIfNeeded: raw)
            case .averagePowerW: value.raw_averagePowerW = Int16(truncatingIfNeeded: raw)
            case .resistanceLevel: value.raw_resistanceLevel = Int16(truncatingIfNeeded: raw)
            case .totalEnergyKcal: value.rawEnergyTotal = UInt16(truncatingIfNeeded: raw)
            case .energyPerHourKcal: value.rawEnergyPerHour = UInt16(truncatingIfNeeded: raw)
            case .energyPerMinuteKcal: value.rawEnergyPerMinute = UInt8(truncatingIfNeeded: raw)
            case .heartRateBpm: value.raw_heartRateBpm = UInt8(truncatingIfNeeded: raw)
            case .metabolicEquivalent: value.raw_metabolicEquivalent = UInt8(truncatingIfNeeded: raw)
            case .elapsedTimeS: value.raw_elapsedTimeS = UInt16(truncatingIfNeeded: raw)
            case .remainingTimeS: value.raw_remainingTimeS = UInt16(truncatingIfNeeded: raw)
            default: break
            }
        }
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
        Self.appendDataFields(to: &f, payload: payload)
    }
}
