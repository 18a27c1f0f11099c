/// One pass over a channel collecting the sums the per-session definitions need: over
/// valid seconds (not NaN) and over positive seconds (> 0; NaN compares false). Written
/// with SIMD4 accumulators — the compiler does not reassociate floating-point sums on its
/// own — so a 1-hour channel takes about a microsecond.
struct ChannelStatistics {
    var validCount = 0
    var validSum = 0.0
    var validMax = -Double.infinity
    var positiveCount = 0
    var positiveSum = 0.0

    init(_ x: [Double]) {
        x.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let n = buffer.count
            var vc = SIMD4<Int64>(), pc = SIMD4<Int64>(), vs = SIMD4<Double>(), ps = SIMD4<Double>()
            var vm = SIMD4<Double>(repeating: -.infinity)
            let zero = SIMD4<Double>()
            var i = 0
            while i + 4 <= n {
                let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                let valid = v .== v
                let positive = v .> zero
                vc &-= valid.lanes
                vs += v.replacing(with: 0, where: .!valid)
                vm.replace(with: v, where: v .> vm) // NaN compares false
                pc &-= positive.lanes
                ps += v.replacing(with: 0, where: .!positive)
                i += 4
            }
            validCount = Int(vc.wrappedSum())
            validSum = vs.sum()
            validMax = vm.max()
            positiveCount = Int(pc.wrappedSum())
            positiveSum = ps.sum()
            while i < n {
                let v = buffer[i]
                if !v.isNaN {
                    validCount += 1
                    validSum += v
                    validMax = Swift.max(validMax, v)
                    if v > 0 { positiveCount += 1; positiveSum += v }
                }
                i += 1
            }
        }
    }

    var validMean: Double? { validCount > 0 ? validSum / Double(validCount) : nil }
    var positiveMean: Double? { positiveCount > 0 ? positiveSum / Double(positiveCount) : nil }
}

extension SIMDMask where Storage == SIMD4<Int64> {
    /// The mask as integers: −1 where true, 0 where false (its storage), so that
    /// `count &-= mask.lanes` counts true lanes without a select.
    @inline(__always) var lanes: SIMD4<Int64> { unsafeBitCast(self, to: SIMD4<Int64>.self) }
}
