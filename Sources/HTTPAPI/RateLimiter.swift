import Store
import Synchronization

/// What a rate limit applies to.
public enum RateLimitedAction: String, Sendable, Hashable {
    case upload
    case recompute
    /// `PATCH /v1/me/stats` (a write).
    case statsReport = "stats_report"
    /// `GET /v1/me/sessions` and `GET /v1/me/report` (reads of a user's whole history).
    case historyRead = "history_read"
}

/// Per-user sliding-window limiter (a sliding log: the times of the accepted requests of the
/// last window). Exact: never more than `requests` in any window of `window`, with no burst at
/// window edges as a fixed window would allow. Memory: at most `requests` timestamps per active
/// user and action; idle keys are swept.
public final class SlidingWindowRateLimiter: Sendable {
    public enum Decision: Sendable, Equatable {
        case allowed(remaining: Int)
        /// Refused; the oldest request of the window leaves it after this many seconds (≥ 1).
        case limited(retryAfterSeconds: Int)
    }

    struct Key: Hashable {
        var user: UserID
        var action: RateLimitedAction
    }

    struct State {
        var logs: [Key: [EpochMillis]] = [:]
        var callsSinceSweep = 0
    }

    private let limits: [RateLimitedAction: RateLimit]
    private let now: @Sendable () -> EpochMillis
    private let state = Mutex(State())

    public init(limits: [RateLimitedAction: RateLimit], now: @escaping @Sendable () -> EpochMillis) {
        self.limits = limits
        self.now = now
    }

    /// Records the request and allows it, or refuses it without recording.
    public func acquire(user: UserID, action: RateLimitedAction) -> Decision {
        guard let limit = limits[action] else { return .allowed(remaining: .max) }
        let windowMillis = Self.millis(limit.window)
        let now = now()
        let key = Key(user: user, action: action)
        return state.withLock { state in
            state.callsSinceSweep += 1
            if state.callsSinceSweep >= 4096 {
                state.callsSinceSweep = 0
                state.logs = state.logs.filter { _, log in log.last.map { now - $0 < windowMillis } ?? false }
            }
            var log = state.logs[key] ?? []
            if let stale = log.firstIndex(where: { now - $0 < windowMillis }) {
                log.removeFirst(stale)
            } else {
                log.removeAll()
            }
            guard log.count < limit.requests else {
                let waitMillis = log[log.count - limit.requests] + windowMillis - now
                state.logs[key] = log
                return .limited(retryAfterSeconds: max(1, Int((waitMillis + 999) / 1000)))
            }
            log.append(now)
            state.logs[key] = log
            return .allowed(remaining: limit.requests - log.count)
        }
    }

    /// Forgets everything of `user` (after the user's deletion).
    public func forget(user: UserID) {
        state.withLock { state in
            for action in [RateLimitedAction.upload, .recompute] { state.logs[Key(user: user, action: action)] = nil }
        }
    }

    static func millis(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
