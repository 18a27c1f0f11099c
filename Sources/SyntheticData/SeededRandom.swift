import Foundation

/// xoshiro256** seeded through SplitMix64: the same seed gives the same sequence on every machine, which is
/// what makes the generator's output byte-for-byte reproducible.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    var s: (UInt64, UInt64, UInt64, UInt64)

    public init(seed: UInt64) {
        var seeding = SplitMix64(seed: seed)
        s = (seeding.next(), seeding.next(), seeding.next(), seeding.next())
    }

    public mutating func next() -> UInt64 {
        func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
        let result = rotl(s.1 &* 5, 7) &* 9
        let t = s.1 << 17
        s.2 ^= s.0; s.3 ^= s.1; s.1 ^= s.2; s.0 ^= s.3
        s.2 ^= t
        s.3 = rotl(s.3, 45)
        return result
    }

    /// Uniform in [0, 1) from the top 53 bits (platform-independent, unlike `Double.random(in:using:)`'s contract).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    public mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt64(hi - lo + 1)) }
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
    /// Standard normal (Box–Muller).
    public mutating func normal() -> Double {
        let u1 = max(unit(), 1e-300), u2 = unit()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
    }
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0, items.count - 1)] }
    /// A child generator for an independent stream (per user, per session), so that adding a session to one
    /// user does not change every other user's data.
    public mutating func fork() -> SeededRandom { SeededRandom(seed: next()) }
}

@inline(__always) func _log(_ x: Double) -> Double { Foundation.log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { Foundation.cos(x) }

extension SeededRandom {
    /// SplitMix64 (Steele, Lea, Flood 2014): seeds `SeededRandom`, and is the project's small seeded generator where a
    /// sequence is pinned to it (the benchmarks' inputs). Its own sequence, not `SeededRandom`'s: the two are not
    /// interchangeable where values are pinned. (Tests/TestKit has its own copy, `SplitMix64`, so that test targets need
    /// not link this module.)
    @frozen public struct SplitMix64: RandomNumberGenerator, Sendable {
        public var state: UInt64
        @inlinable public init(seed: UInt64) { state = seed }
        @inlinable public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in lo...hi (`next() % span`, as `SeededRandom.int`).
        @inlinable public mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt64(hi - lo + 1)) }
    }
}
