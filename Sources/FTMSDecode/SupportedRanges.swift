/// The five Supported … Range characteristics, Fitness Machine Service 1.0 §4.11–§4.15,
/// as deployed (`shared/specs/ftms-fields.md`): three fields each, minimum, maximum,
/// minimum increment. Supported Resistance Level Range is 3 × 16-bit with resolution 0.1
/// (the later 3 × uint8 text is not what devices send).
public struct SupportedRange: Sendable, Equatable {
    /// Which range characteristic, with its field names and wire formats.
    public enum Kind: UInt16, Sendable, CaseIterable {
        /// §4.11: uint16 ×0.01 km/h × 3.
        case speed = 0x2AD4
        /// §4.12: sint16 ×0.1 %, sint16 ×0.1 %, uint16 ×0.1 %.
        case inclination = 0x2AD5
        /// §4.13: sint16 ×0.1, sint16 ×0.1, uint16 ×0.1.
        case resistanceLevel = 0x2AD6
        /// §4.14: uint8 bpm × 3.
        case heartRate = 0x2AD7
        /// §4.15: sint16 W, sint16 W, uint16 W.
        case power = 0x2AD8

        public var characteristicName: String {
            switch self {
            case .speed: "supported_speed_range"
            case .inclination: "supported_inclination_range"
            case .resistanceLevel: "supported_resistance_level_range"
            case .heartRate: "supported_heart_rate_range"
            case .power: "supported_power_range"
            }
        }

        var fieldNames: (String, String, String) {
            switch self {
            case .speed: ("minimum_speed_kmh", "maximum_speed_kmh", "minimum_increment_kmh")
            case .inclination: ("minimum_inclination_pct", "maximum_inclination_pct", "minimum_increment_pct")
            case .resistanceLevel:
                ("minimum_resistance_level", "maximum_resistance_level", "minimum_increment_resistance_level")
            case .heartRate: ("minimum_heart_rate_bpm", "maximum_heart_rate_bpm", "minimum_increment_bpm")
            case .power: ("minimum_power_w", "maximum_power_w", "minimum_increment_w")
            }
        }

        /// Divisor of the raw value (1 for integer fields).
        var divisor: Double {
            switch self {
            case .speed: 100
            case .inclination, .resistanceLevel: 10
            case .heartRate, .power: 1
            }
        }

        var isInteger: Bool { self == .heartRate || self == .power }
    }

    public var kind: Kind
    public var minimum: Double
    public var maximum: Double
    public var minimumIncrement: Double

    public init(kind: Kind, minimum: Double, maximum: Double, minimumIncrement: Double) {
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.minimumIncrement = minimumIncrement
    }

    public static func decode(kind: Kind, _ payload: [UInt8]) throws(DecodeError) -> SupportedRange {
        try decoding(payload) { bytes throws(DecodeError) in try decode(kind: kind, bytes: bytes) }
    }

    /// Zero-copy variant.
    public static func decode(kind: Kind, bytes: UnsafeRawBufferPointer) throws(DecodeError) -> SupportedRange {
        var c = ByteCursor(bytes)
        return try read(kind: kind, &c)
    }

    static func read(kind: Kind, _ c: inout ByteCursor) throws(DecodeError) -> SupportedRange {
        let (minName, maxName, incName) = kind.fieldNames
        let d = kind.divisor
        switch kind {
        case .speed:
            let a = scaled(try c.u16(minName), d), b = scaled(try c.u16(maxName), d), i = scaled(try c.u16(incName), d)
            return SupportedRange(kind: kind, minimum: a, maximum: b, minimumIncrement: i)
        case .inclination, .resistanceLevel, .power:
            let a = scaled(try c.s16(minName), d), b = scaled(try c.s16(maxName), d), i = scaled(try c.u16(incName), d)
            return SupportedRange(kind: kind, minimum: a, maximum: b, minimumIncrement: i)
        case .heartRate:
            let a = Double(try c.u8(minName)), b = Double(try c.u8(maxName)), i = Double(try c.u8(incName))
            return SupportedRange(kind: kind, minimum: a, maximum: b, minimumIncrement: i)
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 6)
        let d = kind.divisor
        switch kind {
        case .speed:
            w.u16(rawValue(minimum, divisor: d)); w.u16(rawValue(maximum, divisor: d));
            w.u16(rawValue(minimumIncrement, divisor: d))
        case .inclination, .resistanceLevel, .power:
            w.s16(rawValue(minimum, divisor: d)); w.s16(rawValue(maximum, divisor: d));
            w.u16(rawValue(minimumIncrement, divisor: d))
        case .heartRate:
            w.u8(rawValue(minimum, divisor: d)); w.u8(rawValue(maximum, divisor: d));
            w.u8(rawValue(minimumIncrement, divisor: d))
        }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields) {
        let (minName, maxName, incName) = kind.fieldNames
        func value(_ x: Double) -> FieldValue { kind.isInteger ? .int(Int(x)) : .double(x) }
        f.append(minName, value(minimum))
        f.append(maxName, value(maximum))
        f.append(incName, value(minimumIncrement))
    }

    static func decodedValue(kind: Kind, _ bytes: UnsafeRawBufferPointer) -> DecodedValue {
        rendered(uuid: kind.rawValue, kind.characteristicName, bytes) { c, f throws(DecodeError) in
            try read(kind: kind, &c).appendFields(to: &f)
        }
    }
}
