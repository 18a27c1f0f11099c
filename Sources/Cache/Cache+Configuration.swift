extension Cache {
    public struct Configuration: Sendable {
        /// The cache's name in logs, reports and the event bus.
        public var name: String
        /// Bound on the number of entries.
        public var maximumEntries: Int
        /// Bound on the summed weight of the entries, as the cache's weigher measures it (bytes).
        public var maximumBytes: Int
        /// TTL of entries stored without one of their own.
        public var defaultTTL: Duration
        public var evictionPolicy: CacheEvictionPolicy
        /// W-TinyLFU's window share of `maximumEntries` (Caffeine starts at 1%).
        public var windowFraction: Double

        public init(
            name: String,
            maximumEntries: Int,
            maximumBytes: Int = .max,
            defaultTTL: Duration = .seconds(30 * 60),
            evictionPolicy: CacheEvictionPolicy = .windowTinyLFU,
            windowFraction: Double = 0.01
        ) {
            self.name = name
            self.maximumEntries = maximumEntries
            self.maximumBytes = maximumBytes
            self.defaultTTL = defaultTTL
            self.evictionPolicy = evictionPolicy
            self.windowFraction = windowFraction
        }
    }
}
