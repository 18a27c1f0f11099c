/// What kind of workout a record is (`activity_type`, docs/workout-records.md, "Activity types"): the one list of the
/// types the pipeline accepts (workout records and workout files alike). Each question asked of a type is answered
/// here once, by an exhaustive switch, so a new type cannot be accepted without every reader saying what it is:
///
/// - `sport`: how it is measured (the metric sport of docs/metrics.md; walks and hikes with a run's pace metrics);
/// - `family`: which recordings can be the same activity (docs/workout-records.md; a walk is never the same as a run);
/// - `isRunning` and `planSport`: what the plan engine counts (walks and hikes are cross-training, not running volume).
///
/// The three answers differ for walking and hiking on purpose: they are three questions, not three opinions.
public enum ActivityType: String, CaseIterable, Sendable, Codable {
    case running
    case treadmillRunning = "treadmill_running"
    case trailRunning = "trail_running"
    case walking, hiking, cycling
    case indoorCycling = "indoor_cycling"
    case rowing
    case indoorRowing = "indoor_rowing"
    case elliptical, swimming, strength, other

    /// The metric sport (`Sport`): runs (outdoor and trail, walks, hikes), treadmill, bike, row; nil for the others
    /// (elliptical, swimming, strength, other), which get the sport-neutral metrics only.
    public var sport: Sport? {
        switch self {
        case .running, .trailRunning, .walking, .hiking: .run
        case .treadmillRunning: .treadmill
        case .cycling, .indoorCycling: .bike
        case .rowing, .indoorRowing: .row
        case .elliptical, .swimming, .strength, .other: nil
        }
    }

    /// The same-activity family (`ActivityFamily`): a treadmill run and an outdoor run are both `run`; walks and hikes
    /// are `walk`.
    public var family: ActivityFamily {
        switch self {
        case .running, .treadmillRunning, .trailRunning: .run
        case .walking, .hiking: .walk
        case .cycling, .indoorCycling: .ride
        case .rowing, .indoorRowing: .row
        case .elliptical: .elliptical
        case .swimming: .swim
        case .strength: .strength
        case .other: .other
        }
    }

    /// Running volume for the plan engine (its baseline, its adaptation): outdoor, trail and treadmill runs. Walks and
    /// hikes are measured with a run's pace metrics but are not running volume.
    public var isRunning: Bool {
        switch self {
        case .running, .trailRunning, .treadmillRunning: true
        case .walking, .hiking, .cycling, .indoorCycling, .rowing, .indoorRowing, .elliptical, .swimming, .strength,
            .other:
            false
        }
    }

    /// The plan engine's sport name for a completed workout (`CompletedRun.sport`): `run`, `treadmill`, `bike`, `row`,
    /// else the type itself (cross-training).
    public var planSport: String {
        switch self {
        case .running, .trailRunning: "run"
        case .treadmillRunning: "treadmill"
        case .cycling, .indoorCycling: "bike"
        case .rowing, .indoorRowing: "row"
        case .walking, .hiking, .elliptical, .swimming, .strength, .other: rawValue
        }
    }
}

/// The sport of a measured session or workout (the metric sport); the raw values are the `sport` strings of the
/// stream document and of the stored metrics (docs/metrics.md, "Computing metrics for any stream"). The one `Sport`
/// of the package: an activity's (`ActivityType.sport`) and a machine's (`MachineKind.sport`) are mapped to it.
public enum Sport: String, Sendable, Codable, CaseIterable {
    case bike, row, run, treadmill
}

/// Which recordings can be the same activity (docs/workout-records.md, "The same activity from several sources"):
/// sport families, from a workout's `ActivityType.family` or a session's `MachineKind.family`.
public enum ActivityFamily: String, Sendable, Codable, CaseIterable, Comparable {
    case run, walk, ride, row, elliptical, swim, strength, other
    public static func < (a: ActivityFamily, b: ActivityFamily) -> Bool { a.rawValue < b.rawValue }
}

/// An FTMS session's machine as stored (`sessions.machine`: the blob header's machine byte as `MachineType`'s case
/// name, docs/raw-ble-blob.md); nil in the store when the session has no readable recording.
public enum MachineKind: String, Sendable, Codable, CaseIterable {
    case unknown, indoorBike, rower, treadmill, crossTrainer, stepClimber, stairClimber

    /// The metric sport the machine names, nil when it names none (unknown, cross-trainer, step and stair climbers):
    /// the session analyser then asks the app's detail, else measures a bike.
    public var sport: Sport? {
        switch self {
        case .indoorBike: .bike
        case .rower: .row
        case .treadmill: .treadmill
        case .unknown, .crossTrainer, .stepClimber, .stairClimber: nil
        }
    }

    /// The same-activity family; `ActivityFamily.session(machine:)` for a stored (optional, possibly unknown) name.
    public var family: ActivityFamily {
        switch self {
        case .treadmill: .run
        case .rower: .row
        case .crossTrainer: .elliptical
        case .stepClimber, .stairClimber: .other
        case .unknown, .indoorBike: .ride
        }
    }

    /// The plan engine's sport name for a session (`CompletedRun.sport`): `treadmill`, `row`, else `bike` (a
    /// cross-trainer or a climber counts as a ride, cross-training).
    public var planSport: String {
        switch self {
        case .treadmill: "treadmill"
        case .rower: "row"
        case .unknown, .indoorBike, .crossTrainer, .stepClimber, .stairClimber: "bike"
        }
    }

    /// Whether the machine's recording carries power (a bike, a rower, a cross-trainer): the first key of the
    /// same-activity precedence.
    public var recordsPower: Bool {
        switch self {
        case .indoorBike, .rower, .crossTrainer: true
        case .unknown, .treadmill, .stepClimber, .stairClimber: false
        }
    }
}

extension ActivityFamily {
    /// The family of a workout record's stored `activity_type` (a type not in `ActivityType`: `other`).
    public static func workout(activityType: String) -> ActivityFamily {
        ActivityType(rawValue: activityType)?.family ?? .other
    }

    /// The family of a session's stored machine (nil: no readable recording; a name not in `MachineKind`: unknown),
    /// a ride as the plan engine counts it.
    public static func session(machine: String?) -> ActivityFamily {
        (machine.flatMap(MachineKind.init(rawValue:)) ?? .unknown).family
    }
}
