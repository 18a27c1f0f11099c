import Foundation
@testable import WorkoutMetrics

/// SplitMix64: a small seeded generator so synthetic sessions are repeatable.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func approx(_ a: Double?, _ b: Double, tol: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tol * Swift.max(1, abs(b))
}

/// A noisy power series with some gaps, for comparisons with brute-force references.
func noisyPower(count: Int, seed: UInt64, gapEvery: Int = 0) -> [Double] {
    var rng = SeededGenerator(seed: seed)
    return (0..<count).map { i in
        if gapEvery > 0 && i % gapEvery < 3 { return .nan }
        return Double(Int.random(in: 0...600, using: &rng))
    }
}
