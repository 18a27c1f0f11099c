import Cache
import Synchronization

/// A cache clock that moves only when told to, so that tests advance time instead of sleeping.
public final class ManualCacheClock: CacheClock {
    private let instant: Mutex<CacheInstant>

    public init(start: CacheInstant = CacheInstant(nanosecondsSinceOrigin: 0)) {
        instant = Mutex(start)
    }

    public var now: CacheInstant { instant.withLock { $0 } }

    /// Moves the clock on by `duration`, saturating as the cache's own instants do.
    public func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }
}
