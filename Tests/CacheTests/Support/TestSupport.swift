import Synchronization
@testable import Cache

/// A one-shot gate: `wait()` suspends until `open()`; after that it returns at once.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    var waitingCount: Int { state.withLock { $0.waiters.count } }
}

final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    @discardableResult
    func increment() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Waits, yielding, until `condition` holds (bounded, so a broken test ends).
func eventually(_ rounds: Int = 2_000_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<rounds {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// A key without tags, for tests of the eviction machinery.
struct Key: CacheKey, CustomStringConvertible, ExpressibleByIntegerLiteral {
    let id: Int
    init(_ id: Int) { self.id = id }
    init(integerLiteral value: Int) { self.id = value }
    var description: String { "\(id)" }
}

/// Deterministic generator (SplitMix64) so that workloads repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
