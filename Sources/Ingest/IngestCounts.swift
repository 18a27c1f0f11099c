import Store

/// Where the records of one kind ended. Every record ends in exactly one place, so
/// `received == stored + duplicates + stale + quarantined` always holds (`addsUp`).
public struct IngestCounts: Sendable, Codable, Equatable {
    public var received = 0
    public var stored = 0
    /// Already known with the same content (same id and hash; for files: already processed).
    public var duplicates = 0
    /// Workout versions older than the stored one (last writer wins); never stored.
    public var stale = 0
    public var quarantined = 0
    /// `quarantined` per reason; in JSON an object keyed by the reason's code (`{"unknown_user": 2}`).
    public var quarantinedByReason: [QuarantineReason: Int] = [:]
    /// Records of a user whose account was deleted (GDPR), arriving afterwards (an inbox file, an upstream page):
    /// dropped — counted here, never stored or quarantined, so nothing of the person comes back.
    public var droppedDeletedUser = 0
    public init() {}

    public var addsUp: Bool { received == stored + duplicates + stale + quarantined + droppedDeletedUser }

    mutating func quarantine(_ code: RejectionCode, count: Int = 1) {
        quarantine(reason: .rejected(code), count: count)
    }

    /// Any reason, also a code of another vocabulary (a workout file's: `fit_bad_header`, `unknown_format`, …).
    mutating func quarantine(reason: QuarantineReason, count: Int = 1) {
        quarantined += count
        quarantinedByReason[reason, default: 0] += count
    }

    public static func + (a: IngestCounts, b: IngestCounts) -> IngestCounts {
        var c = a
        c.received += b.received; c.stored += b.stored; c.duplicates += b.duplicates; c.stale += b.stale
        c.quarantined += b.quarantined
        c.droppedDeletedUser += b.droppedDeletedUser
        c.quarantinedByReason.merge(b.quarantinedByReason, uniquingKeysWith: +)
        return c
    }

    enum CodingKeys: String, CodingKey {
        case received, stored, duplicates, stale, quarantined, quarantinedByReason = "quarantined_by_reason"
        case droppedDeletedUser = "dropped_deleted_user"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        received = try c.decode(Int.self, forKey: .received)
        stored = try c.decode(Int.self, forKey: .stored)
        duplicates = try c.decode(Int.self, forKey: .duplicates)
        stale = try c.decode(Int.self, forKey: .stale)
        quarantined = try c.decode(Int.self, forKey: .quarantined)
        quarantinedByReason = try c.decode([QuarantineReason: Int].self, forKey: .quarantinedByReason)
        droppedDeletedUser = try c.decodeIfPresent(Int.self, forKey: .droppedDeletedUser) ?? 0
    }
}

/// The report of an ingest run: counts per kind of input, proving that nothing was lost or counted twice.
public struct IngestReport: Sendable, Codable, Equatable {
    /// Batch bodies (files, NDJSON lines, API requests): stored = accepted, duplicates = already processed,
    /// quarantined = rejected as a whole (malformed, too large, > 20 sessions).
    public var batches = IngestCounts()
    /// Sessions of the accepted batches.
    public var sessions = IngestCounts()
    public var workouts = IngestCounts()
    public var users = IngestCounts()
    /// Workout files (FIT, TCX, GPX, Apple Health exports): stored = read (their activities then count in `workouts`),
    /// duplicates = already imported, quarantined = unreadable (kept with the reader's reason code).
    public var files = IngestCounts()
    /// Files read in part (a truncated FIT, a bad CRC, XML that stops half way): stored with what could be read, and
    /// kept in quarantine as well with the damage's reason code, for the operator.
    public var damagedFiles = 0
    /// Files imported with a flag: `partial_import` (part of an activity missing: points without a time, a
    /// TCX without trackpoints, a file read in part) or `dates_disagree` (the file's header or laps and its samples
    /// disagree on the dates). Kept in quarantine as well under the flag's code, for the operator.
    public var flaggedFiles = 0
    /// The flags themselves, per activity, for the one who imported the files (`pipeline import`, the file upload's
    /// answer). Not part of the report's JSON (the ledger and job runs keep the count).
    public var importFlags: [ImportFlag] = []
    /// Sessions kept with a truncated or corrupted blob (stored, and flagged).
    public var truncatedBlobs = 0
    public var corruptedBlobs = 0
    /// Users whose data changed: their metrics and stats need recomputing.
    public var touchedUsers: Set<UserID> = []
    /// Sessions stored with their metrics measured in the same pass (`BatchProcessor.analyze`), and their flags
    /// counted by name. Not part of the report's JSON: the nightly summary counts them as analysed sessions.
    public var sessionsMeasured = 0
    public var measuredFlags: [String: Int] = [:]
    public init() {}

    public var addsUp: Bool { batches.addsUp && sessions.addsUp && workouts.addsUp && users.addsUp && files.addsUp }

    public static func + (a: IngestReport, b: IngestReport) -> IngestReport {
        var c = a
        c.batches = a.batches + b.batches; c.sessions = a.sessions + b.sessions
        c.workouts = a.workouts + b.workouts; c.users = a.users + b.users
        c.files = a.files + b.files; c.damagedFiles += b.damagedFiles
        c.flaggedFiles += b.flaggedFiles; c.importFlags += b.importFlags
        c.truncatedBlobs += b.truncatedBlobs; c.corruptedBlobs += b.corruptedBlobs
        c.touchedUsers.formUnion(b.touchedUsers)
        c.sessionsMeasured += b.sessionsMeasured
        c.measuredFlags.merge(b.measuredFlags, uniquingKeysWith: +)
        return c
    }

    enum CodingKeys: String, CodingKey {
        case batches, sessions, workouts, users, files, damagedFiles = "damaged_files", flaggedFiles = "flagged_files"
        case truncatedBlobs = "truncated_blobs", corruptedBlobs = "corrupted_blobs"
        case touchedUsers = "touched_users"
    }

    /// `touched_users` is written as a count: the report is kept in the ledger and in job runs, which outlive a user's
    /// deletion and must not name them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(batches, forKey: .batches); try c.encode(sessions, forKey: .sessions)
        try c.encode(workouts, forKey: .workouts); try c.encode(users, forKey: .users)
        try c.encode(files, forKey: .files); try c.encode(damagedFiles, forKey: .damagedFiles)
        try c.encode(flaggedFiles, forKey: .flaggedFiles)
        try c.encode(truncatedBlobs, forKey: .truncatedBlobs); try c.encode(corruptedBlobs, forKey: .corruptedBlobs)
        try c.encode(touchedUsers.count, forKey: .touchedUsers)
    }

    /// Reads a written report back (the count of touched users; their ids are not in it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        batches = try c.decode(IngestCounts.self, forKey: .batches);
        sessions = try c.decode(IngestCounts.self, forKey: .sessions)
        workouts = try c.decode(IngestCounts.self, forKey: .workouts);
        users = try c.decode(IngestCounts.self, forKey: .users)
        files = try c.decodeIfPresent(IngestCounts.self, forKey: .files) ?? IngestCounts()
        damagedFiles = try c.decodeIfPresent(Int.self, forKey: .damagedFiles) ?? 0
        flaggedFiles = try c.decodeIfPresent(Int.self, forKey: .flaggedFiles) ?? 0
        truncatedBlobs = try c.decode(Int.self, forKey: .truncatedBlobs);
        corruptedBlobs = try c.decode(Int.self, forKey: .corruptedBlobs)
    }
}

/// A flag on an imported activity (docs/workout-files.md): `code` is `partial_import` (what was missing is in
/// `detail`) or `dates_disagree`; `file` the file's name as given, `activity` the activity's index in the file (nil:
/// the whole file, e.g. read in part).
public struct ImportFlag: Sendable, Codable, Equatable {
    public var code: String
    public var file: String
    public var activity: Int?
    public var detail: String
    public init(code: String, file: String, activity: Int?, detail: String) {
        self.code = code; self.file = file; self.activity = activity; self.detail = detail
    }
}
