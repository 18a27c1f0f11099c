import TestKit
import Testing

@testable import Cache

@Suite struct CacheEventBusTests {
    private func makeCaches() -> (stats: Cache<UserCacheKey, Int>, plans: Cache<UserCacheKey, String>) {
        let clock = ManualCacheClock()
        return (
            Cache(configuration: .init(name: "stats", maximumEntries: 1_000), clock: clock),
            Cache(configuration: .init(name: "plans", maximumEntries: 1_000), clock: clock)
        )
    }

    @Test(arguments: [
        CacheEvent.sessionIngested(user: "alice"), .recomputed(user: "alice"), .userDeleted(user: "alice"),
    ])
    func userEventInvalidatesThatUserEverywhere(event: CacheEvent) {
        let (stats, plans) = makeCaches()
        let bus = CacheEventBus()
        bus.register(stats)
        bus.register(plans)
        for user in ["alice", "bob"] {
            stats.set(UserCacheKey(user: CacheUserID(user), resource: "stats"), 1)
            for week in 1...3 {
                plans.set(UserCacheKey(user: CacheUserID(user), resource: "plan/week/\(week)"), "w\(week)")
            }
        }

        let report = bus.publish(event)

        #expect(report.removedByCache == ["stats": 1, "plans": 3])
        #expect(report.totalRemoved == 4)
        #expect(stats.get(UserCacheKey(user: "alice", resource: "stats")) == nil)
        #expect(plans.get(UserCacheKey(user: "alice", resource: "plan/week/2")) == nil)
        #expect(stats.get(UserCacheKey(user: "bob", resource: "stats")) == 1)
        #expect(plans.get(UserCacheKey(user: "bob", resource: "plan/week/2")) == "w2")
        #expect(stats.invariantViolation() == nil && plans.invariantViolation() == nil)
        #expect(stats.statistics.invalidations == 1)
    }

    @Test func customEventInvalidatesItsTags() {
        struct RuleKey: CacheKey {
            let user: CacheUserID
            var cacheTags: [CacheTag] { [.user(user), CacheTag("plan_rules")] }
        }
        let cache = Cache<RuleKey, Int>(
            configuration: .init(name: "rules", maximumEntries: 10), clock: ManualCacheClock())
        let bus = CacheEventBus()
        bus.register(cache)
        cache.set(RuleKey(user: "a"), 1)
        cache.set(RuleKey(user: "b"), 2)
        #expect(bus.publish(.custom(name: "plan_rules_changed", tags: [CacheTag("plan_rules")])).totalRemoved == 2)
        #expect(cache.count == 0)
        #expect(cache.invariantViolation() == nil)
    }

    @Test func invalidationCostsOnlyTheUsersEntries() {
        // 100,000 entries of other users; invalidating one user touches its 3 entries only
        // (timed against a full scan: best of several runs, so scheduling noise cannot pass it).
        let cache = Cache<UserCacheKey, Int>(
            configuration: .init(name: "big", maximumEntries: 200_000), clock: ManualCacheClock())
        for i in 0..<100_000 { cache.set(UserCacheKey(user: CacheUserID("u\(i)"), resource: "stats"), i) }
        let clock = ContinuousClock()
        var invalidation = Duration.seconds(1)
        for _ in 0..<5 {
            for r in 0..<3 { cache.set(UserCacheKey(user: "target", resource: "r\(r)"), r) }
            var removed = 0
            invalidation = min(invalidation, clock.measure { removed = cache.invalidate(user: "target") })
            #expect(removed == 3)
        }
        // A full scan of the same cache (nothing is expired, so it only reads), for scale.
        var scan = Duration.seconds(1)
        for _ in 0..<3 { scan = min(scan, clock.measure { _ = cache.removeExpired() }) }
        #expect(cache.count == 100_000)
        #expect(invalidation * 20 < scan, "invalidation \(invalidation), full scan \(scan)")
    }

    @Test func unregisteredAndReleasedCachesReceiveNothing() {
        let bus = CacheEventBus()
        let kept = Cache<UserCacheKey, Int>(
            configuration: .init(name: "kept", maximumEntries: 10), clock: ManualCacheClock())
        let unregistered = Cache<UserCacheKey, Int>(
            configuration: .init(name: "gone", maximumEntries: 10), clock: ManualCacheClock())
        bus.register(kept)
        let registration = bus.register(unregistered)
        do {
            let temporary = Cache<UserCacheKey, Int>(
                configuration: .init(name: "temp", maximumEntries: 10), clock: ManualCacheClock())
            bus.register(temporary)
            withExtendedLifetime(temporary) { #expect(bus.caches.count == 3) }
        }
        bus.unregister(registration)
        let key = UserCacheKey(user: "u", resource: "x")
        kept.set(key, 1)
        unregistered.set(key, 1)
        #expect(bus.publish(.userDeleted(user: "u")).removedByCache == ["kept": 1])
        #expect(unregistered.get(key) == 1)
        #expect(bus.caches.map(\.cacheName) == ["kept"])
    }

    @Test func clearAllAndCacheableContract() {
        let (stats, plans) = makeCaches()
        let bus = CacheEventBus()
        bus.register(stats)
        bus.register(plans)
        stats.set(UserCacheKey(user: "a", resource: "s"), 1)
        plans.set(UserCacheKey(user: "a", resource: "p"), "x")
        let asCacheable: [any Cacheable] = [stats, plans]
        #expect(asCacheable.map(\.cacheSize.entries) == [1, 1])
        bus.clearAll()
        #expect(asCacheable.map(\.cacheSize.entries) == [0, 0])
        #expect(stats.isExpired(UserCacheKey(user: "a", resource: "s")))
    }

    @Test func eventDescriptionsKeepUserIdsOut() {
        #expect(CacheEvent.userDeleted(user: "secret").description == "CacheEvent(user_deleted)")
        #expect(!"\(CacheEvent.sessionIngested(user: "secret"))".contains("secret"))
    }
}
