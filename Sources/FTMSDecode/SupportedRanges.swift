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

        /// Its three fields as sent: minimum, maximum, minimum increment.
        var fields: [ParameterFormat] {
            switch self {
            case .speed: Self.range("speed_kmh", step: "kmh", .u16, divisor: 100)
            case .inclination: Self.range("inclination_pct", step: "pct", .s16, divisor: 10)
            case .resistanceLevel: Self.range("resistance_level", step: "resistance_level", .s16, divisor: 10)
            case .heartRate: Self.range("heart_rate_bpm", step: "bpm", .u8, divisor: nil)
            case .power: Self.range("power_w", step: "w", .s16, divisor: nil)
            }
        }

        /// `minimum_<quantity>` and `maximum_<quantity>` sent as `bound`, then
        /// `minimum_increment_<step>` unsigned (uint8 beside uint8 bounds, else uint16).
        static func range(_ quantity: String, step: String, _ bound: WireType, divisor: Double?) -> [ParameterFormat] {
            [
                .scalar("minimum_" + quantity, bound, divisor: divisor),
                .scalar("maximum_" + quantity, bound, divisor: divisor),
                .scalar("minimum_increment_" + step, bound == .u8 ? .u8 : .u16, divisor: divisor),
            ]
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

    var values: [Double] { [minimum, maximum, minimumIncrement] }

    public static func decode(kind: Kind, _ payload: [UInt8]) throws(DecodeError) -> SupportedRange {
        try decoding(payload) { bytes throws(DecodeError) in
            var c = ByteCursor(bytes)
            return try read(kind: kind, &c)
        }
    }

    static func read(kind: Kind, _ c: inout ByteCursor) throws(DecodeError) -> SupportedRange {
        var v: [Double] = []
        for field in kind.fields { v.append(try field.read(&c).number) }
        return SupportedRange(kind: kind, minimum: v[0], maximum: v[1], minimumIncrement: v[2])
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 6)
        for (field, x) in zip(kind.fields, values) { field.write(field.value(x), &w) }
        return w.bytes
    }

    func appendFields(to f: inout DecodedFields) {
        for (field, x) in zip(kind.fields, values) { field.append(field.value(x), to: &f) }
    }

    static func decodedValue(kind: Kind, _ bytes: UnsafeRawBufferPointer) -> DecodedValue {
        rendered(uuid: kind.rawValue, kind.characteristicName, bytes) { c, f throws(DecodeError) in
            try read(kind: kind, &c).appendFields(to: &f)
        }
    }
}
