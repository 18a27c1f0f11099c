import TestKit
import Testing

@testable import Cache

@Suite struct CacheConcurrencyTests {
    @Test(arguments: [CacheEvictionPolicy.lru, .windowTinyLFU])
    func manyTasksHammeringKeepTheInvariants(policy: CacheEvictionPolicy) async throws {
        let clock = ManualCacheClock()
        let cache = Cache<UserCacheKey, [UInt8]>(
            configuration: .init(name: "stress", maximumEntries: 500, maximumBytes: 20_000, evictionPolicy: policy),
            clock: clock, weigher: { _, value in value.count })
        let bus = CacheEventBus()
        bus.register(cache)
        let tasks = 8
        let operations = 20_000
        let reads = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<tasks {
                group.addTask {
                    var generator = SeededGenerator(seed: UInt64(worker))
                    var gets = 0
                    for step in 0..<operations {
                        let user = CacheUserID("u\(Int.random(in: 0..<50, using: &generator))")
                        let key = UserCacheKey(user: user, resource: "r\(Int.random(in: 0..<40, using: &generator))")
                        switch Int.random(in: 0..<100, using: &generator) {
                        case 0..<55:
                            _ = cache.get(key)
                            gets += 1
                        case 55..<85:
                            let size = Int.random(in: 1..<120, using: &generator)
                            cache.set(
                                key, [UInt8](repeating: 1, count: size),
                                ttl: .seconds(Int.random(in: 1..<30, using: &generator)))
                        case 85..<92:
                            _ = try await cache.getOrLoad(key) { [UInt8](repeating: 2, count: 16) }
                            gets += 1
                        case 92..<97:
                            cache.remove(key)
                        case 97..<99:
                            bus.publish(.sessionIngested(user: user))
                        default:
                            clock.advance(by: .seconds(1))
                        }
                        if step % 1_000 == 0 { #expect(cache.invariantViolation() == nil) }
                    }
                    return gets
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(cache.invariantViolation() == nil)
        let size = cache.cacheSize
        #expect(size.entries <= 500)
        #expect(size.bytes <= 20_000)
        let statistics = cache.statistics
        // Every get and getOrLoad is exactly one hit or one miss.
        #expect(statistics.hits + statistics.misses == reads)
        #expect(statistics.hits > 0 && statistics.misses > 0 && statistics.evictions > 0 && statistics.expirations > 0)
    }
}
