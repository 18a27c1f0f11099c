import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in time of a `CacheClock`: nanoseconds since that clock's own origin. Only
/// instants of the same clock can be compared.
public struct CacheInstant: Comparable, Hashable, Sendable {
    public let nanosecondsSinceOrigin: Int64

    @inlinable
    public init(nanosecondsSinceOrigin: Int64) {
        self.nanosecondsSinceOrigin = nanosecondsSinceOrigin
    }

    /// Saturates instead of overflowing, so that a TTL of `.seconds(Int64.max)` means "never".
    @inlinable
    public func advanced(by duration: Duration) -> CacheInstant {
        CacheInstant(nanosecondsSinceOrigin: nanosecondsSinceOrigin.addingSaturated(duration.saturatedNanoseconds))
    }

    public func duration(to other: CacheInstant) -> Duration {
        .nanoseconds(other.nanosecondsSinceOrigin &- nanosecondsSinceOrigin)
    }

    public static func < (lhs: CacheInstant, rhs: CacheInstant) -> Bool {
        lhs.nanosecondsSinceOrigin < rhs.nanosecondsSinceOrigin
    }
}

/// The time source of a cache, injected so that tests advance time instead of sleeping.
public protocol CacheClock: Sendable {
    var now: CacheInstant { get }
}

/// Monotonic time (`CLOCK_MONOTONIC`; read directly because converting a `ContinuousClock`
/// duration to nanoseconds costs a 128-bit division on every cache read).
public struct SystemCacheClock: CacheClock {
    public init() {}

    public var now: CacheInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return CacheInstant(nanosecondsSinceOrigin: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }
}

extension Duration {
    @inlinable
    var saturatedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingSaturated(attoseconds / 1_000_000_000)
    }
}

extension Int64 {
    @inlinable
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other < 0 ? .min : .max }
        return sum
    }
}
