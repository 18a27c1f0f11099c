import Synchronization

extension TaskManager {
    /// One caller waiting for a flight's result: the starter, a joiner, or the caller of a
    /// skip-mode call that started the work. Resumed exactly once, with the flight's result or
    /// with `CancellationError` if the caller's own task is cancelled first.
    typealias Waiter = UnsafeContinuation<Result<any Sendable, any Error>, Never>

    /// The handle of a flight's task, behind its own small lock. The task is created after the
    /// registry's lock is released (created under it, the new task's first act — taking that
    /// lock to finish — spun against its creator), so a cancellation can arrive before the
    /// handle: it is remembered and applied on `attach`.
    final class HandleSlot: Sendable {
        private let state = Mutex<(handle: Task<Void, Never>?, cancelRequested: Bool)>((nil, false))

        func attach(_ handle: Task<Void, Never>) {
            let cancelNow = state.withLock { state in
                state.handle = handle
                return state.cancelRequested
            }
            if cancelNow { handle.cancel() }
        }

        func cancel() {
            let handle = state.withLock { state in
                state.cancelRequested = true
                return state.handle
            }
            handle?.cancel()
        }
    }

    /// A running operation and the callers awaiting it. A class so that adding the 10,000th
    /// waiter mutates in place instead of copying the waiter table.
    final class Flight {
        let token: UInt64
        let resultType: ObjectIdentifier
        let slot = HandleSlot()
        var waiters: [UInt64: Waiter]

        init(token: UInt64, resultType: ObjectIdentifier, firstWaiterID: UInt64, firstWaiter: Waiter) {
            self.token = token
            self.resultType = resultType
            self.waiters = [firstWaiterID: firstWaiter]
        }
    }

    enum Mode {
        /// `executeTask` / `run`: if running, do not wait — skip.
        case skipIfRunning
        /// `join`: if running, wait for the running operation's result.
        case joinIfRunning
    }

    /// What a caller must do after arriving, decided under the lock and carried out outside it.
    enum Arrival {
        /// Start the task, then attach its handle to the slot.
        case start(token: UInt64, slot: HandleSlot)
        case joined
        case skipped
        case rejected
        case callerCancelled
        case resultTypeMismatch
    }

    /// The manager's whole mutable state, only ever touched under its mutex. Its methods
    /// decide; the manager performs the side effects (starting tasks, resuming waiters, logging).
    struct Registry {
        var flights: [TaskID: Flight] = [:]
        var isShutDown = false
        var nextToken: UInt64 = 0
        /// `shutdown()` callers waiting for the last flight to finish.
        var drainWaiters: [UnsafeContinuation<Void, Never>] = []

        mutating func arrive(
            id: TaskID, mode: Mode, resultType: ObjectIdentifier, callerIsCancelled: Bool,
            waiterID: UInt64, waiter: Waiter
        ) -> Arrival {
            if callerIsCancelled { return .callerCancelled }
            if isShutDown { return .rejected }
            if let flight = flights[id] {
                switch mode {
                case .skipIfRunning:
                    return .skipped
                case .joinIfRunning:
                    guard flight.resultType == resultType else { return .resultTypeMismatch }
                    flight.waiters[waiterID] = waiter
                    return .joined
                }
            }
            nextToken &+= 1
            let flight = Flight(token: nextToken, resultType: resultType, firstWaiterID: waiterID, firstWaiter: waiter)
            flights[id] = flight
            return .start(token: nextToken, slot: flight.slot)
        }

        /// Removes a finished flight and hands back its waiters, and the shutdown callers to
        /// resume if it was the last.
        mutating func finish(id: TaskID, token: UInt64) -> (
            waiters: [UInt64: Waiter], drained: [UnsafeContinuation<Void, Never>]
        ) {
            guard let flight = flights[id], flight.token == token else { return ([:], []) }
            flights[id] = nil
            var drained: [UnsafeContinuation<Void, Never>] = []
            if flights.isEmpty && !drainWaiters.isEmpty {
                swap(&drained, &drainWaiters)
            }
            return (flight.waiters, drained)
        }

        /// Removes one waiter whose task was cancelled; `nil` if it was already resumed (or
        /// never registered, when the cancellation came first).
        mutating func leave(id: TaskID, waiterID: UInt64) -> Waiter? {
            flights[id]?.waiters.removeValue(forKey: waiterID)
        }

        var slots: [HandleSlot] { flights.values.map(\.slot) }
    }
}
