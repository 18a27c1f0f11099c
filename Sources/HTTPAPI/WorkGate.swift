import Synchronization

/// At most `permits` holders at once; the others wait in arrival order, suspended (holding no thread).
///
/// The batch uploads whose bodies are large (`APIConfiguration.largeUploadBytes`) are decoded and processed through
/// one of these with one permit fewer than the machine has cores: decoding a million-key or 30 MB body takes seconds
/// of CPU on a thread of Swift's cooperative pool, which has one thread per core, and two of them at once on a 2-core
/// machine left no thread for any other request (issue 39: a bystander's cached read waited over 30 s,
/// Benchmarks/attack-results.md).
final class WorkGate: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>
    let permits: Int

    init(permits: Int) {
        self.permits = max(1, permits)
        state = Mutex(State(free: max(1, permits)))
    }

    /// Holders now (for tests).
    var inUse: Int { state.withLock { permits - $0.free } }
    /// Waiting now (for tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.free > 0 {
                    s.free -= 1
                    return true
                }
                s.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.free += 1
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding a permit.
    func withPermit<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
