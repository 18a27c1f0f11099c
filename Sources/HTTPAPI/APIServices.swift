import Cache
import Foundation
import Hummingbird
import Ingest
import Logging
import Store
import Synchronization
import TaskManager

/// What the routes share: the store, the caches on their event bus, the task manager, the rate
/// limiter, metrics and the clocks. One per server; tests make one per test.
public final class APIServices: Sendable {
    public let store: any PipelineStore
    public let configuration: APIConfiguration
    public let taskManager: TaskManager
    /// The bus through which new sessions, recomputations and deletions invalidate a user's
    /// cached responses. Other caching services of the process may register on it too.
    public let eventBus: CacheEventBus
    /// Cached GET bodies (stats, plan, plan weeks), keyed and tagged by user.
    public let responseCache: Cache<UserCacheKey, CachedResponse>
    /// Users looked up by the authentication of every request (so a cached GET touches no database).
    public let userCache: Cache<UserCacheKey, User>
    public let metrics: APIMetrics
    public let rateLimiter: SlidingWindowRateLimiter
    /// Wall-clock time (token expiry, rate limits, timestamps written to the store).
    public let now: @Sendable () -> EpochMillis
    /// The pipeline's services' clock: run time `now`, wall time the system's (pending-recompute marks).
    public var clock: PipelineClock { PipelineClock(now: now) }
    /// Monotonic time of the caches (TTL, `max-age`).
    public let cacheClock: any CacheClock
    public let logger: Logger
    let verifier: TokenVerifier
    /// Reads the store's polled change feed before each authenticated request (nil: the store's feed is pushed or
    /// there is none).
    let storeCatchUp: StoreCatchUp?
    /// Seals the paging and sync cursors to the user they are given to (`OpaqueCursor`).
    let cursors: OpaqueCursor
    let ingestLimits: IngestLimits
    /// Uploads in progress (head to answer), in all and per user (`withUploadShare`).
    let uploadsInFlight = Mutex(UploadsInFlight())
    /// Received uploads being decoded and processed (`withProcessingSlot`, `APIConfiguration.maxUploadsInFlight`).
    let uploadProcessing: WorkGate
    /// The process-wide memory budget of JSON uploads.
    let memoryBudget: MemoryBudget
    /// The batch uploads with large bodies being decoded and processed (`APIConfiguration.largeUploadsProcessing`).
    let largeUploads: WorkGate
    /// Bytes of each user's rejected uploads quarantined in the last minute (`chargeQuarantine`).
    let quarantinedRecently = Mutex<[UserID: [(at: EpochMillis, bytes: Int)]]>([:])
    struct UploadsInFlight: Sendable {
        var total = 0
        var byUser: [UserID: Int] = [:]
    }

    /// How long a looked-up user is trusted before it is read again (bound device changes,
    /// deletions by another process).
    static let userTTL: Duration = .seconds(60)

    public init(
        store: any PipelineStore,
        configuration: APIConfiguration,
        taskManager: TaskManager? = nil,
        eventBus: CacheEventBus = CacheEventBus(),
        metrics: APIMetrics = APIMetrics(),
        now: @escaping @Sendable () -> EpochMillis = { Date().epochMillis },
        cacheClock: any CacheClock = SystemCacheClock(),
        logger: Logger = Logger(label: "pipeline.api")
    ) {
        self.store = store
        self.configuration = configuration
        self.taskManager =
            taskManager
            ?? TaskManager(
                configuration: .init(subjectLogging: .redacted), logger: Logger(label: "pipeline.api.tasks"))
        self.eventBus = eventBus
        self.metrics = metrics
        self.now = now
        self.cacheClock = cacheClock
        self.logger = logger
        self.responseCache = Cache(
            configuration: .init(
                name: "api.responses", maximumEntries: configuration.cacheMaximumEntries,
                maximumBytes: configuration.cacheMaximumBytes, defaultTTL: configuration.cacheTTL),
            clock: cacheClock, weigher: CachedResponse.weight, logger: logger)
        self.userCache = Cache(
            configuration: .init(
                name: "api.users", maximumEntries: configuration.cacheMaximumEntries,
                defaultTTL: min(Self.userTTL, configuration.cacheTTL)),
            clock: cacheClock, weigher: { key, user in 256 + key.user.rawValue.utf8.count + user.timeZone.utf8.count },
            logger: logger)
        self.rateLimiter = SlidingWindowRateLimiter(
            limits: [
                .upload: configuration.uploadRateLimit, .recompute: configuration.recomputeRateLimit,
                .statsReport: configuration.statsReportRateLimit, .historyRead: configuration.historyReadRateLimit,
            ], now: now)
        self.verifier = TokenVerifier(
            secret: configuration.jwtSecret, leeway: configuration.tokenLeeway,
            policy: configuration.tokenPolicy, now: now)
        self.cursors = OpaqueCursor(secret: configuration.jwtSecret)
        self.memoryBudget = MemoryBudget(
            capacity: configuration.jsonMemoryBudgetBytes, wait: configuration.memoryBudgetWait)
        self.largeUploads = WorkGate(permits: configuration.largeUploadsProcessing)
        self.uploadProcessing = WorkGate(permits: configuration.maxUploadsInFlight)
        self.storeCatchUp = store.polledChangeFeed.map { StoreCatchUp(feed: $0, bus: eventBus) }
        var limits = IngestLimits()
        limits.maxBatchBytes = configuration.maxBodyBytes
        self.ingestLimits = limits
        eventBus.register(responseCache)
        eventBus.register(userCache)
    }

    /// The stored user, through the user cache; nil if there is none.
    func user(_ id: UserID) async throws -> User? {
        let key = UserCacheKey(user: CacheUserID(id.rawValue), resource: "user")
        do {
            return try await userCache.getOrLoad(key) { [store] in
                guard let user = try await store.user(id) else { throw UnknownUser() }
                return user
            }
        } catch is UnknownUser {
            return nil
        }
    }

    struct UnknownUser: Error {}

    /// Invalidates the user's cached responses everywhere they are cached (every cache on the bus).
    func publish(_ event: CacheEvent) {
        eventBus.publish(event)
    }

    /// Counts the request against the user's window, or throws 429 with `Retry-After`.
    func checkRateLimit(_ user: UserID, _ action: RateLimitedAction) throws {
        switch rateLimiter.acquire(user: user, action: action) {
        case .allowed:
            return
        case .limited(let retryAfter):
            metrics.count("rate_limited", "action", action.rawValue)
            throw APIError(
                .tooManyRequests, .rateLimited, "Too many \(action.rawValue) requests; retry after \(retryAfter) s",
                headers: [.retryAfter: String(retryAfter)])
        }
    }

    /// `GET /metrics`: the configured bearer token (compared in constant time), or, without one, only on a loopback
    /// listener; 404 otherwise, as if there were no such route (nothing to probe).
    func authorizeMetrics(_ request: Request) throws {
        guard let expected = configuration.metricsToken else {
            guard configuration.listensOnLoopback else { throw APIError.notFound }
            return
        }
        let given =
            request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<min(a.count, b.count) { difference |= a[i] ^ b[i] }
        guard difference == 0 else { throw APIError.unauthorized(.missingToken, "/metrics needs the metrics token") }
    }

    /// Runs `body` as one of the user's uploads in progress (from its head to its answer), or throws 429 when the user
    /// already has `maxUploadsInFlightPerUser` of them: parallel uploads from one token cannot stack up. This is the
    /// only slot an upload holds while its body arrives: a client that sends its body slowly holds its own share and
    /// the bytes it has sent (`MemoryBudget.Lease`), nothing of anyone else's (a load test: 8 accounts sending one byte
    /// every 5 s once took every slot of the server). The server-wide limit is on processing (`withProcessingSlot`).
    func withUploadShare<T>(_ user: UserID, _ body: () async throws -> T) async throws -> T {
        let limit = configuration.maxUploadsInFlightPerUser
        let granted = uploadsInFlight.withLock { state -> Bool in
            let held = state.byUser[user, default: 0]
            guard held < limit else { return false }
            state.total += 1
            state.byUser[user, default: 0] += 1
            return true
        }
        guard granted else {
            metrics.count("rate_limited", "action", "upload_in_flight")
            throw APIError(
                .tooManyRequests, .rateLimited, "Too many uploads in progress; retry when one has finished",
                headers: [.retryAfter: "1"])
        }
        defer {
            uploadsInFlight.withLock { state in
                state.total -= 1
                state.byUser[user, default: 1] -= 1
                if state.byUser[user] == 0 { state.byUser[user] = nil }
            }
        }
        return try await body()
    }

    /// Runs `body` (decoding and processing a received upload) in one of the server's `maxUploadsInFlight` processing
    /// slots, waiting for one in arrival order up to `uploadSlotWait`; then 429 with `Retry-After`. Processing takes
    /// bounded time once the body is here, so a full server makes an upload wait briefly, not fail at once.
    func withProcessingSlot<T>(_ body: () async throws -> T) async throws -> T {
        guard await uploadProcessing.acquire(within: configuration.uploadSlotWait) else {
            metrics.count("rate_limited", "action", "upload_processing")
            throw APIError(
                .tooManyRequests, .rateLimited, "The server is processing as many uploads as it may; retry shortly",
                headers: [.retryAfter: "1"])
        }
        defer { uploadProcessing.release() }
        return try await body()
    }

    /// Throws 413 `storage_quota_exceeded` when the user's stored sessions, or the bytes of their recordings and of
    /// their quarantined payloads together, are at or over the quota (`APIConfiguration.maxSessionsPerUser`,
    /// `maxRecordingBytesPerUser`); then 429 `quarantine_rate_exceeded` when their rejected uploads put more than
    /// `maxQuarantineBytesPerMinute` into the quarantine in the last minute. Both before the body is read.
    func checkStorageQuota(_ user: UserID) async throws {
        let usage = try await store.storageUsage(user: user)
        let (sessions, bytes) = (configuration.maxSessionsPerUser, configuration.maxRecordingBytesPerUser)
        let stored = usage.recordingBytes + usage.quarantineBytes
        if usage.sessions >= sessions || stored >= bytes {
            metrics.count("rate_limited", "action", "storage_quota")
            throw APIError(
                .contentTooLarge, "storage_quota_exceeded",
                """
                Storage quota reached: \(usage.sessions) of \(sessions) sessions, \(stored) of \(bytes) bytes stored \
                (\(usage.quarantineBytes) of them rejected inputs kept in quarantine); no more uploads are accepted \
                until data is deleted
                """)
        }
        let window: EpochMillis = 60_000
        let at = now()
        let recent = quarantinedRecently.withLock { state -> (bytes: Int, oldest: EpochMillis?) in
            state[user]?.removeAll { $0.at <= at - window }
            if state[user]?.isEmpty == true { state[user] = nil }
            let entries = state[user] ?? []
            return (entries.reduce(0) { $0 + $1.bytes }, entries.first?.at)
        }
        if recent.bytes >= configuration.maxQuarantineBytesPerMinute {
            metrics.count("rate_limited", "action", "quarantine_rate")
            let retry = max(1, ((recent.oldest ?? at) + window - at + 999) / 1000)
            throw APIError(
                .tooManyRequests, "quarantine_rate_exceeded",
                """
                \(recent.bytes) bytes of this account's rejected uploads went to quarantine in the last minute (at most \
                \(configuration.maxQuarantineBytesPerMinute)); retry after \(retry) s
                """, headers: [.retryAfter: String(retry)])
        }
    }

    /// Counts `bytes` of the user's rejected input kept in quarantine now (`checkStorageQuota`'s per-minute cap).
    func chargeQuarantine(_ user: UserID, bytes: Int) {
        guard bytes > 0 else { return }
        let at = now()
        quarantinedRecently.withLock { $0[user, default: []].append((at: at, bytes: bytes)) }
    }

    /// The task id of a user's recomputation: one at a time per user, joined by every caller.
    static func recomputeTask(_ user: UserID) -> TaskID { TaskID(.recompute, subject: user.rawValue) }
}
