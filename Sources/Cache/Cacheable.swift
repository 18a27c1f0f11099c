/// Entries and bytes a cache holds, against its bounds.
public struct CacheSize: Sendable, Hashable {
    public var entries: Int
    public var bytes: Int
    public var maximumEntries: Int
    public var maximumBytes: Int

    public init(entries: Int, bytes: Int, maximumEntries: Int, maximumBytes: Int) {
        self.entries = entries
        self.bytes = bytes
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }
}

/// Havital's `Cacheable` contract: a service that caches can clear its cache, report its
/// size and say whether what it holds has expired; it registers with a `CacheEventBus` so
/// that events invalidate caches together.
public protocol Cacheable: AnyObject, Sendable {
    /// A stable name for logs and reports (no user data).
    var cacheName: String { get }
    /// Removes every entry.
    func clearCache()
    var cacheSize: CacheSize { get }
    /// Removes every entry carrying any of `tags`; returns how many were removed.
    @discardableResult
    func invalidate(tags: [CacheTag]) -> Int
    /// Reacts to an event of the bus. The default removes the entries carrying the event's
    /// tags (all of the user's entries for the built-in events).
    @discardableResult
    func handle(_ event: CacheEvent) -> Int
}

extension Cacheable {
    @discardableResult
    public func handle(_ event: CacheEvent) -> Int {
        invalidate(tags: event.invalidatedTags)
    }
}

/// A `Cacheable` that can tell, key by key, whether an entry has expired.
public protocol KeyedCacheable<Key>: Cacheable {
    associatedtype Key
    /// `true` if `key` has no live entry: never stored, removed, or past its TTL.
    func isExpired(_ key: Key) -> Bool
}
