/// A metric's stable name: the JSON key it is reported under. Symbols are stored by
/// callers (caches, API clients), so they never change once published.
public struct MetricSymbol: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

/// How a metric combines across sessions (GoldenCheetah `RideMetric::MetricType`).
public enum MetricAggregation: String, Sendable, Codable {
    /// Summed (work, TSS, TRIMP, distance, time).
    case total
    /// Averaged, weighted by the session's duration.
    case average
    /// The highest value (max power, MMP).
    case peak
    /// The lowest value (W′bal minimum).
    case low
    /// Summed element by element (time in zones).
    case distribution
    /// Not meaningful across sessions (ratios such as VI, decoupling, splits from totals):
    /// recompute from the aggregated inputs instead.
    case none
}

/// The form of a metric's value (and of its JSON).
public enum MetricValueKind: Sendable, Hashable {
    /// A whole number (seconds): a JSON integer.
    case count
    /// A measured number: a JSON number; never infinite or NaN.
    case number
    /// Seconds per zone: a JSON array of integers.
    case counts
    /// Mean-maximal power by duration: a JSON object keyed by the durations.
    case meanMaximal
}

/// Self-description of one metric, in the manner of GoldenCheetah's `RideMetric`: a
/// stable symbol, its unit, how it aggregates, which sports it applies to, the
/// published definition it follows, the form of its value and how a session's channels give
/// it.
///
/// `MetricDescriptor.all` is the session metric set: `SessionMetrics` keeps one place per entry
/// and encodes and decodes them through the entries (the symbols are the JSON keys, in the entries' order),
/// `SessionMetricsCalculator` computes each entry for the sports it applies to, and a number
/// that is not finite is dropped (nil) — all from the entry (CONTRIBUTING.md, "Adding a
/// session metric").
public struct MetricDescriptor: Sendable, Hashable {
    public var symbol: MetricSymbol
    public var name: String
    /// Unit as printed (`W`, `s/km`, …); `-` for dimensionless values.
    public var unit: String
    public var aggregation: MetricAggregation
    /// The sports the metric applies to: the calculator computes it for these only.
    public var sports: Set<Sport> {
        get { Set(Sport.allCases.filter { sportSet.contains(SportSet($0)) }) }
        set { sportSet = SportSet(newValue) }
    }
    /// `sports` as bits: the calculator checks it for every metric of every session, without hashing.
    var sportSet: SportSet
    /// What the metric needs to be defined (channel and athlete parameters).
    public var requires: String
    /// The published definition followed.
    public var citation: String
    /// The form of the value and its computation.
    let field: MetricField

    init(
        symbol: MetricSymbol, name: String, unit: String, aggregation: MetricAggregation, sports: SportSet,
        requires: String, citation: String, field: MetricField
    ) {
        self.symbol = symbol
        self.name = name
        self.unit = unit
        self.aggregation = aggregation
        self.sportSet = sports
        self.requires = requires
        self.citation = citation
        self.field = field
    }

    /// The form of the value (and of its JSON).
    public var kind: MetricValueKind { field.kind }

    /// Whether the metric applies to a sport.
    public func applies(to sport: Sport) -> Bool { sportSet.contains(SportSet(sport)) }

    public static func descriptor(for symbol: MetricSymbol) -> MetricDescriptor? {
        slot(of: symbol).map { all[$0] }
    }

    /// A metric's place in `all` (and in a `SessionMetrics`), by its symbol: a scan of the list (see `Slot`, for the
    /// named properties, which scan once).
    static func slot(of symbol: MetricSymbol) -> Int? { all.firstIndex { $0.symbol == symbol } }

    /// Descriptors are equal when they describe the same metric the same way, in the same form (the computation, a
    /// closure, is not compared).
    public static func == (a: MetricDescriptor, b: MetricDescriptor) -> Bool {
        a.symbol == b.symbol && a.name == b.name && a.unit == b.unit && a.aggregation == b.aggregation
            && a.sportSet == b.sportSet && a.requires == b.requires && a.citation == b.citation && a.kind == b.kind
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(symbol) }
}

/// A set of sports as bits (`MetricDescriptor.sports`).
struct SportSet: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }
    init(_ sport: Sport) {
        switch sport {
        case .bike: self = .bike
        case .row: self = .row
        case .run: self = .run
        case .treadmill: self = .treadmill
        }
    }
    init(_ sports: Set<Sport>) { self = sports.reduce(into: []) { $0.insert(SportSet($1)) } }

    static let bike = SportSet(rawValue: 1)
    static let row = SportSet(rawValue: 2)
    static let run = SportSet(rawValue: 4)
    static let treadmill = SportSet(rawValue: 8)
    static let everySport: SportSet = [.bike, .row, .run, .treadmill]
}

/// A metric's form (`MetricValueKind`) with its computation from a session's channels and what they share
/// (`MetricInputs`); the computation gives nil when the metric is undefined, and is called only for the sports the
/// metric applies to. The value is kept in the metric's place of `SessionMetrics`, the entry's index in
/// `MetricDescriptor.all`.
///
/// Closures, not key paths: the first use of a key path literal instantiates it at run time (about 16,000
/// instructions each, demangling its types); closures cost the calculator nothing of the kind
/// (scripts/benchmark-thresholds.sh, `MetricSet`).
enum MetricField: Sendable {
    case count(@Sendable (MetricInputs) -> Int?)
    case number(@Sendable (MetricInputs) -> Double?)
    case counts(@Sendable (MetricInputs) -> [Int]?)
    case meanMaximal(@Sendable (MetricInputs) -> MeanMaximalPower?)

    var kind: MetricValueKind {
        switch self {
        case .count: .count
        case .number: .number
        case .counts: .counts
        case .meanMaximal: .meanMaximal
        }
    }
}

extension MetricDescriptor {
    private static func d(
        _ symbol: MetricSymbol, _ name: String, _ unit: String, _ aggregation: MetricAggregation,
        _ sports: SportSet, _ requires: String, _ citation: String, _ field: MetricField
    ) -> MetricDescriptor {
        MetricDescriptor(
            symbol: symbol, name: name, unit: unit, aggregation: aggregation, sports: sports,
            requires: requires, citation: citation, field: field)
    }

    /// Every session metric, in the order of its JSON keys: the symbol, name, unit, aggregation, sports, what it needs,
    /// the published definition, and the form of the value with its computation (`MetricField`). A new metric is one
    /// entry here (CONTRIBUTING.md, "Adding a session metric"). The texts are literals, so
    /// that the list costs the first session that reads it no string building.
    public static let all: [MetricDescriptor] = [
        d(
            "duration_s", "Duration", "s", .total, .everySport, "a stream",
            "metrics.md: length of the 1 Hz grid, gaps included",
            .count({ $0.n })),
        // A count, defined without power too: 0 seconds with a power value (docs/metrics.md); the keys that need a
        // power value stay absent.
        d(
            "power_seconds", "Seconds with power", "s", .total, .everySport, "power channel",
            "metrics.md: seconds with a power value, zeros count",
            .count({ $0.power?.seconds ?? 0 })),
        d(
            "avg_power_w", "Average power", "W", .average, .everySport, "power channel",
            "metrics.md: mean over power_seconds, zeros included",
            .number({ $0.power?.mean })),
        d(
            "max_power_w", "Maximum power", "W", .peak, .everySport, "power channel",
            "metrics.md: max over valid seconds, no spike filter",
            .number({ $0.power?.max })),
        d(
            "work_kj", "Work", "kJ", .total, .everySport, "power channel", "metrics.md: Σ power / 1000",
            .number({ $0.power?.workKj })),
        d(
            "np_w", "Normalized Power", "W", .average, .everySport, "power channel, 30 unbroken seconds",
            "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks: 30 s rolling mean from the 30th second, ^4, mean, ^¼",
            .number({ $0.np })),
        d(
            "if", "Intensity Factor", "-", .none, .everySport, "NP, FTP",
            "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks: NP / FTP",
            .number(
                { i in i.power.flatMap { _ in PowerMetrics.intensityFactor(np: i.np, ftp: i.athlete.ftpW) } })),
        d(
            "tss", "Training Stress Score", "-", .total, .everySport, "NP, FTP",
            "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks: power_seconds × NP × IF / (FTP × 3600) × 100",
            .number(
                { i in
                    i.power.flatMap {
                        PowerMetrics.trainingStressScore(powerSeconds: $0.seconds, np: i.np, ftp: i.athlete.ftpW)
                    }
                })),
        d(
            "vi", "Variability Index", "-", .none, .everySport, "NP, average power > 0",
            "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks: NP / average power",
            .number(
                { i in if let np = i.np, let avg = i.power?.mean, avg != 0 { np / avg } else { nil } })),
        d(
            "ef", "Efficiency Factor", "W/bpm", .average, .everySport, "NP, HR",
            "GoldenCheetah src/Metrics/Coggan.cpp (EF): NP / average HR",
            .number({ i in if let np = i.np, let h = i.hr, h.mean > 0 { np / h.mean } else { nil } })),
        d(
            "aerobic_decoupling_pct", "Aerobic decoupling (Pw:HR)", "%", .none, .everySport, "power and HR",
            "GoldenCheetah src/Metrics/Aerobic decoupling: halves cut at n/2, 100·(r1 − r2)/r1, r = mean P / mean HR",
            .number(
                { i in
                    i.hr != nil && (i.power?.seconds ?? 0) > 0
                        ? HeartRateMetrics.aerobicDecoupling(power: i.powerChannel, hr: i.hrChannel) : nil
                })),
        d(
            "mmp_w", "Mean-maximal power", "W", .peak, .everySport, "power channel",
            "metrics.md: best mean over unbroken windows of 1 s … 60 min",
            .meanMaximal(
                { i in
                    i.powerIndex.map {
                        MeanMaximalPower(values: PowerMetrics.meanMaximal($0, durations: MeanMaximalPower.durations))
                    }
                })),
        d(
            "time_in_power_zones_s", "Time in power levels", "s", .distribution, .everySport, "power, FTP",
            "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks: levels at 55/75/90/105/120/150 % FTP, compared as 100·P ≥ pct·FTP",
            .counts(
                { i in i.power.flatMap { _ in PowerMetrics.timeInPowerZones(i.powerChannel, ftp: i.athlete.ftpW) } })),
        d(
            "wbal_min_j", "Minimum W′bal (differential)", "J", .low, .everySport, "power, CP, W′",
            "Skiba, Fulford, Clarke & Jones, Eur J Appl Physiol 115 (2015)",
            .number(
                { i in
                    i.power.flatMap { _ in
                        PowerMetrics.wbalDifferentialMinimum(
                            i.powerChannel, cp: i.athlete.cpW, wprime: i.athlete.wprimeJ)
                    }
                })),
        d(
            "wbal_integral_min_j", "Minimum W′bal (integral)", "J", .low, .everySport, "power, CP, W′",
            "Skiba, Chidnok, Vanhatalo & Jones, Med Sci Sports Exerc 44 (2012)",
            .number(
                { i in
                    i.power.flatMap { _ in
                        PowerMetrics.wbalIntegralMinimum(i.powerChannel, cp: i.athlete.cpW, wprime: i.athlete.wprimeJ)
                    }
                })),
        d(
            "avg_hr_bpm", "Average heart rate", "bpm", .average, .everySport, "HR channel",
            "metrics.md: over seconds with HR > 0",
            .number({ $0.hr?.mean })),
        d(
            "max_hr_bpm", "Maximum heart rate", "bpm", .peak, .everySport, "HR channel",
            "metrics.md: over seconds with HR > 0",
            .number({ $0.hr?.max })),
        d(
            "trimp_banister", "Banister TRIMP", "-", .total, .everySport, "HR, sex, HRrest, HRmax",
            "Banister (1991); Morton, Fitz-Clarke & Banister, J Appl Physiol 69 (1990): men 0.64/1.92, women 0.86/1.67",
            .number({ $0.trimp })),
        d(
            "trimp_edwards", "Edwards TRIMP", "-", .total, .everySport, "HR, HRmax",
            "Edwards, The Heart Rate Monitor Book (1993): minutes × zone weight 1…5",
            .number(
                { i in i.hr.flatMap { _ in HeartRateMetrics.edwardsTRIMP(zones: i.hrZones) } }
            )),
        d(
            "hrss", "Heart Rate Stress Score", "-", .total, .everySport, "HR, sex, HRrest, HRmax, LTHR",
            "TrainingPeaks hrTSS / GoldenCheetah src/Metrics HRSS: TRIMP scaled so one hour at LTHR is 100",
            .number(
                { i in i.hr.flatMap { _ in HeartRateMetrics.hrss(trimp: i.trimp, athlete: i.athlete) } })),
        d(
            "time_in_hr_zones_s", "Time in HR zones (Edwards)", "s", .distribution, .everySport, "HR, HRmax",
            "Edwards (1993): 50/60/70/80/90 % HRmax, compared as 100·HR ≥ pct·HRmax",
            .counts({ $0.hrZones })),
        d(
            "avg_cadence_rpm", "Average cadence", "rpm", .average, .everySport, "cadence channel",
            "metrics.md: mean over cadence > 0",
            .number({ $0.cadence?.mean })),
        d(
            "max_cadence_rpm", "Maximum cadence", "rpm", .peak, .everySport, "cadence channel",
            "metrics.md: max over valid seconds",
            .number({ $0.cadence?.max })),
        d(
            "distance_m", "Distance", "m", .total, .everySport, "speed (row: total distance)",
            "metrics.md: Σ speed over valid seconds; rowing: last total distance",
            .number({ $0.rowDistance ?? $0.speed?.distanceM })),
        d(
            "moving_time_s", "Moving time", "s", .total, [.bike, .run, .treadmill], "speed channel",
            "metrics.md: seconds with speed > 0",
            .count({ $0.speed?.movingTimeS })),
        d(
            "avg_speed_mps", "Average moving speed", "m/s", .average, [.bike, .run, .treadmill], "speed channel",
            "distance / moving time",
            .number({ $0.speed?.avgMovingSpeedMps })),
        d(
            "max_speed_mps", "Maximum speed", "m/s", .peak, [.bike, .run, .treadmill], "speed channel",
            "max over valid seconds",
            .number({ $0.speed?.maxSpeedMps })),
        d(
            "avg_split_s_per_500m", "Average split", "s/500 m", .none, [.row], "total distance",
            "Concept2: 500 × duration / distance (total time over total distance)",
            .number({ $0.rowSplit })),
        d(
            "watts_from_avg_split_w", "Watts at average split", "W", .none, [.row], "total distance",
            "Concept2 pace–watts: 2.80 / (split/500)³",
            .number({ $0.rowSplit.flatMap(Rowing.watts(fromSplit:)) })),
        d(
            "avg_stroke_rate_spm", "Average stroke rate", "spm", .average, [.row], "stroke-rate channel",
            "metrics.md: mean over samples > 0",
            .number({ ChannelStatistics($0.stream.strokeRateSpm).positiveMean })),
        d(
            "concept2_kcal_per_hour_at_avg_split", "Concept2 kcal/h at average split", "kcal/h", .none, [.row],
            "total distance",
            "Concept2 calorie formula: 4·3.6·W/4.2 + 300",
            .number(
                { i in
                    i.rowSplit.flatMap(Rowing.watts(fromSplit:)).map(Rowing.concept2KcalPerHour(watts:))
                })),
        d(
            "avg_pace_s_per_km", "Average pace", "s/km", .none, [.run, .treadmill], "speed channel",
            "metrics.md: 1000 × moving time / distance",
            .number({ $0.speed?.avgPaceSPerKm })),
        d(
            "gap_pace_s_per_km", "Grade-adjusted pace", "s/km", .none, [.run, .treadmill], "speed (grade optional)",
            "Minetti et al., J Appl Physiol 93 (2002): energy cost C(i), grade clamped to ±0.45",
            .number({ $0.speed?.gapPaceSPerKm })),
        d(
            "kcal_acsm", "Energy (ACSM)", "kcal", .total, [.run, .treadmill], "speed, mass",
            "ACSM's Guidelines for Exercise Testing and Prescription: running/walking VO2 equations, 5 kcal/L O2",
            .number({ i in i.speed?.kcal(massKg: i.athlete.massKg) })),
    ]
}
