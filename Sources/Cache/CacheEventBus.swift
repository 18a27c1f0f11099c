import Logging
import Synchronization

/// Where caching services register so that one event invalidates a user's entries in all of
/// them (Havital's `CacheEventBus`). `publish` is synchronous: when it returns, no registered
/// cache holds an entry carrying the event's tags, and loads already running for such keys
/// will not store their results.
///
/// The bus holds its caches weakly: a cache that is released drops out by itself.
public final class CacheEventBus: Sendable {
    /// Returned by `register`, to `unregister` later.
    public struct Registration: Hashable, Sendable {
        let id: ObjectIdentifier
    }

    /// What one `publish` removed, per cache name.
    public struct InvalidationReport: Sendable, Hashable {
        public let event: CacheEvent
        public let removedByCache: [String: Int]

        public var totalRemoved: Int { removedByCache.values.reduce(0, +) }
    }

    private struct WeakCacheable: Sendable {
        weak let cacheable: (any Cacheable)?
    }

    private let registered = Mutex<[ObjectIdentifier: WeakCacheable]>([:])
    private let logger: Logger

    public init(logger: Logger = Logger(label: "CacheEventBus")) {
        self.logger = logger
    }

    @discardableResult
    public func register(_ cacheable: any Cacheable) -> Registration {
        let id = ObjectIdentifier(cacheable)
        registered.withLock { $0[id] = WeakCacheable(cacheable: cacheable) }
        logger.debug("cache registered", metadata: ["cache": "\(cacheable.cacheName)"])
        return Registration(id: id)
    }

    public func unregister(_ registration: Registration) {
        _ = registered.withLock { $0.removeValue(forKey: registration.id) }
    }

    /// The live registered caches.
    public var caches: [any Cacheable] {
        registered.withLock { registered in
            registered = registered.filter { $0.value.cacheable != nil }
            return registered.values.compactMap(\.cacheable)
        }
    }

    /// Delivers `event` to every registered cache, synchronously.
    @discardableResult
    public func publish(_ event: CacheEvent) -> InvalidationReport {
        var removed: [String: Int] = [:]
        for cache in caches {
            removed[cache.cacheName, default: 0] += cache.handle(event)
        }
        let report = InvalidationReport(event: event, removedByCache: removed)
        logger.debug(
            "cache event published",
            metadata: ["event": "\(event.name)", "caches": "\(removed.count)", "removed": "\(report.totalRemoved)"])
        return report
    }

    /// Clears every registered cache.
    public func clearAll() {
        for cache in caches {
            cache.clearCache()
        }
    }
}
