/// The fields of the six FTMS data characteristics (Treadmill, Cross Trainer, Step Climber,
/// Stair Climber, Rower, Indoor Bike Data), Cycling Power Measurement and CSC Measurement,
/// under their contract names (`docs/ftms-fields.md`).
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
    // Cycling Power Measurement and CSC Measurement (also `powerW`).
    case pedalPowerBalancePct = "pedal_power_balance_pct"
    case accumulatedTorqueNm = "accumulated_torque_nm"
    case cumulativeWheelRevolutions = "cumulative_wheel_revolutions"
    case lastWheelEventTimeS = "last_wheel_event_time_s"
    case cumulativeCrankRevolutions = "cumulative_crank_revolutions"
    case lastCrankEventTimeS = "last_crank_event_time_s"
    case maximumForceN = "maximum_force_n"
    case minimumForceN = "minimum_force_n"
    case maximumTorqueNm = "maximum_torque_nm"
    case minimumTorqueNm = "minimum_torque_nm"
    case maximumAngleDeg = "maximum_angle_deg"
    case minimumAngleDeg = "minimum_angle_deg"
    case topDeadSpotAngleDeg = "top_dead_spot_angle_deg"
    case bottomDeadSpotAngleDeg = "bottom_dead_spot_angle_deg"
    case accumulatedEnergyKJ = "accumulated_energy_kj"
}

// MARK: - The fields as properties

/// A field as a property of the records (`FlaggedRecord`): which field of the list, and the property's type,
/// `Value?`.
public struct Field<Value: FieldScalar>: Sendable {
    /// Where the field is in its layout's list (slot -1 when the list does not have it).
    @usableFromInline let spec: FieldSpec
    @inlinable init(_ spec: FieldSpec) { self.spec = spec }
    /// The field.
    public var id: DataField { spec.target }
}

/// A flag bit that is a value itself, with no field (`RecordLayout.flagOnlyBits`), as a `Bool` property of the records.
public struct Flag: Sendable {
    public let bit: UInt32
    @inlinable public init(bit: UInt32) { self.bit = bit }
}

/// The names of a layout's fields as properties of its records (`RecordLayout.Fields`): for every property
/// `name: Field<Value>` here, `FlaggedRecord` has `name: Value?` (`@dynamicMemberLookup`), and `name: Bool` for every
/// `name: Flag`. A layout's `Fields` names
/// the fields particular to it and conforms to the protocols of the groups it shares with other characteristics
/// (`SpeedFields`, `PowerFields`, ...), which name theirs once for all.
public protocol FieldNames: Sendable {
    /// The layout whose fields these are.
    associatedtype Layout: RecordLayout
    init()
}

extension FieldNames {
    /// Field `id` of the layout's list, for a name's getter: `{ field(.speedKmh) }`. With the list inlined, the
    /// getter folds to a constant, and so does reading the property through it.
    @inlinable @inline(__always) public func field<Value>(_ id: DataField) -> Field<Value> {
        var spec = FieldSpec(id)
        Layout.fields(&spec)
        return Field(spec)
    }
}

/// The type of a field's property: `Double`, in the field's unit (`Double(raw) / divisor`); `Int` for a field of
/// divisor 1; `UInt32` and `UInt16` for the revolution counters, which wrap.
public protocol FieldScalar: Sendable {
    /// Fields of this type must have divisor 1 (checked in debug builds).
    static var isInteger: Bool { get }
    /// The property's value for a wire integer `raw` of a field with `divisor`.
    static func value(raw: Int32, divisor: Double) -> Self
    /// The wire integer nearest this value (before saturation to the wire type).
    func raw(divisor: Double) -> Int
}

extension Double: FieldScalar {
    @inlinable public static var isInteger: Bool { false }
    @inlinable public static func value(raw: Int32, divisor: Double) -> Double { Double(raw) / divisor }
    @inlinable public func raw(divisor: Double) -> Int { rawValue(self, divisor: divisor) }
}

extension Int: FieldScalar {
    @inlinable public static var isInteger: Bool { true }
    @inlinable public static func value(raw: Int32, divisor: Double) -> Int { Int(raw) }
    @inlinable public func raw(divisor: Double) -> Int { self }
}

extension UInt32: FieldScalar {
    @inlinable public static var isInteger: Bool { true }
    @inlinable public static func value(raw: Int32, divisor: Double) -> UInt32 { UInt32(bitPattern: raw) }
    @inlinable public func raw(divisor: Double) -> Int { Int(self) }
}

extension UInt16: FieldScalar {
    @inlinable public static var isInteger: Bool { true }
    @inlinable public static func value(raw: Int32, divisor: Double) -> UInt16 { UInt16(truncatingIfNeeded: raw) }
    @inlinable public func raw(divisor: Double) -> Int { Int(self) }
}

// The groups' names are emitted into the client: a key path to a protocol extension's property of another module folds
// to a constant only then (with `@inlinable` alone, reading one cost a key path lookup: `swift_getAtKeyPath`).

/// Heart Rate, Metabolic Equivalent, Elapsed and Remaining Time: every FTMS data characteristic.
public protocol FTMSDataFields: FieldNames {}

extension FTMSDataFields {
    @_alwaysEmitIntoClient public var heartRateBpm: Field<Int> { field(.heartRateBpm) }
    @_alwaysEmitIntoClient public var metabolicEquivalent: Field<Double> { field(.metabolicEquivalent) }
    @_alwaysEmitIntoClient public var elapsedTimeS: Field<Int> { field(.elapsedTimeS) }
    @_alwaysEmitIntoClient public var remainingTimeS: Field<Int> { field(.remainingTimeS) }
}

/// Instantaneous and Average Speed (km/h): Indoor Bike, Cross Trainer, Treadmill.
public protocol SpeedFields: FTMSDataFields {}

extension SpeedFields {
    @_alwaysEmitIntoClient public var speedKmh: Field<Double> { field(.speedKmh) }
    @_alwaysEmitIntoClient public var averageSpeedKmh: Field<Double> { field(.averageSpeedKmh) }
}

/// Total Distance (m): Indoor Bike, Cross Trainer, Treadmill, Rower.
public protocol DistanceFields: FTMSDataFields {}

extension DistanceFields {
    @_alwaysEmitIntoClient public var totalDistanceM: Field<Int> { field(.totalDistanceM) }
}

/// Instantaneous and Average Power (W): Indoor Bike, Cross Trainer, Rower.
public protocol PowerFields: FTMSDataFields {}

extension PowerFields {
    @_alwaysEmitIntoClient public var powerW: Field<Int> { field(.powerW) }
    @_alwaysEmitIntoClient public var averagePowerW: Field<Int> { field(.averagePowerW) }
}

/// Step Per Minute, Average Step Rate and Positive Elevation Gain (1 m): Cross Trainer, Stair and Step Climber.
public protocol StepRateFields: FTMSDataFields {}

extension StepRateFields {
    @_alwaysEmitIntoClient public var stepsPerMin: Field<Int> { field(.stepsPerMin) }
    @_alwaysEmitIntoClient public var averageStepRateStepsPerMin: Field<Int> { field(.averageStepRateStepsPerMin) }
    @_alwaysEmitIntoClient public var positiveElevationGainM: Field<Int> { field(.positiveElevationGainM) }
}

/// Inclination (%) and Ramp Angle Setting (°): Treadmill, Cross Trainer.
public protocol InclinationFields: FTMSDataFields {}

extension InclinationFields {
    @_alwaysEmitIntoClient public var inclinationPct: Field<Double> { field(.inclinationPct) }
    @_alwaysEmitIntoClient public var rampAngleDeg: Field<Double> { field(.rampAngleDeg) }
}

/// Floors: Stair and Step Climber.
public protocol ClimbFields: FTMSDataFields {}

extension ClimbFields {
    @_alwaysEmitIntoClient public var floors: Field<Int> { field(.floors) }
}

/// Wheel and crank revolution data (cumulative revolutions and last event time, in s with the layout's divisor:
/// 1/2048 for Cycling Power's wheel, 1/1024 otherwise): Cycling Power and CSC Measurement.
public protocol RevolutionFields: FieldNames {}

extension RevolutionFields {
    @_alwaysEmitIntoClient public var cumulativeWheelRevolutions: Field<UInt32> { field(.cumulativeWheelRevolutions) }
    @_alwaysEmitIntoClient public var lastWheelEventTimeS: Field<Double> { field(.lastWheelEventTimeS) }
    @_alwaysEmitIntoClient public var cumulativeCrankRevolutions: Field<UInt16> { field(.cumulativeCrankRevolutions) }
    @_alwaysEmitIntoClient public var lastCrankEventTimeS: Field<Double> { field(.lastCrankEventTimeS) }
}

/// Streaming decoding of the flagged characteristics (`FlaggedRecord`): the decoder hands each present field
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
