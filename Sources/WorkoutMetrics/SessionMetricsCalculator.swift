/// Computes a session's `SessionMetrics` from its 1 Hz channels (docs/metrics.md).
///
/// Which keys appear:
/// - `duration_s` always (the grid length, gaps included);
/// - `power_seconds` always (0 without power); the other power keys when the power channel has at least one valid
///   second, HR keys when HR has
///   a second > 0, cadence keys when cadence has a valid second — for every sport;
/// - rowing keys for `.row`; distance, moving time and speed from the speed channel for
///   the other sports, and pace, grade-adjusted pace and ACSM kcal for `.run` / `.treadmill`.
/// Keys that need an athlete parameter (FTP, CP and W′, HR rest/max/LTHR, sex, mass) are
/// nil without it.
///
/// Each metric is computed by its entry of `MetricDescriptor.all`, for the sports it applies to, from what the
/// session's metrics share (`MetricInputs`, computed once in one pass per channel).
public enum SessionMetricsCalculator {
    public static func compute(sport: Sport, athlete: Athlete, stream: Stream1Hz) -> SessionMetrics {
        let inputs = MetricInputs(sport: sport, athlete: athlete, stream: stream)
        let sports = SportSet(sport)
        var m = SessionMetrics()
        for (slot, descriptor) in MetricDescriptor.all.enumerated() where descriptor.sportSet.contains(sports) {
            descriptor.field.store(in: &m, at: slot, from: inputs)
        }
        return m
    }

    /// The channel extended with gaps to the grid length (a no-op for equal lengths).
    static func padded(_ channel: [Double], to n: Int) -> [Double] {
        guard !channel.isEmpty, channel.count < n else { return channel }
        return channel + [Double](repeating: .nan, count: n - channel.count)
    }

    /// Cadence: mean over seconds > 0 (coasting zeros excluded), max over valid seconds.
    static func cadenceSummary(_ cadence: [Double]) -> (mean: Double?, max: Double)? {
        let stats = ChannelStatistics(cadence)
        guard stats.validCount > 0 else { return nil }
        return (stats.positiveMean, stats.validMax)
    }
}

/// What several metrics of a session read, computed once per session before the descriptors' computations
/// (`MetricField`): the channels on the grid, and the summaries that more than one metric needs (a power, HR or speed
/// summary is one pass over its channel). A new metric computes what only it needs in its own entry; what it shares
/// with others belongs here.
struct MetricInputs {
    let athlete: Athlete
    let stream: Stream1Hz
    /// The grid length, gaps included.
    let n: Int
    /// The power and HR channels padded with gaps to the grid length.
    let powerChannel: [Double]
    let hrChannel: [Double]
    /// Power: nil without a valid second (then every key that needs a power value is absent), and with it the index
    /// of rolling sums that NP and MMP read.
    let power: PowerMetrics.Summary?
    let powerIndex: PowerIndex?
    let np: Double?
    /// Heart rate: nil without a second > 0; the Banister TRIMP and the Edwards zones only with it.
    let hr: (mean: Double, max: Double)?
    let trimp: Double?
    let hrZones: [Int]?
    let cadence: (mean: Double?, max: Double)?
    /// Rowing: the session's distance and its average split.
    let rowDistance: Double?
    let rowSplit: Double?
    /// The other sports: distance and speed (bike), with the running energetics (run, treadmill).
    let speed: RunningEnergetics.Summary?

    init(sport: Sport, athlete: Athlete, stream: Stream1Hz) {
        self.athlete = athlete
        self.stream = stream
        n = stream.count
        powerChannel = SessionMetricsCalculator.padded(stream.powerW, to: n)
        hrChannel = SessionMetricsCalculator.padded(stream.hrBpm, to: n)
        power = PowerMetrics.summary(powerChannel)
        if power != nil {
            let index = PowerIndex(powerChannel)
            powerIndex = index
            np = PowerMetrics.normalizedPower(index)
        } else {
            powerIndex = nil
            np = nil
        }
        let histogram = HeartRateHistogram(hrChannel)
        hr = HeartRateMetrics.summary(histogram)
        if hr != nil {
            trimp = HeartRateMetrics.banisterTRIMP(histogram, athlete: athlete)
            hrZones = HeartRateMetrics.timeInEdwardsZones(histogram, hrMax: athlete.hrMax)
        } else {
            trimp = nil
            hrZones = nil
        }
        cadence = SessionMetricsCalculator.cadenceSummary(stream.cadenceRpm)
        switch sport {
        case .row:
            rowDistance = Rowing.distance(totalDistanceM: stream.totalDistanceM, paceSPer500m: stream.paceSPer500m)
            rowSplit = rowDistance.flatMap { Rowing.averageSplit(durationS: stream.count, distanceM: $0) }
            speed = nil
        case .bike, .run, .treadmill:
            rowDistance = nil
            rowSplit = nil
            speed = RunningEnergetics.summary(
                speedMps: stream.speedMps, grade: stream.grade, scope: sport == .bike ? .distance : .runningEnergetics)
        }
    }
}

extension MetricField {
    /// The metric computed from the inputs, stored in its place when it is defined; a number that is not finite
    /// (∞, NaN: an overflow on absurd input) is undefined and stays nil, as does such an entry of MMP.
    func store(in m: inout SessionMetrics, at slot: Int, from inputs: MetricInputs) {
        switch self {
        case .count(let compute):
            if let v = compute(inputs) { m[slot: slot] = .count(v) }
        case .number(let compute):
            if let v = compute(inputs), v.isFinite { m[slot: slot] = .number(v) }
        case .counts(let compute):
            if let v = compute(inputs) { m[slot: slot] = .counts(v) }
        case .meanMaximal(let compute):
            if let v = compute(inputs) { m[slot: slot] = .meanMaximal(v.droppingNonFinite()) }
        }
    }
}
