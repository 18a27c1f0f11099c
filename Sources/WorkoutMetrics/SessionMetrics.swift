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
            guard let slot = MetricDescriptor.slot(of: symbol) else {
                preconditionFailure("no session metric \(symbol)")
            }
            values[newValue.map { Self.checked(slot, $0.kind) } ?? slot] = newValue
        }
    }

    /// The metrics present, each with its descriptor, in the order of `MetricDescriptor.all`.
    public var present: [(descriptor: MetricDescriptor, value: MetricValue)] {
        zip(MetricDescriptor.all, values).compactMap { d, v in v.map { (d, $0) } }
    }

    /// The value at a named property's place (`Slot`), in its form; setting a value to a place of another form traps.
    subscript(count slot: Int) -> Int? {
        get { if case .count(let v)? = values[slot] { v } else { nil } }
        set { values[Self.checked(slot, .count)] = newValue.map(MetricValue.count) }
    }
    subscript(number slot: Int) -> Double? {
        get { if case .number(let v)? = values[slot] { v } else { nil } }
        set { values[Self.checked(slot, .number)] = newValue.map(MetricValue.number) }
    }
    subscript(counts slot: Int) -> [Int]? {
        get { if case .counts(let v)? = values[slot] { v } else { nil } }
        set { values[Self.checked(slot, .counts)] = newValue.map(MetricValue.counts) }
    }
    subscript(meanMaximal slot: Int) -> MeanMaximalPower? {
        get { if case .meanMaximal(let v)? = values[slot] { v } else { nil } }
        set { values[Self.checked(slot, .meanMaximal)] = newValue.map(MetricValue.meanMaximal) }
    }

    static func checked(_ slot: Int, _ kind: MetricValueKind) -> Int {
        precondition(
            MetricDescriptor.all[slot].kind == kind,
            "\(MetricDescriptor.all[slot].symbol) holds a \(MetricDescriptor.all[slot].kind)")
        return slot
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
        get { self[count: Slot.durationS] }
        set { self[count: Slot.durationS] = newValue }
    }

    // Power
    public var powerSeconds: Int? {
        get { self[count: Slot.powerSeconds] }
        set { self[count: Slot.powerSeconds] = newValue }
    }
    public var avgPowerW: Double? {
        get { self[number: Slot.avgPowerW] }
        set { self[number: Slot.avgPowerW] = newValue }
    }
    public var maxPowerW: Double? {
        get { self[number: Slot.maxPowerW] }
        set { self[number: Slot.maxPowerW] = newValue }
    }
    public var workKj: Double? {
        get { self[number: Slot.workKj] }
        set { self[number: Slot.workKj] = newValue }
    }
    public var npW: Double? {
        get { self[number: Slot.npW] }
        set { self[number: Slot.npW] = newValue }
    }
    public var intensityFactor: Double? {
        get { self[number: Slot.intensityFactor] }
        set { self[number: Slot.intensityFactor] = newValue }
    }
    public var tss: Double? {
        get { self[number: Slot.tss] }
        set { self[number: Slot.tss] = newValue }
    }
    public var vi: Double? {
        get { self[number: Slot.vi] }
        set { self[number: Slot.vi] = newValue }
    }
    public var ef: Double? {
        get { self[number: Slot.ef] }
        set { self[number: Slot.ef] = newValue }
    }
    public var aerobicDecouplingPct: Double? {
        get { self[number: Slot.aerobicDecouplingPct] }
        set { self[number: Slot.aerobicDecouplingPct] = newValue }
    }
    public var mmpW: MeanMaximalPower? {
        get { self[meanMaximal: Slot.mmpW] }
        set { self[meanMaximal: Slot.mmpW] = newValue }
    }
    /// Seconds in Coggan levels 1…7 (7 entries).
    public var timeInPowerZonesS: [Int]? {
        get { self[counts: Slot.timeInPowerZonesS] }
        set { self[counts: Slot.timeInPowerZonesS] = newValue }
    }
    public var wbalMinJ: Double? {
        get { self[number: Slot.wbalMinJ] }
        set { self[number: Slot.wbalMinJ] = newValue }
    }
    public var wbalIntegralMinJ: Double? {
        get { self[number: Slot.wbalIntegralMinJ] }
        set { self[number: Slot.wbalIntegralMinJ] = newValue }
    }

    // Heart rate
    public var avgHrBpm: Double? {
        get { self[number: Slot.avgHrBpm] }
        set { self[number: Slot.avgHrBpm] = newValue }
    }
    public var maxHrBpm: Double? {
        get { self[number: Slot.maxHrBpm] }
        set { self[number: Slot.maxHrBpm] = newValue }
    }
    public var trimpBanister: Double? {
        get { self[number: Slot.trimpBanister] }
        set { self[number: Slot.trimpBanister] = newValue }
    }
    public var trimpEdwards: Double? {
        get { self[number: Slot.trimpEdwards] }
        set { self[number: Slot.trimpEdwards] = newValue }
    }
    public var hrss: Double? {
        get { self[number: Slot.hrss] }
        set { self[number: Slot.hrss] = newValue }
    }
    /// Seconds in Edwards' five zones (50–60, 60–70, 70–80, 80–90, ≥ 90 % HRmax); seconds
    /// below 50 % are in none, so `Σ weight·seconds/60 == trimp_edwards`.
    public var timeInHrZonesS: [Int]? {
        get { self[counts: Slot.timeInHrZonesS] }
        set { self[counts: Slot.timeInHrZonesS] = newValue }
    }

    // Cadence
    public var avgCadenceRpm: Double? {
        get { self[number: Slot.avgCadenceRpm] }
        set { self[number: Slot.avgCadenceRpm] = newValue }
    }
    public var maxCadenceRpm: Double? {
        get { self[number: Slot.maxCadenceRpm] }
        set { self[number: Slot.maxCadenceRpm] = newValue }
    }

    // Distance and speed (rowing: last total distance; otherwise Σ speed)
    public var distanceM: Double? {
        get { self[number: Slot.distanceM] }
        set { self[number: Slot.distanceM] = newValue }
    }
    public var movingTimeS: Int? {
        get { self[count: Slot.movingTimeS] }
        set { self[count: Slot.movingTimeS] = newValue }
    }
    public var avgSpeedMps: Double? {
        get { self[number: Slot.avgSpeedMps] }
        set { self[number: Slot.avgSpeedMps] = newValue }
    }
    public var maxSpeedMps: Double? {
        get { self[number: Slot.maxSpeedMps] }
        set { self[number: Slot.maxSpeedMps] = newValue }
    }

    // Rowing
    public var avgSplitSPer500m: Double? {
        get { self[number: Slot.avgSplitSPer500m] }
        set { self[number: Slot.avgSplitSPer500m] = newValue }
    }
    public var wattsFromAvgSplitW: Double? {
        get { self[number: Slot.wattsFromAvgSplitW] }
        set { self[number: Slot.wattsFromAvgSplitW] = newValue }
    }
    public var avgStrokeRateSpm: Double? {
        get { self[number: Slot.avgStrokeRateSpm] }
        set { self[number: Slot.avgStrokeRateSpm] = newValue }
    }
    public var concept2KcalPerHourAtAvgSplit: Double? {
        get { self[number: Slot.concept2KcalPerHourAtAvgSplit] }
        set { self[number: Slot.concept2KcalPerHourAtAvgSplit] = newValue }
    }

    // Run / treadmill
    public var avgPaceSPerKm: Double? {
        get { self[number: Slot.avgPaceSPerKm] }
        set { self[number: Slot.avgPaceSPerKm] = newValue }
    }
    public var gapPaceSPerKm: Double? {
        get { self[number: Slot.gapPaceSPerKm] }
        set { self[number: Slot.gapPaceSPerKm] = newValue }
    }
    public var kcalAcsm: Double? {
        get { self[number: Slot.kcalAcsm] }
        set { self[number: Slot.kcalAcsm] = newValue }
    }
}

extension SessionMetrics {
    /// Each named property's place in `MetricDescriptor.all`, found by its key once, on first use. A scan of the
    /// list, not a dictionary: instantiating a dictionary type of the package's own key costs the first session a
    /// search of the runtime's conformance records, some 0.5 million instructions (scripts/benchmark-thresholds.sh,
    /// `MetricSet`). A key no entry has traps here, at first use (`MetricFieldsTests.everyNamedPropertyIsItsKey` uses
    /// every one).
    enum Slot {
        static let durationS = at("duration_s")
        static let powerSeconds = at("power_seconds")
        static let avgPowerW = at("avg_power_w")
        static let maxPowerW = at("max_power_w")
        static let workKj = at("work_kj")
        static let npW = at("np_w")
        static let intensityFactor = at("if")
        static let tss = at("tss")
        static let vi = at("vi")
        static let ef = at("ef")
        static let aerobicDecouplingPct = at("aerobic_decoupling_pct")
        static let mmpW = at("mmp_w")
        static let timeInPowerZonesS = at("time_in_power_zones_s")
        static let wbalMinJ = at("wbal_min_j")
        static let wbalIntegralMinJ = at("wbal_integral_min_j")
        static let avgHrBpm = at("avg_hr_bpm")
        static let maxHrBpm = at("max_hr_bpm")
        static let trimpBanister = at("trimp_banister")
        static let trimpEdwards = at("trimp_edwards")
        static let hrss = at("hrss")
        static let timeInHrZonesS = at("time_in_hr_zones_s")
        static let avgCadenceRpm = at("avg_cadence_rpm")
        static let maxCadenceRpm = at("max_cadence_rpm")
        static let distanceM = at("distance_m")
        static let movingTimeS = at("moving_time_s")
        static let avgSpeedMps = at("avg_speed_mps")
        static let maxSpeedMps = at("max_speed_mps")
        static let avgSplitSPer500m = at("avg_split_s_per_500m")
        static let wattsFromAvgSplitW = at("watts_from_avg_split_w")
        static let avgStrokeRateSpm = at("avg_stroke_rate_spm")
        static let concept2KcalPerHourAtAvgSplit = at("concept2_kcal_per_hour_at_avg_split")
        static let avgPaceSPerKm = at("avg_pace_s_per_km")
        static let gapPaceSPerKm = at("gap_pace_s_per_km")
        static let kcalAcsm = at("kcal_acsm")

        static func at(_ symbol: MetricSymbol) -> Int {
            guard let slot = MetricDescriptor.slot(of: symbol) else {
                preconditionFailure("no session metric \(symbol)")
            }
            return slot
        }
    }
}

extension SessionMetrics {
    /// The metrics present, under their descriptors' symbols in the order of `MetricDescriptor.all`; an absent
    /// (nil) metric is left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for (descriptor, value) in zip(MetricDescriptor.all, values) {
            let key = JSONKey(stringValue: descriptor.symbol.rawValue)
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
        let container = try decoder.container(keyedBy: JSONKey.self)
        for (slot, descriptor) in MetricDescriptor.all.enumerated() {
            let key = JSONKey(stringValue: descriptor.symbol.rawValue)
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

extension SessionMetrics {
    /// The set as the tree `SortedJSONEncoder.encode(self, numbers: .asReadBackNonFiniteAsNull)` makes of its
    /// `Codable` form, built straight from the values: the stored `metrics` member of every session and workout record
    /// (`SessionAnalyzer.metricsJSON`). Through the encoder's boxes, containers and dictionaries of entries the tree
    /// took 1.7 % of a one-hour nightly's samples (writing the text 2.8 %, computing the metrics 3.6 %;
    /// Benchmarks/nightly-results.md, 2026-12-03 20:05); this is the same tree (checked against the encoder over
    /// generated sets, non-finite and zero numbers included, in `MetricSetPropertyTests`). A number is `.int(0)` when it is zero (as the encoder's text
    /// reads back), `null` when it is not finite; a count is `.int`; an absent metric is left out.
    public var sortedJSON: SortedJSON {
        var members: [String: SortedJSON] = [:]
        members.reserveCapacity(values.count)
        for (descriptor, value) in zip(MetricDescriptor.all, values) {
            switch value {
            case nil: continue
            case .count(let v)?: members[descriptor.symbol.rawValue] = .int(Int64(v))
            case .number(let v)?: members[descriptor.symbol.rawValue] = Self.readBack(v)
            case .counts(let v)?: members[descriptor.symbol.rawValue] = .array(v.map { .int(Int64($0)) })
            case .meanMaximal(let v)?: members[descriptor.symbol.rawValue] = v.sortedJSON
            }
        }
        return .object(members)
    }

    /// A number as `JSONEncoder`'s text reads back through `JSONSerialization`, a non-finite one as `null`.
    @inline(__always) static func readBack(_ v: Double) -> SortedJSON {
        v.isFinite ? (v == 0 ? .int(0) : .double(v)) : .null
    }
}

extension MeanMaximalPower {
    /// `mmp_w` as `SessionMetrics.sortedJSON` writes it: each standard duration's key, `null` without a window.
    public var sortedJSON: SortedJSON {
        var members: [String: SortedJSON] = [:]
        members.reserveCapacity(values.count)
        for (key, v) in zip(Self.durationKeys, values) { members[key] = v.map(SessionMetrics.readBack) ?? .null }
        return .object(members)
    }

    /// The durations as their JSON keys.
    static let durationKeys = durations.map { String($0) }
}
