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

/// Self-description of one metric, in the manner of GoldenCheetah's `RideMetric`: a
/// stable symbol, its unit, how it aggregates, which sports it applies to, the
/// published definition it follows, the form of its value and how a session's channels give it.
/// `MetricDescriptor.all` is the session metric set: `SessionMetrics` keeps, encodes and decodes its values by these
/// entries, and `SessionMetricsCalculator` computes each entry for the sports it applies to.
public struct MetricDescriptor: Sendable, Hashable {
    public var symbol: MetricSymbol
    public var name: String
    /// Unit as printed (`W`, `s/km`, …); `-` for dimensionless values.
    public var unit: String
    public var aggregation: MetricAggregation
    public var sports: Set<Sport>
    /// What the metric needs to be defined (channel and athlete parameters).
    public var requires: String
    /// The published definition followed.
    public var citation: String
    /// The form of the value (and of its JSON).
    public var kind: MetricValueKind
    /// The value from a session's channels and what they share (`MetricInputs`); nil when undefined. Called only for
    /// the sports the metric applies to.
    let compute: @Sendable (MetricInputs) -> MetricValue?

    init(
        symbol: MetricSymbol, name: String, unit: String, aggregation: MetricAggregation,
        sports: Set<Sport>, requires: String, citation: String, kind: MetricValueKind,
        compute: @escaping @Sendable (MetricInputs) -> MetricValue?
    ) {
        self.symbol = symbol
        self.name = name
        self.unit = unit
        self.aggregation = aggregation
        self.sports = sports
        self.requires = requires
        self.citation = citation
        self.kind = kind
        self.compute = compute
    }

    /// Whether the metric applies to a sport.
    public func applies(to sport: Sport) -> Bool { sports.contains(sport) }

    public static func descriptor(for symbol: MetricSymbol) -> MetricDescriptor? {
        all.first { $0.symbol == symbol }
    }

    /// Descriptors are equal when they describe the same metric the same way (the computation is not compared).
    public static func == (a: MetricDescriptor, b: MetricDescriptor) -> Bool {
        a.symbol == b.symbol && a.name == b.name && a.unit == b.unit && a.aggregation == b.aggregation
            && a.sports == b.sports && a.requires == b.requires && a.citation == b.citation && a.kind == b.kind
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(symbol) }
}

extension MetricDescriptor {
    private static let everySport: Set<Sport> = Set(Sport.allCases)
    private static let spec = "metrics.md"
    private static let coggan = "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks"
    private static let gc = "GoldenCheetah src/Metrics"

    /// A metric measured as a number (a JSON number).
    private static func number(
        _ symbol: MetricSymbol, _ name: String, _ unit: String, _ aggregation: MetricAggregation,
        _ sports: Set<Sport>, _ requires: String, _ citation: String,
        _ compute: @escaping @Sendable (MetricInputs) -> Double?
    ) -> MetricDescriptor {
        MetricDescriptor(
            symbol: symbol, name: name, unit: unit, aggregation: aggregation, sports: sports,
            requires: requires, citation: citation, kind: .number, compute: { compute($0).map(MetricValue.number) })
    }

    /// A metric counted in whole seconds (a JSON integer).
    private static func count(
        _ symbol: MetricSymbol, _ name: String, _ unit: String, _ aggregation: MetricAggregation,
        _ sports: Set<Sport>, _ requires: String, _ citation: String,
        _ compute: @escaping @Sendable (MetricInputs) -> Int?
    ) -> MetricDescriptor {
        MetricDescriptor(
            symbol: symbol, name: name, unit: unit, aggregation: aggregation, sports: sports,
            requires: requires, citation: citation, kind: .count, compute: { compute($0).map(MetricValue.count) })
    }

    /// Seconds per zone (a JSON array of integers).
    private static func counts(
        _ symbol: MetricSymbol, _ name: String, _ unit: String, _ aggregation: MetricAggregation,
        _ sports: Set<Sport>, _ requires: String, _ citation: String,
        _ compute: @escaping @Sendable (MetricInputs) -> [Int]?
    ) -> MetricDescriptor {
        MetricDescriptor(
            symbol: symbol, name: name, unit: unit, aggregation: aggregation, sports: sports,
            requires: requires, citation: citation, kind: .counts, compute: { compute($0).map(MetricValue.counts) })
    }

    /// Mean-maximal power by duration.
    private static func meanMaximal(
        _ symbol: MetricSymbol, _ name: String, _ unit: String, _ aggregation: MetricAggregation,
        _ sports: Set<Sport>, _ requires: String, _ citation: String,
        _ compute: @escaping @Sendable (MetricInputs) -> MeanMaximalPower?
    ) -> MetricDescriptor {
        MetricDescriptor(
            symbol: symbol, name: name, unit: unit, aggregation: aggregation, sports: sports,
            requires: requires, citation: citation, kind: .meanMaximal,
            compute: { compute($0).map(MetricValue.meanMaximal) })
    }

    /// Every metric `SessionMetricsCalculator` reports, in the order of the JSON keys. A new metric is one entry here
    /// (CONTRIBUTING.md, "Adding a session metric").
    public static let all: [MetricDescriptor] = [
        count(
            "duration_s", "Duration", "s", .total, everySport, "a stream",
            "\(spec): length of the 1 Hz grid, gaps included",
            { $0.n }),
        count(
            "power_seconds", "Seconds with power", "s", .total, everySport, "power channel",
            "\(spec): seconds with a power value, zeros count",
            { $0.power?.seconds ?? 0 }),
        number(
            "avg_power_w", "Average power", "W", .average, everySport, "power channel",
            "\(spec): mean over power_seconds, zeros included",
            { $0.power?.mean }),
        number(
            "max_power_w", "Maximum power", "W", .peak, everySport, "power channel",
            "\(spec): max over valid seconds, no spike filter",
            { $0.power?.max }),
        number(
            "work_kj", "Work", "kJ", .total, everySport, "power channel", "\(spec): Σ power / 1000",
            { $0.power?.workKj }),
        number(
            "np_w", "Normalized Power", "W", .average, everySport, "power channel, 30 unbroken seconds",
            "\(coggan): 30 s rolling mean from the 30th second, ^4, mean, ^¼",
            { $0.np }),
        number(
            "if", "Intensity Factor", "-", .none, everySport, "NP, FTP", "\(coggan): NP / FTP",
            { i in i.power.flatMap { _ in PowerMetrics.intensityFactor(np: i.np, ftp: i.athlete.ftpW) } }),
        number(
            "tss", "Training Stress Score", "-", .total, everySport, "NP, FTP",
            "\(coggan): power_seconds × NP × IF / (FTP × 3600) × 100",
            { i in
                i.power.flatMap {
                    PowerMetrics.trainingStressScore(powerSeconds: $0.seconds, np: i.np, ftp: i.athlete.ftpW)
                }
            }),
        number(
            "vi", "Variability Index", "-", .none, everySport, "NP, average power > 0", "\(coggan): NP / average power",
            { i in if let np = i.np, let avg = i.power?.mean, avg != 0 { np / avg } else { nil } }),
        number(
            "ef", "Efficiency Factor", "W/bpm", .average, everySport, "NP, HR",
            "\(gc)/Coggan.cpp (EF): NP / average HR",
            { i in if let np = i.np, let h = i.hr, h.mean > 0 { np / h.mean } else { nil } }),
        number(
            "aerobic_decoupling_pct", "Aerobic decoupling (Pw:HR)", "%", .none, everySport, "power and HR",
            "\(gc)/Aerobic decoupling: halves cut at n/2, 100·(r1 − r2)/r1, r = mean P / mean HR",
            { i in
                i.hr != nil && (i.power?.seconds ?? 0) > 0
                    ? HeartRateMetrics.aerobicDecoupling(power: i.powerChannel, hr: i.hrChannel) : nil
            }),
        meanMaximal(
            "mmp_w", "Mean-maximal power", "W", .peak, everySport, "power channel",
            "\(spec): best mean over unbroken windows of 1 s … 60 min",
            { i in
                i.powerIndex.map {
                    MeanMaximalPower(values: PowerMetrics.meanMaximal($0, durations: MeanMaximalPower.durations))
                }
            }),
        counts(
            "time_in_power_zones_s", "Time in power levels", "s", .distribution, everySport, "power, FTP",
            "\(coggan): levels at 55/75/90/105/120/150 % FTP, compared as 100·P ≥ pct·FTP",
            { i in
                i.power.flatMap { _ in PowerMetrics.timeInPowerZones(i.powerChannel, ftp: i.athlete.ftpW) }
            }),
        number(
            "wbal_min_j", "Minimum W′bal (differential)", "J", .low, everySport, "power, CP, W′",
            "Skiba, Fulford, Clarke & Jones, Eur J Appl Physiol 115 (2015)",
            { i in
                i.power.flatMap { _ in
                    PowerMetrics.wbalDifferentialMinimum(i.powerChannel, cp: i.athlete.cpW, wprime: i.athlete.wprimeJ)
                }
            }),
        number(
            "wbal_integral_min_j", "Minimum W′bal (integral)", "J", .low, everySport, "power, CP, W′",
            "Skiba, Chidnok, Vanhatalo & Jones, Med Sci Sports Exerc 44 (2012)",
            { i in
                i.power.flatMap { _ in
                    PowerMetrics.wbalIntegralMinimum(i.powerChannel, cp: i.athlete.cpW, wprime: i.athlete.wprimeJ)
                }
            }),
        number(
            "avg_hr_bpm", "Average heart rate", "bpm", .average, everySport, "HR channel",
            "\(spec): over seconds with HR > 0",
            { $0.hr?.mean }),
        number(
            "max_hr_bpm", "Maximum heart rate", "bpm", .peak, everySport, "HR channel",
            "\(spec): over seconds with HR > 0",
            { $0.hr?.max }),
        number(
            "trimp_banister", "Banister TRIMP", "-", .total, everySport, "HR, sex, HRrest, HRmax",
            "Banister (1991); Morton, Fitz-Clarke & Banister, J Appl Physiol 69 (1990): men 0.64/1.92, women 0.86/1.67",
            { $0.trimp }),
        number(
            "trimp_edwards", "Edwards TRIMP", "-", .total, everySport, "HR, HRmax",
            "Edwards, The Heart Rate Monitor Book (1993): minutes × zone weight 1…5",
            { i in i.hr.flatMap { _ in HeartRateMetrics.edwardsTRIMP(zones: i.hrZones) } }),
        number(
            "hrss", "Heart Rate Stress Score", "-", .total, everySport, "HR, sex, HRrest, HRmax, LTHR",
            "TrainingPeaks hrTSS / \(gc) HRSS: TRIMP scaled so one hour at LTHR is 100",
            { i in i.hr.flatMap { _ in HeartRateMetrics.hrss(trimp: i.trimp, athlete: i.athlete) } }),
        counts(
            "time_in_hr_zones_s", "Time in HR zones (Edwards)", "s", .distribution, everySport, "HR, HRmax",
            "Edwards (1993): 50/60/70/80/90 % HRmax, compared as 100·HR ≥ pct·HRmax",
            { $0.hrZones }),
        number(
            "avg_cadence_rpm", "Average cadence", "rpm", .average, everySport, "cadence channel",
            "\(spec): mean over cadence > 0",
            { $0.cadence?.mean }),
        number(
            "max_cadence_rpm", "Maximum cadence", "rpm", .peak, everySport, "cadence channel",
            "\(spec): max over valid seconds",
            { $0.cadence?.max }),
        number(
            "distance_m", "Distance", "m", .total, everySport, "speed (row: total distance)",
            "\(spec): Σ speed over valid seconds; rowing: last total distance",
            { $0.sport == .row ? $0.rowDistance : $0.speed?.distanceM }),
        count(
            "moving_time_s", "Moving time", "s", .total, [.bike, .run, .treadmill], "speed channel",
            "\(spec): seconds with speed > 0",
            { $0.speed?.movingTimeS }),
        number(
            "avg_speed_mps", "Average moving speed", "m/s", .average, [.bike, .run, .treadmill], "speed channel",
            "distance / moving time",
            { $0.speed?.avgMovingSpeedMps }),
        number(
            "max_speed_mps", "Maximum speed", "m/s", .peak, [.bike, .run, .treadmill], "speed channel",
            "max over valid seconds",
            { $0.speed?.maxSpeedMps }),
        number(
            "avg_split_s_per_500m", "Average split", "s/500 m", .none, [.row], "total distance",
            "Concept2: 500 × duration / distance (total time over total distance)",
            { $0.rowSplit }),
        number(
            "watts_from_avg_split_w", "Watts at average split", "W", .none, [.row], "total distance",
            "Concept2 pace–watts: 2.80 / (split/500)³",
            { $0.rowSplit.flatMap(Rowing.watts(fromSplit:)) }),
        number(
            "avg_stroke_rate_spm", "Average stroke rate", "spm", .average, [.row], "stroke-rate channel",
            "\(spec): mean over samples > 0",
            { ChannelStatistics($0.stream.strokeRateSpm).positiveMean }),
        number(
            "concept2_kcal_per_hour_at_avg_split", "Concept2 kcal/h at average split", "kcal/h", .none, [.row],
            "total distance",
            "Concept2 calorie formula: 4·3.6·W/4.2 + 300",
            { $0.rowSplit.flatMap(Rowing.watts(fromSplit:)).map(Rowing.concept2KcalPerHour(watts:)) }),
        number(
            "avg_pace_s_per_km", "Average pace", "s/km", .none, [.run, .treadmill], "speed channel",
            "\(spec): 1000 × moving time / distance",
            { $0.speed?.avgPaceSPerKm }),
        number(
            "gap_pace_s_per_km", "Grade-adjusted pace", "s/km", .none, [.run, .treadmill], "speed (grade optional)",
            "Minetti et al., J Appl Physiol 93 (2002): energy cost C(i), grade clamped to ±0.45",
            { $0.speed?.gapPaceSPerKm }),
        number(
            "kcal_acsm", "Energy (ACSM)", "kcal", .total, [.run, .treadmill], "speed, mass",
            "ACSM's Guidelines for Exercise Testing and Prescription: running/walking VO2 equations, 5 kcal/L O2",
            { $0.speed?.kcal(massKg: $0.athlete.massKg) }),
    ]
}
