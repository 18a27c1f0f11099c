/// The metrics of one session, named and measured as in docs/metrics.md ("Per session",
/// "Rowing", "Treadmill"). Every value is optional: `nil` means "does not apply or is
/// undefined" (no power channel, no unbroken 30 s for NP, a ratio over zero, an athlete
/// parameter missing) and is left out of the JSON, never written as 0.
///
/// The set is defined by `MetricDescriptor.all`: a value is kept under its descriptor's symbol, the JSON keys are
/// the symbols in the order of `all`, and `subscript(_:)` reads any metric. The named properties below are typed
/// views for the code that reads or writes a metric by name; a new metric needs none.
public struct SessionMetrics: Sendable, Codable, Equatable {
    /// The values present, by symbol (absent: nil).
    public private(set) var values: [MetricSymbol: MetricValue] = [:]

    public init() {}

    /// A metric's value by its symbol.
    public subscript(symbol: MetricSymbol) -> MetricValue? {
        get { values[symbol] }
        set { values[symbol] = newValue }
    }

    /// The session's contribution to `daily_load`: TSS where power gives one, otherwise
    /// the HR-based HRSS (same scale: one hour at threshold is 100); `nil` if neither.
    public var trainingLoad: Double? { tss ?? hrss }

    func count(_ symbol: MetricSymbol) -> Int? {
        if case .count(let v) = values[symbol] { v } else { nil }
    }
    func number(_ symbol: MetricSymbol) -> Double? {
        if case .number(let v) = values[symbol] { v } else { nil }
    }
    func counts(_ symbol: MetricSymbol) -> [Int]? {
        if case .counts(let v) = values[symbol] { v } else { nil }
    }

    // Grid
    public var durationS: Int? {
        get { count("duration_s") }
        set { values["duration_s"] = newValue.map(MetricValue.count) }
    }

    // Power
    public var powerSeconds: Int? {
        get { count("power_seconds") }
        set { values["power_seconds"] = newValue.map(MetricValue.count) }
    }
    public var avgPowerW: Double? {
        get { number("avg_power_w") }
        set { values["avg_power_w"] = newValue.map(MetricValue.number) }
    }
    public var maxPowerW: Double? {
        get { number("max_power_w") }
        set { values["max_power_w"] = newValue.map(MetricValue.number) }
    }
    public var workKj: Double? {
        get { number("work_kj") }
        set { values["work_kj"] = newValue.map(MetricValue.number) }
    }
    public var npW: Double? {
        get { number("np_w") }
        set { values["np_w"] = newValue.map(MetricValue.number) }
    }
    public var intensityFactor: Double? {
        get { number("if") }
        set { values["if"] = newValue.map(MetricValue.number) }
    }
    public var tss: Double? {
        get { number("tss") }
        set { values["tss"] = newValue.map(MetricValue.number) }
    }
    public var vi: Double? {
        get { number("vi") }
        set { values["vi"] = newValue.map(MetricValue.number) }
    }
    public var ef: Double? {
        get { number("ef") }
        set { values["ef"] = newValue.map(MetricValue.number) }
    }
    public var aerobicDecouplingPct: Double? {
        get { number("aerobic_decoupling_pct") }
        set { values["aerobic_decoupling_pct"] = newValue.map(MetricValue.number) }
    }
    public var mmpW: MeanMaximalPower? {
        get { if case .meanMaximal(let v) = values["mmp_w"] { v } else { nil } }
        set { values["mmp_w"] = newValue.map(MetricValue.meanMaximal) }
    }
    /// Seconds in Coggan levels 1…7 (7 entries).
    public var timeInPowerZonesS: [Int]? {
        get { counts("time_in_power_zones_s") }
        set { values["time_in_power_zones_s"] = newValue.map(MetricValue.counts) }
    }
    public var wbalMinJ: Double? {
        get { number("wbal_min_j") }
        set { values["wbal_min_j"] = newValue.map(MetricValue.number) }
    }
    public var wbalIntegralMinJ: Double? {
        get { number("wbal_integral_min_j") }
        set { values["wbal_integral_min_j"] = newValue.map(MetricValue.number) }
    }

    // Heart rate
    public var avgHrBpm: Double? {
        get { number("avg_hr_bpm") }
        set { values["avg_hr_bpm"] = newValue.map(MetricValue.number) }
    }
    public var maxHrBpm: Double? {
        get { number("max_hr_bpm") }
        set { values["max_hr_bpm"] = newValue.map(MetricValue.number) }
    }
    public var trimpBanister: Double? {
        get { number("trimp_banister") }
        set { values["trimp_banister"] = newValue.map(MetricValue.number) }
    }
    public var trimpEdwards: Double? {
        get { number("trimp_edwards") }
        set { values["trimp_edwards"] = newValue.map(MetricValue.number) }
    }
    public var hrss: Double? {
        get { number("hrss") }
        set { values["hrss"] = newValue.map(MetricValue.number) }
    }
    /// Seconds in Edwards' five zones (50–60, 60–70, 70–80, 80–90, ≥ 90 % HRmax); seconds
    /// below 50 % are in none, so `Σ weight·seconds/60 == trimp_edwards`.
    public var timeInHrZonesS: [Int]? {
        get { counts("time_in_hr_zones_s") }
        set { values["time_in_hr_zones_s"] = newValue.map(MetricValue.counts) }
    }

    // Cadence
    public var avgCadenceRpm: Double? {
        get { number("avg_cadence_rpm") }
        set { values["avg_cadence_rpm"] = newValue.map(MetricValue.number) }
    }
    public var maxCadenceRpm: Double? {
        get { number("max_cadence_rpm") }
        set { values["max_cadence_rpm"] = newValue.map(MetricValue.number) }
    }

    // Distance and speed (rowing: last total distance; otherwise Σ speed)
    public var distanceM: Double? {
        get { number("distance_m") }
        set { values["distance_m"] = newValue.map(MetricValue.number) }
    }
    public var movingTimeS: Int? {
        get { count("moving_time_s") }
        set { values["moving_time_s"] = newValue.map(MetricValue.count) }
    }
    public var avgSpeedMps: Double? {
        get { number("avg_speed_mps") }
        set { values["avg_speed_mps"] = newValue.map(MetricValue.number) }
    }
    public var maxSpeedMps: Double? {
        get { number("max_speed_mps") }
        set { values["max_speed_mps"] = newValue.map(MetricValue.number) }
    }

    // Rowing
    public var avgSplitSPer500m: Double? {
        get { number("avg_split_s_per_500m") }
        set { values["avg_split_s_per_500m"] = newValue.map(MetricValue.number) }
    }
    public var wattsFromAvgSplitW: Double? {
        get { number("watts_from_avg_split_w") }
        set { values["watts_from_avg_split_w"] = newValue.map(MetricValue.number) }
    }
    public var avgStrokeRateSpm: Double? {
        get { number("avg_stroke_rate_spm") }
        set { values["avg_stroke_rate_spm"] = newValue.map(MetricValue.number) }
    }
    public var concept2KcalPerHourAtAvgSplit: Double? {
        get { number("concept2_kcal_per_hour_at_avg_split") }
        set { values["concept2_kcal_per_hour_at_avg_split"] = newValue.map(MetricValue.number) }
    }

    // Run / treadmill
    public var avgPaceSPerKm: Double? {
        get { number("avg_pace_s_per_km") }
        set { values["avg_pace_s_per_km"] = newValue.map(MetricValue.number) }
    }
    public var gapPaceSPerKm: Double? {
        get { number("gap_pace_s_per_km") }
        set { values["gap_pace_s_per_km"] = newValue.map(MetricValue.number) }
    }
    public var kcalAcsm: Double? {
        get { number("kcal_acsm") }
        set { values["kcal_acsm"] = newValue.map(MetricValue.number) }
    }
}

/// One metric's value, in the form its descriptor declares (`MetricDescriptor.kind`).
public enum MetricValue: Sendable, Equatable {
    /// A whole number (seconds): a JSON integer.
    case count(Int)
    /// A measured number: a JSON number.
    case number(Double)
    /// Seconds per zone: a JSON array of integers.
    case counts([Int])
    /// Mean-maximal power by duration: a JSON object keyed by the durations.
    case meanMaximal(MeanMaximalPower)

    /// The value without the numbers JSON cannot carry (∞, NaN): nil for such a number, a mean-maximal power with
    /// such entries emptied.
    var finite: MetricValue? {
        switch self {
        case .number(let v): return v.isFinite ? self : nil
        case .meanMaximal(let mmp):
            guard mmp.values.contains(where: { $0.map { !$0.isFinite } ?? false }) else { return self }
            return .meanMaximal(MeanMaximalPower(values: mmp.values.map { $0.flatMap { $0.isFinite ? $0 : nil } }))
        case .count, .counts: return self
        }
    }
}

/// The form of a metric's value (`MetricValue`'s cases).
public enum MetricValueKind: Sendable, Hashable {
    case count, number, counts, meanMaximal
}

extension SessionMetrics {
    /// A metric's JSON key.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The values present, in the order of `MetricDescriptor.all`, each in its JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for descriptor in MetricDescriptor.all {
            guard let value = values[descriptor.symbol] else { continue }
            let key = Key(stringValue: descriptor.symbol.rawValue)
            switch value {
            case .count(let v): try container.encode(v, forKey: key)
            case .number(let v): try container.encode(v, forKey: key)
            case .counts(let v): try container.encode(v, forKey: key)
            case .meanMaximal(let v): try container.encode(v, forKey: key)
            }
        }
    }

    /// Reads every descriptor's key that is present and not null, in its descriptor's form; other keys are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for descriptor in MetricDescriptor.all {
            let key = Key(stringValue: descriptor.symbol.rawValue)
            let value: MetricValue?
            switch descriptor.kind {
            case .count: value = try container.decodeIfPresent(Int.self, forKey: key).map(MetricValue.count)
            case .number: value = try container.decodeIfPresent(Double.self, forKey: key).map(MetricValue.number)
            case .counts: value = try container.decodeIfPresent([Int].self, forKey: key).map(MetricValue.counts)
            case .meanMaximal:
                value = try container.decodeIfPresent(MeanMaximalPower.self, forKey: key).map(MetricValue.meanMaximal)
            }
            if let value { values[descriptor.symbol] = value }
        }
    }

    /// Absurd input (1e308 W, 10⁶ bpm) can overflow a sum or an exponential; an infinite or
    /// NaN result is undefined, so it becomes nil rather than a value JSON cannot carry — for every metric, whatever
    /// its descriptor.
    func droppingNonFinite() -> SessionMetrics {
        var m = self
        for (symbol, value) in values {
            let finite = value.finite
            if finite != value { m.values[symbol] = finite }
        }
        return m
    }
}
