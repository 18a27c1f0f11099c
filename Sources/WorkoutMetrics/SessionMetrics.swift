/// The metrics of one session, named and measured as in docs/metrics.md ("Per session",
/// "Rowing", "Treadmill"). Every value is optional: `nil` means "does not apply or is
/// undefined" (no power channel, no unbroken 30 s for NP, a ratio over zero, an athlete
/// parameter missing) and is left out of the JSON, never written as 0.
///
/// JSON keys are the spec's snake_case names (see `CodingKeys`); `MetricDescriptor.all`
/// describes each one (unit, aggregation, sports, source).
public struct SessionMetrics: Sendable, Codable, Equatable {
    // Grid
    public var durationS: Int?

    // Power
    public var powerSeconds: Int?
    public var avgPowerW: Double?
    public var maxPowerW: Double?
    public var workKj: Double?
    public var npW: Double?
    public var intensityFactor: Double?
    public var tss: Double?
    public var vi: Double?
    public var ef: Double?
    public var aerobicDecouplingPct: Double?
    public var mmpW: MeanMaximalPower?
    /// Seconds in Coggan levels 1…7 (7 entries).
    public var timeInPowerZonesS: [Int]?
    public var wbalMinJ: Double?
    public var wbalIntegralMinJ: Double?

    // Heart rate
    public var avgHrBpm: Double?
    public var maxHrBpm: Double?
    public var trimpBanister: Double?
    public var trimpEdwards: Double?
    public var hrss: Double?
    /// Seconds in Edwards' five zones (50–60, 60–70, 70–80, 80–90, ≥ 90 % HRmax); seconds
    /// below 50 % are in none, so `Σ weight·seconds/60 == trimp_edwards`.
    public var timeInHrZonesS: [Int]?

    // Cadence
    public var avgCadenceRpm: Double?
    public var maxCadenceRpm: Double?

    // Distance and speed (rowing: last total distance; otherwise Σ speed)
    public var distanceM: Double?
    public var movingTimeS: Int?
    public var avgSpeedMps: Double?
    public var maxSpeedMps: Double?

    // Rowing
    public var avgSplitSPer500m: Double?
    public var wattsFromAvgSplitW: Double?
    public var avgStrokeRateSpm: Double?
    public var concept2KcalPerHourAtAvgSplit: Double?

    // Run / treadmill
    public var avgPaceSPerKm: Double?
    public var gapPaceSPerKm: Double?
    public var kcalAcsm: Double?

    public init() {}

    /// The session's contribution to `daily_load`: TSS where power gives one, otherwise
    /// the HR-based HRSS (same scale: one hour at threshold is 100); `nil` if neither.
    public var trainingLoad: Double? { tss ?? hrss }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case durationS = "duration_s"
        case powerSeconds = "power_seconds"
        case avgPowerW = "avg_power_w"
        case maxPowerW = "max_power_w"
        case workKj = "work_kj"
        case npW = "np_w"
        case intensityFactor = "if"
        case tss
        case vi
        case ef
        case aerobicDecouplingPct = "aerobic_decoupling_pct"
        case mmpW = "mmp_w"
        case timeInPowerZonesS = "time_in_power_zones_s"
        case wbalMinJ = "wbal_min_j"
        case wbalIntegralMinJ = "wbal_integral_min_j"
        case avgHrBpm = "avg_hr_bpm"
        case maxHrBpm = "max_hr_bpm"
        case trimpBanister = "trimp_banister"
        case trimpEdwards = "trimp_edwards"
        case hrss
        case timeInHrZonesS = "time_in_hr_zones_s"
        case avgCadenceRpm = "avg_cadence_rpm"
        case maxCadenceRpm = "max_cadence_rpm"
        case distanceM = "distance_m"
        case movingTimeS = "moving_time_s"
        case avgSpeedMps = "avg_speed_mps"
        case maxSpeedMps = "max_speed_mps"
        case avgSplitSPer500m = "avg_split_s_per_500m"
        case wattsFromAvgSplitW = "watts_from_avg_split_w"
        case avgStrokeRateSpm = "avg_stroke_rate_spm"
        case concept2KcalPerHourAtAvgSplit = "concept2_kcal_per_hour_at_avg_split"
        case avgPaceSPerKm = "avg_pace_s_per_km"
        case gapPaceSPerKm = "gap_pace_s_per_km"
        case kcalAcsm = "kcal_acsm"
    }
}
