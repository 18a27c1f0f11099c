import Synchronization

/// At most `permits` holders at once; the others wait in arrival order, suspended (holding no thread) — as long as it
/// takes (`acquire()`), or for a bounded time (`acquire(within:)`, which gives up at the deadline or when its task is
/// cancelled).
///
/// Two gates of the API are these:
/// - the batch uploads whose bodies are large (`APIConfiguration.largeUploadBytes`) are decoded and processed through
///   one with one permit fewer than the machine has cores: decoding a million-key or 30 MB body takes seconds of CPU on
///   a thread of Swift's cooperative pool, which has one thread per core, and two of them at once on a 2-core machine
///   left no thread for any other request (a bystander's cached read waited over 30 s,
///   Benchmarks/attack-results.md);
/// - every upload, once its body has been received, is decoded and processed in one of `maxUploadsInFlight` slots,
///   waiting up to `uploadSlotWait` for one (`APIServices.withProcessingSlot`; README, "Configuration").
final class WorkGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var free: Int
        var waiters: [Waiter] = []
        var lastID: UInt64 = 0
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

    /// Waits for a permit as long as it takes (cancellation does not end the wait).
    func acquire() async {
        let id = state.withLock { s -> UInt64 in
            s.lastID &+= 1
            return s.lastID
        }
        _ = await wait(id)
    }

    /// Waits for a permit at most `limit`: true with the permit, false (holding none) when none came in time or the
    /// task was cancelled.
    func acquire(within limit: Duration) async -> Bool {
        let id = state.withLock { s -> UInt64 in
            s.lastID &+= 1
            return s.lastID
        }
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            abandon(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await wait(id)
        } onCancel: {
            abandon(id)
        }
    }

    /// A permit now, or a place at the end of the queue until `release` hands one over (true) or `abandon` takes the
    /// place away (false). Whoever removes a waiter from the queue, under the lock, is the one that resumes it.
    private func wait(_ id: UInt64) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = state.withLock { s -> Bool in
                if s.free > 0 {
                    s.free -= 1
                    return true
                }
                s.waiters.append(Waiter(id: id, continuation: continuation))
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    private func abandon(_ id: UInt64) {
        let gone = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard let i = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return s.waiters.remove(at: i).continuation
        }
        gone?.resume(returning: false)
    }

    func release() {
        let next = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            if s.waiters.isEmpty {
                s.free += 1
                return nil
            }
            return s.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// Runs `body` holding a permit.
    func withPermit<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
