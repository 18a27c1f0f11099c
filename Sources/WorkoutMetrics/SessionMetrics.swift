/// The metrics of one session, named and measured as in docs/metrics.md ("Per session",
/// "Rowing", "Treadmill"). Every value is optional: `nil` means "does not apply or is
/// undefined" (no power channel, no unbroken 30 s for NP, a ratio over zero, an athlete
/// parameter missing) and is left out of the JSON, never written as 0.
///
/// The set holds one place per entry of `MetricDescriptor.all`, in its order: the entry is the metric (its JSON key,
/// unit, aggregation, sports, form and computation), and a metric added there is computed, stored, encoded and
/// decoded with no other edit (CONTRIBUTING.md, "Adding a session metric"). The named properties below are for the
/// code that reads a metric by name; each reads and writes its entry's place, and a metric nobody reads by name needs
/// none.
public struct SessionMetrics: Sendable, Codable, Equatable {
    /// One value per entry of `MetricDescriptor.all`, in its order; nil when the metric is absent.
    private var values: [MetricValue?]

    public init() { values = [MetricValue?](repeating: nil, count: MetricDescriptor.all.count) }

    /// The value of the metric at `slot` (its index in `MetricDescriptor.all`).
    subscript(slot slot: Int) -> MetricValue? {
        get { values[slot] }
        set { values[slot] = newValue }
    }

    /// A metric's value by its symbol; nil when it is absent or no metric has that symbol. Setting a value of
    /// another form than its descriptor's, or for a symbol no descriptor has, traps: that is a programming error.
    public subscript(symbol: MetricSymbol) -> MetricValue? {
        get { MetricDescriptor.slot(of: symbol).flatMap { values[$0] } }
        set {
            let slot = Self.slot(symbol, newValue?.kind)
            values[slot] = newValue
        }
    }

    /// The metrics present, each with its descriptor, in the order of `MetricDescriptor.all`.
    public var present: [(descriptor: MetricDescriptor, value: MetricValue)] {
        zip(MetricDescriptor.all, values).compactMap { d, v in v.map { (d, $0) } }
    }

    static func slot(_ symbol: MetricSymbol, _ kind: MetricValueKind?) -> Int {
        guard let slot = MetricDescriptor.slot(of: symbol) else { preconditionFailure("no session metric \(symbol)") }
        if let kind {
            precondition(
                MetricDescriptor.all[slot].kind == kind, "\(symbol) holds a \(MetricDescriptor.all[slot].kind)")
        }
        return slot
    }

    subscript(count symbol: MetricSymbol) -> Int? {
        get { if case .count(let v)? = self[symbol] { v } else { nil } }
        set { values[Self.slot(symbol, .count)] = newValue.map(MetricValue.count) }
    }
    subscript(number symbol: MetricSymbol) -> Double? {
        get { if case .number(let v)? = self[symbol] { v } else { nil } }
        set { values[Self.slot(symbol, .number)] = newValue.map(MetricValue.number) }
    }
    subscript(counts symbol: MetricSymbol) -> [Int]? {
        get { if case .counts(let v)? = self[symbol] { v } else { nil } }
        set { values[Self.slot(symbol, .counts)] = newValue.map(MetricValue.counts) }
    }
    subscript(meanMaximal symbol: MetricSymbol) -> MeanMaximalPower? {
        get { if case .meanMaximal(let v)? = self[symbol] { v } else { nil } }
        set { values[Self.slot(symbol, .meanMaximal)] = newValue.map(MetricValue.meanMaximal) }
    }

    /// The session's contribution to `daily_load`: TSS where power gives one, otherwise
    /// the HR-based HRSS (same scale: one hour at threshold is 100); `nil` if neither.
    public var trainingLoad: Double? { tss ?? hrss }
}

/// One metric's value, in its descriptor's form (`MetricValueKind`).
public enum MetricValue: Sendable, Equatable {
    case count(Int)
    case number(Double)
    case counts([Int])
    case meanMaximal(MeanMaximalPower)

    public var kind: MetricValueKind {
        switch self {
        case .count: .count
        case .number: .number
        case .counts: .counts
        case .meanMaximal: .meanMaximal
        }
    }
}

/// The metrics that code elsewhere reads by name, each through its entry's place (its symbol is its JSON key).
extension SessionMetrics {
    // Grid
    public var durationS: Int? {
        get { self[count: "duration_s"] }
        set { self[count: "duration_s"] = newValue }
    }

    // Power
    public var powerSeconds: Int? {
        get { self[count: "power_seconds"] }
        set { self[count: "power_seconds"] = newValue }
    }
    public var avgPowerW: Double? {
        get { self[number: "avg_power_w"] }
        set { self[number: "avg_power_w"] = newValue }
    }
    public var maxPowerW: Double? {
        get { self[number: "max_power_w"] }
        set { self[number: "max_power_w"] = newValue }
    }
    public var workKj: Double? {
        get { self[number: "work_kj"] }
        set { self[number: "work_kj"] = newValue }
    }
    public var npW: Double? {
        get { self[number: "np_w"] }
        set { self[number: "np_w"] = newValue }
    }
    public var intensityFactor: Double? {
        get { self[number: "if"] }
        set { self[number: "if"] = newValue }
    }
    public var tss: Double? {
        get { self[number: "tss"] }
        set { self[number: "tss"] = newValue }
    }
    public var vi: Double? {
        get { self[number: "vi"] }
        set { self[number: "vi"] = newValue }
    }
    public var ef: Double? {
        get { self[number: "ef"] }
        set { self[number: "ef"] = newValue }
    }
    public var aerobicDecouplingPct: Double? {
        get { self[number: "aerobic_decoupling_pct"] }
        set { self[number: "aerobic_decoupling_pct"] = newValue }
    }
    public var mmpW: MeanMaximalPower? {
        get { self[meanMaximal: "mmp_w"] }
        set { self[meanMaximal: "mmp_w"] = newValue }
    }
    /// Seconds in Coggan levels 1…7 (7 entries).
    public var timeInPowerZonesS: [Int]? {
        get { self[counts: "time_in_power_zones_s"] }
        set { self[counts: "time_in_power_zones_s"] = newValue }
    }
    public var wbalMinJ: Double? {
        get { self[number: "wbal_min_j"] }
        set { self[number: "wbal_min_j"] = newValue }
    }
    public var wbalIntegralMinJ: Double? {
        get { self[number: "wbal_integral_min_j"] }
        set { self[number: "wbal_integral_min_j"] = newValue }
    }

    // Heart rate
    public var avgHrBpm: Double? {
        get { self[number: "avg_hr_bpm"] }
        set { self[number: "avg_hr_bpm"] = newValue }
    }
    public var maxHrBpm: Double? {
        get { self[number: "max_hr_bpm"] }
        set { self[number: "max_hr_bpm"] = newValue }
    }
    public var trimpBanister: Double? {
        get { self[number: "trimp_banister"] }
        set { self[number: "trimp_banister"] = newValue }
    }
    public var trimpEdwards: Double? {
        get { self[number: "trimp_edwards"] }
        set { self[number: "trimp_edwards"] = newValue }
    }
    public var hrss: Double? {
        get { self[number: "hrss"] }
        set { self[number: "hrss"] = newValue }
    }
    /// Seconds in Edwards' five zones (50–60, 60–70, 70–80, 80–90, ≥ 90 % HRmax); seconds
    /// below 50 % are in none, so `Σ weight·seconds/60 == trimp_edwards`.
    public var timeInHrZonesS: [Int]? {
        get { self[counts: "time_in_hr_zones_s"] }
        set { self[counts: "time_in_hr_zones_s"] = newValue }
    }

    // Cadence
    public var avgCadenceRpm: Double? {
        get { self[number: "avg_cadence_rpm"] }
        set { self[number: "avg_cadence_rpm"] = newValue }
    }
    public var maxCadenceRpm: Double? {
        get { self[number: "max_cadence_rpm"] }
        set { self[number: "max_cadence_rpm"] = newValue }
    }

    // Distance and speed (rowing: last total distance; otherwise Σ speed)
    public var distanceM: Double? {
        get { self[number: "distance_m"] }
        set { self[number: "distance_m"] = newValue }
    }
    public var movingTimeS: Int? {
        get { self[count: "moving_time_s"] }
        set { self[count: "moving_time_s"] = newValue }
    }
    public var avgSpeedMps: Double? {
        get { self[number: "avg_speed_mps"] }
        set { self[number: "avg_speed_mps"] = newValue }
    }
    public var maxSpeedMps: Double? {
        get { self[number: "max_speed_mps"] }
        set { self[number: "max_speed_mps"] = newValue }
    }

    // Rowing
    public var avgSplitSPer500m: Double? {
        get { self[number: "avg_split_s_per_500m"] }
        set { self[number: "avg_split_s_per_500m"] = newValue }
    }
    public var wattsFromAvgSplitW: Double? {
        get { self[number: "watts_from_avg_split_w"] }
        set { self[number: "watts_from_avg_split_w"] = newValue }
    }
    public var avgStrokeRateSpm: Double? {
        get { self[number: "avg_stroke_rate_spm"] }
        set { self[number: "avg_stroke_rate_spm"] = newValue }
    }
    public var concept2KcalPerHourAtAvgSplit: Double? {
        get { self[number: "concept2_kcal_per_hour_at_avg_split"] }
        set { self[number: "concept2_kcal_per_hour_at_avg_split"] = newValue }
    }

    // Run / treadmill
    public var avgPaceSPerKm: Double? {
        get { self[number: "avg_pace_s_per_km"] }
        set { self[number: "avg_pace_s_per_km"] = newValue }
    }
    public var gapPaceSPerKm: Double? {
        get { self[number: "gap_pace_s_per_km"] }
        set { self[number: "gap_pace_s_per_km"] = newValue }
    }
    public var kcalAcsm: Double? {
        get { self[number: "kcal_acsm"] }
        set { self[number: "kcal_acsm"] = newValue }
    }
}

extension SessionMetrics {
    /// A metric's JSON key: its descriptor's symbol.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The metrics present, under their descriptors' symbols in the order of `MetricDescriptor.all`; an absent
    /// (nil) metric is left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (descriptor, value) in zip(MetricDescriptor.all, values) {
            let key = Key(stringValue: descriptor.symbol.rawValue)
            switch value {
            case nil: break
            case .count(let v)?: try container.encode(v, forKey: key)
            case .number(let v)?: try container.encode(v, forKey: key)
            case .counts(let v)?: try container.encode(v, forKey: key)
            case .meanMaximal(let v)?: try container.encode(v, forKey: key)
            }
        }
    }

    /// Every descriptor's key that is present and not null, read in its descriptor's form; other keys are ignored.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        for (slot, descriptor) in MetricDescriptor.all.enumerated() {
            let key = Key(stringValue: descriptor.symbol.rawValue)
            switch descriptor.kind {
            case .count: values[slot] = try container.decodeIfPresent(Int.self, forKey: key).map(MetricValue.count)
            case .number: values[slot] = try container.decodeIfPresent(Double.self, forKey: key).map(MetricValue.number)
            case .counts:
                values[slot] = try container.decodeIfPresent([Int].self, forKey: key).map(MetricValue.counts)
            case .meanMaximal:
                values[slot] = try container.decodeIfPresent(MeanMaximalPower.self, forKey: key).map(
                    MetricValue.meanMaximal)
            }
        }
    }

    /// Absurd input (1e308 W, 10⁶ bpm) can overflow a sum or an exponential; an infinite or NaN result is undefined,
    /// so it becomes nil rather than a value JSON cannot carry: every number of the set, and such an entry of MMP.
    /// `SessionMetricsCalculator` stores none; this is for metric sets made otherwise.
    func droppingNonFinite() -> SessionMetrics {
        var m = self
        for (slot, value) in values.enumerated() {
            switch value {
            case .number(let v)? where !v.isFinite: m.values[slot] = nil
            case .meanMaximal(let v)?: m.values[slot] = .meanMaximal(v.droppingNonFinite())
            default: break
            }
        }
        return m
    }
}

extension MeanMaximalPower {
    /// The same values with every infinite or NaN entry nil (no window); `self` when all are finite.
    func droppingNonFinite() -> MeanMaximalPower {
        guard values.contains(where: { $0.map { !$0.isFinite } ?? false }) else { return self }
        return MeanMaximalPower(values: values.map { $0.flatMap { $0.isFinite ? $0 : nil } })
    }
}
