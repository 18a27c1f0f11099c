import Foundation
@_exported import TestKit

@testable import WorkoutMetrics

/// SplitMix64: a small seeded generator so synthetic sessions are repeatable.
typealias SeededGenerator = SplitMix64

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
