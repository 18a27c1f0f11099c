/// What kind of workout a record is (`activity_type`, docs/workout-records.md, "Activity types"): the one list of the
/// types the pipeline accepts, and the one answer to "is it running?". Each reader of a type (the metrics' sport, the
/// same-activity family, the plan's running volume) switches over this enum exhaustively, so a new type cannot be
/// accepted without every reader saying what it is.
public enum ActivityType: String, CaseIterable, Sendable, Codable {
    case running
    case treadmillRunning = "treadmill_running"
    case trailRunning = "trail_running"
    case walking, hiking, cycling
    case indoorCycling = "indoor_cycling"
    case rowing
    case indoorRowing = "indoor_rowing"
    case elliptical, swimming, strength, other

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
