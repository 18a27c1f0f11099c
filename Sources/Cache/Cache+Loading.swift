import Synchronization

extension Cache {
    typealias Waiter = UnsafeContinuation<Result<Value, any Error>, Never>

    /// A load in progress and the callers awaiting it.
    @usableFromInline
    final class Load {
        let token: UInt64
        var waiters: [UInt64: Waiter]
        /// Cleared when the key is invalidated, removed or set while the load runs.
        @usableFromInline var isStorable = true

        init(token: UInt64, waiterID: UInt64, waiter: Waiter) {
            self.token = token
            self.waiters = [waiterID: waiter]
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var storage: CacheStorage<Key, Value>
        @usableFromInline var statistics = CacheStatistics()
        @usableFromInline var loads: [Key: Load] = [:]
        @usableFromInline var nextToken: UInt64 = 0

        @inlinable
        init(storage: CacheStorage<Key, Value>) {
            self.storage = storage
        }
    }

    private enum Arrival {
        case hit(Value)
        case start(token: UInt64)
        case joined
        case callerCancelled
    }

    @usableFromInline
    func load(
        _ key: Key, ttl: Duration, loader: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let waiterID = waiterIDs.wrappingAdd(1, ordering: .relaxed).oldValue
        let now = clock.now.nanosecondsSinceOrigin
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: Waiter) in
                let callerIsCancelled = Task.isCancelled
                let arrival = state.withLock { state -> Arrival in
                    // Looked again under the lock: a load may have stored the value meanwhile.
                    if let value = state.storage.get(key, now: now) {
                        state.statistics.hits += 1
                        return .hit(value)
                    }
                    state.statistics.misses += 1
                    if callerIsCancelled { return .callerCancelled }
                    if let load = state.loads[key] {
                        load.waiters[waiterID] = waiter
                        state.statistics.coalescedLoads += 1
                        return .joined
                    }
                    state.nextToken &+= 1
                    state.loads[key] = Load(token: state.nextToken, waiterID: waiterID, waiter: waiter)
                    return .start(token: state.nextToken)
                }
                switch arrival {
                case .hit(let value): waiter.resume(returning: .success(value))
                case .start(let token): startLoad(key, token: token, ttl: ttl, loader: loader)
                case .joined: break
                case .callerCancelled: waiter.resume(returning: .failure(CancellationError()))
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.loads[key]?.waiters.removeValue(forKey: waiterID) }
            waiter?.resume(returning: .failure(CancellationError()))
        }
        return try result.get()
    }

    private func startLoad(
        _ key: Key, token: UInt64, ttl: Duration, loader: @escaping @Sendable () async throws -> Value
    ) {
        Task {
            let started = clock.now
            let result: Result<Value, any Error>
            do {
                result = .success(try await loader())
            } catch {
                result = .failure(error)
            }
            finishLoad(key, token: token, ttl: ttl, started: started, result: result)
        }
    }

    private func finishLoad(
        _ key: Key, token: UInt64, ttl: Duration, started: CacheInstant, result: Result<Value, any Error>
    ) {
        let finished = clock.now
        let elapsed = started.duration(to: finished)
        let weight = (try? result.get()).map { weigher(key, $0) }
        let waiters = state.withLock { state -> [UInt64: Waiter] in
            guard let load = state.loads[key], load.token == token else { return [:] }
            state.loads[key] = nil
            state.statistics.recordLoad(duration: elapsed, succeeded: weight != nil)
            if load.isStorable, let weight, case .success(let value) = result, ttl > .zero {
                state.storage.set(
                    key, value: value, weight: weight,
                    expiresAt: finished.advanced(by: ttl).nanosecondsSinceOrigin,
                    now: finished.nanosecondsSinceOrigin)
            }
            return load.waiters
        }
        if case .failure(let error) = result {
            logger.debug(
                "cache load failed", metadata: ["cache": "\(configuration.name)", "error": "\(error)"])
        }
        for waiter in waiters.values {
            waiter.resume(returning: result)
        }
    }
}
