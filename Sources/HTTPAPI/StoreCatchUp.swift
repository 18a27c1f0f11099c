import Cache
import Store
import Synchronization

/// Reads the store's change feed before a request is answered (on a store whose feed is polled: SQLite), so that a
/// change another process committed before the request — `pipeline delete-user`, a recompute — drops the user's cached
/// entries (responses and the user lookup) at once, instead of at the `StoreChangeListener`'s next poll (up to about
/// two seconds, during which a deleted user's stats and report were still served). One primary-key read of a one-row
/// table per request; PostgreSQL's feed is pushed (LISTEN/NOTIFY) and needs none.
final class StoreCatchUp: Sendable {
    let feed: any PolledUserChangeFeed
    let bus: CacheEventBus
    private let position = Mutex<UserChangePosition?>(nil)

    init(feed: any PolledUserChangeFeed, bus: CacheEventBus) {
        self.feed = feed
        self.bus = bus
    }

    /// Publishes what changed since the last read; the first read only notes where the feed stands (what came before
    /// the server started is not in its caches). A failing read publishes nothing (the listener clears the caches when
    /// its own feed fails).
    func catchUp() async {
        let from = position.withLock { $0 }
        guard let (now, changes) = try? await feed.userChanges(after: from) else { return }
        for change in changes { StoreChangeListener.apply(change, to: bus) }
        position.withLock { current in
            if current == nil || current!.version < now.version || current!.everything < now.everything {
                current = now
            }
        }
    }
}
