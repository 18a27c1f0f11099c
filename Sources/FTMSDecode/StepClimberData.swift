/// Step Climber Data (0x2ACF), Fitness Machine Service 1.0 §4.6: uint16 flags, then the
/// flagged fields in ascending bit order. Bit 0 "More Data" is inverted: Floors and Step
/// Count are present when it is 0. Elevation gain 1 m.
///
/// Values are stored as the raw wire integers (a compact, allocation-free value); the
/// properties convert to physical units at the boundary, and setting one quantises it to
/// the field's resolution (rounded to the nearest step, saturated to the field's range).
/// Fields sent together under one flag (e.g. inclination and ramp angle) are present
/// together: setting one makes the group present, with 0 for the other.
public struct StepClimberData: Sendable, Equatable, CharacteristicCoding, FlaggedDataCharacteristic {
    public static let uuid: UInt16 = 0x2ACF
    public static let characteristicName = "step_climber_data"

    /// Bit i set = the fields of flag bit i are present (bit 0 NOT inverted here).
    @usableFromInline var present: UInt32 = 0
    @usableFromInline var raw_floors: UInt16 = 0
    @usableFromInline var raw_stepCount: UInt16 = 0
    @usableFromInline var raw_stepsPerMin: UInt16 = 0
    @usableFromInline var raw_averageStepRateStepsPerMin: UInt16 = 0
    @usableFromInline var raw_positiveElevationGainM: UInt16 = 0
    @usableFromInline var rawEnergyTotal: UInt16 = 0, rawEnergyPerHour: UInt16 = 0, rawEnergyPerMinute: UInt8 = 0
    @usableFromInline var raw_heartRateBpm: UInt8 = 0
    @usableFromInline var raw_metabolicEquivalent: UInt8 = 0
    @usableFromInline var raw_elapsedTimeS: UInt16 = 0
    @usableFromInline var raw_remainingTimeS: UInt16 = 0

    /// Flags bit 0 = 0 (with `stepCount`); uint16.
    public var floors: Int? {
        @inlinable get { present & (1 << 0) == 0 ? nil : Int(raw_floors) }
        set {
            if let newValue {
                present |= 1 << 0
                raw_floors = UInt16(clamping: newValue)
            } else {
                raw_floors = 0
                if raw_stepCount == 0 { present &= ~(1 << 0) }
            }
        }
    }
    /// Flags bit 0 = 0 (with `floors`); uint16.
    public var stepCount: Int? {
        @inlinable get { present & (1 << 0) == 0 ? nil : Int(raw_stepCount) }
        set {
            if let newValue {
                present |= 1 << 0
                raw_stepCount = UInt16(clamping: newValue)
            } else {
                raw_stepCount = 0
                if raw_floors == 0 { present &= ~(1 << 0) }
            }
        }
    }
    /// Bit 1; uint16, 1 /min.
    public var stepsPerMin: Int? {
        @inlinable get { present & (1 << 1) == 0 ? nil : Int(raw_stepsPerMin) }
        set {
            if let newValue {
                present |= 1 << 1
                raw_stepsPerMin = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 1); raw_stepsPerMin = 0
            }
        }
    }
    /// Bit 2; uint16, 1 /min.
    public var averageStepRateStepsPerMin: Int? {
        @inlinable get { present & (1 << 2) == 0 ? nil : Int(raw_averageStepRateStepsPerMin) }
        set {
            if let newValue {
                present |= 1 << 2
                raw_averageStepRateStepsPerMin = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 2); raw_averageStepRateStepsPerMin = 0
            }
        }
    }
    /// Bit 3; uint16, 1 m.
    public var positiveElevationGainM: Int? {
        @inlinable get { present & (1 << 3) == 0 ? nil : Int(raw_positiveElevationGainM) }
        set {
            if let newValue {
                present |= 1 << 3
                raw_positiveElevationGainM = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 3); raw_positiveElevationGainM = 0
            }
        }
    }
    /// Bit 4: Total Energy uint16, Energy Per Hour uint16, Energy Per Minute uint8 (kcal).
    public var energy: ExpendedEnergy? {
        @inlinable get {
            present & (1 << 4) == 0
                ? nil
                : ExpendedEnergy(
                    totalKcal: Int(rawEnergyTotal), perHourKcal: Int(rawEnergyPerHour),
                    perMinuteKcal: Int(rawEnergyPerMinute))
        }
        set {
            if let newValue {
                present |= 1 << 4
                rawEnergyTotal = UInt16(clamping: newValue.totalKcal)
                rawEnergyPerHour = UInt16(clamping: newValue.perHourKcal)
                rawEnergyPerMinute = UInt8(clamping: newValue.perMinuteKcal)
            } else {
                present &= ~(1 << 4); rawEnergyTotal = 0; rawEnergyPerHour = 0; rawEnergyPerMinute = 0
            }
        }
    }
    /// Bit 5; uint8, 1 bpm.
    public var heartRateBpm: Int? {
        @inlinable get { present & (1 << 5) == 0 ? nil : Int(raw_heartRateBpm) }
        set {
            if let newValue {
                present |= 1 << 5
                raw_heartRateBpm = UInt8(clamping: newValue)
            } else {
                present &= ~(1 << 5); raw_heartRateBpm = 0
            }
        }
    }
    /// Bit 6; uint8, 0.1 MET.
    public var metabolicEquivalent: Double? {
        @inlinable get { present & (1 << 6) == 0 ? nil : scaled(raw_metabolicEquivalent, 10) }
        set {
            if let newValue {
                present |= 1 << 6
                raw_metabolicEquivalent = UInt8(clamping: rawValue(newValue, divisor: 10))
            } else {
                present &= ~(1 << 6); raw_metabolicEquivalent = 0
            }
        }
    }
    /// Bit 7; uint16, 1 s.
    public var elapsedTimeS: Int? {
        @inlinable get { present & (1 << 7) == 0 ? nil : Int(raw_elapsedTimeS) }
        set {
            if let newValue {
                present |= 1 << 7
                raw_elapsedTimeS = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 7); raw_elapsedTimeS = 0
            }
        }
    }
    /// Bit 8; uint16, 1 s.
    public var remainingTimeS: Int? {
        @inlinable get { present & (1 << 8) == 0 ? nil : Int(raw_remainingTimeS) }
        set {
            if let newValue {
                present |= 1 << 8
                raw_remainingTimeS = UInt16(clamping: newValue)
            } else {
                present &= ~(1 << 8); raw_remainingTimeS = 0
            }
        }
    }

    public init(
        floors: Int? = nil, stepCount: Int? = nil, stepsPerMin: Int? = nil,
        averageStepRateStepsPerMin: Int? =
            nil, positiveElevationGainM: Int? = nil, energy: ExpendedEnergy? = nil, heartRateBpm: Int? = nil,
        metabolicEquivalent: Double? = nil, elapsedTimeS: Int? = nil, remainingTimeS: Int? = nil
    ) {
        self.floors = floors
        self.stepCount = stepCount
        self.stepsPerMin = stepsPerMin
        self.averageStepRateStepsPerMin = averageStepRateStepsPerMin
        self.positiveElevationGainM = positiveElevationGainM
        self.energy = energy
        self.heartRateBpm = heartRateBpm
        self.metabolicEquivalent = metabolicEquivalent
        self.elapsedTimeS = elapsedTimeS
        self.remainingTimeS = remainingTimeS
    }

    /// An empty value with the given groups marked present (their raw fields 0): the start
    /// of a decode.
    @inlinable init(present: UInt32) { self.present = present }

    /// Flags bit 0 as sent: true when the bit-0 fields (floors, stepCount) are absent.
    public var moreData: Bool { present & 1 == 0 }

    /// The flags `encode()` writes: one bit per present group, bit 0 inverted.
    public var flags: UInt16 {
        UInt16(truncatingIfNeeded: present ^ 1)
    }

    /// Decodes one notification. Throws when the payload ends before a flagged field;
    /// trailing octets and reserved flag bits are ignored.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> StepClimberData { try decodeArray(payload) }
    /// Zero-copy variant.
    @inlinable @inline(__always)
    public static func decode(bytes: UnsafeRawBufferPointer) throws(DecodeError) -> StepClimberData {
        var cursor = ByteCursor(bytes)
        return try read(&cursor)
    }

    /// Octets the present groups need: flag bits whose fields take 1, 2, 3, 4, 5 octets.
    @inlinable @inline(__always) static func fieldLength(present: UInt32) -> Int {
        requiredLength(present: present, ones: 0x60, twos: 0x18E, threes: 0x0, fours: 0x1, fives: 0x10)
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
    @usableFromInline static let fieldBits: UInt32 = 0x1FF

    /// The fields in wire order (§4.5): flag bit, field, wire type, divisor.
    @inlinable @inline(__always)
    static func walk<S: FieldSource, V: DataFieldVisitor>(_ w: inout FieldWalk<S>, _ v: inout V) throws(DecodeError) {
        if w.has(0) {
            try w.read(.floors, .u16, 1, &v)
            try w.read(.stepCount, .u16, 1, &v)
        }
        try w.field(1, .stepsPerMin, .u16, 1, &v)
        try w.field(2, .averageStepRateStepsPerMin, .u16, 1, &v)
        try w.field(3, .positiveElevationGainM, .u16, 1, &v)
        try w.energy(4, &v)
        try w.field(5, .heartRateBpm, .u8, 1, &v)
        try w.field(6, .metabolicEquivalent, .u8, 10, &v)
        try w.field(7, .elapsedTimeS, .u16, 1, &v)
        try w.field(8, .remainingTimeS, .u16, 1, &v)
    }

    /// Builds the value from the walk (`read` is `FlaggedDataCharacteristic`'s).
    @usableFromInline
    struct Builder: DataValueBuilder {
        @usableFromInline var value: StepClimberData
        @inlinable init() { value = StepClimberData(present: 0) }
        @inlinable mutating func flags(_ raw: UInt32) { value.present = (raw ^ 1) & fieldBits }
        @inlinable mutating func field(_ field: DataField, raw: Int, divisor: Double) {
            switch field {
            case .floors: value.raw_floors = UInt16(truncatingIfNeeded: raw)
            case .stepCount: value.raw_stepCount = UInt16(truncatingIfNeeded: raw)
            case .stepsPerMin: value.raw_stepsPerMin = UInt16(truncatingIfNeeded: raw)
            case .averageStepRateStepsPerMin: value.raw_averageStepRateStepsPerMin = UInt16(truncatingIfNeeded: raw)
            case .positiveElevationGainM: value.raw_positiveElevationGainM = UInt16(truncatingIfNeeded: raw)
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
            w.u16(raw_floors)
            w.u16(raw_stepCount)
        }
        if present & (1 << 1) != 0 {
            w.u16(raw_stepsPerMin)
        }
        if present & (1 << 2) != 0 {
            w.u16(raw_averageStepRateStepsPerMin)
        }
        if present & (1 << 3) != 0 {
            w.u16(raw_positiveElevationGainM)
        }
        if present & (1 << 4) != 0 {
            w.u16(rawEnergyTotal); w.u16(rawEnergyPerHour); w.u8(rawEnergyPerMinute)
        }
        if present & (1 << 5) != 0 {
            w.u8(raw_heartRateBpm)
        }
        if present & (1 << 6) != 0 {
            w.u8(raw_metabolicEquivalent)
        }
        if present & (1 << 7) != 0 {
            w.u16(raw_elapsedTimeS)
        }
        if present & (1 << 8) != 0 {
            w.u16(raw_remainingTimeS)
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields, payload: UnsafeRawBufferPointer) {
        Self.appendDataFields(to: &f, payload: payload)
    }
}
