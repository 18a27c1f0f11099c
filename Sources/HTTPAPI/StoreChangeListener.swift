import Cache
import Logging
import ServiceLifecycle
import Store

/// Invalidates this server's cached entries of users whose data another process changed (a nightly worker, `pipeline
/// recompute`, another API node's upload or deletion): it follows the store's change feed (LISTEN/NOTIFY on
/// PostgreSQL, a polled change table on SQLite) and publishes each change on the server's `CacheEventBus`.
///
/// When the feed fails (connection lost), notifications may have been missed: every cache on the bus is cleared, and
/// the listener follows again after `retryDelay`.
public struct StoreChangeListener: Service {
    public static let eventName = "store_changed"

    let feed: any UserChangeFeed
    let bus: CacheEventBus
    let logger: Logger
    let retryDelay: Duration
    let onReady: @Sendable () async -> Void

    public init(
        feed: any UserChangeFeed, bus: CacheEventBus, logger: Logger, retryDelay: Duration = .seconds(1),
        onReady: @escaping @Sendable () async -> Void = {}
    ) {
        self.feed = feed; self.bus = bus; self.logger = logger; self.retryDelay = retryDelay; self.onReady = onReady
    }

    /// The listener for `services`' store, if that store has a change feed.
    public static func forStore(of services: APIServices) -> StoreChangeListener? {
        guard let feed = services.store.changeFeed else { return nil }
        return StoreChangeListener(feed: feed, bus: services.eventBus, logger: services.logger)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await follow()
        }
    }

    /// Follows the feed until cancelled.
    func follow() async {
        let bus = self.bus
        while !Task.isCancelled {
            do {
                try await feed.followUserChanges(onReady: onReady) { change in
                    Self.apply(change, to: bus)
                }
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "store change feed lost; caches cleared, following again", metadata: ["error": "\(error)"])
            }
            if Task.isCancelled { return }
            bus.clearAll()
            try? await Task.sleep(for: retryDelay)
        }
    }

    static func apply(_ change: UserChange, to bus: CacheEventBus) {
        switch change {
        case .user(let user):
            bus.publish(.custom(name: eventName, tags: [.user(CacheUserID(user.rawValue))]))
        case .everything:
            bus.clearAll()
        }
    }
}
