import Synchronization

/// One budget of memory for the whole process, charged by the requests whose memory grows with their body (uploads):
/// when the budget is spent, a request waits (`wait`), then is answered 503 with `Retry-After`, rather than allocate
/// beyond it (a load test: 16 uploads at once with a million keys each took the server to 1.45 GB). An upload charges
/// its body as the bytes arrive (`Lease`, `Request.collectBody(limit:charging:)`), so a body sent slowly holds what it
/// has sent, not what it declares; a JSON upload then charges its size × `APIConfiguration.jsonDecodeFactor` before it
/// is decoded. A request asking more than the whole budget gets the whole budget, alone.
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

    /// Takes `bytes` of the budget, waiting up to `wait` for them; else 503.
    func acquire(_ bytes: Int) async throws {
        let deadline = ContinuousClock.now + wait
        while !tryAcquire(bytes) {
            guard ContinuousClock.now < deadline else {
                throw APIError(
                    .serviceUnavailable, .unavailable,
                    "The server is at its memory budget for request bodies; retry shortly",
                    headers: [.retryAfter: "1"])
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Runs `body` with a lease of the budget that starts empty and grows as `body` asks; all of it given back at the
    /// end.
    func withLease<T>(_ body: (Lease) async throws -> T) async throws -> T {
        let lease = Lease(self)
        defer { release(lease.held) }
        return try await body(lease)
    }

    /// A part of the budget held by one request; it only grows (`grow(to:)`), and is given back whole by `withLease`.
    final class Lease: Sendable {
        let budget: MemoryBudget
        private let bytes = Mutex(0)
        init(_ budget: MemoryBudget) { self.budget = budget }

        var held: Int { bytes.withLock { $0 } }

        /// Holds at least `total` bytes (at most the whole budget): takes the difference, waiting up to the budget's
        /// `wait`; else 503.
        func grow(to total: Int) async throws {
            let wanted = min(max(0, total), budget.capacity) - held
            guard wanted > 0 else { return }
            try await budget.acquire(wanted)
            bytes.withLock { $0 += wanted }
        }
    }
}
