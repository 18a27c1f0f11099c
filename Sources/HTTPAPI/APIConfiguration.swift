import Foundation

/// Everything an operator can set about the HTTP API. Defaults are safe: loopback only, no secret.
///
/// Read from the environment once with `APIConfiguration(environment:)`; every key is documented
/// where it is read.
public struct APIConfiguration: Sendable {
    /// Interface to bind. Loopback by default: put a TLS-terminating proxy in front for the apps.
    public var host: String
    /// TCP port; 0 picks a free one (tests).
    public var port: Int
    /// HS256 key of the access tokens. Never has a default: the server does not start without one.
    public var jwtSecret: JWTSecret
    /// How long cached responses (stats, plan) live, and the `max-age` they carry.
    public var cacheTTL: Duration
    /// Bounds of the response cache.
    public var cacheMaximumEntries: Int
    public var cacheMaximumBytes: Int
    /// Per-user sliding windows of `POST /v1/sessions/batch_upload` and `POST /v1/me/recompute`.
    public var uploadRateLimit: RateLimit
    public var recomputeRateLimit: RateLimit
    /// Per-user sliding windows of `PATCH /v1/me/stats` and of the history reads (`GET /v1/me/sessions`,
    /// `GET /v1/me/report`).
    public var statsReportRateLimit: RateLimit
    public var historyReadRateLimit: RateLimit
    /// Uploads (batches and files) of one user in progress at once, from head to answer; more answer 429 before their
    /// body is read.
    public var maxUploadsInFlightPerUser: Int
    /// Received uploads decoded and processed at once in the whole server; more wait in arrival order up to
    /// `uploadSlotWait`, then answer 429. An upload whose body is still arriving holds no slot of these
    /// (`APIServices.withUploadShare`).
    public var maxUploadsInFlight: Int
    public var uploadSlotWait: Duration
    /// Largest request body accepted (batch uploads carry base64 recordings); larger → 413.
    public var maxBodyBytes: Int
    /// Storage quota of one user: stored sessions, and bytes of their recordings. An upload from a user at or over either
    /// is refused (413 `storage_quota_exceeded`) before its body is read. The check is made as each upload starts, so
    /// the uploads already in flight (`maxUploadsInFlightPerUser`, each at most `maxBodyBytes` and 20 sessions) may
    /// cross the quota by their own size, never more.
    public var maxSessionsPerUser: Int
    public var maxRecordingBytesPerUser: Int64
    /// Bytes of one user's rejected uploads that may go into quarantine in any minute; more answer 429
    /// `quarantine_rate_exceeded` before their body is read (a malformed 1.5 MB batch a second kept 60 MiB a minute).
    public var maxQuarantineBytesPerMinute: Int
    /// The process-wide memory budget of uploads (`MemoryBudget`): each charges its body's bytes as they arrive, and a
    /// JSON upload its body's size times `jsonDecodeFactor` (the decoded tree and the body itself) before decoding it;
    /// when the budget is spent it waits up to `memoryBudgetWait`, then answers 503 with `Retry-After`.
    public var jsonMemoryBudgetBytes: Int
    public var memoryBudgetWait: Duration
    /// A batch upload whose body is larger than `largeUploadBytes` is decoded and processed only while fewer than
    /// `largeUploadsProcessing` others are (`WorkGate`; default one fewer than the cores, at least one), so that a few
    /// big bodies cannot take every thread of the cooperative pool from the other requests.
    public var largeUploadBytes: Int
    public var largeUploadsProcessing: Int
    /// Default and largest `size` of `GET /v1/me/sessions`.
    public var defaultPageSize: Int
    public var maxPageSize: Int
    /// Tokens are accepted this long after their `exp` (clock skew between issuer and server).
    public var tokenLeeway: Duration
    /// What decoding a JSON body of n bytes may take, as a multiple of n, body included (a tree of a million one-byte
    /// keys: about 7×).
    public static let jsonDecodeFactor = 8
    /// `iss`, `aud` and the longest lifetime a token may claim (`TokenVerifier.Policy`).
    public var tokenPolicy: TokenVerifier.Policy
    /// A connection that sends nothing for this long is closed (a slowloris client holding sockets open).
    public var idleTimeout: Duration
    /// A request's head must be complete within this long of the connection's opening (or of the previous response plus
    /// `idleTimeout`), and its body within `bodyTimeout` of its head; else the connection is closed
    /// (`RequestDeadlineHandler`: a client sending one byte now and then defeats the idle timeout, not these).
    public var headTimeout: Duration
    public var bodyTimeout: Duration
    /// Once `bodyRateGrace` has passed since a request's head, its body must keep arriving at `minBodyBytesPerSecond` on
    /// average, else the connection is closed (a slow body holding an upload slot; 0: no check).
    public var minBodyBytesPerSecond: Int
    public var bodyRateGrace: Duration
    /// `GET /metrics` requires `Authorization: Bearer <this>` when set; without it, `/metrics` is served only when the
    /// server listens on a loopback address (the scraper on the same host), and is 404 otherwise.
    public var metricsToken: String?

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        jwtSecret: JWTSecret,
        cacheTTL: Duration = .seconds(30 * 60),
        cacheMaximumEntries: Int = 100_000,
        cacheMaximumBytes: Int = 256 << 20,
        uploadRateLimit: RateLimit = RateLimit(requests: 60, window: .seconds(60)),
        recomputeRateLimit: RateLimit = RateLimit(requests: 6, window: .seconds(60)),
        statsReportRateLimit: RateLimit = RateLimit(requests: 30, window: .seconds(60)),
        historyReadRateLimit: RateLimit = RateLimit(requests: 120, window: .seconds(60)),
        maxUploadsInFlightPerUser: Int = 2,
        maxUploadsInFlight: Int = 16,
        uploadSlotWait: Duration = .seconds(5),
        maxBodyBytes: Int = 32 << 20,
        maxSessionsPerUser: Int = 50_000,
        maxRecordingBytesPerUser: Int64 = 4 << 30,
        maxQuarantineBytesPerMinute: Int = 4 << 20,
        jsonMemoryBudgetBytes: Int = 256 << 20,
        memoryBudgetWait: Duration = .seconds(2),
        largeUploadBytes: Int = 1 << 20,
        largeUploadsProcessing: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
        defaultPageSize: Int = 20,
        maxPageSize: Int = 100,
        tokenLeeway: Duration = .zero,
        tokenPolicy: TokenVerifier.Policy = .init(),
        idleTimeout: Duration = .seconds(30),
        headTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(300),
        minBodyBytesPerSecond: Int = 1024,
        bodyRateGrace: Duration = .seconds(10),
        metricsToken: String? = nil
    ) {
        self.host = host
        self.port = port
        self.jwtSecret = jwtSecret
        self.cacheTTL = cacheTTL
        self.cacheMaximumEntries = cacheMaximumEntries
        self.cacheMaximumBytes = cacheMaximumBytes
        self.uploadRateLimit = uploadRateLimit
        self.recomputeRateLimit = recomputeRateLimit
        self.statsReportRateLimit = statsReportRateLimit
        self.historyReadRateLimit = historyReadRateLimit
        self.maxUploadsInFlightPerUser = maxUploadsInFlightPerUser
        self.maxUploadsInFlight = maxUploadsInFlight
        self.uploadSlotWait = uploadSlotWait
        self.maxBodyBytes = maxBodyBytes
        self.maxSessionsPerUser = maxSessionsPerUser
        self.maxRecordingBytesPerUser = maxRecordingBytesPerUser
        self.maxQuarantineBytesPerMinute = maxQuarantineBytesPerMinute
        self.jsonMemoryBudgetBytes = jsonMemoryBudgetBytes
        self.memoryBudgetWait = memoryBudgetWait
        self.largeUploadBytes = largeUploadBytes
        self.largeUploadsProcessing = largeUploadsProcessing
        self.defaultPageSize = defaultPageSize
        self.maxPageSize = maxPageSize
        self.tokenLeeway = tokenLeeway
        self.tokenPolicy = tokenPolicy
        self.idleTimeout = idleTimeout
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.minBodyBytesPerSecond = minBodyBytesPerSecond
        self.bodyRateGrace = bodyRateGrace
        self.metricsToken = metricsToken
    }

    /// Reads the configuration from environment variables, over the defaults:
    ///
    /// | variable | meaning |
    /// |---|---|
    /// | `PIPELINE_JWT_SECRET` | **required**, HS256 key, at least 32 bytes (UTF-8) |
    /// | `PIPELINE_API_HOST` / `PIPELINE_API_PORT` | bind address (127.0.0.1:8080) |
    /// | `PIPELINE_API_CACHE_TTL_S` | response cache TTL in seconds (1800) |
    /// | `PIPELINE_API_UPLOADS_PER_MINUTE` | batch uploads per user per 60 s (60) |
    /// | `PIPELINE_API_RECOMPUTES_PER_MINUTE` | recomputations per user per 60 s (6) |
    /// | `PIPELINE_API_STATS_REPORTS_PER_MINUTE` | `PATCH /v1/me/stats` per user per 60 s (30) |
    /// | `PIPELINE_API_HISTORY_READS_PER_MINUTE` | `GET /v1/me/sessions` and `/v1/me/report` per user per 60 s (120) |
    /// | `PIPELINE_API_UPLOADS_IN_FLIGHT_PER_USER`, `PIPELINE_API_UPLOADS_IN_FLIGHT` | uploads at once per user (2), in all (16) |
    /// | `PIPELINE_API_MAX_BODY_BYTES` | largest request body (33554432) |
    /// | `PIPELINE_API_MAX_SESSIONS_PER_USER`, `PIPELINE_API_MAX_RECORDING_BYTES_PER_USER` | storage quota of one user: sessions (50000), bytes of recordings (4294967296) |
    /// | `PIPELINE_API_MAX_QUARANTINE_BYTES_PER_MINUTE` | one user's rejected bytes kept per minute (4194304) |
    /// | `PIPELINE_API_JSON_MEMORY_BUDGET_BYTES` | memory all JSON uploads together may reserve (268435456) |
    /// | `PIPELINE_API_LARGE_UPLOAD_BYTES`, `PIPELINE_API_LARGE_UPLOADS_PROCESSING` | a body over this size (1048576) is processed only while fewer than this many others are (cores − 1, at least 1) |
    /// | `PIPELINE_API_MAX_PAGE_SIZE` | largest sessions page (100) |
    /// | `PIPELINE_API_TOKEN_LEEWAY_S` | seconds a token is accepted after `exp` (0) |
    /// | `PIPELINE_API_TOKEN_ISSUER`, `PIPELINE_API_TOKEN_AUDIENCE` | required `iss`, and a value `aud` must contain (unchecked when unset) |
    /// | `PIPELINE_API_TOKEN_MAX_LIFETIME_S` | longest `exp − iat`, and farthest `exp` ahead of now (86400) |
    /// | `PIPELINE_API_IDLE_TIMEOUT_S` | seconds a connection may send nothing before it is closed (30) |
    /// | `PIPELINE_API_HEAD_TIMEOUT_S`, `PIPELINE_API_BODY_TIMEOUT_S` | seconds to send a request's head (10), and its body after the head (300) |
    /// | `PIPELINE_API_MIN_BODY_BYTES_PER_SECOND`, `PIPELINE_API_BODY_RATE_GRACE_S` | slowest body average after the grace (1024), the grace (10) |
    /// | `PIPELINE_METRICS_TOKEN` | bearer token of `GET /metrics` (unset: served on a loopback listener only) |
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let secret = environment["PIPELINE_JWT_SECRET"], !secret.isEmpty else {
            throw ConfigurationError("PIPELINE_JWT_SECRET is not set (an HS256 key of at least 32 bytes)")
        }
        self.init(jwtSecret: try JWTSecret(string: secret))
        func integer(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = environment[key] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ConfigurationError("\(key) must be an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        if let host = environment["PIPELINE_API_HOST"], !host.isEmpty { self.host = host }
        if let port = try integer("PIPELINE_API_PORT", 0...65535) { self.port = port }
        if let ttl = try integer("PIPELINE_API_CACHE_TTL_S", 0...86_400) { cacheTTL = .seconds(ttl) }
        if let n = try integer("PIPELINE_API_UPLOADS_PER_MINUTE", 1...1_000_000) {
            uploadRateLimit = RateLimit(requests: n, window: .seconds(60))
        }
        if let n = try integer("PIPELINE_API_RECOMPUTES_PER_MINUTE", 1...1_000_000) {
            recomputeRateLimit = RateLimit(requests: n, window: .seconds(60))
        }
        if let n = try integer("PIPELINE_API_STATS_REPORTS_PER_MINUTE", 1...1_000_000) {
            statsReportRateLimit = RateLimit(requests: n, window: .seconds(60))
        }
        if let n = try integer("PIPELINE_API_HISTORY_READS_PER_MINUTE", 1...1_000_000) {
            historyReadRateLimit = RateLimit(requests: n, window: .seconds(60))
        }
        if let n = try integer("PIPELINE_API_UPLOADS_IN_FLIGHT_PER_USER", 1...1_000) { maxUploadsInFlightPerUser = n }
        if let n = try integer("PIPELINE_API_UPLOADS_IN_FLIGHT", 1...100_000) { maxUploadsInFlight = n }
        if let n = try integer("PIPELINE_API_UPLOAD_SLOT_WAIT_MS", 0...600_000) { uploadSlotWait = .milliseconds(n) }
        if let n = try integer("PIPELINE_API_MAX_SESSIONS_PER_USER", 1...100_000_000) { maxSessionsPerUser = n }
        if let n = try integer("PIPELINE_API_MAX_RECORDING_BYTES_PER_USER", 1...(1 << 50)) {
            maxRecordingBytesPerUser = Int64(n)
        }
        if let n = try integer("PIPELINE_API_MAX_BODY_BYTES", 1024...(1 << 30)) { maxBodyBytes = n }
        if let n = try integer("PIPELINE_API_JSON_MEMORY_BUDGET_BYTES", (1 << 20)...(1 << 40)) {
            jsonMemoryBudgetBytes = n
        }
        if let n = try integer("PIPELINE_API_LARGE_UPLOAD_BYTES", 0...(1 << 40)) { largeUploadBytes = n }
        if let n = try integer("PIPELINE_API_LARGE_UPLOADS_PROCESSING", 1...1_000) { largeUploadsProcessing = n }
        if let n = try integer("PIPELINE_API_MAX_QUARANTINE_BYTES_PER_MINUTE", 1...(1 << 40)) {
            maxQuarantineBytesPerMinute = n
        }
        if let n = try integer("PIPELINE_API_MAX_PAGE_SIZE", 1...10_000) { maxPageSize = n }
        if let n = try integer("PIPELINE_API_TOKEN_LEEWAY_S", 0...3600) { tokenLeeway = .seconds(n) }
        if let issuer = environment["PIPELINE_API_TOKEN_ISSUER"], !issuer.isEmpty { tokenPolicy.issuer = issuer }
        if let audience = environment["PIPELINE_API_TOKEN_AUDIENCE"], !audience.isEmpty {
            tokenPolicy.audience = audience
        }
        if let n = try integer("PIPELINE_API_TOKEN_MAX_LIFETIME_S", 60...(366 * 86_400)) {
            tokenPolicy.maxLifetime = .seconds(n)
        }
        if let n = try integer("PIPELINE_API_IDLE_TIMEOUT_S", 1...3600) { idleTimeout = .seconds(n) }
        if let n = try integer("PIPELINE_API_HEAD_TIMEOUT_S", 1...3600) { headTimeout = .seconds(n) }
        if let n = try integer("PIPELINE_API_BODY_TIMEOUT_S", 1...86_400) { bodyTimeout = .seconds(n) }
        if let n = try integer("PIPELINE_API_MIN_BODY_BYTES_PER_SECOND", 0...(1 << 30)) { minBodyBytesPerSecond = n }
        if let n = try integer("PIPELINE_API_BODY_RATE_GRACE_S", 1...3600) { bodyRateGrace = .seconds(n) }
        if let token = environment["PIPELINE_METRICS_TOKEN"], !token.isEmpty { metricsToken = token }
    }

    /// Whether the server listens on a loopback address only.
    var listensOnLoopback: Bool { ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.") }

    /// `Cache-Control: max-age` of a fresh cached response, in whole seconds.
    var cacheTTLSeconds: Int64 { cacheTTL.components.seconds }
}

/// A key for HS256 token signatures. At least 32 bytes (RFC 7518 §3.2: a key of the hash's size).
/// Its description never shows the key.
public struct JWTSecret: Sendable, CustomStringConvertible {
    public let bytes: [UInt8]
    public static let minimumBytes = 32

    public init(bytes: [UInt8]) throws {
        guard bytes.count >= Self.minimumBytes else {
            throw ConfigurationError(
                "the JWT secret has \(bytes.count) bytes; at least \(Self.minimumBytes) are required")
        }
        self.bytes = bytes
    }

    /// The UTF-8 bytes of `string`.
    public init(string: String) throws { try self.init(bytes: Array(string.utf8)) }

    public var description: String { "JWTSecret(<\(bytes.count) bytes>)" }
}

/// At most `requests` in any `window` (a sliding window, per user and action).
public struct RateLimit: Sendable, Hashable {
    public var requests: Int
    public var window: Duration
    public init(requests: Int, window: Duration) {
        precondition(requests > 0 && window > .zero, "a rate limit needs a positive count and window")
        self.requests = requests
        self.window = window
    }
}

/// An invalid configuration value; says which and why, never the value of a secret.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
