/// The fields of the six FTMS data characteristics (Treadmill, Cross Trainer, Step Climber,
/// Stair Climber, Rower, Indoor Bike Data), under their contract names
/// (`shared/specs/ftms-fields.md`).
public enum DataField: String, Sendable, CaseIterable {
    case speedKmh = "speed_kmh"
    case averageSpeedKmh = "average_speed_kmh"
    case cadenceRpm = "cadence_rpm"
    case averageCadenceRpm = "average_cadence_rpm"
    case totalDistanceM = "total_distance_m"
    case resistanceLevel = "resistance_level"
    case powerW = "power_w"
    case averagePowerW = "average_power_w"
    case totalEnergyKcal = "total_energy_kcal"
    case energyPerHourKcal = "energy_per_hour_kcal"
    case energyPerMinuteKcal = "energy_per_minute_kcal"
    case heartRateBpm = "heart_rate_bpm"
    case metabolicEquivalent = "metabolic_equivalent"
    case elapsedTimeS = "elapsed_time_s"
    case remainingTimeS = "remaining_time_s"
    case strokeRateSpm = "stroke_rate_spm"
    case strokeCount = "stroke_count"
    case averageStrokeRateSpm = "average_stroke_rate_spm"
    case paceSPer500m = "pace_s_per_500m"
    case averagePaceSPer500m = "average_pace_s_per_500m"
    case inclinationPct = "inclination_pct"
    case rampAngleDeg = "ramp_angle_deg"
    case positiveElevationGainM = "positive_elevation_gain_m"
    case negativeElevationGainM = "negative_elevation_gain_m"
    case paceKmPerMin = "pace_km_per_min"
    case averagePaceKmPerMin = "average_pace_km_per_min"
    case forceOnBeltN = "force_on_belt_n"
    case powerOutputW = "power_output_w"
    case stepsPerMin = "steps_per_min"
    case averageStepRateStepsPerMin = "average_step_rate_steps_per_min"
    case strideCount = "stride_count"
    case floors = "floors"
    case stepCount = "step_count"
}

/// Streaming decoding of the FTMS data characteristics: the decoder hands each present field
/// to the visitor as it reads it, in wire order, and builds no value. Same rules and errors
/// as the value decoders (whose values are built by this same walk); a value shorter than
/// its flags announce throws before anything is visited, so a visitor sees whole records
/// only. With the visitor's methods inlined, a consumer pays only for the fields it uses.
///
/// ```swift
/// struct Power: DataFieldVisitor {
///     var watts: Int?
///     mutating func field(_ field: DataField, raw: Int, divisor: Double) {
///         if field == .powerW { watts = raw }
///     }
/// }
/// var power = Power()
/// try IndoorBikeData.decode(bytes: payload, into: &power)
/// ```
public protocol DataFieldVisitor {
    /// Called once per record, before its fields, with the flags field as sent (bit 0 is
    /// "More Data": set when the first field is absent).
    mutating func flags(_ raw: UInt32)
    /// A present field: `raw` is the wire integer (sign-extended for signed fields); the
    /// value in the field's unit is `Double(raw) / divisor` — exactly what the value types'
    /// properties return — and `divisor` is 1 for the integer fields.
    mutating func field(_ field: DataField, raw: Int, divisor: Double)
}

extension DataFieldVisitor {
    @inlinable public mutating func flags(_ raw: UInt32) {}
}

/// How a field is sent.
@usableFromInline
enum WireType { case u8, u16, s16, u24 }

/// Where a walk reads its fields from: the unchecked cursor after the one length check, or
/// the checked cursor (which names the first short field).
@usableFromInline
protocol FieldSource {
    mutating func read(_ type: WireType, _ field: DataField) throws(DecodeError) -> Int
}

extension UncheckedCursor: FieldSource {
    @inlinable @inline(__always)
    mutating func read(_ type: WireType, _ field: DataField) -> Int {
        switch type {
        case .u8: Int(u8())
        case .u16: Int(u16())
        case .s16: Int(s16())
        case .u24: Int(u24())
        }
    }
}

extension ByteCursor: FieldSource {
    @inlinable @inline(__always)
    mutating func read(_ type: WireType, _ field: DataField) throws(DecodeError) -> Int {
        switch type {
        case .u8: Int(try u8(field.rawValue))
        case .u16: Int(try u16(field.rawValue))
        case .s16: Int(try s16(field.rawValue))
        case .u24: Int(try u24(field.rawValue))
        }
    }
}

/// One walk over the flagged fields of a data record: each characteristic lists its fields
/// once (`walk`), as a table of (flag bit, field, wire type, divisor).
@usableFromInline
struct FieldWalk<Source: FieldSource> {
    @usableFromInline var source: Source
    @usableFromInline let present: UInt32

    @inlinable @inline(__always)
    init(source: Source, present: UInt32) {
        self.source = source
        self.present = present
    }

    @inlinable @inline(__always)
    func has(_ bit: UInt32) -> Bool { present & (1 << bit) != 0 }

    /// The field of flag `bit`, when present.
    @inlinable @inline(__always)
    mutating func field<V: DataFieldVisitor>(
        _ bit: UInt32, _ field: DataField, _ type: WireType, _ divisor: Double = 1,
        _ visitor: inout V
    ) throws(DecodeError) {
        if has(bit) { try read(field, type, divisor, &visitor) }
    }

    /// One field of a group whose flag was tested by the caller.
    @inlinable @inline(__always)
    mutating func read<V: DataFieldVisitor>(
        _ field: DataField, _ type: WireType, _ divisor: Double = 1,
        _ visitor: inout V
    ) throws(DecodeError) {
        let raw = try source.read(type, field)
        visitor.field(field, raw: raw, divisor: divisor)
    }

    /// Expended Energy (three fields under one flag): uint16 total, uint16 per hour, uint8
    /// per minute, kcal.
    @inlinable @inline(__always)
    mutating func energy<V: DataFieldVisitor>(_ bit: UInt32, _ visitor: inout V) throws(DecodeError) {
        guard has(bit) else { return }
        try read(.totalEnergyKcal, .u16, 1, &visitor)
        try read(.energyPerHourKcal, .u16, 1, &visitor)
        try read(.energyPerMinuteKcal, .u8, 1, &visitor)
    }
}

/// A visitor that keeps nothing (the error-finding walk).
@usableFromInline
struct IgnoringVisitor: DataFieldVisitor {
    @inlinable init() {}
    @inlinable func field(_ field: DataField, raw: Int, divisor: Double) {}
}

/// Renders a record for `pipeline decode` (`DecodedFields`): `flags`, `more_data` and any
/// flag-only fields first, then the fields — integers as int, the rest as double in their units.
struct FieldRenderer: DataFieldVisitor {
    var fields: DecodedFields
    /// Fields a characteristic derives from its flags alone (Cross Trainer's movement direction).
    var flagFields: (inout DecodedFields, UInt32) -> Void
    mutating func flags(_ raw: UInt32) {
        fields.append("flags", .int(Int(raw)))
        fields.append("more_data", .bool(raw & 1 != 0))
        flagFields(&fields, raw)
    }
    mutating func field(_ field: DataField, raw: Int, divisor: Double) {
        fields.append(field.rawValue, divisor == 1 ? .int(raw) : .double(Double(raw) / divisor))
    }
}

/// The six FTMS data characteristics: a flags field (16 bits, 24 for Cross Trainer), then
/// the flagged fields in ascending bit order, bit 0 ("More Data") inverted.
@usableFromInline
protocol FlaggedDataCharacteristic {
    /// Builds the value from the walk.
    associatedtype Builder: DataValueBuilder where Builder.Value == Self
    /// Octets of the flags field.
    static var flagOctets: Int { get }
    /// The flag bits that select fields.
    static var fieldBits: UInt32 { get }
    /// Octets the present groups need after the flags (`present`: bit i = the fields of
    /// flag bit i are sent, bit 0 already inverted).
    static func fieldLength(present: UInt32) -> Int
    /// The fields, in wire order, from `walk.source` to `visitor`.
    static func walk<S: FieldSource, V: DataFieldVisitor>(_ walk: inout FieldWalk<S>, _ visitor: inout V)
        throws(DecodeError)
}

/// A visitor that builds a characteristic's value (stores each field's wire integer).
@usableFromInline
protocol DataValueBuilder: DataFieldVisitor {
    associatedtype Value
    init()
    var value: Value { get }
}

extension FlaggedDataCharacteristic {
    /// The value decoder: the walk, into the builder.
    @inlinable @inline(__always)
    static func read(_ c: inout ByteCursor) throws(DecodeError) -> Self {
        var builder = Builder()
        try visitFields(&c, &builder)
        return builder.value
    }

    /// Reads the flags, checks the whole length once, then walks the fields unchecked. A
    /// value shorter than its flags announce throws (naming the first short field) before
    /// the visitor sees anything.
    @inlinable @inline(__always)
    static func visitFields<V: DataFieldVisitor>(_ c: inout ByteCursor, _ visitor: inout V) throws(DecodeError) {
        let flags = flagOctets == 3 ? try c.u24("flags") : UInt32(try c.u16("flags"))
        let present = (flags ^ 1) & fieldBits
        guard c.remaining >= fieldLength(present: present) else { throw shortValueError(c, present: present) }
        visitor.flags(flags)
        var w = FieldWalk(source: UncheckedCursor(c), present: present)
        // Cannot throw: the unchecked source never does.
        try walk(&w, &visitor)
        c.skip(to: w.source.offset)
    }

    /// The first short field, as the checked reads find it. (Were none short — impossible
    /// when `fieldLength` is right — the error names the whole run of fields.)
    @usableFromInline @inline(never)
    static func shortValueError(_ c: ByteCursor, present: UInt32) -> DecodeError {
        var w = FieldWalk(source: c, present: present)
        var ignoring = IgnoringVisitor()
        do { try walk(&w, &ignoring) } catch { return error }
        return DecodeError(
            field: "fields", expected: fieldLength(present: present), offset: c.offset, found: c.remaining)
    }

    /// `flags`, `more_data`, then the fields, rendered (the payload was decoded already, so
    /// the walk succeeds).
    static func appendDataFields(
        to fields: inout DecodedFields, payload: UnsafeRawBufferPointer,
        flagFields: @escaping (inout DecodedFields, UInt32) -> Void = { _, _ in }
    ) {
        var renderer = FieldRenderer(fields: fields, flagFields: flagFields)
        var c = ByteCursor(payload)
        try? visitFields(&c, &renderer)
        fields = renderer.fields
    }
}

/// Records what a walk hands over (for the self-check below and for tests).
struct FieldRecording: DataFieldVisitor, Equatable {
    var flags: UInt32? = nil
    var fields: [String] = []
    mutating func flags(_ raw: UInt32) { flags = raw }
    mutating func field(_ field: DataField, raw: Int, divisor: Double) {
        fields.append("\(field.rawValue)=\(raw)/\(divisor)")
    }
}

extension FlaggedDataCharacteristic {
    /// Self-check used by the tests and the fuzz target: the decoder's path (one length
    /// check, then unchecked reads) and the checked walk (every read checked, the first short
    /// field throws) hand over the same fields and consume the same octets — or throw the
    /// same error, the decoder's path having visited nothing.
    static func fastPathMatchesCheckedWalk(_ payload: UnsafeRawBufferPointer) -> Bool {
        var fastCursor = ByteCursor(payload)
        var fast = FieldRecording()
        let fastError: DecodeError?
        do throws(DecodeError) { try visitFields(&fastCursor, &fast); fastError = nil } catch { fastError = error }

        var checkedCursor = ByteCursor(payload)
        var checked = FieldRecording()
        let checkedError: DecodeError?
        do throws(DecodeError) {
            let flags = flagOctets == 3 ? try checkedCursor.u24("flags") : UInt32(try checkedCursor.u16("flags"))
            checked.flags(flags)
            var w = FieldWalk(source: checkedCursor, present: (flags ^ 1) & fieldBits)
            try walk(&w, &checked)
            checkedCursor = w.source
            checkedError = nil
        } catch {
            checkedError = error
        }
        switch (fastError, checkedError) {
        case (nil, nil): return fast == checked && fastCursor.offset == checkedCursor.offset
        case (let x?, let y?): return x == y && fast == FieldRecording()
        default: return false
        }
    }
}
