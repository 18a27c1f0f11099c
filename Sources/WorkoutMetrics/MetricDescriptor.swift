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
/// stable symbol, its unit, how it aggregates, which sports it applies to, and the
/// published definition it follows. `MetricDescriptor.all` lists every key of
/// `SessionMetrics`.
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

    public init(
        symbol: MetricSymbol, name: String, unit: String, aggregation: MetricAggregation,
        sports: Set<Sport>, requires: String, citation: String
    ) {
        self.symbol = symbol
        self.name = name
        self.unit = unit
        self.aggregation = aggregation
        self.sports = sports
        self.requires = requires
        self.citation = citation
    }

    /// Whether the metric applies to a sport.
    public func applies(to sport: Sport) -> Bool { sports.contains(sport) }

    public static func descriptor(for symbol: MetricSymbol) -> MetricDescriptor? {
        all.first { $0.symbol == symbol }
    }
}

extension MetricDescriptor {
    private static let everySport: Set<Sport> = Set(Sport.allCases)
    private static let spec = "metrics.md"
    private static let coggan = "Allen & Coggan, Training and Racing with a Power Meter (2010); TrainingPeaks"
    private static let gc = "GoldenCheetah src/Metrics"

    private static func d(
        _ symbol: MetricSymbol, _ name: String, _ unit: String, _ aggregation: MetricAggregation,
        _ sports: Set<Sport>, _ requires: String, _ citation: String
    ) -> MetricDescriptor {
        MetricDescriptor(
            symbol: symbol, name: name, unit: unit, aggregation: aggregation, sports: sports,
            requires: requires, citation: citation)
    }

    /// Every metric `SessionMetricsCalculator` reports, in `SessionMetrics.CodingKeys` order.
    public static let all: [MetricDescriptor] = [
        d(
            "duration_s", "Duration", "s", .total, everySport, "a stream",
            "\(spec): length of the 1 Hz grid, gaps included"),
        d(
            "power_seconds", "Seconds with power", "s", .total, everySport, "power channel",
            "\(spec): seconds with a power value, zeros count"),
        d(
            "avg_power_w", "Average power", "W", .average, everySport, "power channel",
            "\(spec): mean over power_seconds, zeros included"),
        d(
            "max_power_w", "Maximum power", "W", .peak, everySport, "power channel",
            "\(spec): max over valid seconds, no spike filter"),
        d("work_kj", "Work", "kJ", .total, everySport, "power channel", "\(spec): Σ power / 1000"),
        d(
            "np_w", "Normalized Power", "W", .average, everySport, "power channel, 30 unbroken seconds",
            "\(coggan): 30 s rolling mean from the 30th second, ^4, mean, ^¼"),
        d("if", "Intensity Factor", "-", .none, everySport, "NP, FTP", "\(coggan): NP / FTP"),
        d(
            "tss", "Training Stress Score", "-", .total, everySport, "NP, FTP",
            "\(coggan): power_seconds × NP × IF / (FTP × 3600) × 100"),
        d("vi", "Variability Index", "-", .none, everySport, "NP, average power > 0", "\(coggan): NP / average power"),
        d("ef", "Efficiency Factor", "W/bpm", .average, everySport, "NP, HR", "\(gc)/Coggan.cpp (EF): NP / average HR"),
        d(
            "aerobic_decoupling_pct", "Aerobic decoupling (Pw:HR)", "%", .none, everySport, "power and HR",
            "\(gc)/Aerobic decoupling: halves cut at n/2, 100·(r1 − r2)/r1, r = mean P / mean HR"),
        d(
            "mmp_w", "Mean-maximal power", "W", .peak, everySport, "power channel",
            "\(spec): best mean over unbroken windows of 1 s … 60 min"),
        d(
            "time_in_power_zones_s", "Time in power levels", "s", .distribution, everySport, "power, FTP",
            "\(coggan): levels at 55/75/90/105/120/150 % FTP, compared as 100·P ≥ pct·FTP"),
        d(
            "wbal_min_j", "Minimum W′bal (differential)", "J", .low, everySport, "power, CP, W′",
            "Skiba, Fulford, Clarke & Jones, Eur J Appl Physiol 115 (2015)"),
        d(
            "wbal_integral_min_j", "Minimum W′bal (integral)", "J", .low, everySport, "power, CP, W′",
            "Skiba, Chidnok, Vanhatalo & Jones, Med Sci Sports Exerc 44 (2012)"),
        d(
            "avg_hr_bpm", "Average heart rate", "bpm", .average, everySport, "HR channel",
            "\(spec): over seconds with HR > 0"),
        d(
            "max_hr_bpm", "Maximum heart rate", "bpm", .peak, everySport, "HR channel",
            "\(spec): over seconds with HR > 0"),
        d(
            "trimp_banister", "Banister TRIMP", "-", .total, everySport, "HR, sex, HRrest, HRmax",
            "Banister (1991); Morton, Fitz-Clarke & Banister, J Appl Physiol 69 (1990): men 0.64/1.92, women 0.86/1.67"),
        d(
            "trimp_edwards", "Edwards TRIMP", "-", .total, everySport, "HR, HRmax",
            "Edwards, The Heart Rate Monitor Book (1993): minutes × zone weight 1…5"),
        d(
            "hrss", "Heart Rate Stress Score", "-", .total, everySport, "HR, sex, HRrest, HRmax, LTHR",
            "TrainingPeaks hrTSS / \(gc) HRSS: TRIMP scaled so one hour at LTHR is 100"),
        d(
            "time_in_hr_zones_s", "Time in HR zones (Edwards)", "s", .distribution, everySport, "HR, HRmax",
            "Edwards (1993): 50/60/70/80/90 % HRmax, compared as 100·HR ≥ pct·HRmax"),
        d(
            "avg_cadence_rpm", "Average cadence", "rpm", .average, everySport, "cadence channel",
            "\(spec): mean over cadence > 0"),
        d(
            "max_cadence_rpm", "Maximum cadence", "rpm", .peak, everySport, "cadence channel",
            "\(spec): max over valid seconds"),
        d(
            "distance_m", "Distance", "m", .total, everySport, "speed (row: total distance)",
            "\(spec): Σ speed over valid seconds; rowing: last total distance"),
        d(
            "moving_time_s", "Moving time", "s", .total, [.bike, .run, .treadmill], "speed channel",
            "\(spec): seconds with speed > 0"),
        d(
            "avg_speed_mps", "Average moving speed", "m/s", .average, [.bike, .run, .treadmill], "speed channel",
            "distance / moving time"),
        d(
            "max_speed_mps", "Maximum speed", "m/s", .peak, [.bike, .run, .treadmill], "speed channel",
            "max over valid seconds"),
        d(
            "avg_split_s_per_500m", "Average split", "s/500 m", .none, [.row], "total distance",
            "Concept2: 500 × duration / distance (total time over total distance)"),
        d(
            "watts_from_avg_split_w", "Watts at average split", "W", .none, [.row], "total distance",
            "Concept2 pace–watts: 2.80 / (split/500)³"),
        d(
            "avg_stroke_rate_spm", "Average stroke rate", "spm", .average, [.row], "stroke-rate channel",
            "\(spec): mean over samples > 0"),
        d(
            "concept2_kcal_per_hour_at_avg_split", "Concept2 kcal/h at average split", "kcal/h", .none, [.row],
            "total distance",
            "Concept2 calorie formula: 4·3.6·W/4.2 + 300"),
        d(
            "avg_pace_s_per_km", "Average pace", "s/km", .none, [.run, .treadmill], "speed channel",
            "\(spec): 1000 × moving time / distance"),
        d(
            "gap_pace_s_per_km", "Grade-adjusted pace", "s/km", .none, [.run, .treadmill], "speed (grade optional)",
            "Minetti et al., J Appl Physiol 93 (2002): energy cost C(i), grade clamped to ±0.45"),
        d(
            "kcal_acsm", "Energy (ACSM)", "kcal", .total, [.run, .treadmill], "speed, mass",
            "ACSM's Guidelines for Exercise Testing and Prescription: running/walking VO2 equations, 5 kcal/L O2"),
    ]
}
