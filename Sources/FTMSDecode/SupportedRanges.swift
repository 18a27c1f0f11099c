/// The five Supported … Range characteristics, Fitness Machine Service 1.0 §4.11–§4.15,
/// as deployed (`docs/ftms-fields.md`): three fields each, minimum, maximum,
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

        /// The three fields (minimum, maximum, minimum increment), each a contract name and a wire type, with the
        /// divisor they share (1 for the integer fields): what decoding, encoding and rendering follow.
        package var fields: (names: [String], types: [WireType], divisor: Double) {
            switch self {
            case .speed:
                (["minimum_speed_kmh", "maximum_speed_kmh", "minimum_increment_kmh"], [.u16, .u16, .u16], 100)
            case .inclination:
                (
                    ["minimum_inclination_pct", "maximum_inclination_pct", "minimum_increment_pct"],
                    [.s16, .s16, .u16], 10
                )
            case .resistanceLevel:
                (
                    ["minimum_resistance_level", "maximum_resistance_level", "minimum_increment_resistance_level"],
                    [.s16, .s16, .u16], 10
                )
            case .heartRate:
                (["minimum_heart_rate_bpm", "maximum_heart_rate_bpm", "minimum_increment_bpm"], [.u8, .u8, .u8], 1)
            case .power: (["minimum_power_w", "maximum_power_w", "minimum_increment_w"], [.s16, .s16, .u16], 1)
            }
        }
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

    package static func read(kind: Kind, _ c: inout ByteCursor) throws(DecodeError) -> SupportedRange {
        let (names, types, divisor) = kind.fields
        var values: [Double] = []
        for i in 0..<3 { values.append(Double(try c.read(types[i], names[i])) / divisor) }
        return SupportedRange(kind: kind, minimum: values[0], maximum: values[1], minimumIncrement: values[2])
    }

    public func encode() -> [UInt8] {
        let (_, types, divisor) = kind.fields
        var w = ByteWriter(capacity: 6)
        for (type, value) in zip(types, [minimum, maximum, minimumIncrement]) {
            w.write(type, rawValue(value, divisor: divisor))
        }
        return w.bytes
    }
}
