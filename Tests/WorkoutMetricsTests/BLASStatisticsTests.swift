import Foundation
import Testing

@testable import WorkoutMetrics

@Suite struct BLASStatisticsTests {
    init() { BLASConfiguration.singleThreaded() }

    @Test func threadsAreLimitedToOne() {
        #expect(BLASConfiguration.threadCount == 1)
    }

    /// The workers the pthread build started at load are stopped (they would spin for a while, idle), a second call
    /// changes nothing, and the calls after it still compute (`momentsByHand`, below, runs after the same `init`).
    @Test func theIdleWorkersAreStopped() {
        BLASConfiguration.singleThreaded()
        #expect(BLASConfiguration.threadCount == 1)
        // Debian's default OpenBLAS is the pthread build, which has the flag; a serial build has neither.
        #expect(BLASConfiguration.workersRunning == false)
        let x = Matrix(columns: [[1, 2, 3, 4], [2, 4, 6, 9]])
        #expect(approx(BatchStatistics.moments(x).means[1], 5.25))
    }

    @Test func momentsByHand() {
        // Columns [1,2,3,4] and [2,4,6,9]: means 2.5 and 5.25; var 5/3; cov Σdx·dy/3.
        let x = Matrix(columns: [[1, 2, 3, 4], [2, 4, 6, 9]])
        let m = BatchStatistics.moments(x)
        #expect(approx(m.means[0], 2.5) && approx(m.means[1], 5.25))
        let dx = [-1.5, -0.5, 0.5, 1.5], dy = [-3.25, -1.25, 0.75, 3.75]
        #expect(approx(m.covariance[0, 0], 5.0 / 3))
        #expect(approx(m.covariance[0, 1], zip(dx, dy).map(*).reduce(0, +) / 3))
        #expect(m.covariance[0, 1] == m.covariance[1, 0])
        #expect(approx(m.variances[1], dy.map { $0 * $0 }.reduce(0, +) / 3))
        #expect(m.correlation(0, 0).map { abs($0 - 1) < 1e-12 } == true)
    }

    @Test func blasAndLoopsAgreeOnManySeries() {
        var rng = SeededGenerator(seed: 3)
        let n = 500, k = 17
        let x = Matrix(
            rows: n, columns: k, storage: (0..<(n * k)).map { _ in 200 + Double.random(in: -50...50, using: &rng) })
        let a = BatchStatistics.moments(x), b = BatchStatistics.momentsWithLoops(x)
        for j in 0..<k { #expect(approx(a.means[j], b.means[j], tol: 1e-12)) }
        for i in 0..<(k * k) { #expect(abs(a.covariance.storage[i] - b.covariance.storage[i]) < 1e-9) }
    }

    @Test func leastSquaresSolvesAnOverdeterminedSystem() throws {
        // y = 3 + 2x exactly, two right-hand sides (the second y = −1 + 0.5x).
        let xs: [Double] = [0, 1, 2, 3, 4]
        let a = Matrix(columns: [Array(repeating: 1, count: 5), xs])
        let b = Matrix(columns: [xs.map { 3 + 2 * $0 }, xs.map { -1 + 0.5 * $0 }])
        let sol = try LeastSquares.solve(a, b)
        #expect(approx(sol[0, 0], 3, tol: 1e-12) && approx(sol[1, 0], 2, tol: 1e-12))
        #expect(approx(sol[0, 1], -1, tol: 1e-12) && approx(sol[1, 1], 0.5, tol: 1e-12))
        // Noisy points: compare with the normal equations solved by hand.
        let ys: [Double] = [1, 3, 2, 5, 4]
        let fit = try LeastSquares.solve(a, Matrix(columns: [ys]))
        let mx = 2.0, my = 3.0
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
        }
        let slope = sxy / sxx
        #expect(approx(fit[1, 0], slope, tol: 1e-12) && approx(fit[0, 0], my - slope * mx, tol: 1e-12))
    }

    @Test func leastSquaresRejectsBadShapesAndRankDeficiency() {
        let wide = Matrix(rows: 1, columns: 2, storage: [1, 2])
        #expect(throws: LeastSquaresError.self) { try LeastSquares.solve(wide, Matrix(rows: 1, columns: 1)) }
        let collinear = Matrix(columns: [[1, 1, 1], [2, 2, 2]])
        do {
            _ = try LeastSquares.solve(collinear, Matrix(columns: [[1, 2, 3]]))
            Issue.record("expected rank deficiency")
        } catch {
            #expect(error.code == .rankDeficient)
        }
    }
}

@Suite struct CriticalPowerTests {
    init() { BLASConfiguration.singleThreaded() }

    @Test func exactSyntheticPointsRecoverCPAndWPrime() throws {
        // P(t) = CP + W′/t exactly ⇒ W = W′ + CP·t.
        let cp = 265.0, wprime = 18_500.0
        let points = CriticalPower.defaultDurations.map { (Double($0), cp + wprime / Double($0)) }
        let fit = try #require(CriticalPower.fit(points))
        #expect(approx(fit.cpW, cp, tol: 1e-12))
        #expect(approx(fit.wprimeJ, wprime, tol: 1e-10))
        #expect(approx(fit.rSquared, 1, tol: 1e-12))
        #expect(CriticalPower.fit([(300, 300)]) == nil)
        #expect(CriticalPower.fit([(300, 300), (300, 310)]) == nil)
    }

    @Test func noisyPointsMatchHandNormalEquations() throws {
        // t = 120, 300, 600, 1200; P = 420, 330, 300, 280 → W = 50400, 99000, 180000, 336000.
        let t: [Double] = [120, 300, 600, 1200], p: [Double] = [420, 330, 300, 280]
        let w: [Double] = [50_400, 99_000, 180_000, 336_000]
        let mt = 555.0, mw = 166_350.0
        var stw = 0.0, stt = 0.0
        for i in 0..<4 {
            stw += (t[i] - mt) * (w[i] - mw)
            stt += (t[i] - mt) * (t[i] - mt)
        }
        let cp = stw / stt
        let fit = try #require(CriticalPower.fit(Array(zip(t, p))))
        #expect(approx(fit.cpW, cp, tol: 1e-12))
        #expect(approx(fit.wprimeJ, mw - cp * mt, tol: 1e-12))
    }

    @Test func batchOnLAPACKMatchesClosedForm() throws {
        var rng = SeededGenerator(seed: 9)
        let durations: [Double] = [120, 300, 600, 1200]
        let users = 50
        var powers = Matrix(rows: 4, columns: users)
        var truth: [(Double, Double)] = []
        for j in 0..<users {
            let cp = Double.random(in: 180...380, using: &rng), wp = Double.random(in: 10_000...30_000, using: &rng)
            truth.append((cp, wp))
            for i in 0..<4 {
                powers[i, j] = cp + wp / durations[i] + (j % 2 == 0 ? 0 : Double.random(in: -5...5, using: &rng))
            }
        }
        let batch = try CriticalPower.fitBatchWithLAPACK(durationsS: durations, powers: powers)
        let loops = CriticalPower.fitBatch(durationsS: durations, powers: powers)
        for j in 0..<users {
            #expect(approx(batch[j].cpW, loops[j]!.cpW, tol: 1e-9))
            #expect(approx(batch[j].wprimeJ, loops[j]!.wprimeJ, tol: 1e-9))
            if j % 2 == 0 { // exact points
                #expect(approx(batch[j].cpW, truth[j].0, tol: 1e-9) && approx(batch[j].wprimeJ, truth[j].1, tol: 1e-8))
            }
        }
    }

    @Test func pointsFromSessionsBestEfforts() throws {
        let a = MeanMaximalPower(values: [900, 700, 600, 450, 400, 350, 300, nil, nil, nil, nil])
        let b = MeanMaximalPower(values: [800, 750, 580, 460, 390, 360, 310, 290, 270, 260, nil])
        let best = CriticalPower.bestEfforts([a, b])
        #expect(best.values == [900, 750, 600, 460, 400, 360, 310, 290, 270, 260, nil])
        let pts = CriticalPower.points(best)
        #expect(pts.map(\.durationS) == [120, 300, 600, 1200] && pts.map(\.powerW) == [360, 310, 290, 270])
    }
}

@Suite struct HeartRatePowerRegressionTests {
    @Test func exactLineIsRecoveredSkippingGapsAndDropouts() throws {
        let p: [Double] = [100, 150, .nan, 200, 250, 300]
        let h: [Double] = [100, 112.5, 130, 0, 137.5, 150] // HR = 75 + 0.25·P; second 3 is a dropout
        let fit = try #require(HeartRatePowerRegression.fit(power: p, hr: h))
        #expect(approx(fit.slopeBpmPerW, 0.25, tol: 1e-12) && approx(fit.interceptBpm, 75, tol: 1e-12))
        #expect(fit.seconds == 4)
        #expect(approx(fit.rSquared, 1, tol: 1e-12))
        #expect(HeartRatePowerRegression.fit(power: [200, 200], hr: [120, 130]) == nil)
    }

    @Test func batchPathsAgree() {
        var rng = SeededGenerator(seed: 5)
        let n = 600, k = 8
        let power = Matrix(
            rows: n, columns: k, storage: (0..<(n * k)).map { _ in Double.random(in: 100...350, using: &rng) })
        var hr = Matrix(rows: n, columns: k)
        for j in 0..<k {
            for i in 0..<n { hr[i, j] = 60 + Double(j) + 0.3 * power[i, j] + Double.random(in: -3...3, using: &rng) }
        }
        let loops = HeartRatePowerRegression.fitBatch(power: power, hr: hr)
        let blas = HeartRatePowerRegression.fitBatchWithBLAS(power: power, hr: hr)
        for j in 0..<k {
            let single = HeartRatePowerRegression.fit(power: Array(power.column(j)), hr: Array(hr.column(j)))!
            #expect(approx(loops[j]!.slopeBpmPerW, single.slopeBpmPerW, tol: 1e-10))
            #expect(approx(blas[j]!.slopeBpmPerW, single.slopeBpmPerW, tol: 1e-9))
            #expect(approx(blas[j]!.interceptBpm, single.interceptBpm, tol: 1e-9))
            #expect(abs(single.slopeBpmPerW - 0.3) < 0.02)
        }
    }
}
