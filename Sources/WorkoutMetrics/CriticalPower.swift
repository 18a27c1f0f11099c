/// Critical power and W′ (docs/metrics.md, "Critical power"): ordinary least squares of work on
/// time over mean-maximal points, `W = W′ + CP·t` (Monod & Scherrer 1965; Moritani et al.
/// 1981's linear work–time model). Other fits (P on 1/t, the nonlinear P–t form) give
/// different numbers on noisy points; this is the one the pipeline reports.
public enum CriticalPower {
    /// A fit: `cp_w`, `wprime_j`, and how well the line fits (R² of work on time).
    public struct Fit: Sendable, Equatable, Codable {
        public var cpW: Double
        public var wprimeJ: Double
        public var rSquared: Double?
        public var points: Int

        public init(cpW: Double, wprimeJ: Double, rSquared: Double?, points: Int) {
            self.cpW = cpW
            self.wprimeJ = wprimeJ
            self.rSquared = rSquared
            self.points = points
        }

        enum CodingKeys: String, CodingKey {
            case cpW = "cp_w", wprimeJ = "wprime_j", rSquared = "r_squared", points
        }
    }

    /// Durations (s) used by default: 2–20 min, where the two-parameter model holds.
    public static let defaultDurations: [Int] = [120, 300, 600, 1200]

    /// A user's best mean-maximal power per standard duration over many sessions.
    public static func bestEfforts(_ sessions: [MeanMaximalPower]) -> MeanMaximalPower {
        var best = [Double?](repeating: nil, count: MeanMaximalPower.durations.count)
        for s in sessions {
            for (k, v) in s.values.enumerated() {
                if let v, v > (best[k] ?? -.infinity) { best[k] = v }
            }
        }
        return MeanMaximalPower(values: best)
    }

    /// (t, P) points from mean-maximal power at `durations` (those with a value).
    public static func points(_ mmp: MeanMaximalPower, durations: [Int] = defaultDurations) -> [(
        durationS: Double, powerW: Double
    )] {
        durations.compactMap { d in mmp[seconds: d].map { (Double(d), $0) } }
    }

    /// OLS of work (P·t) on t. nil with fewer than two distinct durations.
    public static func fit(_ points: [(durationS: Double, powerW: Double)]) -> Fit? {
        let n = points.count
        guard n >= 2 else { return nil }
        var st = 0.0, sw = 0.0
        for p in points { st += p.durationS; sw += p.powerW * p.durationS }
        let mt = st / Double(n), mw = sw / Double(n)
        var stt = 0.0, stw = 0.0, sww = 0.0
        for p in points {
            let dt = p.durationS - mt, dw = p.powerW * p.durationS - mw
            stt += dt * dt
            stw += dt * dw
            sww += dw * dw
        }
        guard stt > 0 else { return nil }
        let cp = stw / stt
        let wprime = mw - cp * mt
        let r2: Double? = sww > 0 ? (stw * stw) / (stt * sww) : nil
        return Fit(cpW: cp, wprimeJ: wprime, rSquared: r2, points: n)
    }

    /// Fits many users at once whose points share the same durations (`powers` is
    /// durations × users, W). The default batch path: the closed form per user, which
    /// measured faster than the LAPACK path for the 2-parameter model
    /// (Benchmarks/metrics-results.md). nil for a user whose fit is undefined.
    public static func fitBatch(durationsS: [Double], powers: Matrix) -> [Fit?] {
        fitBatchWithLoops(durationsS: durationsS, powers: powers)
    }

    /// The batch as one LAPACK `dgels` call with a column of work values per user — one QR
    /// of the shared design [1, t] applied to every right-hand side. Same results as
    /// `fitBatch` (R² not computed on this path); kept for models with more parameters and
    /// for the benchmark's comparison.
    public static func fitBatchWithLAPACK(durationsS: [Double], powers: Matrix) throws(LeastSquaresError) -> [Fit] {
        let m = durationsS.count
        precondition(powers.rows == m, "one row per duration")
        var design = Matrix(rows: m, columns: 2)
        for i in 0..<m {
            design[i, 0] = 1
            design[i, 1] = durationsS[i]
        }
        var work = powers
        for j in 0..<powers.columns {
            for i in 0..<m { work[i, j] = powers[i, j] * durationsS[i] }
        }
        let x = try LeastSquares.solve(design, work)
        return (0..<powers.columns).map { Fit(cpW: x[1, $0], wprimeJ: x[0, $0], rSquared: nil, points: m) }
    }

    /// The closed form per user (plain loops).
    public static func fitBatchWithLoops(durationsS: [Double], powers: Matrix) -> [Fit?] {
        (0..<powers.columns).map { j in
            fit((0..<durationsS.count).map { (durationsS[$0], powers[$0, j]) })
        }
    }
}

/// Heart rate against power: HR = intercept + slope·P by ordinary least squares over the
/// seconds that have both (power valid, HR > 0). The slope (bpm/W) and intercept track
/// aerobic fitness across sessions at matched power.
public enum HeartRatePowerRegression {
    public struct Fit: Sendable, Equatable, Codable {
        public var interceptBpm: Double
        public var slopeBpmPerW: Double
        public var rSquared: Double?
        public var seconds: Int

        public init(interceptBpm: Double, slopeBpmPerW: Double, rSquared: Double?, seconds: Int) {
            self.interceptBpm = interceptBpm
            self.slopeBpmPerW = slopeBpmPerW
            self.rSquared = rSquared
            self.seconds = seconds
        }

        enum CodingKeys: String, CodingKey {
            case interceptBpm = "intercept_bpm", slopeBpmPerW = "slope_bpm_per_w", rSquared = "r_squared", seconds
        }

        /// The least-squares line from the means of power and HR and the centred sums Σdp², Σdp·dh, Σdh² over
        /// `seconds` seconds; nil when the power is constant (Σdp² = 0).
        init?(meanPowerW mp: Double, meanHR mh: Double, spp: Double, sph: Double, shh: Double, seconds: Int) {
            guard spp > 0 else { return nil }
            let slope = sph / spp
            self.init(
                interceptBpm: mh - slope * mp, slopeBpmPerW: slope,
                rSquared: shh > 0 ? sph * sph / (spp * shh) : nil, seconds: seconds)
        }
    }

    /// One session; nil with fewer than two paired seconds or constant power.
    public static func fit(power: [Double], hr: [Double]) -> Fit? {
        let n = Swift.min(power.count, hr.count)
        var c = 0, sp = 0.0, sh = 0.0
        for i in 0..<n where !power[i].isNaN && hr[i] > 0 { c += 1; sp += power[i]; sh += hr[i] }
        guard c >= 2 else { return nil }
        let mp = sp / Double(c), mh = sh / Double(c)
        var spp = 0.0, sph = 0.0, shh = 0.0
        for i in 0..<n where !power[i].isNaN && hr[i] > 0 {
            let dp = power[i] - mp, dh = hr[i] - mh
            spp += dp * dp
            sph += dp * dh
            shh += dh * dh
        }
        return Fit(meanPowerW: mp, meanHR: mh, spp: spp, sph: sph, shh: shh, seconds: c)
    }

    /// Many sessions at once, each a column of aligned, gap-free power and HR matrices
    /// (n seconds × k sessions). Per-session slopes need only each column's own sums, so a
    /// BLAS Gram matrix would compute k² cross terms to use k of them: measured slower
    /// (Benchmarks/metrics-results.md), so this is a plain single pass per column.
    public static func fitBatch(power: Matrix, hr: Matrix) -> [Fit?] {
        precondition(power.rows == hr.rows && power.columns == hr.columns, "aligned matrices")
        let n = power.rows
        return power.storage.withUnsafeBufferPointer { p in
            hr.storage.withUnsafeBufferPointer { h in
                (0..<power.columns).map { j -> Fit? in
                    guard n >= 2 else { return nil }
                    let base = j * n
                    var sp = 0.0, sh = 0.0
                    for i in 0..<n { sp += p[base + i]; sh += h[base + i] }
                    let mp = sp / Double(n), mh = sh / Double(n)
                    var spp = 0.0, sph = 0.0, shh = 0.0
                    for i in 0..<n {
                        let dp = p[base + i] - mp, dh = h[base + i] - mh
                        spp += dp * dp
                        sph += dp * dh
                        shh += dh * dh
                    }
                    return Fit(meanPowerW: mp, meanHR: mh, spp: spp, sph: sph, shh: shh, seconds: n)
                }
            }
        }
    }

    /// The BLAS formulation of `fitBatch`, kept for the benchmark's comparison: centre
    /// [P | H] and take its whole Gram matrix with one `dsyrk`, then read each session's
    /// Σdp², Σdp·dh, Σdh² from it.
    public static func fitBatchWithBLAS(power: Matrix, hr: Matrix) -> [Fit?] {
        precondition(power.rows == hr.rows && power.columns == hr.columns, "aligned matrices")
        let n = power.rows, k = power.columns
        guard n >= 2, k > 0 else { return Array(repeating: nil, count: k) }
        let joined = Matrix(rows: n, columns: 2 * k, storage: power.storage + hr.storage)
        let moments = BatchStatistics.moments(joined)
        let c = moments.covariance
        return (0..<k).map { j -> Fit? in
            let spp = c[j, j], sph = c[j, k + j], shh = c[k + j, k + j]
            return Fit(
                meanPowerW: moments.means[j], meanHR: moments.means[k + j], spp: spp, sph: sph, shh: shh, seconds: n)
        }
    }
}
