import Foundation

public enum Sex: String, Sendable, Codable, CaseIterable { case male, female }

/// The runner's goal race, as the plan engine needs it.
public struct GoalRace: Sendable, Codable, Equatable {
    public var date: LocalDate
    public var distanceM: Double
    public var goalTimeS: Double?
    public init(date: LocalDate, distanceM: Double = 42195, goalTimeS: Double? = nil) {
        self.date = date; self.distanceM = distanceM; self.goalTimeS = goalTimeS
    }
    enum CodingKeys: String, CodingKey { case date, distanceM = "distance_m", goalTimeS = "goal_time_s" }
}

public enum Experience: String, Sendable, Codable, CaseIterable { case novice, intermediate, experienced }

/// What the pipeline knows of a user's body and training: the inputs of metrics and plans.
public struct TrainingProfile: Sendable, Codable, Equatable {
    public var sex: Sex?
    public var birthYear: Int?
    public var maxHR: Int?
    public var restingHR: Int?
    public var ftpW: Int?
    /// Lactate-threshold heart rate, bpm: scales HR-based training load (HRSS) so one hour at LTHR is 100.
    public var lthr: Int?
    public var thresholdPaceSPerKm: Double?
    public var goalRace: GoalRace?
    public var availableDays: [Weekday]
    public var maxRunDays: Int?
    public var longRunDay: Weekday?
    public var experience: Experience?
    public init(
        sex: Sex? = nil, birthYear: Int? = nil, maxHR: Int? = nil, restingHR: Int? = nil, ftpW: Int? = nil,
        thresholdPaceSPerKm: Double? = nil, goalRace: GoalRace? = nil, availableDays: [Weekday] = [],
        maxRunDays: Int? = nil, longRunDay: Weekday? = nil, experience: Experience? = nil, lthr: Int? = nil
    ) {
        self.lthr = lthr
        self.sex = sex; self.birthYear = birthYear; self.maxHR = maxHR; self.restingHR = restingHR; self.ftpW = ftpW
        self.thresholdPaceSPerKm = thresholdPaceSPerKm; self.goalRace = goalRace; self.availableDays = availableDays
        self.maxRunDays = maxRunDays; self.longRunDay = longRunDay; self.experience = experience
    }
    enum CodingKeys: String, CodingKey {
        case sex, birthYear = "birth_year", maxHR = "max_hr", restingHR = "resting_hr", ftpW = "ftp_w", lthr
        case thresholdPaceSPerKm = "threshold_pace_s_per_km", goalRace = "goal_race", availableDays = "available_days"
        case maxRunDays = "max_run_days", longRunDay = "long_run_day", experience
    }

    /// Every field is optional: a rider or rower has no running profile (`available_days` absent reads as none, and
    /// the plan engine then has no plan for them), and their sessions are ingested like anyone's.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sex = try c.decodeIfPresent(Sex.self, forKey: .sex)
        birthYear = try c.decodeIfPresent(Int.self, forKey: .birthYear)
        maxHR = try c.decodeIfPresent(Int.self, forKey: .maxHR)
        restingHR = try c.decodeIfPresent(Int.self, forKey: .restingHR)
        ftpW = try c.decodeIfPresent(Int.self, forKey: .ftpW)
        lthr = try c.decodeIfPresent(Int.self, forKey: .lthr)
        thresholdPaceSPerKm = try c.decodeIfPresent(Double.self, forKey: .thresholdPaceSPerKm)
        goalRace = try c.decodeIfPresent(GoalRace.self, forKey: .goalRace)
        availableDays = try c.decodeIfPresent([Weekday].self, forKey: .availableDays) ?? []
        maxRunDays = try c.decodeIfPresent(Int.self, forKey: .maxRunDays)
        longRunDay = try c.decodeIfPresent(Weekday.self, forKey: .longRunDay)
        experience = try c.decodeIfPresent(Experience.self, forKey: .experience)
    }
}

public struct User: Sendable, Codable, Equatable {
    public var id: UserID
    /// IANA time zone name, e.g. `Europe/Berlin`.
    public var timeZone: String
    public var profile: TrainingProfile
    public var boundDeviceID: String?
    public var createdAt: EpochMillis
    public init(
        id: UserID, timeZone: String, profile: TrainingProfile = .init(), boundDeviceID: String? = nil,
        createdAt: EpochMillis
    ) {
        self.id = id; self.timeZone = timeZone; self.profile = profile; self.boundDeviceID = boundDeviceID;
        self.createdAt = createdAt
    }
    enum CodingKeys: String, CodingKey {
        case id = "user_id", timeZone = "time_zone", profile, boundDeviceID = "bound_device_id", createdAt =
            "created_at_ms"
    }

    /// `profile` may be absent (no training profile at all): an empty one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UserID.self, forKey: .id)
        timeZone = try c.decode(String.self, forKey: .timeZone)
        profile = try c.decodeIfPresent(TrainingProfile.self, forKey: .profile) ?? TrainingProfile()
        boundDeviceID = try c.decodeIfPresent(String.self, forKey: .boundDeviceID)
        createdAt = try c.decode(EpochMillis.self, forKey: .createdAt)
    }
}

/// What became of the raw recording attached to a session.
public enum BlobStatus: String, Sendable, Codable, CaseIterable {
    case none, complete, truncated, corrupted
}

/// An uploaded session: the app's summary exactly as sent, and the raw BLE recording.
public struct StoredSession: Sendable, Equatable {
    public var userID: UserID
    public var sessionID: SessionID
    /// `started_at` / `ended_at` as the app sent them (ISO 8601 text) and parsed.
    public var startedAtText: String
    public var endedAtText: String
    public var startedAt: EpochMillis
    public var endedAt: EpochMillis
    public var durationS: Double
    public var totalEnergyKcal: Double
    public var totalDistanceM: Double
    /// The `detail` object exactly as the app sent it (JSON text).
    public var detailJSON: String
    public var raw: [UInt8]?
    public var machine: String?
    public var blobStatus: BlobStatus
    public var blobNote: String?
    /// SHA-256 (hex) of the session's canonical content; the same id with another hash is a conflict.
    public var contentHash: String
    public var source: String
    public var receivedAt: EpochMillis
    public init(
        userID: UserID, sessionID: SessionID, startedAtText: String, endedAtText: String, startedAt: EpochMillis,
        endedAt: EpochMillis, durationS: Double, totalEnergyKcal: Double, totalDistanceM: Double, detailJSON: String,
        raw: [UInt8]?, machine: String?, blobStatus: BlobStatus, blobNote: String?, contentHash: String,
        source: String, receivedAt: EpochMillis
    ) {
        self.userID = userID; self.sessionID = sessionID; self.startedAtText = startedAtText;
        self.endedAtText = endedAtText
        self.startedAt = startedAt; self.endedAt = endedAt; self.durationS = durationS;
        self.totalEnergyKcal = totalEnergyKcal
        self.totalDistanceM = totalDistanceM; self.detailJSON = detailJSON; self.raw = raw; self.machine = machine
        self.blobStatus = blobStatus; self.blobNote = blobNote; self.contentHash = contentHash; self.source = source
        self.receivedAt = receivedAt
    }
}

/// Where a workout record came from.
public enum WorkoutSource: String, Sendable, Codable, CaseIterable {
    case appleHealth = "apple_health", garmin, manual
    /// Imported from a file (`pipeline import`, the inbox's `files/`, `POST /v1/me/files`): a FIT file from any device,
    /// a TCX or a GPX export. An Apple Health export's workouts are `apple_health`.
    case garminFit = "garmin_fit", tcx, gpx
}

/// A workout record from HealthKit or Garmin (V2 workout API), stored last-writer-wins on `updatedAt`.
public struct WorkoutRecord: Sendable, Equatable {
    public var userID: UserID
    public var workoutID: WorkoutID
    public var source: WorkoutSource
    public var activityType: String
    public var startAt: EpochMillis
    public var endAt: EpochMillis
    public var durationS: Double
    public var distanceM: Double?
    public var energyKcal: Double?
    public var avgHR: Double?
    public var maxHR: Double?
    public var elevationGainM: Double?
    /// Time zone the workout was recorded in, when the source says.
    public var timeZone: String?
    /// Optional samples: JSON text as sent, or columns (an imported file's, or a stored row's; `StoredSamples`).
    public var samples: StoredSamples.Value?
    /// The samples as JSON text (columns as their canonical text: the text the record was sent or imported with).
    public var samplesJSON: String? {
        get { samples?.json }
        set { samples = newValue.map(StoredSamples.Value.json) }
    }
    public var updatedAt: EpochMillis
    /// A tombstone: the record was deleted at the source; kept so an older copy cannot resurrect it.
    public var deleted: Bool
    public var contentHash: String
    public init(
        userID: UserID, workoutID: WorkoutID, source: WorkoutSource, activityType: String, startAt: EpochMillis,
        endAt: EpochMillis, durationS: Double, distanceM: Double?, energyKcal: Double?, avgHR: Double?, maxHR: Double?,
        elevationGainM: Double?, timeZone: String?, samplesJSON: String?, updatedAt: EpochMillis, deleted: Bool,
        contentHash: String
    ) {
        self.userID = userID; self.workoutID = workoutID; self.source = source; self.activityType = activityType
        self.startAt = startAt; self.endAt = endAt; self.durationS = durationS; self.distanceM = distanceM
        self.energyKcal = energyKcal; self.avgHR = avgHR; self.maxHR = maxHR; self.elevationGainM = elevationGainM
        self.timeZone = timeZone; self.samples = samplesJSON.map(StoredSamples.Value.json); self.updatedAt = updatedAt
        self.deleted = deleted
        self.contentHash = contentHash
    }
}

/// The pipeline's own figures for one session, computed from the blob (or the summary when there is none).
public struct SessionMetricsRecord: Sendable, Equatable {
    public var userID: UserID
    public var sessionID: SessionID
    public var localDate: LocalDate
    public var sport: String
    public var durationS: Double
    public var distanceM: Double?
    public var energyKcal: Double?
    public var avgPowerW: Double?
    public var avgHRBpm: Double?
    /// The session's training load: TSS where power exists, otherwise HRSS (`docs/metrics.md`).
    public var tss: Double?
    /// The full metric set (JSON object, keys as in `docs/metrics.md`).
    public var metricsJSON: String
    /// Disagreements between the app's summary and the blob beyond tolerance, e.g. `["distance"]`.
    public var flags: [String]
    public var computedAt: EpochMillis
    public init(
        userID: UserID, sessionID: SessionID, localDate: LocalDate, sport: String, durationS: Double,
        distanceM: Double?, energyKcal: Double?, avgPowerW: Double?, avgHRBpm: Double?, tss: Double?,
        metricsJSON: String, flags: [String], computedAt: EpochMillis
    ) {
        self.userID = userID; self.sessionID = sessionID; self.localDate = localDate; self.sport = sport
        self.durationS = durationS; self.distanceM = distanceM; self.energyKcal = energyKcal; self.avgPowerW = avgPowerW
        self.avgHRBpm = avgHRBpm; self.tss = tss; self.metricsJSON = metricsJSON; self.flags = flags;
        self.computedAt = computedAt
    }
}

/// The stats the apps expect (`updated_stats` of a batch answer), exactly named.
public struct UserStats: Sendable, Codable, Equatable {
    public var workoutTotalCount: Int
    public var workoutTotalEnergy: Double
    public var workoutTotalDistance: Double
    public var workoutTotalDuration: Double
    public var workoutStreak: Int
    public var longestStreak: Int
    public var lastWorkoutDate: LocalDate?
    public init(
        workoutTotalCount: Int, workoutTotalEnergy: Double, workoutTotalDistance: Double, workoutTotalDuration: Double,
        workoutStreak: Int, longestStreak: Int, lastWorkoutDate: LocalDate?
    ) {
        self.workoutTotalCount = workoutTotalCount; self.workoutTotalEnergy = workoutTotalEnergy
        self.workoutTotalDistance = workoutTotalDistance; self.workoutTotalDuration = workoutTotalDuration
        self.workoutStreak = workoutStreak; self.longestStreak = longestStreak; self.lastWorkoutDate = lastWorkoutDate
    }
    public static let empty = UserStats(
        workoutTotalCount: 0, workoutTotalEnergy: 0, workoutTotalDistance: 0,
        workoutTotalDuration: 0, workoutStreak: 0, longestStreak: 0, lastWorkoutDate: nil)
    enum CodingKeys: String, CodingKey {
        case workoutTotalCount = "workout_total_count", workoutTotalEnergy = "workout_total_energy"
        case workoutTotalDistance = "workout_total_distance", workoutTotalDuration = "workout_total_duration"
        case workoutStreak = "workout_streak", longestStreak = "longest_streak", lastWorkoutDate = "last_workout_date"
    }
}

public struct UserStatsRecord: Sendable, Equatable {
    public var userID: UserID
    public var stats: UserStats
    public var computedAt: EpochMillis
    /// The app's own figures (`PATCH /users/me/stats`); the app wins for display.
    public var appReported: UserStats?
    public var appReportedAt: EpochMillis?
    public init(
        userID: UserID, stats: UserStats, computedAt: EpochMillis, appReported: UserStats? = nil,
        appReportedAt: EpochMillis? = nil
    ) {
        self.userID = userID; self.stats = stats; self.computedAt = computedAt; self.appReported = appReported;
        self.appReportedAt = appReportedAt
    }
}

/// One version of a user's plan document (`marathon-plan/1` JSON). Versions only grow.
public struct PlanRecord: Sendable, Equatable {
    public var userID: UserID
    public var version: Int
    public var generatedAt: EpochMillis
    public var state: PlanState
    public var documentJSON: String
    public init(userID: UserID, version: Int, generatedAt: EpochMillis, state: PlanState, documentJSON: String) {
        self.userID = userID; self.version = version; self.generatedAt = generatedAt; self.state = state;
        self.documentJSON = documentJSON
    }
}

/// A rejected input, kept with its reason and the original payload, until fixed and replayed.
public struct QuarantineRecord: Sendable, Equatable {
    public var id: Int64?
    public var userID: UserID?
    /// Which path the input came through: `inbox`, `api`, `workout_file`, `upstream`, `users_file`.
    public var source: String
    /// Where exactly: file name and record index, or the request id.
    public var sourceKey: String
    /// The record's own id if one could be read (session id, workout id).
    public var recordID: String?
    /// Why it is here (`invalid_duration`, `unknown_user`, `malformed_json`, `fit_truncated`, …): stored and shown as
    /// its stable code.
    public var reasonCode: QuarantineReason
    public var message: String
    public var payload: [UInt8]
    public var receivedAt: EpochMillis
    public var quarantinedAt: EpochMillis
    public init(
        id: Int64? = nil, userID: UserID?, source: String, sourceKey: String, recordID: String?,
        reasonCode: QuarantineReason, message: String, payload: [UInt8], receivedAt: EpochMillis,
        quarantinedAt: EpochMillis
    ) {
        self.id = id; self.userID = userID; self.source = source; self.sourceKey = sourceKey; self.recordID = recordID
        self.reasonCode = reasonCode; self.message = message; self.payload = payload; self.receivedAt = receivedAt
        self.quarantinedAt = quarantinedAt
    }
}

public enum JobStatus: String, Sendable, Codable, CaseIterable {
    case running, succeeded, failed, interrupted
    /// Left `running` by a process that died without recording its end (SIGKILL, crash, power loss); recorded by the
    /// next run of any job on the same host (migration 0010, `ProcessIdentity`).
    case abandoned
}

public struct JobRun: Sendable, Equatable {
    public var id: Int64?
    public var job: String
    public var startedAt: EpochMillis
    public var endedAt: EpochMillis?
    public var status: JobStatus
    /// Counts as a JSON object (`{"received": 10, ...}`).
    public var countsJSON: String
    public var watermark: String?
    /// The process that started the run (migration 0010); nil for runs recorded before it.
    public var owner: ProcessIdentity?
    public init(
        id: Int64? = nil, job: String, startedAt: EpochMillis, endedAt: EpochMillis? = nil, status: JobStatus,
        countsJSON: String = "{}", watermark: String? = nil, owner: ProcessIdentity? = nil
    ) {
        self.id = id; self.job = job; self.startedAt = startedAt; self.endedAt = endedAt; self.status = status
        self.countsJSON = countsJSON; self.watermark = watermark; self.owner = owner
    }
}

public enum DeletionStatus: String, Sendable, Codable, CaseIterable { case pending, completed, failed }

/// GDPR audit: only a hash of the user id is kept, never the id itself.
public struct DeletionAudit: Sendable, Equatable {
    public var id: Int64?
    public var userHash: String
    public var requestedAt: EpochMillis
    public var completedAt: EpochMillis?
    public var status: DeletionStatus
    public var note: String?
    public init(
        id: Int64? = nil, userHash: String, requestedAt: EpochMillis, completedAt: EpochMillis?, status: DeletionStatus,
        note: String?
    ) {
        self.id = id; self.userHash = userHash; self.requestedAt = requestedAt; self.completedAt = completedAt
        self.status = status; self.note = note
    }
}

/// What a user's stored sessions occupy (`PipelineStore.storageUsage`).
public struct StorageUsage: Sendable, Equatable {
    public var sessions: Int
    /// Bytes of the decoded recordings (`raw`), as uploaded (before any compression by the database).
    public var recordingBytes: Int64
    /// Bytes of the user's quarantined payloads (counted toward the same quota, so rejected uploads cannot
    /// grow a user's storage past it).
    public var quarantineBytes: Int64

    public init(sessions: Int, recordingBytes: Int64, quarantineBytes: Int64 = 0) {
        self.sessions = sessions
        self.recordingBytes = recordingBytes
        self.quarantineBytes = quarantineBytes
    }
}
