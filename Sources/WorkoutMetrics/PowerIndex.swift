/// Prefix sums and unbroken runs of a power channel, built once and shared by the
/// window-based definitions (NP, mean-maximal power) so that each window's sum is one
/// subtraction and no window needs a per-second gap check.
struct PowerIndex {
    /// `prefix[i]` = Σ power[0..<i], gaps as 0.
    let prefix: [Double]
    /// Maximal runs of consecutive valid seconds, as half-open ranges.
    let segments: [Range<Int>]
    let longestRun: Int

    init(_ power: [Double]) {
        let n = power.count
        var prefix = [Double](repeating: 0, count: n + 1)
        var segments: [Range<Int>] = []
        var longest = 0
        power.withUnsafeBufferPointer { p in
            prefix.withUnsafeMutableBufferPointer { s in
                var acc = 0.0
                var start = -1
                for i in 0..<n {
                    let v = p[i]
                    if v.isNaN {
                        if start >= 0 {
                            segments.append(start..<i)
                            longest = Swift.max(longest, i - start)
                            start = -1
                        }
                    } else {
                        acc += v
                        if start < 0 { start = i }
                    }
                    s[i + 1] = acc
                }
                if start >= 0 {
                    segments.append(start..<n)
                    longest = Swift.max(longest, n - start)
                }
            }
        }
        self.prefix = prefix
        self.segments = segments
        self.longestRun = longest
    }

    /// The largest sum over `d` consecutive valid seconds; nil if no run is that long.
    func maxWindowSum(_ d: Int) -> Double? {
        guard d > 0, d <= longestRun else { return nil }
        return prefix.withUnsafeBufferPointer { s in
            var best = SIMD4<Double>(repeating: -.infinity)
            var bestScalar = -Double.infinity
            let base = s.baseAddress!
            for seg in segments where seg.count >= d {
                // windows start at seg.lowerBound … seg.upperBound − d; sum = s[i+d] − s[i]
                var i = seg.lowerBound
                let last = seg.upperBound - d
                while i + 3 <= last {
                    let hi = UnsafeRawPointer(base + i + d).loadUnaligned(as: SIMD4<Double>.self)
                    let lo = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                    let sums = hi - lo
                    best.replace(with: sums, where: sums .> best)
                    i += 4
                }
                while i <= last {
                    bestScalar = Swift.max(bestScalar, s[i + d] - s[i])
                    i += 1
                }
            }
            return Swift.max(best.max(), bestScalar)
        }
    }

    /// Σ over every 30 s (or `w` s) unbroken window of (window mean)⁴, and the number of
    /// such windows.
    func fourthPowerOfWindowMeans(_ w: Int) -> (sum: Double, windows: Int) {
        prefix.withUnsafeBufferPointer { s in
            let base = s.baseAddress!
            let inv = 1 / Double(w)
            var acc = SIMD4<Double>(repeating: 0)
            var accScalar = 0.0
            var windows = 0
            for seg in segments where seg.count >= w {
                var i = seg.lowerBound
                let last = seg.upperBound - w
                windows += last - i + 1
                while i + 3 <= last {
                    let hi = UnsafeRawPointer(base + i + w).loadUnaligned(as: SIMD4<Double>.self)
                    let lo = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                    let m = (hi - lo) * inv
                    let m2 = m * m
                    acc += m2 * m2
                    i += 4
                }
                while i <= last {
                    let m = (s[i + w] - s[i]) * inv
                    let m2 = m * m
                    accScalar += m2 * m2
                    i += 1
                }
            }
            return (acc.sum() + accScalar, windows)
        }
    }
}
