import Logging
import Store

/// A session the analysis stepped over because its stored recording cannot be read back (`UnreadableRecording`: a
/// damaged zstd frame). Its metrics are left as they are (none, or those of an earlier analysis); the nightly, a worker
/// and a recomputation go on with the user's other sessions and the other users, and report it here, in their log
/// (one line per session) and in their summary's `sessions_unreadable` count, every run until the row is repaired or
/// deleted: one damaged recording never stops the run.
public struct UnreadableSession: Sendable, Codable, Equatable, Hashable {
    public var userID: String
    public var sessionID: String
    /// zstd's reason (`StoredRecordingError`'s description).
    public var reason: String

    public init(_ error: UnreadableRecording) {
        userID = error.userID.rawValue; sessionID = error.sessionID.rawValue; reason = "\(error.reason)"
    }

    enum CodingKeys: String, CodingKey { case userID = "user_id", sessionID = "session_id", reason }

    /// The structured log line for this session.
    func log(_ logger: Logger) {
        logger.error(
            "session skipped: stored recording unreadable",
            metadata: ["user_id": "\(userID)", "session_id": "\(sessionID)", "reason": "\(reason)"])
    }
}
