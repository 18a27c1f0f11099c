/// What the generator says it generated: the ground truth tests compare the pipeline against.
public struct GenerationManifest: Sendable, Codable, Equatable {
    public var format = "synthetic-manifest/1"
    public var seed: UInt64
    public var days: Int
    public var endDate: String
    public var faultRate: Double
    public var users: [ManifestUser]
    /// Users that do not exist (their uploads must be quarantined as `unknown_user`).
    public var unknownUsers: [String]
    public var faults: [ManifestFault]
    public var files: Int

    enum CodingKeys: String, CodingKey {
        case format, seed, days, endDate = "end_date", faultRate = "fault_rate", users, unknownUsers = "unknown_users",
            faults, files
    }
}

public struct ManifestUser: Sendable, Codable, Equatable {
    public var userID: String
    public var timeZone: String
    public var kind: String
    /// Sessions that must end up stored (each once), whatever faults were injected around them.
    public var sessions: [ManifestSession]
    /// Workout records in their final state (after every update and deletion).
    public var workouts: [ManifestWorkout]
    enum CodingKeys: String, CodingKey { case userID = "user_id", timeZone = "time_zone", kind, sessions, workouts }
}

public struct ManifestSession: Sendable, Codable, Equatable {
    public var sessionID: String
    public var sport: String
    public var startedAtMillis: Int64
    public var durationS: Double
    public var totalEnergyKcal: Double
    public var totalDistanceM: Double
    public var hasHeartRate: Bool
    public var blob: String
    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id", sport, startedAtMillis = "started_at_ms", durationS = "duration_s"
        case totalEnergyKcal = "total_energy_kcal", totalDistanceM = "total_distance_m", hasHeartRate =
            "has_heart_rate", blob
    }
}

public struct ManifestWorkout: Sendable, Codable, Equatable {
    public var workoutID: String
    public var activityType: String
    public var startMillis: Int64
    public var durationS: Double
    public var distanceM: Double
    public var energyKcal: Double
    public var timeZone: String?
    public var deleted: Bool
    enum CodingKeys: String, CodingKey {
        case workoutID = "workout_id", activityType = "activity_type", startMillis = "start_ms", durationS =
            "duration_s"
        case distanceM = "distance_m", energyKcal = "energy_kcal", timeZone = "time_zone", deleted
    }
}

/// One injected fault and what the pipeline must make of it: `quarantine:<reason>`, `duplicate`, `stale`,
/// `stored:truncated_blob`, `stored:no_heart_rate`.
public struct ManifestFault: Sendable, Codable, Equatable {
    public var kind: String
    public var userID: String
    public var recordID: String?
    public var file: String
    public var expected: String
    enum CodingKeys: String, CodingKey { case kind, userID = "user_id", recordID = "record_id", file, expected }
}
