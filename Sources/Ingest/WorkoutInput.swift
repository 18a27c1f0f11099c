import CivilDate
import Foundation
import Logging
import Store

/// Workout records as the Havital backend receives them from Apple HealthKit and Garmin (V2 workout API).
/// The schema is documented in `docs/workout-records.md`.
public struct WorkoutValidator: Sendable {
    public var limits: IngestLimits
    public static let activityTypes = Set(ActivityType.allCases.map(\.rawValue))
    public init(limits: IngestLimits = .init()) { self.limits = limits }

    /// The sources only a workout file gives (`pipeline import`, the inbox's `files/`, `POST /v1/me/files`).
    public static let fileSources: Set<WorkoutSource> = [.garminFit, .tcx, .gpx]

    /// How a record read from a workout file is checked: its duration bound is the file's
    /// (`maxWorkoutFileDurationS`, days) rather than a session's, also for an Apple Health export's workouts; and where
    /// the file's points are partly or wholly without a time (`durationKnown` false: a partial import), its duration
    /// may be 0 (unknown) and its distance and energy are not checked against it.
    /// `datesFrom` names the file's fields the record's start and end were read from: a record refused for its
    /// dates says so (`start_too_early`: "… (dates read from Lap StartTime, Trackpoint/Time (last))").
    ///
    /// `samples`: the activity's samples in columns, handed to the store as they are (`StoredSamples`), for a
    /// record whose JSON value leaves them out; `contentHash` is then `ImportedRecord.columnsHash` (or the SHA-256 of
    /// the canonical text of the record with them, `JSONValue.canonicalBytes(adding:raw:)`, to compare with a record
    /// stored with that hash).
    public struct FileRecordRules: Sendable, Equatable {
        public var durationKnown: Bool
        public var datesFrom: String
        public var samples: SampleColumns?
        public var contentHash: String?
        /// The size of the record's whole canonical text, of which its payload holds the first bytes only (all of them
        /// when the text is within the quarantine's bound, `IngestLimits.maxQuarantinePayloadBytes`), when `contentHash`
        /// is that text's SHA-256. Nil with `samples`: the text is not written yet; it is written when the record is
        /// refused or the writer needs it (`RecordProcessor.prepare`). Nil without: the payload is the whole text.
        public var payloadSize: Int?
        public init(
            durationKnown: Bool = true, datesFrom: String = "", samples: SampleColumns? = nil,
            contentHash: String? = nil, payloadSize: Int? = nil
        ) {
            self.durationKnown = durationKnown
            self.datesFrom = datesFrom
            self.samples = samples
            self.contentHash = contentHash
            self.payloadSize = payloadSize
        }
    }

    public func validate(
        _ value: JSONValue, receivedAt: Int64, file: FileRecordRules? = nil
    ) throws(Rejection) -> WorkoutRecord {
        guard let o = value.objectValue else {
            throw Rejection(.invalidWorkout, "A workout record must be a JSON object")
        }
        func string(_ key: String) throws(Rejection) -> String {
            guard let v = o[key], !v.isNull else { throw Rejection(.missingField, "Missing field: \(key)") }
            guard let s = v.stringValue, !s.isEmpty else {
                throw Rejection(.invalidField, "Field \(key) must be a non-empty string")
            }
            return s
        }
        func optionalNumber(_ key: String) throws(Rejection) -> Double? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let d = v.doubleValue, d.isFinite else {
                throw Rejection(.invalidField, "Field \(key) must be a number")
            }
            return d
        }
        func time(_ key: String) throws(Rejection) -> Int64 {
            guard let t = RFC3339.parseMillis(try string(key)) else {
                throw Rejection(.invalidTimestamp, "\(key) is not an RFC 3339 timestamp")
            }
            return t
        }
        let id = try string("id")
        guard id.utf8.count <= 200 else { throw Rejection(.invalidField, "id is longer than 200 characters") }
        guard !id.isEmpty, !id.containsControlCharacter else {
            throw Rejection(.invalidField, "id must be non-empty text without control characters")
        }
        let userText = try string("user_id")
        guard UserID.isValid(userText) else { throw Rejection(.invalidField, "user_id is not a valid user id") }
        guard let source = WorkoutSource(rawValue: try string("source")) else {
            throw Rejection(
                .invalidField, "source must be one of \(WorkoutSource.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let updatedAt = try time("updated_at")
        let deleted = o["deleted"]?.boolValue ?? false
        let timeZone = o["time_zone"]?.stringValue
        if let timeZone, timeZone.containsControlCharacter || TimeZone(identifier: timeZone) == nil {
            throw Rejection(.invalidField, "time_zone \(timeZone) is not an IANA time zone")
        }
        if deleted {
            // A tombstone needs only identity and version.
            let start = (try? time("start")) ?? updatedAt
            return WorkoutRecord(
                userID: UserID(userText), workoutID: WorkoutID(id), source: source,
                activityType: o["activity_type"]?.stringValue ?? "other", startAt: start, endAt: start,
                durationS: 0, distanceM: nil, energyKcal: nil, avgHR: nil, maxHR: nil, elevationGainM: nil,
                timeZone: timeZone, samplesJSON: nil, updatedAt: updatedAt, deleted: true,
                contentHash: Hashing.sha256Hex(Array(value.canonicalText.utf8)))
        }
        let activity = try string("activity_type")
        guard Self.activityTypes.contains(activity) else {
            throw Rejection(.invalidField, "activity_type \(activity) is not known")
        }
        let start = try time("start")
        let end = try time("end")
        guard let duration = try optionalNumber("duration_s") else {
            throw Rejection(.missingField, "Missing field: duration_s")
        }
        let durationKnown = file?.durationKnown ?? true
        // Where a workout file's record is refused for its dates, the fields it read them from.
        let datesFrom = file.flatMap { $0.datesFrom.isEmpty ? nil : " (dates read from \($0.datesFrom))" } ?? ""
        guard duration > 0 || !durationKnown && duration == 0 else {
            throw Rejection(
                .invalidDuration, "Invalid duration: \(JSONValue.format(duration)) s (must be > 0)" + datesFrom)
        }
        let fromFile = file != nil || WorkoutValidator.fileSources.contains(source)
        let maxDuration = fromFile ? limits.maxWorkoutFileDurationS : limits.maxDurationS
        guard duration <= maxDuration else {
            throw Rejection(
                .invalidDuration,
                "Invalid duration: \(JSONValue.format(duration)) s is longer than "
                    + "\(JSONValue.format(maxDuration / 3600)) h" + datesFrom)
        }
        guard end >= start else {
            throw Rejection(.invalidDuration, "Invalid duration: end is before start" + datesFrom)
        }
        // A file's record spans at most the file bound from start to end, pauses included (a session dated 2001 that
        // ends in 2026 is no workout, whatever its timer says).
        guard !fromFile || Double(end - start) / 1000 <= maxDuration else {
            throw Rejection(
                .invalidDuration,
                "Invalid duration: end − start is \(JSONValue.format(Double(end - start) / 1000)) s, longer than "
                    + "\(JSONValue.format(maxDuration / 3600)) h" + datesFrom)
        }
        // A workout's moving duration may be shorter than its span (pauses), never longer.
        guard duration <= Double(end - start) / 1000 + limits.durationToleranceS else {
            throw Rejection(
                .invalidDuration,
                "Invalid duration: \(JSONValue.format(duration)) s is longer than end − start" + datesFrom)
        }
        guard Double(start - receivedAt) / 1000 <= limits.clockSkewAllowanceS else {
            throw Rejection(.startInFuture, "start is in the future" + datesFrom)
        }
        guard start >= limits.earliestStartMillis else {
            throw Rejection(
                .startTooEarly,
                "start \(RFC3339.format(millis: start)) is before "
                    + "\(RFC3339.format(millis: limits.earliestStartMillis))" + datesFrom)
        }
        let distance = try optionalNumber("distance_m")
        if let distance, distance < 0 || durationKnown && distance > limits.maxSpeedMps * duration {
            throw Rejection(
                .invalidDistance,
                "distance_m \(JSONValue.format(distance)) is impossible in \(JSONValue.format(duration)) s")
        }
        let energy = try optionalNumber("energy_kcal")
        if let energy, energy < 0 || durationKnown && energy > limits.maxEnergyKcalPerHour * max(duration, 60) / 3600 {
            throw Rejection(
                .invalidEnergy,
                "energy_kcal \(JSONValue.format(energy)) is impossible in \(JSONValue.format(duration)) s")
        }
        let avgHR = try optionalNumber("avg_hr"), maxHR = try optionalNumber("max_hr")
        for (key, hr) in [("avg_hr", avgHR), ("max_hr", maxHR)] {
            if let hr, !limits.heartRateRange.contains(hr) {
                throw Rejection(.invalidHeartRate, "\(key) \(JSONValue.format(hr)) bpm is outside 20–250")
            }
        }
        let samples = o["samples"].flatMap { $0.isNull ? nil : $0.canonicalText }
        var record = WorkoutRecord(
            userID: UserID(userText), workoutID: WorkoutID(id), source: source, activityType: activity,
            startAt: start, endAt: end, durationS: duration, distanceM: distance, energyKcal: energy,
            avgHR: avgHR, maxHR: maxHR, elevationGainM: try optionalNumber("elevation_gain_m"),
            timeZone: timeZone, samplesJSON: samples, updatedAt: updatedAt, deleted: false,
            contentHash: file?.contentHash ?? Hashing.sha256Hex(Array(value.canonicalText.utf8)))
        if samples == nil, let columns = file?.samples { record.samples = .columns(columns) }
        return record
    }
}

/// Users as the account service exports them (`users/*.json`): `{"users": [User]}` or one user per NDJSON line.
public struct UserValidator: Sendable {
    public init() {}
    public func validate(_ value: JSONValue) throws(Rejection) -> User {
        let user: User
        do {
            user = try JSONDecoder().decode(User.self, from: Data(value.canonicalText.utf8))
        } catch {
            throw Rejection(.invalidUser, "User record does not match the schema: \(Self.describe(error))")
        }
        guard UserID.isValid(user.id.rawValue) else { throw Rejection(.invalidUser, "user_id is not a valid user id") }
        guard !user.timeZone.containsControlCharacter, TimeZone(identifier: user.timeZone) != nil else {
            throw Rejection(.invalidUser, "time_zone \(user.timeZone) is not an IANA time zone")
        }
        if let hr = user.profile.maxHR, !(80...250).contains(hr) {
            throw Rejection(.invalidUser, "max_hr outside 80–250")
        }
        if let hr = user.profile.restingHR, !(20...150).contains(hr) {
            throw Rejection(.invalidUser, "resting_hr outside 20–150")
        }
        if let ftp = user.profile.ftpW, !(20...1000).contains(ftp) {
            throw Rejection(.invalidUser, "ftp_w outside 20–1000")
        }
        if let lthr = user.profile.lthr, !(60...250).contains(lthr) {
            throw Rejection(.invalidUser, "lthr outside 60–250")
        }
        return user
    }

    static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "missing \(key.stringValue)"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            "bad value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "unreadable"
        }
    }
}

/// Applies a list of parsed records of one kind (workouts or users) as one atomic unit.
public struct RecordProcessor: Sendable {
    public var store: any PipelineStore
    public var workoutValidator: WorkoutValidator
    public var userValidator = UserValidator()
    /// The run time records are stored at (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }

    public init(store: any PipelineStore, limits: IngestLimits = .init(), clock: PipelineClock = .system) {
        self.store = store; self.workoutValidator = WorkoutValidator(limits: limits); self.clock = clock
    }

    /// Run time read from `now`, wall time the system's.
    public init(store: any PipelineStore, limits: IngestLimits = .init(), now: @escaping @Sendable () -> Int64) {
        self.init(store: store, limits: limits, clock: PipelineClock(now: now))
    }

    public enum Kind: String, Sendable { case workouts, users }

    /// `records` are (source key, parsed value or the unreadable bytes with their rejection).
    /// The user a record names by its parsed value (`user_id`), when it parsed and the id is valid.
    static func owner(
        of records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])], at index: Int
    ) -> UserID? {
        guard let text = (try? records[index].value.get())?["user_id"]?.stringValue, UserID.isValid(text) else {
            return nil
        }
        return UserID(text)
    }

    /// Whose a rejected record's payload is when its value does not say (`QuarantineAttribution`), with its neighbours
    /// for a record cut across two lines. `before` and `after` are the payloads of the records just outside `records`
    /// (an NDJSON file is committed in units of `InboxIngestor.recordsPerUnit` lines: a record cut at a unit's end has
    /// its other piece in the next unit).
    static func attribution(
        of records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])], at index: Int,
        before: [UInt8]? = nil, after: [UInt8]? = nil
    ) -> QuarantineAttribution {
        var attribution = QuarantineAttribution(json: records[index].payload)
        let next = index + 1 < records.count ? records[index + 1].payload : after
        let previous = index > 0 ? records[index - 1].payload : before
        if attribution.endsWithUserIDKey, let next,
            let value = QuarantineAttribution(json: next).leadingString, UserID.isValid(value),
            !attribution.users.contains(UserID(value))
        {
            attribution.users.append(UserID(value))
        }
        if let lead = attribution.leadingString, let previous, UserID.isValid(lead),
            QuarantineAttribution(json: previous).endsWithUserIDKey,
            !attribution.users.contains(UserID(lead))
        {
            attribution.users.append(UserID(lead))
        }
        return attribution
    }

    /// `neighbours`: the payloads of the records just before and after `records` in their file, when it is committed in
    /// several units, so that a record cut across a unit boundary is still attributed (`attribution`).
    public func process(
        kind: Kind, records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])],
        source: String, receivedAt: Int64, ledgerKey: String?, ledgerHash: String?,
        ledgerStamp: String? = nil, alsoQuarantine: [QuarantineRecord] = [],
        fileRules: [WorkoutValidator.FileRecordRules]? = nil,
        neighbours: (before: [UInt8]?, after: [UInt8]?) = (nil, nil)
    ) async throws -> IngestReport {
        try await commit(
            try await prepare(
                kind: kind, records: records, source: source, receivedAt: receivedAt, ledgerKey: ledgerKey,
                ledgerHash: ledgerHash, ledgerStamp: ledgerStamp, alsoQuarantine: alsoQuarantine, fileRules: fileRules,
                neighbours: neighbours))
    }

    /// Records validated into the unit the store's writer applies (`commit(_:)`), with their counts so far.
    public struct PreparedRecords: Sendable {
        var kind: Kind
        var unit: IngestUnit
        var counts: IngestCounts
    }

    /// `process`' validation, everything but the write: it reads the store (which users exist) and writes nothing,
    /// so the records of the next input can be prepared while these are committed.
    func prepare(
        kind: Kind, records: [(key: String, value: Result<JSONValue, Rejection>, payload: [UInt8])],
        source: String, receivedAt: Int64, ledgerKey: String?, ledgerHash: String?,
        ledgerStamp: String?, alsoQuarantine: [QuarantineRecord],
        fileRules: [WorkoutValidator.FileRecordRules]?,
        neighbours: (before: [UInt8]?, after: [UInt8]?), knownUsers known: [UserID: Bool] = [:]
    ) async throws -> PreparedRecords {
        var counts = IngestCounts()
        counts.received = records.count
        var quarantine: [QuarantineRecord] = []
        var workouts: [WorkoutCandidate] = []
        var users: [User] = []
        let at = now()
        // Whether each user exists, read once (a workout file's user is read by `prepareWorkoutFile` already).
        var knownUsers = known
        for (index, record) in records.enumerated() {
            let recordID =
                (try? record.value.get())?["id"]?.stringValue ?? (try? record.value.get())?["user_id"]?.stringValue
            let fileRule = fileRules?[index]
            let keep = workoutValidator.limits.maxQuarantinePayloadBytes
            func reject(_ r: Rejection, user: UserID?) {
                counts.quarantine(r.code)
                // A file's record whose text is not written yet (`FileRecordRules.payloadSize`): written now.
                var (payload, sha256, size) = (record.payload, fileRule?.contentHash, fileRule?.payloadSize)
                if let columns = fileRule?.samples, size == nil, case .success(let value) = record.value {
                    let digest = ImportedRecord.canonicalDigest(value, samples: columns, keep: keep)
                    (payload, sha256, size) = (digest.prefix, digest.hex(), digest.size)
                }
                var rejected = QuarantineRecord(
                    userID: user ?? Self.owner(of: records, at: index), source: source, sourceKey: record.key,
                    recordID: recordID, reasonCode: .rejected(r.code), message: r.message, payload: payload,
                    receivedAt: receivedAt, quarantinedAt: at)
                // Its payload read for whose it is only when its value did not say (`attributed` keeps a named user).
                // A file's record from its fields (its JSON value: the samples, numbers in columns, name nobody), not
                // from its payload, which may be the first bytes of its text only.
                if rejected.userID == nil {
                    let attribution =
                        if fileRule != nil, case .success(let value) = record.value {
                            QuarantineAttribution(json: Array(value.canonicalText.utf8))
                        } else {
                            Self.attribution(of: records, at: index, before: neighbours.before, after: neighbours.after)
                        }
                    rejected = rejected.attributed(attribution)
                }
                quarantine.append(rejected.bounded(to: keep, sha256: sha256, size: size))
            }
            let value: JSONValue
            switch record.value {
            case .failure(let r): reject(r, user: nil); continue
            case .success(let v): value = v
            }
            switch kind {
            case .users:
                do { users.append(try userValidator.validate(value)) } catch { reject(error, user: nil) }
            case .workouts:
                do {
                    let w = try workoutValidator.validate(
                        value, receivedAt: receivedAt, file: fileRules.map { $0[index] })
                    if knownUsers[w.userID] == nil { knownUsers[w.userID] = try await store.user(w.userID) != nil }
                    guard knownUsers[w.userID] == true else {
                        // A deleted user's record arriving later is dropped (counted), not kept.
                        if try await IdentifierHasher.resolve(store: store).wasDeleted(w.userID, in: store) {
                            counts.droppedDeletedUser += 1
                        } else {
                            reject(Rejection(.unknownUser, "Unknown user"), user: w.userID)
                        }
                        continue
                    }
                    let conflict = QuarantineRecord(
                        userID: w.userID, source: source, sourceKey: record.key, recordID: recordID,
                        reasonCode: .rejected(.conflict),
                        message:
                            "Same updated_at as the stored version with different content; the stored one was kept",
                        payload: record.payload, receivedAt: receivedAt, quarantinedAt: at
                    )
                    if let columns = fileRule?.samples, fileRule?.payloadSize == nil {
                        // A file's record hashed from its columns: its canonical text (its payload) is written only
                        // if the writer finds its version stored with another hash — to compare it with a text hash
                        // (a version stored before, or sent as JSON), or to quarantine it as a conflict. In the
                        // writer's transaction, so what a file finds is what the files before it left.
                        let text: @Sendable () -> StreamedDigest = {
                            ImportedRecord.canonicalDigest(value, samples: columns, keep: keep)
                        }
                        workouts.append(
                            WorkoutCandidate(
                                workout: w,
                                sameContentAs: { stored in
                                    !stored.hasPrefix(ImportedRecord.columnsHashPrefix) && stored == text().hex()
                                },
                                conflictQuarantine: {
                                    let digest = text()
                                    var kept = conflict
                                    kept.payload = digest.prefix
                                    return kept.bounded(to: keep, sha256: digest.hex(), size: digest.size)
                                }))
                    } else {
                        // Its payload is its canonical text (or its first bytes, of `payloadSize`), hashed as
                        // `contentHash`.
                        workouts.append(
                            WorkoutCandidate(
                                workout: w,
                                conflictQuarantine: conflict.bounded(
                                    to: keep, sha256: fileRule?.contentHash, size: fileRule?.payloadSize)))
                    }
                } catch let r as Rejection {
                    reject(r, user: nil)
                }
            }
        }
        var unit = IngestUnit(
            ledgerKey: ledgerKey, ledgerHash: ledgerHash, users: users, workouts: workouts,
            quarantine: quarantine + alsoQuarantine)
        unit.ledgerStamp = ledgerStamp
        return PreparedRecords(kind: kind, unit: unit, counts: counts)
    }

    /// Applies prepared records in one transaction and counts what became of each.
    func commit(_ prepared: PreparedRecords) async throws -> IngestReport {
        Self.report(of: prepared, given: try await store.apply(prepared.unit))
    }

    /// What became of prepared records the store has applied with `result`.
    static func report(of prepared: PreparedRecords, given result: IngestUnitResult) -> IngestReport {
        var report = IngestReport()
        var counts = prepared.counts
        let (kind, users, workouts) = (prepared.kind, prepared.unit.users, prepared.unit.workouts)
        if result.alreadyApplied {
            report.batches.received = 1
            report.batches.duplicates = 1
            return report
        }
        report.batches.received = 1
        report.batches.stored = 1
        if kind == .users {
            counts.stored = users.count
            report.touchedUsers.formUnion(users.map(\.id))
            report.users = counts
            return report
        }
        for (outcome, candidate) in zip(result.workoutOutcomes, workouts) {
            switch outcome {
            case .inserted, .updated, .deleted:
                counts.stored += 1
                report.touchedUsers.insert(candidate.workout.userID)
            case .duplicate: counts.duplicates += 1
            case .stale: counts.stale += 1
            case .conflict: counts.quarantine(.conflict)
            }
        }
        report.workouts = counts
        return report
    }
}
