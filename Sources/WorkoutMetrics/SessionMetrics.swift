/// The metrics of one session, named and measured as in docs/metrics.md ("Per session",
/// "Rowing", "Treadmill"). Every value is optional: `nil` means "does not apply or is
/// undefined" (no power channel, no unbroken 30 s for NP, a ratio over zero, an athlete
/// parameter missing) and is left out of the JSON, never written as 0.
///
/// Each stored property is one metric, held by its entry of `MetricDescriptor.all` (`MetricField`): the entry gives
/// its JSON key (the spec's snake_case name), unit, aggregation, sports, source and computation, and the JSON keys
/// are written in the entries' order. A property without an entry is neither computed nor encoded
/// (`MetricFieldsTests` fails on one).
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
        var m = self // the access closures take the set in place; they only read here
        for descriptor in MetricDescriptor.all {
            let key = Key(stringValue: descriptor.symbol.rawValue)
            switch descriptor.field {
            case .count(let access, _): try container.encodeIfPresent(Self.read(access, &m), forKey: key)
            case .number(let access, _): try container.encodeIfPresent(Self.read(access, &m), forKey: key)
            case .counts(let access, _): try container.encodeIfPresent(Self.read(access, &m), forKey: key)
            case .meanMaximal(let access, _): try container.encodeIfPresent(Self.read(access, &m), forKey: key)
            }
        }
    }

    /// Every descriptor's key that is present and not null, read in its descriptor's form; other keys are ignored.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        for descriptor in MetricDescriptor.all {
            let key = Key(stringValue: descriptor.symbol.rawValue)
            switch descriptor.field {
            case .count(let access, _):
                let value = try container.decodeIfPresent(Int.self, forKey: key)
                access(&self) { $0 = value }
            case .number(let access, _):
                let value = try container.decodeIfPresent(Double.self, forKey: key)
                access(&self) { $0 = value }
            case .counts(let access, _):
                let value = try container.decodeIfPresent([Int].self, forKey: key)
                access(&self) { $0 = value }
            case .meanMaximal(let access, _):
                let value = try container.decodeIfPresent(MeanMaximalPower.self, forKey: key)
                access(&self) { $0 = value }
            }
        }
    }

    /// The value of one property, through its access closure.
    static func read<Value>(_ access: MetricField.Access<Value?>, _ m: inout SessionMetrics) -> Value? {
        var value: Value?
        access(&m) { value = $0 }
        return value
    }

    /// Absurd input (1e308 W, 10⁶ bpm) can overflow a sum or an exponential; an infinite or NaN result is undefined,
    /// so it becomes nil rather than a value JSON cannot carry: every number of `MetricDescriptor.all`, and such an
    /// entry of MMP. `SessionMetricsCalculator` stores none; this is for metric sets made otherwise.
    func droppingNonFinite() -> SessionMetrics {
        var m = self
        for descriptor in MetricDescriptor.all {
            switch descriptor.field {
            case .number(let access, _):
                access(&m) { if let v = $0, !v.isFinite { $0 = nil } }
            case .meanMaximal(let access, _):
                access(&m) { $0 = $0?.droppingNonFinite() }
            case .count, .counts: break
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
