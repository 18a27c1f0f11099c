import Synchronization

/// One budget of memory for the whole process, which the requests whose work grows with their body (JSON batch
/// uploads: the body and the decoded tree) reserve before they read it: when the budget is spent, a request waits
/// (`wait`), then is answered 503 with `Retry-After`, rather than allocate beyond it (issue 39: 16 uploads at once with a
/// million keys each took the server to 1.45 GB). A request asking more than the whole budget gets the whole budget,
/// alone.
final class MemoryBudget: Sendable {
    let capacity: Int
    let wait: Duration
    private let used = Mutex(0)

    init(capacity: Int, wait: Duration) {
        self.capacity = max(1, capacity)
        self.wait = wait
    }

    var inUse: Int { used.withLock { $0 } }

    func tryAcquire(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard used + bytes <= capacity else { return false }
            used += bytes
            return true
        }
    }

    func release(_ bytes: Int) { used.withLock { $0 -= bytes } }

    /// Runs `body` holding `bytes` of the budget (at most all of it), waiting up to `wait` for them; else 503.
    func withReservation<T>(_ bytes: Int, _ body: () async throws -> T) async throws -> T {
        let n = min(max(0, bytes), capacity)
        let deadline = ContinuousClock.now + wait
        while !tryAcquire(n) {
            guard ContinuousClock.now < deadline else {
                throw APIError(
                    .serviceUnavailable, .unavailable,
                    "The server is at its memory budget for request bodies; retry shortly",
                    headers: [.retryAfter: "1"])
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        defer { release(n) }
        return try await body()
    }
}
