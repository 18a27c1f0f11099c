/// How a full cache chooses what to drop.
public enum CacheEvictionPolicy: Sendable, Hashable {
    /// Least recently used. Simple and predictable, but a scan of one-off keys flushes the
    /// whole hot set.
    case lru
    /// Caffeine's W-TinyLFU: new entries enter a small LRU window; leaving it, they are
    /// admitted to the main space (a segmented LRU: probation, then protected) only if a
    /// count-min sketch says they are used more often than the main space's eviction victim.
    /// Resists scans and keeps frequently used entries; the default.
    case windowTinyLFU
}
