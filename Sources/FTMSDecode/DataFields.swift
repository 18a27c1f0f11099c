/// The fields of the six FTMS data characteristics (Treadmill, Cross Trainer, Step Climber,
/// Stair Climber, Rower, Indoor Bike Data), Cycling Power Measurement and CSC Measurement,
/// under their contract names (`shared/specs/ftms-fields.md`).
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

// MARK: - Fields several characteristics share

// A property of a field that several FTMS data characteristics list alike (same field, same
// property type) is declared once, for the layouts that conform to its group's protocol; the
// rest are declared with their characteristic. Conform a layout only when its list has every
// field of the group, with divisor 1 for the `Int?` properties: the accessors look the field up
// in the list (`FlaggedRecord`'s subscript), which folds to a constant once inlined.

/// Heart Rate, Metabolic Equivalent, Elapsed and Remaining Time: every FTMS data characteristic.
extension FlaggedRecord where Layout: FTMSDataLayout {
    @inlinable @inline(__always) public var heartRateBpm: Int? {
        get { self[.heartRateBpm] }
        set { self[.heartRateBpm] = newValue }
    }
    @inlinable @inline(__always) public var metabolicEquivalent: Double? {
        get { self[.metabolicEquivalent] }
        set { self[.metabolicEquivalent] = newValue }
    }
    @inlinable @inline(__always) public var elapsedTimeS: Int? {
        get { self[.elapsedTimeS] }
        set { self[.elapsedTimeS] = newValue }
    }
    @inlinable @inline(__always) public var remainingTimeS: Int? {
        get { self[.remainingTimeS] }
        set { self[.remainingTimeS] = newValue }
    }
}

/// Instantaneous and Average Speed (km/h): Indoor Bike, Cross Trainer, Treadmill.
public protocol SpeedFields: FTMSDataLayout {}

extension FlaggedRecord where Layout: SpeedFields {
    @inlinable @inline(__always) public var speedKmh: Double? {
        get { self[.speedKmh] }
        set { self[.speedKmh] = newValue }
    }
    @inlinable @inline(__always) public var averageSpeedKmh: Double? {
        get { self[.averageSpeedKmh] }
        set { self[.averageSpeedKmh] = newValue }
    }
}

/// Total Distance (m): Indoor Bike, Cross Trainer, Treadmill, Rower.
public protocol DistanceFields: FTMSDataLayout {}

extension FlaggedRecord where Layout: DistanceFields {
    @inlinable @inline(__always) public var totalDistanceM: Int? {
        get { self[.totalDistanceM] }
        set { self[.totalDistanceM] = newValue }
    }
}

/// Instantaneous and Average Power (W): Indoor Bike, Cross Trainer, Rower.
public protocol PowerFields: FTMSDataLayout {}

extension FlaggedRecord where Layout: PowerFields {
    @inlinable @inline(__always) public var powerW: Int? {
        get { self[.powerW] }
        set { self[.powerW] = newValue }
    }
    @inlinable @inline(__always) public var averagePowerW: Int? {
        get { self[.averagePowerW] }
        set { self[.averagePowerW] = newValue }
    }
}

/// Step Per Minute, Average Step Rate and Positive Elevation Gain (1 m): Cross Trainer, Stair and Step Climber.
public protocol StepRateFields: FTMSDataLayout {}

extension FlaggedRecord where Layout: StepRateFields {
    @inlinable @inline(__always) public var stepsPerMin: Int? {
        get { self[.stepsPerMin] }
        set { self[.stepsPerMin] = newValue }
    }
    @inlinable @inline(__always) public var averageStepRateStepsPerMin: Int? {
        get { self[.averageStepRateStepsPerMin] }
        set { self[.averageStepRateStepsPerMin] = newValue }
    }
    @inlinable @inline(__always) public var positiveElevationGainM: Int? {
        get { self[.positiveElevationGainM] }
        set { self[.positiveElevationGainM] = newValue }
    }
}

/// Inclination (%) and Ramp Angle Setting (°): Treadmill, Cross Trainer.
public protocol InclinationFields: FTMSDataLayout {}

extension FlaggedRecord where Layout: InclinationFields {
    @inlinable @inline(__always) public var inclinationPct: Double? {
        get { self[.inclinationPct] }
        set { self[.inclinationPct] = newValue }
    }
    @inlinable @inline(__always) public var rampAngleDeg: Double? {
        get { self[.rampAngleDeg] }
        set { self[.rampAngleDeg] = newValue }
    }
}

/// Floors: Stair and Step Climber.
public protocol ClimbFields: FTMSDataLayout {}

extension FlaggedRecord where Layout: ClimbFields {
    @inlinable @inline(__always) public var floors: Int? {
        get { self[.floors] }
        set { self[.floors] = newValue }
    }
}

/// Wheel and crank revolution data (cumulative revolutions and last event time, in s with the
/// layout's divisor: 1/2048 for Cycling Power's wheel, 1/1024 otherwise): Cycling Power and CSC
/// Measurement.
public protocol RevolutionFields: RecordLayout {}

extension FlaggedRecord where Layout: RevolutionFields {
    @inlinable @inline(__always) public var cumulativeWheelRevolutions: UInt32? {
        get { (self[.cumulativeWheelRevolutions] as Int?).map { UInt32(truncatingIfNeeded: $0) } }
        set { self[.cumulativeWheelRevolutions] = newValue.map { Int($0) } }
    }
    @inlinable @inline(__always) public var lastWheelEventTimeS: Double? {
        get { self[.lastWheelEventTimeS] }
        set { self[.lastWheelEventTimeS] = newValue }
    }
    @inlinable @inline(__always) public var cumulativeCrankRevolutions: UInt16? {
        get { (self[.cumulativeCrankRevolutions] as Int?).map { UInt16(truncatingIfNeeded: $0) } }
        set { self[.cumulativeCrankRevolutions] = newValue.map { Int($0) } }
    }
    @inlinable @inline(__always) public var lastCrankEventTimeS: Double? {
        get { self[.lastCrankEventTimeS] }
        set { self[.lastCrankEventTimeS] = newValue }
    }
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
