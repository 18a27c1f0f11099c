import Cache
import Store
import Synchronization

/// Reads the store's change feed before a request is answered (on a store whose feed is polled: SQLite), so that a
/// change another process committed before the request — `pipeline delete-user`, a recompute — drops the user's cached
/// entries (responses and the user lookup) at once, instead of at the `StoreChangeListener`'s next poll (up to about
/// two seconds, during which a deleted user's stats and report were still served). One primary-key read of a one-row
/// table, shared by the requests of `freshness` (5 ms): a request skips the read when one that started less than that
/// before it has finished, so under load the reads stay at most a few hundred a second, and a change committed more
/// than `freshness` before a request is always seen by it. PostgreSQL's feed is pushed (LISTEN/NOTIFY) and needs none.
final class StoreCatchUp: Sendable {
    let feed: any PolledUserChangeFeed
    let bus: CacheEventBus
    let freshness: Duration
    private let position = Mutex<UserChangePosition?>(nil)
    /// When the last finished read started.
    private let lastRead = Mutex<ContinuousClock.Instant?>(nil)

    init(feed: any PolledUserChangeFeed, bus: CacheEventBus, freshness: Duration = .milliseconds(5)) {
        self.feed = feed
        self.bus = bus
        self.freshness = freshness
    }

    /// Publishes what changed since the last read; the first read only notes where the feed stands (what came before
    /// the server started is not in its caches). A failing read publishes nothing (the listener clears the caches when
    /// its own feed fails).
    func catchUp() async {
        let started = ContinuousClock.now
        if let last = lastRead.withLock({ $0 }), started - last < freshness { return }
        let from = position.withLock { $0 }
        guard let (now, changes) = try? await feed.userChanges(after: from) else { return }
        lastRead.withLock { last in
            if last.map({ $0 < started }) ?? true { last = started }
        }
        for change in changes { StoreChangeListener.apply(change, to: bus) }
        position.withLock { current in
            if current == nil || current!.version < now.version || current!.everything < now.everything {
                current = now
            }
        }
    }
}
