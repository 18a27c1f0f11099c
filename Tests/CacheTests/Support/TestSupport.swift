import Synchronization
@_exported import TestKit

@testable import Cache

/// A key without tags, for tests of the eviction machinery.
struct Key: CacheKey, CustomStringConvertible, ExpressibleByIntegerLiteral {
    let id: Int
    init(_ id: Int) { self.id = id }
    init(integerLiteral value: Int) { self.id = value }
    var description: String { "\(id)" }
}

/// Deterministic generator (SplitMix64) so that workloads repeat exactly.
typealias SeededGenerator = SplitMix64

struct LoadFailure: Error, Equatable {
    let code: Int
}

extension Cache {
    func keys(in region: CacheStorage<Key, Value>.Region) -> [Key] {
        state.withLock { $0.storage.keys(in: region) }
    }

    func invariantViolation() -> String? {
        state.withLock { $0.storage.invariantViolation() }
    }

    func loadWaiterCount(_ key: Key) -> Int {
        state.withLock { $0.loads[key]?.waiters.count ?? 0 }
    }

    func frequency(of key: Key) -> Int {
        state.withLock { $0.storage.frequency(of: key) }
    }
}
