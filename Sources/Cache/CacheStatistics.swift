/// A snapshot of a cache's counters since it was made (`clearCache()` does not reset them).
/// Plain values, ready to be exported (for example as Prometheus counters and a histogram).
public struct CacheStatistics: Sendable, Hashable {
    /// Upper bounds of the load-time histogram buckets; `loadTimeBucketCounts` has one more
    /// element, for loads slower than the last bound.
    public static let loadTimeBucketBounds: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
        .seconds(5), .seconds(10),
    ]

    /// Reads that found a live entry (`get`, and `getOrLoad` without loading).
    public var hits = 0
    /// Reads that found none (including expired ones).
    public var misses = 0
    /// Entries dropped to stay within the entry or byte bound.
    public var evictions = 0
    /// Entries removed because their TTL had passed.
    public var expirations = 0
    /// Entries removed on purpose: `remove`, tag invalidation, events, `clearCache`.
    public var invalidations = 0
    /// `getOrLoad` misses that waited for a load already running instead of starting one.
    public var coalescedLoads = 0
    public var loadSuccesses = 0
    public var loadFailures = 0
    /// Total and longest time spent in loaders, by the cache's clock.
    public var totalLoadTime = Duration.zero
    public var maximumLoadTime = Duration.zero
    /// Loads per bucket of `loadTimeBucketBounds` (not cumulative), plus one overflow bucket.
    public var loadTimeBucketCounts = [Int](repeating: 0, count: CacheStatistics.loadTimeBucketBounds.count + 1)
    /// Entries and bytes held when the snapshot was taken.
    public var entryCount = 0
    public var byteCount = 0

    public init() {}

    /// hits / (hits + misses), 0 when nothing was read.
    public var hitRatio: Double {
        let reads = hits + misses
        return reads == 0 ? 0 : Double(hits) / Double(reads)
    }

    public var loadCount: Int { loadSuccesses + loadFailures }

    public var averageLoadTime: Duration? {
        loadCount == 0 ? nil : totalLoadTime / loadCount
    }

    mutating func recordLoad(duration: Duration, succeeded: Bool) {
        if succeeded { loadSuccesses += 1 } else { loadFailures += 1 }
        totalLoadTime += duration
        maximumLoadTime = max(maximumLoadTime, duration)
        let bucket = Self.loadTimeBucketBounds.firstIndex { duration <= $0 } ?? Self.loadTimeBucketBounds.count
        loadTimeBucketCounts[bucket] += 1
    }
}
