import Foundation

/// The `marathon-plan/1` document: the request echoed back and either a plan or an error.
public struct PlanDocument: Codable, Sendable, Equatable {
    public static let formatName = "marathon-plan/1"

    public var format: String
    public var request: PlanRequest
    public var plan: Plan?
    public var error: PlanError?
    /// With some refusals (`BasePlan.offeredFor`): a plan without a race that builds the base the marathon needs.
    public var basePlan: BasePlan?

    enum CodingKeys: String, CodingKey { case format, request, plan, error, basePlan = "base_plan" }

    public init(
        format: String = PlanDocument.formatName, request: PlanRequest, plan: Plan? = nil, error: PlanError? = nil,
        basePlan: BasePlan? = nil
    ) {
        self.format = format; self.request = request; self.plan = plan; self.error = error; self.basePlan = basePlan
    }

    /// Pretty, key-sorted JSON (what the CLI prints, the store keeps and the API serves): the package's JSON writer
    /// (`SortedJSON.prettyText`), the bytes `JSONEncoder` writes with `[.prettyPrinted, .sortedKeys,
    /// .withoutEscapingSlashes]` (checked against it in `SortedJSONTests`).
    public func jsonText() throws -> String {
        try SortedJSONEncoder.encode(self, numbers: .asEncoded).prettyText
    }

    /// `jsonText()` as UTF-8.
    public func jsonData() throws -> Data { Data(try jsonText().utf8) }

    public static func decode(_ data: Data) throws -> PlanDocument {
        try JSONDecoder().decode(PlanDocument.self, from: data)
    }
}

/// A coded message: plan warnings and adaptation reasons.
public struct Notice: Codable, Sendable, Equatable, Hashable {
    public var code: String
    public var message: String
    public init(code: String, message: String) { self.code = code; self.message = message }
}

/// Known warning and reason codes.
public enum NoticeCode {
    public static let goalAggressive = "GOAL_AGGRESSIVE"
    /// The goal is more than 5 % slower than current fitness predicts: the plan names both times.
    public static let goalConservative = "GOAL_CONSERVATIVE"
    public static let shortBuild = "SHORT_BUILD"
    public static let lowBase = "LOW_BASE"
    public static let fitnessUnknown = "FITNESS_UNKNOWN"
    public static let deferredStart = "DEFERRED_START"
    /// `start_date` was before the request's local today (`generated_at`): the plan starts today instead.
    public static let startClamped = "START_CLAMPED"
    /// A break close to the race: the goal needs revising (adaptation).
    public static let goalRevise = "GOAL_REVISE"
    /// The available days cannot hold every quality session within the rules: some are given up.
    public static let qualityDropped = "QUALITY_DROPPED"
    /// A base plan's first warning: the refusal it stands in for, and when the marathon becomes feasible.
    public static let basePlan = "BASE_PLAN"
    // Adaptation reasons (docs/ADAPTATION.md).
    public static let missedWorkouts = "MISSED_WORKOUTS"
    public static let missedWeek = "MISSED_WEEK"
    public static let breakReturn = "BREAK_RETURN"
    public static let longBreak = "LONG_BREAK"
    public static let overachieved = "OVERACHIEVED"
    public static let vdotUp = "VDOT_UP"
    public static let vdotDown = "VDOT_DOWN"
    public static let raceResult = "RACE_RESULT"
    public static let timezoneChanged = "TIMEZONE_CHANGED"
    public static let volumeRecomputed = "VOLUME_RECOMPUTED"
    public static let onTrack = "ON_TRACK"
    /// (adaptation) the build could not resume within the rules: the coming weeks are a new plan from the real weeks.
    public static let planRestarted = "PLAN_RESTARTED"
    public static let currentWeekEased = "CURRENT_WEEK_EASED"
}

/// Why the engine refused.
public struct PlanError: Codable, Sendable, Equatable, Error {
    public enum Code: String, Codable, Sendable, CaseIterable {
        case raceInPast = "RACE_IN_PAST"
        case raceTooSoon = "RACE_TOO_SOON"
        case notMarathon = "NOT_MARATHON"
        case tooFewDays = "TOO_FEW_DAYS"
        case insufficientBase = "INSUFFICIENT_BASE"
        case invalidRequest = "INVALID_REQUEST"
    }

    public var code: Code
    public var message: String
    /// What the runner can do about it.
    public var suggestion: String?
    public var weeksAvailable: Int?

    enum CodingKeys: String, CodingKey { case code, message, suggestion, weeksAvailable = "weeks_available" }

    public init(code: Code, message: String, suggestion: String? = nil, weeksAvailable: Int? = nil) {
        self.code = code; self.message = message; self.suggestion = suggestion; self.weeksAvailable = weeksAvailable
    }
}

public struct Plan: Codable, Sendable, Equatable {
    public var timezone: String
    public var weekStart: Weekday
    public var startDate: LocalDate?
    public var raceDate: LocalDate
    public var trainingVdot: Double?
    /// How the VDOT was obtained (`race`, `given`, `estimated_from_volume`, …).
    public var vdotSource: String?
    public var paces: Paces
    public var warnings: [Notice]
    public var weeks: [Week]
    public var engine: EngineInfo?
    public var adaptation: Adaptation?
    /// 1 for a new plan, +1 for each adaptation.
    public var version: Int?
    /// Earlier versions, oldest first: what each planned per week and why it changed.
    public var history: [VersionSummary]?
    /// An adapted plan's weeks before its first regenerated week (`weeks[0]`), kept exactly as the earlier versions
    /// planned them (the past is never rewritten). `weeks` holds what is planned from the adaptation's boundary on,
    /// so the weeks before week 1 are the runner's real ones (`request.runner.baseline.recent_weeks_m`), as the
    /// format's adapt mode reads them (docs/ADAPTATION.md, A1).
    public var pastWeeks: [Week]?

    /// Every week of the build, kept and coming, oldest first: what a runner's calendar shows.
    public var allWeeks: [Week] { (pastWeeks ?? []) + weeks }

    enum CodingKeys: String, CodingKey {
        case timezone, weekStart = "week_start", startDate = "start_date", raceDate = "race_date"
        case trainingVdot = "training_vdot", vdotSource = "vdot_source", paces, warnings, weeks, engine, adaptation
        case version, history, pastWeeks = "past_weeks"
    }

    public init(
        timezone: String, weekStart: Weekday, startDate: LocalDate? = nil, raceDate: LocalDate,
        trainingVdot: Double? = nil, vdotSource: String? = nil, paces: Paces, warnings: [Notice] = [],
        weeks: [Week], engine: EngineInfo? = nil, adaptation: Adaptation? = nil, version: Int? = nil,
        history: [VersionSummary]? = nil
    ) {
        self.timezone = timezone; self.weekStart = weekStart; self.startDate = startDate; self.raceDate = raceDate
        self.trainingVdot = trainingVdot; self.vdotSource = vdotSource; self.paces = paces; self.warnings = warnings
        self.weeks = weeks; self.engine = engine; self.adaptation = adaptation; self.version = version
        self.history = history
    }
}

public struct EngineInfo: Codable, Sendable, Equatable {
    public var name: String
    public var version: String
    public init(name: String, version: String) { self.name = name; self.version = version }
}

public struct Adaptation: Codable, Sendable, Equatable {
    public var asOf: LocalDate
    public var reasons: [Notice]
    public var previousVersion: Int?

    enum CodingKeys: String, CodingKey { case asOf = "as_of", reasons, previousVersion = "previous_version" }

    public init(asOf: LocalDate, reasons: [Notice], previousVersion: Int? = nil) {
        self.asOf = asOf; self.reasons = reasons; self.previousVersion = previousVersion
    }
}

/// One earlier version of a plan, kept so the app can show what changed and why.
public struct VersionSummary: Codable, Sendable, Equatable {
    public var version: Int
    public var createdOn: LocalDate?
    public var reasons: [Notice]
    public var trainingVdot: Double?
    /// Planned running volume of every week of that version, in week order.
    public var weekVolumesM: [Double]
    public var weekStartDates: [LocalDate]

    enum CodingKeys: String, CodingKey {
        case version, createdOn = "created_on", reasons, trainingVdot = "training_vdot"
        case weekVolumesM = "week_volumes_m", weekStartDates = "week_start_dates"
    }

    public init(
        version: Int, createdOn: LocalDate?, reasons: [Notice], trainingVdot: Double?,
        weekVolumesM: [Double], weekStartDates: [LocalDate]
    ) {
        self.version = version; self.createdOn = createdOn; self.reasons = reasons; self.trainingVdot = trainingVdot
        self.weekVolumesM = weekVolumesM; self.weekStartDates = weekStartDates
    }
}

public enum Zone: String, Codable, Sendable, CaseIterable {
    case easy, marathon, threshold, interval, repetition
}

/// A pace band in seconds per kilometre: `min` is the fast end, `max` the slow end.
public struct PaceRange: Codable, Sendable, Equatable {
    public var minSPerKm: Double
    public var maxSPerKm: Double

    enum CodingKeys: String, CodingKey { case minSPerKm = "min_s_per_km", maxSPerKm = "max_s_per_km" }

    public init(minSPerKm: Double, maxSPerKm: Double) { self.minSPerKm = minSPerKm; self.maxSPerKm = maxSPerKm }

    public var mid: Double { (minSPerKm + maxSPerKm) / 2 }
}

public struct Paces: Codable, Sendable, Equatable {
    public var easy: PaceRange
    public var marathon: PaceRange
    public var threshold: PaceRange
    public var interval: PaceRange
    public var repetition: PaceRange

    public init(easy: PaceRange, marathon: PaceRange, threshold: PaceRange, interval: PaceRange, repetition: PaceRange)
    {
        self.easy = easy; self.marathon = marathon; self.threshold = threshold
        self.interval = interval; self.repetition = repetition
    }

    public subscript(zone: Zone) -> PaceRange {
        switch zone {
        case .easy: easy
        case .marathon: marathon
        case .threshold: threshold
        case .interval: interval
        case .repetition: repetition
        }
    }
}

public enum Phase: String, Codable, Sendable { case base, build, peak, taper, race, recovery }

public struct Week: Codable, Sendable, Equatable {
    public var index: Int?
    public var startDate: LocalDate
    public var phase: Phase?
    public var days: [Day]
    /// Informative: planned running volume of the week (race excluded).
    public var plannedDistanceM: Double?

    enum CodingKeys: String, CodingKey {
        case index, startDate = "start_date", phase, days, plannedDistanceM = "planned_distance_m"
    }

    public init(
        index: Int? = nil, startDate: LocalDate, phase: Phase? = nil, days: [Day], plannedDistanceM: Double? = nil
    ) {
        self.index = index; self.startDate = startDate; self.phase = phase; self.days = days
        self.plannedDistanceM = plannedDistanceM
    }
}

public struct Day: Codable, Sendable, Equatable {
    public var date: LocalDate
    public var workouts: [Workout]
    public init(date: LocalDate, workouts: [Workout] = []) { self.date = date; self.workouts = workouts }
}

public enum WorkoutType: String, Codable, Sendable, CaseIterable {
    case easy, recovery, long, mediumLong = "medium_long", strides, progression, marathonPace = "marathon_pace"
    case threshold, tempo, intervals, repetition, hills, fartlek, tuneUpRace = "tune_up_race", race
    case crossTraining = "cross_training", strength

    public var isRun: Bool {
        switch self {
        case .crossTraining, .strength: false;
        default: true
        }
    }

    /// Types that are quality sessions by themselves (docs/plan-format.md).
    public var isQualityType: Bool {
        switch self {
        case .threshold, .tempo, .intervals, .repetition, .hills, .fartlek, .marathonPace, .tuneUpRace, .race: true
        default: false
        }
    }
}

public enum Environment: String, Codable, Sendable { case outdoor, treadmill, indoor }
public enum Intensity: String, Codable, Sendable { case easy, moderate, hard }

public struct WorkoutPace: Codable, Sendable, Equatable {
    public var zone: Zone
    public var minSPerKm: Double?
    public var maxSPerKm: Double?

    enum CodingKeys: String, CodingKey { case zone, minSPerKm = "min_s_per_km", maxSPerKm = "max_s_per_km" }

    public init(zone: Zone, minSPerKm: Double? = nil, maxSPerKm: Double? = nil) {
        self.zone = zone; self.minSPerKm = minSPerKm; self.maxSPerKm = maxSPerKm
    }
}

public struct Segment: Codable, Sendable, Equatable {
    /// What the part is for (extension): warm-up, the work, or the cool-down.
    public enum Kind: String, Codable, Sendable { case warmup, work, cooldown }

    public var kind: Kind?
    public var zone: Zone
    /// Size of one repetition.
    public var distanceM: Double?
    public var durationS: Double?
    public var `repeat`: Int?
    public var recoveryS: Double?
    public var recoveryDistanceM: Double?
    public var pace: PaceRange?

    enum CodingKeys: String, CodingKey {
        case kind, zone, distanceM = "distance_m", durationS = "duration_s", `repeat`
        case recoveryS = "recovery_s", recoveryDistanceM = "recovery_distance_m", pace
    }

    public init(
        kind: Kind? = nil, zone: Zone, distanceM: Double? = nil, durationS: Double? = nil, repeat: Int? = nil,
        recoveryS: Double? = nil, recoveryDistanceM: Double? = nil, pace: PaceRange? = nil
    ) {
        self.kind = kind; self.zone = zone; self.distanceM = distanceM; self.durationS = durationS
        self.repeat = `repeat`; self.recoveryS = recoveryS; self.recoveryDistanceM = recoveryDistanceM; self.pace = pace
    }

    public var repeats: Int { `repeat` ?? 1 }
}

public struct Workout: Codable, Sendable, Equatable {
    /// A planned workout's sport, the plan document's vocabulary (docs/plan-format.md; a treadmill run is `run` with
    /// `environment` `treadmill`). Not the metric sport of a measured session (`CivilDate`'s `Sport`): the package's
    /// one top-level `Sport` is that one; this is the plan format's own list, nested so the names cannot be confused.
    public enum Sport: String, Codable, Sendable {
        case run, bike, row, elliptical, swim, skiErg = "ski_erg", stair, strength, walk, other
    }

    public var id: String?
    public var type: WorkoutType
    public var sport: Sport?
    public var environment: Environment?
    public var distanceM: Double?
    public var durationS: Double?
    public var pace: WorkoutPace?
    public var segments: [Segment]?
    public var intensity: Intensity?
    public var description: String?

    enum CodingKeys: String, CodingKey {
        case id, type, sport, environment, distanceM = "distance_m", durationS = "duration_s", pace, segments
        case intensity, description
    }

    public init(
        id: String? = nil, type: WorkoutType, sport: Sport? = nil, environment: Environment? = nil,
        distanceM: Double? = nil, durationS: Double? = nil, pace: WorkoutPace? = nil, segments: [Segment]? = nil,
        intensity: Intensity? = nil, description: String? = nil
    ) {
        self.id = id; self.type = type; self.sport = sport; self.environment = environment; self.distanceM = distanceM
        self.durationS = durationS; self.pace = pace; self.segments = segments; self.intensity = intensity
        self.description = description
    }

    /// Running workouts count for running volume (outdoor and treadmill alike); cross-training never does.
    public var isRun: Bool {
        guard type.isRun else { return false }
        switch sport {
        case nil, .run?: return true;
        default: return false
        }
    }
}
