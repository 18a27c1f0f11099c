extension TaskManager {
    /// One caller waiting for a flight's result: the starter, a joiner, or the caller of a
    /// skip-mode call that started the work. Resumed exactly once, with the flight's result or
    /// with `CancellationError` if the caller's own task is cancelled first.
    typealias Waiter = UnsafeContinuation<Result<any Sendable, any Error>, Never>

    /// A running operation and the callers awaiting it. A class so that adding the 10,000th
    /// waiter mutates in place instead of copying the waiter table.
    final class Flight {
        let token: UInt64
        let resultType: ObjectIdentifier
        let handle: Task<Void, Never>
        var waiters: [UInt64: Waiter]

        init(
            token: UInt64, resultType: ObjectIdentifier, handle: Task<Void, Never>,
            firstWaiterID: UInt64, firstWaiter: Waiter
        ) {
            self.token = token
            self.resultType = resultType
            self.handle = handle
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
        case started
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

        mutating func arrive(
            id: TaskID, mode: Mode, resultType: ObjectIdentifier, callerIsCancelled: Bool,
            waiterID: UInt64, waiter: Waiter, start: (UInt64) -> Task<Void, Never>
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
            // Started under the lock, so that its handle is recorded before any cancellation
            // or completion can look for it; its first step waits for this lock anyway.
            let handle = start(nextToken)
            flights[id] = Flight(
                token: nextToken, resultType: resultType, handle: handle, firstWaiterID: waiterID,
                firstWaiter: waiter)
            return .started
        }

        /// Removes a finished flight and hands back its waiters.
        mutating func finish(id: TaskID, token: UInt64) -> [UInt64: Waiter] {
            guard let flight = flights[id], flight.token == token else { return [:] }
            flights[id] = nil
            return flight.waiters
        }

        /// Removes one waiter whose task was cancelled; `nil` if it was already resumed (or
        /// never registered, when the cancellation came first).
        mutating func leave(id: TaskID, waiterID: UInt64) -> Waiter? {
            flights[id]?.waiters.removeValue(forKey: waiterID)
        }

        /// The handles of the running flights among `ids`, to cancel.
        func handles(of ids: some Sequence<TaskID>) -> [Task<Void, Never>] {
            ids.compactMap { flights[$0]?.handle }
        }
    }
}
