import Store

/// A rejection with its human message, e.g. `invalid_duration`: "Invalid duration: 0 s (must be > 0)".
public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: RejectionCode
    public var message: String
    public init(_ code: RejectionCode, _ message: String) { self.code = code; self.message = message }
    public var description: String { "\(code.rawValue): \(message)" }
}

/// Bounds on what one input may be; larger inputs are refused before they are read into memory.
public struct IngestLimits: Sendable {
    /// Sessions in one batch (the apps send at most 20).
    public var maxSessionsPerBatch = 20
    /// Bytes of one batch body or one inbox file.
    public var maxBatchBytes = 64 << 20
    /// Bytes of one decoded `raw` recording.
    public var maxRawBytes = 16 << 20
    /// Bytes of one NDJSON line.
    public var maxLineBytes = 64 << 20
    /// Nesting depth of JSON (the batch shape needs about 6).
    public var maxJSONDepth = 32
    /// A session may start this far after the moment it was received (the phone's clock may be a little ahead).
    public var clockSkewAllowanceS: Double = 300
    /// `duration` may differ from `ended_at − started_at` by this much (pauses are part of both in the app).
    public var durationToleranceS: Double = 60
    public var durationToleranceFraction: Double = 0.02
    /// Above these, values are impossible for a human workout.
    public var maxDurationS: Double = 86_400
    /// A workout from a file (FIT, TCX, GPX, an Apple Health export) may last this long: devices record
    /// ultra events, brevets and 24-hour races over days (a 28.7-hour, 422 km ride is real). Uploaded sessions keep
    /// `maxDurationS`. Absurd durations (years) and starts before `earliestStartMillis` are still refused.
    public var maxWorkoutFileDurationS: Double = 7 * 86_400
    public var maxEnergyKcalPerHour: Double = 2_000
    public var maxSpeedMps: Double = 30
    public var maxPowerW: Double = 2_500
    public var heartRateRange: ClosedRange<Double> = 20...250
    /// No session or workout record starts before this instant (2000-01-01T00:00:00Z): a start decades back is a broken
    /// clock or an attack — one session dated `0001-01-01` made the user's training-load series step through 739,944
    /// days. The later bound is `clockSkewAllowanceS` after the upload was received.
    public var earliestStartMillis: Int64 = 946_684_800_000
    /// A session's `detail` object (the app's summary figures: `avg_hr`, `avg_power`, …): at most this many bytes in
    /// canonical form and this nesting depth (the object itself is depth 1). It is stored and served with every
    /// session, so a 30 MB `detail` would otherwise ride along on every read of the user's history.
    public var maxDetailBytes = 64 << 10
    public var maxDetailDepth = 8
    /// Bytes of a rejected input kept in quarantine as evidence: a longer payload is cut to this prefix, and its size
    /// and SHA-256 are noted in the message (a client could otherwise fill the store with 32 MiB rejected bodies).
    public var maxQuarantinePayloadBytes = 1 << 20
    public init() {}
}
