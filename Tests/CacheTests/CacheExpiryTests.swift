import TestKit
import Testing

@testable import Cache

@Suite struct CacheExpiryTests {
    @Test func entryExpiresAfterItsTTL() {
        let clock = ManualCacheClock()
        let cache = Cache<Key, String>(configuration: .init(name: "t", maximumEntries: 10), clock: clock)
        cache.set(1, "a", ttl: .seconds(10))
        clock.advance(by: .seconds(9))
        #expect(cache.get(1) == "a")
        #expect(cache.timeToLive(1) == .seconds(1))
        #expect(!cache.isExpired(1))
        clock.advance(by: .seconds(1))
        #expect(cache.isExpired(1))
        #expect(cache.get(1) == nil)
        let statistics = cache.statistics
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 1)
        #expect(statistics.expirations == 1)
        #expect(statistics.entryCount == 0)
    }

    @Test func defaultTTLComesFromTheConfiguration() {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(
            configuration: .init(name: "t", maximumEntries: 10, defaultTTL: .seconds(30 * 60)), clock: clock)
        cache.set(1, 1)
        clock.advance(by: .seconds(30 * 60 - 1))
        #expect(cache.get(1) == 1)
        clock.advance(by: .seconds(1))
        #expect(cache.get(1) == nil)
    }

    @Test func replacingAnEntryRenewsItsTTL() {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(configuration: .init(name: "t", maximumEntries: 10), clock: clock)
        cache.set(1, 1, ttl: .seconds(5))
        clock.advance(by: .seconds(4))
        cache.set(1, 2, ttl: .seconds(5))
        clock.advance(by: .seconds(4))
        #expect(cache.get(1) == 2)
    }

    @Test func nonPositiveTTLStoresNothingAndRemovesTheOldEntry() {
        let cache = Cache<Key, Int>(configuration: .init(name: "t", maximumEntries: 10), clock: ManualCacheClock())
        cache.set(1, 1)
        cache.set(1, 2, ttl: .zero)
        #expect(cache.get(1) == nil)
        #expect(cache.count == 0)
    }

    @Test func hugeTTLNeverOverflows() {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(configuration: .init(name: "t", maximumEntries: 10), clock: clock)
        cache.set(1, 1, ttl: .seconds(Int64.max))
        clock.advance(by: .seconds(100 * 365 * 86_400))
        #expect(cache.get(1) == 1)
    }

    @Test func removeExpiredSweepsOnlyExpiredEntries() {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(configuration: .init(name: "t", maximumEntries: 100), clock: clock)
        for i in 0..<10 { cache.set(Key(i), i, ttl: .seconds(i < 4 ? 1 : 100)) }
        clock.advance(by: .seconds(2))
        #expect(cache.removeExpired() == 4)
        #expect(cache.count == 6)
        #expect(cache.statistics.expirations == 4)
        #expect(cache.invariantViolation() == nil)
    }

    @Test func evictionPrefersCountingExpiredVictimsAsExpirations() {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(
            configuration: .init(name: "t", maximumEntries: 2, evictionPolicy: .lru), clock: clock)
        cache.set(1, 1, ttl: .seconds(1))
        cache.set(2, 2, ttl: .seconds(100))
        clock.advance(by: .seconds(5))
        cache.set(3, 3)
        #expect(cache.statistics.expirations == 1)
        #expect(cache.statistics.evictions == 0)
    }
}
