import Foundation

/// Heart-rate seconds counted per whole bpm (recordings carry integer bpm), so that
/// per-second sums of a function of HR — TRIMP's exponential, zone membership — are done
/// once per distinct value instead of once per second. Values that are not whole numbers
/// in 1…255 are kept aside and handled one by one, so any input gives the definition's
/// result. Only seconds with HR > 0 are counted (0 is a dropout, NaN a gap).
struct HeartRateHistogram {
    static let bins = 256
    var counts: [Int]
    var others: [Double]
    var seconds: Int

    init(_ hr: [Double]) {
        // Four interleaved tables: consecutive seconds usually share a bpm, and a single
        // table would chain every increment through the same memory slot.
        var lanes = [Int32](repeating: 0, count: Self.bins * 4)
        var others: [Double] = []
        hr.withUnsafeBufferPointer { h in
            lanes.withUnsafeMutableBufferPointer { c in
                // For 0 ≤ v < 2⁵², v + 2⁵² holds round(v) in its low mantissa bits; v is a
                // whole number exactly when subtracting 2⁵² gives v back. No trapping
                // conversions in the loop.
                let magic = 0x1p52 as Double
                let magicBits = magic.bitPattern
                for i in 0..<h.count {
                    let v = h[i]
                    guard v > 0 else { continue } // NaN > 0 is false
                    let t = v + magic
                    if v < Double(Self.bins) && t - magic == v {
                        let k = Int(truncatingIfNeeded: t.bitPattern &- magicBits)
                        c[k &* 4 &+ (i & 3)] &+= 1
                    } else {
                        others.append(v)
                    }
                }
            }
        }
        var counts = [Int](repeating: 0, count: Self.bins)
        for k in 0..<Self.bins {
            counts[k] = Int(lanes[4 * k]) + Int(lanes[4 * k + 1]) + Int(lanes[4 * k + 2]) + Int(lanes[4 * k + 3])
        }
        self.counts = counts
        self.others = others
        self.seconds = counts.reduce(0, +) + others.count
    }

    /// Σ f(HR) over the counted seconds.
    func sum(_ f: (Double) -> Double) -> Double {
        var acc = 0.0
        for k in 1..<Self.bins where counts[k] > 0 { acc += Double(counts[k]) * f(Double(k)) }
        for v in others { acc += f(v) }
        return acc
    }

    var max: Double? {
        var m = others.max() ?? 0
        if let k = counts.lastIndex(where: { $0 > 0 }) { m = Swift.max(m, Double(k)) }
        return seconds > 0 ? m : nil
    }
}
