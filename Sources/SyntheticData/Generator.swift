import FTMSDecode
import Foundation
import Ingest
import Store
import Synchronization

/// Generates a realistic, seeded data set: users over real time zones, their bike, rower and treadmill sessions
/// with raw BLE recordings, wrapped in batch-upload JSON exactly as the apps send it, and HealthKit/Garmin-style
/// workout records for runners, with a configurable share of the faults real uploads have.
/// The same configuration gives the same bytes.
public struct Generator: Sendable {
    public struct Configuration: Sendable {
        public var users: Int
        public var days: Int
        public var seed: UInt64
        /// The last local date of the data set (`YYYY-MM-DD`); fixed so the output does not depend on the clock.
        public var endDate: String
        /// Share of sessions that get a fault (0 … 1). Data-set faults (unknown user, malformed JSON, an
        /// oversized batch, bad workout records) are added whenever this is above 0.
        public var faultRate: Double
        /// What the users do and how long their recordings are; ``Shape/mixed`` unless asked.
        public var shape: Shape
        public init(
            users: Int = 20, days: Int = 28, seed: UInt64 = 42, endDate: String = "2026-11-20",
            faultRate: Double = 0.06, shape: Shape = .mixed
        ) {
            self.users = users; self.days = days; self.seed = seed; self.endDate = endDate; self.faultRate = faultRate
            self.shape = shape
        }
    }

    /// The shape of the data set's recordings.
    public enum Shape: String, Sendable, CaseIterable {
        /// Bike, rower and treadmill users and outdoor runners; sessions of 15–75 minutes with every field the
        /// simulated machines send (the default; the data set every digest and test is written against).
        case mixed
        /// Every user rides an indoor bike, one hour a session, with a heart-rate strap: Indoor Bike Data at 1 Hz
        /// with speed, cadence, distance, power, energy and elapsed time, and a Heart Rate Measurement at 1 Hz
        /// without RR intervals — about 130 KB of recording (175 KB of upload JSON) a session. The same draws
        /// decide days, start times, pauses and faults as in ``mixed``.
        case oneHour1Hz = "one-hour-1hz"
    }

    public static let timeZones = [
        "Europe/Berlin", "America/Los_Angeles", "Asia/Tokyo", "America/New_York", "Australia/Sydney", "Asia/Kolkata",
        "Europe/London", "America/Sao_Paulo", "Pacific/Auckland", "Asia/Kathmandu", "America/St_Johns", "Asia/Taipei",
        "Africa/Johannesburg", "Asia/Shanghai", "UTC",
    ]

    public var configuration: Configuration
    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// What one user adds to the data set besides the files it wrote (`generate`).
    struct UserPart {
        var files: Int
        var faults: [ManifestFault]
        var userRecord: JSONValue
        var workoutLines: [String]
        var manifestUser: ManifestUser
    }

    /// Writes `text` at `relative` inside `directory`, creating the folders on the way.
    static func write(_ text: String, to relative: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    enum UserKind: String, CaseIterable { case bike, rower, runner, mixed }

    struct PendingSession {
        var upload: [String: JSONValue]
        var endedAt: Int64
        var startedAt: Int64
    }

    /// Writes the data set into `directory` (created if needed) and returns its manifest (also written as
    /// `manifest.json`). `progress` is told the users done and the users asked for, as each user's files are written
    /// (from whichever thread wrote them).
    @discardableResult
    public func generate(
        into directory: URL, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> GenerationManifest {
        let c = configuration
        guard let end = LocalDate(iso: c.endDate) else { throw GeneratorError.badEndDate(c.endDate) }
        guard c.users >= 0, c.days >= 1 else { throw GeneratorError.badSize }
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        var rng = SeededRandom(seed: c.seed)
        var files = 0
        var faults: [ManifestFault] = []
        var manifestUsers: [ManifestUser] = []
        var userRecords: [JSONValue] = []
        var workoutLines: [String] = []

        func write(_ text: String, to relative: String) throws {
            try Self.write(text, to: relative, in: directory)
            files += 1
        }

        // Each user draws from a stream of their own, forked here in index order, so the users are generated on every
        // core and merged in index order: the same bytes as one after the other (`GeneratorTests`).
        let streams = (0..<c.users).map { _ in rng.fork() }
        var parts = [Result<UserPart, any Error>?](repeating: nil, count: c.users)
        let done = Atomic<Int>(0)
        parts.withUnsafeMutableBufferPointer { results in
            // Each iteration writes its own element only.
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: c.users) { index in
                results[index] = Result { try user(index, streams[index]) }
                progress?(done.add(1, ordering: .relaxed).newValue, c.users)
            }
        }
        for part in parts {
            let part = try part!.get()
            files += part.files
            faults += part.faults
            userRecords.append(part.userRecord)
            workoutLines += part.workoutLines
            manifestUsers.append(part.manifestUser)
        }

        /// One user's records, sessions and workouts: their files written, the rest returned for the merge.
        @Sendable func user(_ index: Int, _ stream: SeededRandom) throws -> UserPart {
            var urng = stream
            // This user's share, under the names the loop body appends to (one user record, one manifest entry).
            var files = 0
            var faults: [ManifestFault] = []
            var userRecords: [JSONValue] = []
            var workoutLines: [String] = []
            var manifestUsers: [ManifestUser] = []
            func write(_ text: String, to relative: String) throws {
                try Self.write(text, to: relative, in: directory)
                files += 1
            }
            let userID = String(format: "user-%04d", index + 1)
            // User 1 always lives in Berlin and user 2 in Los Angeles: DST changes and midnight rides land on them.
            let zoneName = index == 0 ? "Europe/Berlin" : index == 1 ? "America/Los_Angeles" : urng.pick(Self.timeZones)
            let zone = TimeZone(identifier: zoneName)!
            let drawnKind: UserKind = index == 0 ? .runner : index == 1 ? .bike : urng.pick(UserKind.allCases)
            let kind: UserKind = c.shape == .mixed ? drawnKind : .bike
            let sex: Sex = urng.chance(0.5) ? .male : .female
            let birthYear = urng.int(1960, 2004)
            let maxHR = Double(208 - Int(0.7 * Double(2026 - birthYear)) + urng.int(-6, 6))
            let body = Physiology(
                ftpW: (urng.uniform(150, 320) / 5).rounded() * 5, restingHR: Double(urng.int(45, 68)),
                maxHR: maxHR, massKg: urng.uniform(52, 95).rounded(), thresholdSpeedKmh: urng.uniform(10, 16.5))
            let available: [Weekday] = Weekday.allCases.filter { _ in urng.chance(0.75) }
            let days = available.count >= 3 ? available : [.tue, .thu, .sat, .sun]
            var profile: [String: JSONValue] = [
                "sex": .string(sex.rawValue), "birth_year": .number(Double(birthYear)), "max_hr": .number(maxHR),
                "resting_hr": .number(body.restingHR), "ftp_w": .number(body.ftpW),
                // LTHR at 90 % of the heart-rate reserve (no random draw: the rest of the data set stays as it was).
                "lthr": .number((body.restingHR + 0.9 * (maxHR - body.restingHR)).rounded()),
                "threshold_pace_s_per_km": .number((3600 / body.thresholdSpeedKmh).rounded()),
                "available_days": .array(days.map { .string($0.rawValue) }),
                "long_run_day": .string(days.contains(.sun) ? "sun" : days.last!.rawValue),
                "max_run_days": .number(Double(min(days.count, 5))),
                "experience": .string(urng.pick(["novice", "intermediate", "experienced"])),
            ]
            if kind == .runner || kind == .mixed {
                // Marathons are run on weekends: the drawn day moves to the next Sunday, or to the Saturday
                // before it for one race in five (no extra draw: the rest of the data set stays as it was).
                let drawn = urng.int(70, 150)
                let sunday = end.adding(days: drawn).nextSunday
                let race = drawn % 5 == 0 ? sunday.adding(days: -1) : sunday
                profile["goal_race"] = .object([
                    "date": .string(race.iso), "distance_m": .number(42195),
                    "goal_time_s": .number(Double(urng.int(190, 300) * 60)),
                ])
            }
            userRecords.append(
                .object([
                    "user_id": .string(userID), "time_zone": .string(zoneName), "profile": .object(profile),
                    "bound_device_id": .string("device-\(userID)"), "created_at_ms": .number(0),
                ]))

            // Which days this user trains, and when.
            let consistency = index < 2 ? 0.85 : urng.uniform(0.3, 0.9)
            var plannedSessions: [(start: Int64, sport: SimulatedSport, shape: WorkoutShape, seconds: Int)] = []
            var plannedRuns: [(start: Int64, seconds: Int)] = []
            for offset in stride(from: c.days - 1, through: 0, by: -1) {
                let day = end.adding(days: -offset)
                let lastWeek = offset < 8
                // User 1 trains every one of the last 8 days; user 2 rides every evening of the last 8 days
                // starting at 23:35 local, so each ride straddles local midnight.
                let trains = (index < 2 && lastWeek) || urng.chance(consistency)
                guard trains else { continue }
                let (hour, minute) = index == 1 && lastWeek ? (23, 35) : (urng.int(6, 20), urng.int(0, 59))
                let start = day.instant(hour: hour, minute: minute, in: zone) + Int64(urng.int(0, 59) * 1000)
                let sport: SimulatedSport?
                switch kind {
                case .bike: sport = .bike
                case .rower: sport = .rower
                case .runner: sport = urng.chance(0.2) ? .treadmill : nil
                case .mixed: sport = urng.pick([SimulatedSport.bike, .rower, .treadmill, .bike])
                }
                if let sport {
                    let drawnMinutes =
                        switch sport {
                        case .bike: urng.int(20, 75)
                        case .rower: urng.int(15, 45)
                        case .treadmill: urng.int(20, 50)
                        }
                    let minutes = c.shape == .mixed ? drawnMinutes : 60
                    plannedSessions.append((start, sport, urng.pick(WorkoutShape.allCases), minutes * 60))
                } else {
                    plannedRuns.append((start, urng.int(25, 110) * 60))
                }
            }

            // Sessions: simulate, record, summarise, inject faults, batch.
            var manifestSessions: [ManifestSession] = []
            var pending: [PendingSession] = []
            var laterUploads: [PendingSession] = [] // duplicates and conflicting copies, uploaded after the original
            var batchNumber = 0
            func flush(receivedAt: Int64) throws {
                let all = pending + laterUploads
                laterUploads.removeAll()
                pending.removeAll()
                guard !all.isEmpty else { return }
                let ordered = all.sorted { $0.startedAt < $1.startedAt }
                for chunkStart in stride(from: 0, to: ordered.count, by: 20) {
                    let chunk = ordered[chunkStart..<min(chunkStart + 20, ordered.count)]
                    batchNumber += 1
                    let body = JSONValue.object(["sessions": .array(chunk.map { .object($0.upload) })]).canonicalText
                    try write(
                        body,
                        to: "sessions/\(userID)/\(Self.stamp(receivedAt))-\(String(format: "%04d", batchNumber)).json")
                }
            }
            for (n, plan) in plannedSessions.enumerated() {
                var srng = urng.fork()
                let pause: (Int, Int)? =
                    srng.chance(0.3) ? (plan.seconds / 2 + srng.int(-120, 120), srng.int(30, 120)) : nil
                let sim = BodySimulator.simulate(
                    sport: plan.sport, shape: plan.shape, seconds: plan.seconds, body: body,
                    pause: pause, rng: &srng)
                let fault: String? =
                    srng.chance(c.faultRate)
                    ? srng.pick([
                        "duplicate", "truncated_blob", "invalid_duration", "clock_ahead", "missing_hr_strap",
                        "negative_energy", "bad_base64", "conflict",
                    ]) : nil
                var options = SessionRecorder.Options()
                options.heartRateStrap = fault != "missing_hr_strap"
                if c.shape == .oneHour1Hz {
                    options.resistance = false
                    options.rrIntervals = false
                }
                options.model =
                    switch plan.sport {
                    case .bike: "SF-Bike-200"
                    case .rower: "SF-Rower-100"
                    case .treadmill: "SF-Tread-300"
                    }
                var blob = SessionRecorder.record(sim, startMillis: plan.start, options: options, rng: &srng)
                if fault == "truncated_blob" {
                    blob = Array(blob.prefix(blob.count / 2 + srng.int(1, 7)))
                }
                let sessionID = srng.uuid()
                let ended = plan.start + Int64(plan.seconds) * 1000
                let totalEnergy = (sim.energyKcal.last ?? 0).rounded(.down)
                let totalDistance = (sim.distanceM.last ?? 0).rounded(.down)
                let working = zip(sim.powerW, sim.paused).filter { !$1 }.map(\.0)
                var detail: [String: JSONValue] = [
                    "machine_type": .string(plan.sport.rawValue), "workout_shape": .string(plan.shape.rawValue),
                    "paused_seconds": .number(Double(sim.paused.filter { $0 }.count)),
                ]
                if plan.sport != .treadmill, !working.isEmpty {
                    detail["avg_power"] = .number((working.reduce(0, +) / Double(working.count)).rounded())
                    detail["max_power"] = .number(working.max() ?? 0)
                }
                if options.heartRateStrap {
                    detail["avg_hr"] = .number((sim.heartRate.reduce(0, +) / Double(sim.seconds)).rounded())
                    detail["max_hr"] = .number(sim.heartRate.max() ?? 0)
                }
                var upload: [String: JSONValue] = [
                    "session_id": .string(sessionID), "started_at": .string(RFC3339.format(millis: plan.start)),
                    "ended_at": .string(RFC3339.format(millis: ended)), "duration": .number(Double(plan.seconds)),
                    "total_energy": .number(totalEnergy), "total_distance": .number(totalDistance),
                    "detail": .object(detail), "raw": .string(Data(blob).base64EncodedString()),
                ]
                let received = ended + Int64(srng.int(60, 600)) * 1000
                var counts = true
                let file = "sessions/\(userID)/\(Self.stamp(received))-*.json"
                /// What the pipeline should do with this session (the manifest's `expected`); nil: no fault.
                let expected: String?
                switch fault {
                case "invalid_duration":
                    upload["duration"] = .number(srng.chance(0.5) ? 0 : Double(plan.seconds * 3))
                    expected = "quarantine:invalid_duration"
                    counts = false
                case "clock_ahead":
                    let shift: Int64 = 3 * 3600 * 1000
                    upload["started_at"] = .string(RFC3339.format(millis: plan.start + shift))
                    upload["ended_at"] = .string(RFC3339.format(millis: ended + shift))
                    expected = "quarantine:start_in_future"
                    counts = false
                case "negative_energy":
                    upload["total_energy"] = .number(-Double(srng.int(1, 500)))
                    expected = "quarantine:invalid_energy"
                    counts = false
                case "bad_base64":
                    var text = Data(blob).base64EncodedString()
                    text.insert("*", at: text.index(text.startIndex, offsetBy: text.count / 2))
                    text.removeLast()
                    upload["raw"] = .string(text)
                    expected = "quarantine:invalid_base64"
                    counts = false
                case "truncated_blob":
                    expected = "stored:truncated_blob"
                case "missing_hr_strap":
                    expected = "stored:no_heart_rate"
                case "duplicate":
                    laterUploads.append(PendingSession(upload: upload, endedAt: ended, startedAt: plan.start))
                    expected = "duplicate"
                case "conflict":
                    var copy = upload
                    copy["total_energy"] = .number(totalEnergy + 17)
                    laterUploads.append(PendingSession(upload: copy, endedAt: ended, startedAt: plan.start))
                    expected = "quarantine:conflict"
                default: expected = nil
                }
                if let fault, let expected {
                    faults.append(
                        .init(kind: fault, userID: userID, recordID: sessionID, file: file, expected: expected))
                }
                if counts {
                    manifestSessions.append(
                        ManifestSession(
                            sessionID: sessionID, sport: plan.sport.rawValue, startedAtMillis: plan.start,
                            durationS: Double(plan.seconds), totalEnergyKcal: totalEnergy,
                            totalDistanceM: totalDistance,
                            hasHeartRate: options.heartRateStrap,
                            blob: fault == "truncated_blob" ? "truncated" : "complete"))
                }
                pending.append(PendingSession(upload: upload, endedAt: ended, startedAt: plan.start))
                // The phone is online after most sessions; otherwise the session waits for the next upload.
                let online = n == plannedSessions.count - 1 || srng.chance(0.85)
                if online {
                    // Re-uploads (duplicates, conflicting copies) go in a batch of their own, after the originals.
                    let later = laterUploads
                    laterUploads.removeAll()
                    try flush(receivedAt: received)
                    laterUploads = later
                    if !laterUploads.isEmpty { try flush(receivedAt: received + 60_000) }
                }
            }

            // Outdoor runs as HealthKit / Garmin workout records, some updated, some deleted, some arriving late.
            var manifestWorkouts: [ManifestWorkout] = []
            for run in plannedRuns {
                var wrng = urng.fork()
                let source = wrng.chance(0.6) ? "apple_health" : "garmin"
                let id = "\(source == "garmin" ? "gm" : "hk")-\(wrng.uuid())"
                let kmh = body.thresholdSpeedKmh * wrng.uniform(0.7, 0.88)
                var distance = (kmh / 3.6 * Double(run.seconds)).rounded()
                let energy = (Double(run.seconds) / 60 * body.massKg * wrng.uniform(0.14, 0.18)).rounded()
                let end = run.start + Int64(run.seconds) * 1000
                var version = end + 120_000
                func record(deleted: Bool = false) -> String {
                    var o: [String: JSONValue] = [
                        "id": .string(id), "user_id": .string(userID), "source": .string(source),
                        "updated_at": .string(RFC3339.format(millis: version)), "deleted": .bool(deleted),
                    ]
                    if !deleted {
                        o["activity_type"] = .string("running")
                        o["start"] = .string(RFC3339.format(millis: run.start))
                        o["end"] = .string(RFC3339.format(millis: end))
                        o["duration_s"] = .number(Double(run.seconds))
                        o["distance_m"] = .number(distance)
                        o["energy_kcal"] = .number(energy)
                        o["avg_hr"] = .number(Double(Int(body.restingHR + (body.maxHR - body.restingHR) * 0.68)))
                        o["max_hr"] = .number(Double(Int(body.restingHR + (body.maxHR - body.restingHR) * 0.85)))
                        o["elevation_gain_m"] = .number(Double(wrng.int(0, 180)))
                        o["time_zone"] = .string(zoneName)
                    }
                    return JSONValue.object(o).canonicalText
                }
                let first = record()
                workoutLines.append(first)
                var deleted = false
                if c.faultRate > 0, wrng.chance(0.1) {
                    // Corrected later (GPS fix): a newer version, then the older copy again (must stay stale).
                    distance = (distance * 0.97).rounded()
                    version += 3_600_000
                    workoutLines.append(record())
                    workoutLines.append(first)
                    faults.append(
                        .init(
                            kind: "workout_out_of_order", userID: userID, recordID: id, file: "workouts/*",
                            expected: "stale"))
                } else if c.faultRate > 0, wrng.chance(0.05) {
                    version += 7_200_000
                    workoutLines.append(record(deleted: true))
                    workoutLines.append(first)
                    deleted = true
                    faults.append(
                        .init(
                            kind: "workout_late_copy_after_delete", userID: userID, recordID: id, file: "workouts/*",
                            expected: "stale"))
                }
                manifestWorkouts.append(
                    ManifestWorkout(
                        workoutID: id, activityType: "running", startMillis: run.start,
                        durationS: Double(run.seconds), distanceM: distance, energyKcal: energy,
                        timeZone: zoneName, deleted: deleted))
            }
            manifestUsers.append(
                ManifestUser(
                    userID: userID, timeZone: zoneName, kind: kind.rawValue,
                    sessions: manifestSessions, workouts: manifestWorkouts))
            return UserPart(
                files: files, faults: faults, userRecord: userRecords[0], workoutLines: workoutLines,
                manifestUser: manifestUsers[0])
        }

        var unknownUsers: [String] = []
        if c.faultRate > 0, let firstUser = manifestUsers.first {
            var frng = rng.fork()
            let endNoon = end.instant(hour: 12, minute: 0, in: TimeZone(identifier: "UTC")!)
            func sessionObject(start: Int64, minutes: Int) -> JSONValue {
                .object([
                    "session_id": .string(frng.uuid()), "started_at": .string(RFC3339.format(millis: start)),
                    "ended_at": .string(RFC3339.format(millis: start + Int64(minutes) * 60_000)),
                    "duration": .number(Double(minutes * 60)), "total_energy": .number(Double(minutes * 9)),
                    "total_distance": .number(Double(minutes * 500)), "detail": .object(["avg_hr": .number(140)]),
                ])
            }
            // Uploads for a user the account service does not know.
            let ghost = "user-ghost"
            unknownUsers.append(ghost)
            let ghostBatch = JSONValue.object([
                "sessions": .array([
                    sessionObject(start: endNoon - 86_400_000, minutes: 30),
                    sessionObject(start: endNoon, minutes: 40),
                ])
            ])
            try write(ghostBatch.canonicalText, to: "sessions/\(ghost)/\(Self.stamp(endNoon + 3_600_000))-0001.json")
            for item in ghostBatch["sessions"]!.arrayValue! {
                faults.append(
                    .init(
                        kind: "unknown_user", userID: ghost, recordID: item["session_id"]?.stringValue,
                        file: "sessions/\(ghost)/*", expected: "quarantine:unknown_user"))
            }
            // A batch cut off mid-transfer: not JSON.
            let broken = "{\"sessions\": [{\"session_id\": \"\(frng.uuid())\", \"started_at\": \"2026-"
            let brokenName = "sessions/\(firstUser.userID)/\(Self.stamp(endNoon + 7_200_000))-9001.json"
            try write(broken, to: brokenName)
            faults.append(
                .init(
                    kind: "malformed_json", userID: firstUser.userID, recordID: nil, file: brokenName,
                    expected: "quarantine:malformed_json"))
            // A client bug: 21 sessions in one batch.
            let big = JSONValue.object([
                "sessions": .array(
                    (0..<21).map { sessionObject(start: endNoon - Int64($0 + 30) * 86_400_000, minutes: 20) })
            ])
            let bigName = "sessions/\(firstUser.userID)/\(Self.stamp(endNoon + 7_300_000))-9002.json"
            try write(big.canonicalText, to: bigName)
            faults.append(
                .init(
                    kind: "oversized_batch", userID: firstUser.userID, recordID: nil, file: bigName,
                    expected: "quarantine:batch_too_large"))
            // Workout records that break the rules.
            let badWorkout = JSONValue.object([
                "id": .string("hk-bad-\(frng.uuid())"), "user_id": .string(firstUser.userID),
                "source": .string("apple_health"),
                "activity_type": .string("running"), "start": .string(RFC3339.format(millis: endNoon)),
                "end": .string(RFC3339.format(millis: endNoon + 1_800_000)), "duration_s": .number(-5),
                "updated_at": .string(RFC3339.format(millis: endNoon + 1_900_000)),
            ])
            workoutLines.append(badWorkout.canonicalText)
            faults.append(
                .init(
                    kind: "workout_invalid_duration", userID: firstUser.userID, recordID: badWorkout["id"]?.stringValue,
                    file: "workouts/*", expected: "quarantine:invalid_duration"))
            let strangerWorkout = JSONValue.object([
                "id": .string("gm-\(frng.uuid())"), "user_id": .string(ghost), "source": .string("garmin"),
                "activity_type": .string("running"), "start": .string(RFC3339.format(millis: endNoon)),
                "end": .string(RFC3339.format(millis: endNoon + 1_800_000)), "duration_s": .number(1800),
                "updated_at": .string(RFC3339.format(millis: endNoon + 1_900_000)),
            ])
            workoutLines.append(strangerWorkout.canonicalText)
            faults.append(
                .init(
                    kind: "workout_unknown_user", userID: ghost, recordID: strangerWorkout["id"]?.stringValue,
                    file: "workouts/*", expected: "quarantine:unknown_user"))
            workoutLines.append("{\"id\": \"hk-truncated\", \"user_id\": ")
            faults.append(
                .init(
                    kind: "workout_malformed_json", userID: firstUser.userID, recordID: nil, file: "workouts/*",
                    expected: "quarantine:malformed_json"))
        }

        try write(JSONValue.object(["users": .array(userRecords)]).canonicalText, to: "users/users.json")
        if !workoutLines.isEmpty {
            let stamp = Self.stamp(end.adding(days: 1).instant(hour: 2, minute: 0, in: TimeZone(identifier: "UTC")!))
            try write(workoutLines.joined(separator: "\n") + "\n", to: "workouts/\(stamp)-workouts.ndjson")
        }
        let manifest = GenerationManifest(
            seed: c.seed, days: c.days, endDate: c.endDate, faultRate: c.faultRate,
            users: manifestUsers, unknownUsers: unknownUsers, faults: faults, files: files)
        // The package's JSON writer, in the layout `JSONEncoder` with `[.sortedKeys, .prettyPrinted]` wrote (`/` escaped).
        try Data(SortedJSONEncoder.encode(manifest, numbers: .asEncoded).prettyText(escapingSlashes: true).utf8).write(
            to: directory.appendingPathComponent("manifest.json"))
        return manifest
    }

    /// `YYYYMMDDTHHMMSSZ`, the inbox's arrival-time file-name prefix.
    static func stamp(_ millis: Int64) -> String {
        let iso = RFC3339.format(millis: millis) // 2026-11-20T10:00:00.000Z
        let c = Array(iso)
        return String(c[0..<4] + c[5..<7] + c[8..<10]) + "T" + String(c[11..<13] + c[14..<16] + c[17..<19]) + "Z"
    }
}

public enum GeneratorError: Error, CustomStringConvertible {
    case badEndDate(String)
    case badSize
    public var description: String {
        switch self {
        case .badEndDate(let s): "end date \(s) is not YYYY-MM-DD"
        case .badSize: "users must be ≥ 0 and days ≥ 1"
        }
    }
}

extension SeededRandom {
    /// A version-4 UUID from this generator (lower case).
    mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: next()) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let h = Array(lowercaseHex(bytes))
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-"
            + String(h[20..<32])
    }
}

/// The generator's schedule in the one calendar (`LocalDate`).
extension LocalDate {
    /// This date if it is a Sunday, else the next Sunday.
    fileprivate var nextSunday: LocalDate { adding(days: (Weekday.sun.index - weekday.index + 7) % 7) }

    /// The instant of a local wall-clock time on this date in `zone` (a time skipped by a DST change moves forward).
    fileprivate func instant(hour: Int, minute: Int, in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
        return date.epochMillis
    }
}
