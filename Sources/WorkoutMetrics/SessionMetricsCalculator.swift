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
public enum SessionMetricsCalculator {
    public static func compute(sport: Sport, athlete: Athlete, stream: Stream1Hz) -> SessionMetrics {
        let n = stream.count
        var m = SessionMetrics()
        m.durationS = n
        let power = padded(stream.powerW, to: n)
        let hr = padded(stream.hrBpm, to: n)

        var np: Double?
        // `power_seconds` is a count, defined without power too: 0 seconds with a power value (docs/metrics.md); the
        // keys that need a power value stay absent.
        m.powerSeconds = 0
        if let p = PowerMetrics.summary(power) {
            m.powerSeconds = p.seconds
            m.avgPowerW = p.mean
            m.maxPowerW = p.max
            m.workKj = p.workKj
            let index = PowerIndex(power)
            np = PowerMetrics.normalizedPower(index)
            m.npW = np
            m.intensityFactor = PowerMetrics.intensityFactor(np: np, ftp: athlete.ftpW)
            m.tss = PowerMetrics.trainingStressScore(powerSeconds: p.seconds, np: np, ftp: athlete.ftpW)
            if let np, let avg = p.mean, avg != 0 { m.vi = np / avg }
            m.mmpW = MeanMaximalPower(values: PowerMetrics.meanMaximal(index, durations: MeanMaximalPower.durations))
            m.timeInPowerZonesS = PowerMetrics.timeInPowerZones(power, ftp: athlete.ftpW)
            m.wbalMinJ = PowerMetrics.wbalDifferentialMinimum(power, cp: athlete.cpW, wprime: athlete.wprimeJ)
            m.wbalIntegralMinJ = PowerMetrics.wbalIntegralMinimum(power, cp: athlete.cpW, wprime: athlete.wprimeJ)
        }

        let histogram = HeartRateHistogram(hr)
        if let h = HeartRateMetrics.summary(histogram) {
            m.avgHrBpm = h.mean
            m.maxHrBpm = h.max
            if let np, h.mean > 0 { m.ef = np / h.mean }
            let trimp = HeartRateMetrics.banisterTRIMP(histogram, athlete: athlete)
            m.trimpBanister = trimp
            let zones = HeartRateMetrics.timeInEdwardsZones(histogram, hrMax: athlete.hrMax)
            m.timeInHrZonesS = zones
            m.trimpEdwards = HeartRateMetrics.edwardsTRIMP(zones: zones)
            m.hrss = HeartRateMetrics.hrss(trimp: trimp, athlete: athlete)
            if (m.powerSeconds ?? 0) > 0 {
                m.aerobicDecouplingPct = HeartRateMetrics.aerobicDecoupling(power: power, hr: hr)
            }
        }

        if let c = cadenceSummary(stream.cadenceRpm) {
            m.avgCadenceRpm = c.mean
            m.maxCadenceRpm = c.max
        }

        switch sport {
        case .row:
            if let distance = Rowing.distance(totalDistanceM: stream.totalDistanceM, paceSPer500m: stream.paceSPer500m)
            {
                m.distanceM = distance
                if let split = Rowing.averageSplit(durationS: n, distanceM: distance) {
                    m.avgSplitSPer500m = split
                    if let w = Rowing.watts(fromSplit: split) {
                        m.wattsFromAvgSplitW = w
                        m.concept2KcalPerHourAtAvgSplit = Rowing.concept2KcalPerHour(watts: w)
                    }
                }
            }
            m.avgStrokeRateSpm = meanOfPositive(stream.strokeRateSpm)
        case .bike, .run, .treadmill:
            let scope: RunningEnergetics.Scope = sport == .bike ? .distance : .runningEnergetics
            if let s = RunningEnergetics.summary(speedMps: stream.speedMps, grade: stream.grade, scope: scope) {
                m.distanceM = s.distanceM
                m.movingTimeS = s.movingTimeS
                m.avgSpeedMps = s.avgMovingSpeedMps
                m.maxSpeedMps = s.maxSpeedMps
                if sport != .bike {
                    m.avgPaceSPerKm = s.avgPaceSPerKm
                    m.gapPaceSPerKm = s.gapPaceSPerKm
                    m.kcalAcsm = s.kcal(massKg: athlete.massKg)
                }
            }
        }
        return m.droppingNonFinite()
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

    static func meanOfPositive(_ values: [Double]) -> Double? {
        ChannelStatistics(values).positiveMean
    }
}

extension SessionMetrics {
    static var doubleFields: [WritableKeyPath<SessionMetrics, Double?>] {
        [
            \.avgPowerW, \.maxPowerW, \.workKj, \.npW, \.intensityFactor, \.tss, \.vi, \.ef, \.aerobicDecouplingPct,
            \.wbalMinJ, \.wbalIntegralMinJ, \.avgHrBpm, \.maxHrBpm, \.trimpBanister, \.trimpEdwards, \.hrss,
            \.avgCadenceRpm, \.maxCadenceRpm, \.distanceM, \.avgSpeedMps, \.maxSpeedMps, \.avgSplitSPer500m,
            \.wattsFromAvgSplitW, \.avgStrokeRateSpm, \.concept2KcalPerHourAtAvgSplit, \.avgPaceSPerKm, \.gapPaceSPerKm,
            \.kcalAcsm,
        ]
    }

    /// Absurd input (1e308 W, 10⁶ bpm) can overflow a sum or an exponential; an infinite or
    /// NaN result is undefined, so it becomes nil rather than a value JSON cannot carry.
    func droppingNonFinite() -> SessionMetrics {
        var m = self
        for field in Self.doubleFields {
            if let v = m[keyPath: field], !v.isFinite { m[keyPath: field] = nil }
        }
        if let mmp = m.mmpW, mmp.values.contains(where: { $0.map { !$0.isFinite } ?? false }) {
            m.mmpW = MeanMaximalPower(values: mmp.values.map { $0.flatMap { $0.isFinite ? $0 : nil } })
        }
        return m
    }
}
