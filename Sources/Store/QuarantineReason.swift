/// Why an input was rejected by the ingest. The raw values are stable codes (kept in quarantine, printed in reports);
/// `category` is the coarse `error` field of the apps' batch answer (`validation_error`, …).
public enum RejectionCode: String, Sendable, Codable, CaseIterable, Comparable {
    // Whole batch or file
    case malformedJSON = "malformed_json"
    case jsonTooDeep = "json_too_deep"
    case payloadTooLarge = "payload_too_large"
    case invalidBatchShape = "invalid_batch_shape"
    case batchTooLarge = "batch_too_large"
    // One record
    case missingField = "missing_field"
    case invalidField = "invalid_field"
    case invalidSessionID = "invalid_session_id"
    case invalidTimestamp = "invalid_timestamp"
    case invalidDuration = "invalid_duration"
    case startInFuture = "start_in_future"
    case startTooEarly = "start_too_early"
    case detailTooLarge = "detail_too_large"
    case invalidEnergy = "invalid_energy"
    case invalidDistance = "invalid_distance"
    case invalidHeartRate = "invalid_heart_rate"
    case invalidPower = "invalid_power"
    case unknownUser = "unknown_user"
    case invalidBase64 = "invalid_base64"
    case rawTooLarge = "raw_too_large"
    case blobRejected = "blob_rejected"
    case conflict = "conflict"
    case invalidUser = "invalid_user"
    case invalidWorkout = "invalid_workout"

    public static func < (a: RejectionCode, b: RejectionCode) -> Bool { a.rawValue < b.rawValue }

    /// The `error` value of a failed session in the apps' batch answer.
    public var category: String {
        switch self {
        case .malformedJSON, .jsonTooDeep, .payloadTooLarge, .invalidBatchShape, .batchTooLarge: "invalid_batch"
        case .unknownUser: "unknown_user"
        case .conflict: "conflict"
        case .invalidBase64, .rawTooLarge, .blobRejected: "invalid_raw"
        default: "validation_error"
        }
    }
}

/// Why a record is in quarantine, as stored in its `reason_code` column and shown by the API and the CLI: one of the
/// ingest's rejections, or a code defined elsewhere — a workout file reader's (`WorkoutFiles.ReasonCode`, e.g.
/// `fit_truncated`, `unknown_format`), or one written by a newer build that this one does not know, which is kept and
/// shown as it is rather than refused. Two reasons are equal when their codes are: `init(rawValue:)` gives the
/// `rejected` case for every code `RejectionCode` knows.
public enum QuarantineReason: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    case rejected(RejectionCode)
    case other(String)

    public init(rawValue: String) {
        self = RejectionCode(rawValue: rawValue).map(Self.rejected) ?? .other(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .rejected(let code): code.rawValue
        case .other(let code): code
        }
    }

    /// The ingest's rejection, nil for a code from elsewhere.
    public var rejection: RejectionCode? { RejectionCode(rawValue: rawValue) }

    public var description: String { rawValue }

    public static func == (a: Self, b: Self) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A dictionary keyed by reason (`[QuarantineReason: Int]`, the counts per reason) is a JSON object keyed by the code,
/// as it was when the keys were strings; without this, `JSONEncoder` writes a dictionary with a non-string key as an
/// array of alternating keys and values. The standard library's default for a `String`-backed `RawRepresentable` does
/// the rest.
extension QuarantineReason: CodingKeyRepresentable {}
