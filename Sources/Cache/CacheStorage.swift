/// The single-threaded core of `Cache`: entries in slot arrays threaded by intrusive
/// doubly-linked lists, a tag index, expiry and the eviction policy. `Cache` wraps it in a
/// mutex; nothing here locks, sleeps or reads a clock (`now` is passed in).
///
/// Regions: with `.lru` every entry is in `window` and that list is the LRU order. With
/// `.windowTinyLFU`, `window` (about 1% of the entries) → `probation` → `protected`
/// (80% of the main space), as in Caffeine. Lists run from head (most recent) to tail.
///
/// Everything is `@usableFromInline`/`@inlinable` so that clients specialise the generic
/// code for their key and value types: unspecialised, a `get` spent most of its time looking
/// up generic metadata (about 20× slower).
@usableFromInline
struct CacheStorage<Key: CacheKey, Value> {
    @usableFromInline
    enum Region: Int, Sendable {
        case window = 0
        case probation = 1
        case protected = 2
    }

    @usableFromInline
    enum RemovalCause: Sendable {
        case evicted
        case expired
        case explicit
    }

    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var weight: Int
        @usableFromInline var tags: [CacheTag]

        @inlinable
        init(key: Key, value: Value, weight: Int, tags: [CacheTag]) {
            self.key = key
            self.value = value
            self.weight = weight
            self.tags = tags
        }
    }

    @usableFromInline
    struct List {
        @usableFromInline var head = -1
        @usableFromInline var tail = -1
        @usableFromInline var count = 0

        @inlinable
        init() {}
    }

    @usableFromInline let policy: CacheEvictionPolicy
    @usableFromInline let maximumEntries: Int
    @usableFromInline let maximumWeight: Int
    @usableFromInline let windowMaximum: Int
    @usableFromInline let protectedMaximum: Int

    @usableFromInline var entries: [Entry?] = []
    /// Per slot, kept apart from `entries` so that the hot paths read plain integers.
    @usableFromInline var expiries: [Int64] = []
    @usableFromInline var hashes: [Int] = []
    @usableFromInline var previous: [Int] = []
    @usableFromInline var next: [Int] = []
    @usableFromInline var regions: [Region] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var index: [Key: Int] = [:]
    @usableFromInline var tagIndex: [CacheTag: Set<Int>] = [:]
    @usableFromInline var lists = [List(), List(), List()]
    @usableFromInline var sketch: FrequencySketch?
    @usableFromInline var randomState: UInt64 = 0x9E37_79B9_7F4A_7C15

    @usableFromInline var totalWeight = 0
    @usableFromInline var evictionCount = 0
    @usableFromInline var expirationCount = 0
    @usableFromInline var explicitRemovalCount = 0

    @inlinable
    var count: Int { index.count }

    @inlinable
    init(policy: CacheEvictionPolicy, maximumEntries: Int, maximumWeight: Int, windowFraction: Double = 0.01) {
        precondition(maximumEntries > 0 && maximumWeight > 0, "cache bounds must be positive")
        self.policy = policy
        self.maximumEntries = maximumEntries
        self.maximumWeight = maximumWeight
        switch policy {
        case .lru:
            windowMaximum = maximumEntries
            protectedMaximum = 0
        case .windowTinyLFU:
            windowMaximum = max(1, Int(Double(maximumEntries) * windowFraction))
            protectedMaximum = Int(Double(max(0, maximumEntries - windowMaximum)) * 0.8)
            sketch = FrequencySketch(capacity: maximumEntries)
        }
    }

    // MARK: - Reading

    /// The live value of `key`, recording the access; an expired entry is removed.
    @inlinable
    mutating func get(_ key: Key, now: Int64) -> Value? {
        guard let slot = index[key] else { return nil }
        if expiries[slot] <= now {
            remove(slot: slot, cause: .expired)
            return nil
        }
        recordAccess(slot)
        return entries[slot]!.value
    }

    /// The remaining time to live of `key`'s entry in nanoseconds, without recording an access;
    /// `nil` if absent, ≤ 0 if expired but not yet removed.
    @inlinable
    func remainingNanoseconds(_ key: Key, now: Int64) -> Int64? {
        guard let slot = index[key] else { return nil }
        return expiries[slot].addingSaturated(-now)
    }

    // MARK: - Writing

    /// Stores or replaces `key`, then evicts down to the bounds. An entry heavier than the
    /// whole byte bound is not stored (and counts as evicted).
    @inlinable
    mutating func set(_ key: Key, value: Value, weight: Int, expiresAt: Int64, now: Int64) {
        if weight > maximumWeight {
            if let slot = index[key] { remove(slot: slot, cause: .explicit) }
            evictionCount += 1
            return
        }
        if let slot = index[key] {
            totalWeight += weight - entries[slot]!.weight
            entries[slot]!.value = value
            entries[slot]!.weight = weight
            expiries[slot] = expiresAt
            recordAccess(slot)
        } else {
            let hash = key.hashValue
            var tags = key.cacheTags
            if tags.count > 1 { tags = Array(Set(tags)) }
            let slot = allocate(
                Entry(key: key, value: value, weight: weight, tags: tags), expiresAt: expiresAt, hash: hash)
            index[key] = slot
            for tag in tags {
                tagIndex[tag, default: []].insert(slot)
            }
            totalWeight += weight
            pushFront(slot, .window)
            sketch?.increment(hash)
        }
        evict(now: now)
    }

    @discardableResult
    @inlinable
    mutating func remove(_ key: Key) -> Bool {
        guard let slot = index[key] else { return false }
        remove(slot: slot, cause: .explicit)
        return true
    }

    /// Removes every entry carrying `tag`: O(entries with that tag).
    @inlinable
    mutating func invalidate(_ tag: CacheTag) -> Int {
        guard let slots = tagIndex[tag] else { return 0 }
        for slot in slots {
            remove(slot: slot, cause: .explicit)
        }
        return slots.count
    }

    @inlinable
    mutating func removeAll() -> Int {
        let removed = count
        explicitRemovalCount += removed
        entries.removeAll()
        expiries.removeAll()
        hashes.removeAll()
        previous.removeAll()
        next.removeAll()
        regions.removeAll()
        freeSlots.removeAll()
        index.removeAll()
        tagIndex.removeAll()
        lists = [List(), List(), List()]
        totalWeight = 0
        return removed
    }

    /// Removes every expired entry: a full scan, for periodic maintenance. Expired entries are
    /// otherwise removed when read or when they reach the eviction end of a list.
    @inlinable
    mutating func removeExpired(now: Int64) -> Int {
        var removed = 0
        for slot in entries.indices where entries[slot] != nil && expiries[slot] <= now {
            remove(slot: slot, cause: .expired)
            removed += 1
        }
        return removed
    }

    // MARK: - Policy

    @inlinable
    mutating func recordAccess(_ slot: Int) {
        switch policy {
        case .lru:
            moveToFront(slot)
        case .windowTinyLFU:
            sketch!.increment(hashes[slot])
            switch regions[slot] {
            case .window, .protected:
                moveToFront(slot)
            case .probation:
                unlink(slot)
                pushFront(slot, .protected)
                while lists[Region.protected.rawValue].count > protectedMaximum {
                    let demoted = lists[Region.protected.rawValue].tail
                    unlink(demoted)
                    pushFront(demoted, .probation)
                }
            }
        }
    }

    @inlinable
    var isOverBounds: Bool { count > maximumEntries || totalWeight > maximumWeight }

    @inlinable
    mutating func evict(now: Int64) {
        switch policy {
        case .lru:
            while isOverBounds {
                let victim = lists[Region.window.rawValue].tail
                remove(slot: victim, cause: expiries[victim] <= now ? .expired : .evicted)
            }
        case .windowTinyLFU:
            while lists[Region.window.rawValue].count > windowMaximum {
                let candidate = lists[Region.window.rawValue].tail
                unlink(candidate)
                admitFromWindow(candidate, now: now)
            }
            // Still over: only the byte bound can be (one heavy entry); drop from the main
            // space's eviction end first, the window last.
            while isOverBounds {
                let victim = mainVictim ?? lists[Region.window.rawValue].tail
                remove(slot: victim, cause: expiries[victim] <= now ? .expired : .evicted)
            }
        }
    }

    @inlinable
    var mainVictim: Int? {
        let probation = lists[Region.probation.rawValue].tail
        if probation >= 0 { return probation }
        let protected = lists[Region.protected.rawValue].tail
        return protected >= 0 ? protected : nil
    }

    /// `candidate` has left the window (unlinked, still counted). While the cache is over its
    /// bounds it duels the main space's victim: the less frequent of the two is evicted.
    @inlinable
    mutating func admitFromWindow(_ candidate: Int, now: Int64) {
        while isOverBounds {
            guard let victim = mainVictim else {
                remove(slot: candidate, cause: .evicted, linked: false)
                return
            }
            if expiries[victim] <= now {
                remove(slot: victim, cause: .expired)
            } else if admits(candidate: candidate, over: victim) {
                remove(slot: victim, cause: .evicted)
            } else {
                remove(slot: candidate, cause: expiries[candidate] <= now ? .expired : .evicted, linked: false)
                return
            }
        }
        pushFront(candidate, .probation)
    }

    /// TinyLFU admission: the candidate must be seen more often than the victim. A warm
    /// candidate (≥ 6) wins 1 time in 128 even so, as in Caffeine, so that an attacker cannot
    /// pin a victim by inflating its frequency through hash collisions.
    @inlinable
    mutating func admits(candidate: Int, over victim: Int) -> Bool {
        let candidateFrequency = sketch!.frequency(hashes[candidate])
        let victimFrequency = sketch!.frequency(hashes[victim])
        if candidateFrequency > victimFrequency { return true }
        if candidateFrequency >= 6 { return nextRandom() & 127 == 0 }
        return false
    }

    @inlinable
    mutating func nextRandom() -> UInt64 {
        randomState ^= randomState << 13
        randomState ^= randomState >> 7
        randomState ^= randomState << 17
        return randomState
    }

    // MARK: - Slots and lists

    @inlinable
    mutating func allocate(_ entry: Entry, expiresAt: Int64, hash: Int) -> Int {
        if let slot = freeSlots.popLast() {
            entries[slot] = entry
            expiries[slot] = expiresAt
            hashes[slot] = hash
            return slot
        }
        entries.append(entry)
        expiries.append(expiresAt)
        hashes.append(hash)
        previous.append(-1)
        next.append(-1)
        regions.append(.window)
        return entries.count - 1
    }

    @inlinable
    mutating func remove(slot: Int, cause: RemovalCause, linked: Bool = true) {
        if linked { unlink(slot) }
        let entry = entries[slot]!
        index.removeValue(forKey: entry.key)
        for tag in entry.tags {
            tagIndex[tag]?.remove(slot)
            if tagIndex[tag]?.isEmpty == true { tagIndex[tag] = nil }
        }
        totalWeight -= entry.weight
        entries[slot] = nil
        freeSlots.append(slot)
        switch cause {
        case .evicted: evictionCount += 1
        case .expired: expirationCount += 1
        case .explicit: explicitRemovalCount += 1
        }
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let region = regions[slot].rawValue
        let before = previous[slot]
        let after = next[slot]
        if before >= 0 { next[before] = after } else { lists[region].head = after }
        if after >= 0 { previous[after] = before } else { lists[region].tail = before }
        lists[region].count -= 1
    }

    @inlinable
    mutating func pushFront(_ slot: Int, _ region: Region) {
        let head = lists[region.rawValue].head
        previous[slot] = -1
        next[slot] = head
        if head >= 0 { previous[head] = slot } else { lists[region.rawValue].tail = slot }
        lists[region.rawValue].head = slot
        lists[region.rawValue].count += 1
        regions[slot] = region
    }

    @inlinable
    mutating func moveToFront(_ slot: Int) {
        guard lists[regions[slot].rawValue].head != slot else { return }
        let region = regions[slot]
        unlink(slot)
        pushFront(slot, region)
    }

    // MARK: - Inspection (tests)

    /// Keys of one region from most to least recently used.
    @inlinable
    func keys(in region: Region) -> [Key] {
        var keys: [Key] = []
        var slot = lists[region.rawValue].head
        while slot >= 0 {
            keys.append(entries[slot]!.key)
            slot = next[slot]
        }
        return keys
    }

    @inlinable
    func frequency(of key: Key) -> Int { sketch?.frequency(key.hashValue) ?? 0 }

    /// Checks the structure's invariants; returns a description of the first broken one.
    @inlinable
    func invariantViolation() -> String? {
        var seen = 0
        var weight = 0
        for region in [Region.window, .probation, .protected] {
            var slot = lists[region.rawValue].head
            var before = -1
            var length = 0
            while slot >= 0 {
                guard let entry = entries[slot] else { return "free slot \(slot) linked in \(region)" }
                guard regions[slot] == region else { return "slot \(slot) in wrong region" }
                guard previous[slot] == before else { return "broken back link at \(slot)" }
                guard index[entry.key] == slot else { return "index does not point at \(slot)" }
                weight += entry.weight
                before = slot
                slot = next[slot]
                length += 1
                if length > entries.count { return "cycle in \(region)" }
            }
            guard lists[region.rawValue].tail == before else { return "wrong tail in \(region)" }
            guard lists[region.rawValue].count == length else { return "wrong count in \(region)" }
            seen += length
        }
        if seen != index.count { return "lists hold \(seen) entries, index \(index.count)" }
        if weight != totalWeight { return "weight \(weight) ≠ \(totalWeight)" }
        if count > maximumEntries { return "\(count) entries > \(maximumEntries)" }
        if totalWeight > maximumWeight { return "\(totalWeight) bytes > \(maximumWeight)" }
        if policy == .windowTinyLFU && lists[Region.protected.rawValue].count > protectedMaximum {
            return "protected over its share"
        }
        let tagged = tagIndex.values.reduce(0) { $0 + $1.count }
        let expected = index.values.reduce(0) { $0 + entries[$1]!.tags.count }
        if tagged != expected { return "tag index holds \(tagged), entries carry \(expected)" }
        return nil
    }
}
