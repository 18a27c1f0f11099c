import Synchronization

// Helpers shared by the test targets (a library target under Tests/, linked only by tests). No assertions here.

/// SplitMix64 (Steele, Lea, Flood 2014): a small seeded generator, so every run of a test sees the same values.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A one-shot gate: `wait()` suspends until `open()`; after that it returns at once. Holds the work under test
/// until every caller has arrived, without sleeping.
public final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for item in waiters { item.resume() }
    }

    public var waitingCount: Int { state.withLock { $0.waiters.count } }
}

/// A counter bumped from many tasks.
public final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    public init() {}
    @discardableResult
    public func increment() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
    public var count: Int { value.load(ordering: .relaxed) }
}

/// Waits, yielding, until `condition` holds; gives up after many rounds so that a broken test ends instead of
/// hanging. Polls state rather than guessing with sleeps.
public func eventually(_ rounds: Int = 2_000_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<rounds {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Bytes from hex text: "44 00 C4-09" (spaces, dashes and "0x" ignored).
public func hex(_ text: String) -> [UInt8] {
    let clean = Array(text.replacing("0x", with: "").filter(\.isHexDigit))
    precondition(clean.count % 2 == 0, "odd hex digit count in \(text)")
    return stride(from: 0, to: clean.count, by: 2).map { UInt8(String(clean[$0...$0 + 1]), radix: 16)! }
}

/// Element-wise comparison of two series where NaN equals NaN.
public func same(_ a: [Double], _ b: [Double]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
}
