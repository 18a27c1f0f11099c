import Logging
import Synchronization

/// A bounded TTL cache, safe to share between tasks.
///
/// - Bounded by entries and by bytes (each value weighed by the `weigher` given at init);
///   evicts by W-TinyLFU (default) or LRU, see `CacheEvictionPolicy`.
/// - Entries expire after their TTL, by an injected `CacheClock`.
/// - Keys carry tags (`CacheKey.cacheTags`, a user's tag for per-user data), indexed so that
///   invalidating a user costs O(that user's entries).
/// - `getOrLoad` coalesces concurrent loads of one key: one loader runs, the other callers
///   await its result.
/// - Counters and load times are read as a `CacheStatistics` snapshot.
///
/// All state sits behind one `Mutex`: a read moves the entry in its recency list, so even
/// reads write.
public final class Cache<Key: CacheKey, Value: Sendable>: KeyedCacheable, Sendable {
    public typealias Weigher = @Sendable (Key, Value) -> Int

    public let configuration: Configuration
    @usableFromInline let state: Mutex<State>
    @usableFromInline let clock: any CacheClock
    @usableFromInline let weigher: Weigher
    @usableFromInline let logger: Logger
    @usableFromInline let waiterIDs = Atomic<UInt64>(0)

    /// - Parameters:
    ///   - weigher: the size of an entry in bytes, counted against `maximumBytes`. The
    ///     default counts only the inline sizes of key and value (`MemoryLayout.stride`), not
    ///     what they point to: pass a real one when bounding bytes matters.
    public init(
        configuration: Configuration,
        clock: any CacheClock = SystemCacheClock(),
        weigher: @escaping Weigher = { _, _ in MemoryLayout<Key>.stride + MemoryLayout<Value>.stride },
        logger: Logger = Logger(label: "Cache")
    ) {
        self.configuration = configuration
        self.clock = clock
        self.weigher = weigher
        self.logger = logger
        self.state = Mutex(
            State(
                storage: CacheStorage(
                    policy: configuration.evictionPolicy, maximumEntries: configuration.maximumEntries,
                    maximumWeight: configuration.maximumBytes, windowFraction: configuration.windowFraction)))
    }

    // MARK: - Reading and writing

    /// The live value for `key`, or `nil` (counted as a hit or a miss).
    @inlinable
    public func get(_ key: Key) -> Value? {
        let now = clock.now.nanosecondsSinceOrigin
        return state.withLock { state in
            let value = state.storage.get(key, now: now)
            if value == nil { state.statistics.misses += 1 } else { state.statistics.hits += 1 }
            return value
        }
    }

    /// Stores `value` for `ttl` (default: the configuration's). A TTL ≤ 0 stores nothing and
    /// removes any entry of `key`. A load of `key` already running will not overwrite it.
    @inlinable
    public func set(_ key: Key, _ value: Value, ttl: Duration? = nil) {
        let now = clock.now
        let ttl = ttl ?? configuration.defaultTTL
        let weight = weigher(key, value)
        state.withLock { state in
            if !state.loads.isEmpty { state.loads[key]?.isStorable = false }
            if ttl <= .zero {
                state.storage.remove(key)
                return
            }
            state.storage.set(
                key, value: value, weight: weight, expiresAt: now.advanced(by: ttl).nanosecondsSinceOrigin,
                now: now.nanosecondsSinceOrigin)
        }
    }

    /// Removes `key`'s entry; a load of it already running will not store its result.
    @inlinable @discardableResult
    public func remove(_ key: Key) -> Bool {
        state.withLock { state in
            if !state.loads.isEmpty { state.loads[key]?.isStorable = false }
            return state.storage.remove(key)
        }
    }

    /// The value for `key`: the cached one if live, else the result of `loader`, which is then
    /// stored for `ttl` (default: the configuration's). Concurrent calls for one key share a
    /// single load: the first starts it, the others await it (`coalescedLoads`); all receive
    /// its value or its error. Errors are not cached.
    ///
    /// The loader runs in its own task: a caller cancelled while waiting throws
    /// `CancellationError` at once, and the load still completes and is stored for the
    /// others. A load whose key is invalidated, removed or set while it runs returns its value
    /// to its callers but does not store it (it may have read data the invalidation replaced).
    @inlinable
    public func getOrLoad(
        _ key: Key, ttl: Duration? = nil, loader: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let now = clock.now.nanosecondsSinceOrigin
        if let value = state.withLock({ state -> Value? in
            let value = state.storage.get(key, now: now)
            if value != nil { state.statistics.hits += 1 }
            return value
        }) {
            return value
        }
        return try await load(key, ttl: ttl ?? configuration.defaultTTL, loader: loader)
    }

    // MARK: - Invalidation and maintenance

    /// Removes every entry carrying one of `tags` and stops running loads of such keys from
    /// storing their results. O(entries carrying the tags + running loads).
    @discardableResult
    public func invalidate(tags: [CacheTag]) -> Int {
        state.withLock { state in
            var removed = 0
            for tag in tags {
                removed += state.storage.invalidate(tag)
            }
            if !state.loads.isEmpty {
                for (key, load) in state.loads where key.cacheTags.contains(where: tags.contains) {
                    load.isStorable = false
                }
            }
            return removed
        }
    }

    /// Removes every entry of `user`.
    @discardableResult
    public func invalidate(user: CacheUserID) -> Int {
        invalidate(tags: [.user(user)])
    }

    /// Removes every entry whose TTL has passed (a full scan; expired entries are otherwise
    /// removed lazily, when read or when eviction reaches them).
    @discardableResult
    public func removeExpired() -> Int {
        let now = clock.now.nanosecondsSinceOrigin
        return state.withLock { $0.storage.removeExpired(now: now) }
    }

    // MARK: - Cacheable

    public var cacheName: String { configuration.name }

    public func clearCache() {
        let removed = state.withLock { state in
            for load in state.loads.values { load.isStorable = false }
            return state.storage.removeAll()
        }
        logger.debug("cache cleared", metadata: ["cache": "\(configuration.name)", "removed": "\(removed)"])
    }

    public var cacheSize: CacheSize {
        state.withLock { state in
            CacheSize(
                entries: state.storage.count, bytes: state.storage.totalWeight,
                maximumEntries: configuration.maximumEntries, maximumBytes: configuration.maximumBytes)
        }
    }

    public func isExpired(_ key: Key) -> Bool {
        guard let remaining = timeToLive(key) else { return true }
        return remaining <= .zero
    }

    /// How long `key`'s entry has left to live; `nil` if there is none. Does not count as a
    /// read.
    public func timeToLive(_ key: Key) -> Duration? {
        let now = clock.now.nanosecondsSinceOrigin
        return state.withLock { $0.storage.remainingNanoseconds(key, now: now) }.map { .nanoseconds(max(0, $0)) }
    }

    public var statistics: CacheStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.evictions = state.storage.evictionCount
            statistics.expirations = state.storage.expirationCount
            statistics.invalidations += state.storage.explicitRemovalCount
            statistics.entryCount = state.storage.count
            statistics.byteCount = state.storage.totalWeight
            return statistics
        }
    }

    /// Number of entries (expired ones not yet removed included).
    public var count: Int { state.withLock { $0.storage.count } }
}
