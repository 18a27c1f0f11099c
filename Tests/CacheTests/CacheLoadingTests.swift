import TestKit
import Testing

@testable import Cache

@Suite struct CacheLoadingTests {
    @Test func concurrentLoadsOfOneKeyRunTheLoaderOnce() async throws {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(configuration: .init(name: "load", maximumEntries: 10), clock: clock)
        let gate = Gate()
        let loads = Counter()
        let callers = 2_000
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    try await cache.getOrLoad(1) {
                        loads.increment()
                        await gate.wait()
                        clock.advance(by: .milliseconds(30)) // the load "takes" 30 ms
                        return 42
                    }
                }
            }
            #expect(await eventually { cache.loadWaiterCount(1) == callers })
            gate.open()
            for try await value in group { #expect(value == 42) }
        }
        #expect(loads.count == 1)
        #expect(cache.get(1) == 42)
        let statistics = cache.statistics
        #expect(statistics.loadSuccesses == 1)
        #expect(statistics.coalescedLoads == callers - 1)
        #expect(statistics.misses == callers)
        #expect(statistics.totalLoadTime == .milliseconds(30))
        #expect(statistics.maximumLoadTime == .milliseconds(30))
        #expect(statistics.averageLoadTime == .milliseconds(30))
        // 25 ms < 30 ms ≤ 50 ms: the fifth bucket.
        #expect(statistics.loadTimeBucketCounts[4] == 1)
        #expect(statistics.loadTimeBucketCounts.reduce(0, +) == 1)
    }

    @Test func hitDoesNotLoad() async throws {
        let cache = Cache<Key, Int>(configuration: .init(name: "load", maximumEntries: 10), clock: ManualCacheClock())
        cache.set(1, 5)
        let value = try await cache.getOrLoad(1) { () -> Int in
            Issue.record("loaded on a hit"); return 0
        }
        #expect(value == 5)
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 0)
    }

    @Test func loadedValueGetsTheTTL() async throws {
        let clock = ManualCacheClock()
        let cache = Cache<Key, Int>(configuration: .init(name: "load", maximumEntries: 10), clock: clock)
        _ = try await cache.getOrLoad(1, ttl: .seconds(60)) { 1 }
        #expect(cache.timeToLive(1) == .seconds(60))
        clock.advance(by: .seconds(60))
        #expect(try await cache.getOrLoad(1) { 2 } == 2)
    }

    @Test func loaderErrorReachesEveryCallerAndIsNotCached() async throws {
        let cache = Cache<Key, Int>(configuration: .init(name: "load", maximumEntries: 10), clock: ManualCacheClock())
        let gate = Gate()
        let callers = 200
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    do {
                        _ = try await cache.getOrLoad(1) { () async throws -> Int in
                            await gate.wait()
                            throw LoadFailure(code: 5)
                        }
                        return false
                    } catch {
                        return error as? LoadFailure == LoadFailure(code: 5)
                    }
                }
            }
            #expect(await eventually { cache.loadWaiterCount(1) == callers })
            gate.open()
            var failures = 0
            for await failed in group where failed { failures += 1 }
            return failures
        }
        #expect(failures == callers)
        #expect(cache.statistics.loadFailures == 1)
        #expect(cache.count == 0)
        #expect(try await cache.getOrLoad(1) { 7 } == 7)
    }

    @Test func cancelledCallerLeavesTheLoadRunningForTheOthers() async throws {
        let cache = Cache<Key, Int>(configuration: .init(name: "load", maximumEntries: 10), clock: ManualCacheClock())
        let gate = Gate()
        let loader: @Sendable () async -> Int = {
            await gate.wait()
            return Task.isCancelled ? -1 : 9
        }
        let quitter = Task { try await cache.getOrLoad(1, loader: loader) }
        let stayer = Task { try await cache.getOrLoad(1, loader: loader) }
        #expect(await eventually { cache.loadWaiterCount(1) == 2 })
        quitter.cancel()
        await #expect(throws: CancellationError.self) { try await quitter.value }
        gate.open()
        #expect(try await stayer.value == 9)
        #expect(cache.get(1) == 9)
    }

    @Test func invalidationDuringALoadKeepsItsResultOutOfTheCache() async throws {
        let cache = Cache<UserCacheKey, String>(
            configuration: .init(name: "load", maximumEntries: 10), clock: ManualCacheClock())
        let bus = CacheEventBus()
        bus.register(cache)
        let key = UserCacheKey(user: "alice", resource: "stats")
        let gate = Gate()
        let caller = Task {
            try await cache.getOrLoad(key) {
                await gate.wait(); return "read before deletion"
            }
        }
        #expect(await eventually { cache.loadWaiterCount(key) == 1 })
        bus.publish(.userDeleted(user: "alice"))
        gate.open()
        #expect(try await caller.value == "read before deletion") // the caller still gets it
        #expect(cache.get(key) == nil) // but the deleted user's data is not cached
        #expect(cache.count == 0)
    }

    @Test func setDuringALoadWins() async throws {
        let cache = Cache<Key, Int>(configuration: .init(name: "load", maximumEntries: 10), clock: ManualCacheClock())
        let gate = Gate()
        let caller = Task {
            try await cache.getOrLoad(1) {
                await gate.wait(); return 1
            }
        }
        #expect(await eventually { cache.loadWaiterCount(1) == 1 })
        cache.set(1, 2)
        gate.open()
        #expect(try await caller.value == 1)
        #expect(cache.get(1) == 2)
    }
}
