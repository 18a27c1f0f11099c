import CivilDate
import Testing

/// Every activity type and every machine, each answer asserted against a table written here by hand from
/// docs/workout-records.md and docs/metrics.md (not computed from the mappings under test). The tables are keyed by the
/// wire strings, so a case added to an enum without a row here fails `everyValueHasARow`.
@Suite struct DomainValueTests {
    /// activity_type → (metric sport, same-activity family, running volume, plan sport).
    static let activities: [String: (sport: String?, family: String, running: Bool, plan: String)] = [
        "running": ("run", "run", true, "run"),
        "treadmill_running": ("treadmill", "run", true, "treadmill"),
        "trail_running": ("run", "run", true, "run"),
        "walking": ("run", "walk", false, "walking"),
        "hiking": ("run", "walk", false, "hiking"),
        "cycling": ("bike", "ride", false, "bike"),
        "indoor_cycling": ("bike", "ride", false, "bike"),
        "rowing": ("row", "row", false, "row"),
        "indoor_rowing": ("row", "row", false, "row"),
        "elliptical": (nil, "elliptical", false, "elliptical"),
        "swimming": (nil, "swim", false, "swimming"),
        "strength": (nil, "strength", false, "strength"),
        "other": (nil, "other", false, "other"),
    ]

    /// stored machine name → (metric sport, same-activity family, plan sport, records power).
    static let machines: [String: (sport: String?, family: String, plan: String, power: Bool)] = [
        "unknown": (nil, "ride", "bike", false),
        "indoorBike": ("bike", "ride", "bike", true),
        "rower": ("row", "row", "row", true),
        "treadmill": ("treadmill", "run", "treadmill", false),
        "crossTrainer": (nil, "elliptical", "bike", true),
        "stepClimber": (nil, "other", "bike", false),
        "stairClimber": (nil, "other", "bike", false),
    ]

    @Test func everyValueHasARow() {
        #expect(Set(ActivityType.allCases.map(\.rawValue)) == Set(Self.activities.keys))
        #expect(Set(MachineKind.allCases.map(\.rawValue)) == Set(Self.machines.keys))
        #expect(Sport.allCases.map(\.rawValue) == ["bike", "row", "run", "treadmill"])
        #expect(
            ActivityFamily.allCases.map(\.rawValue)
                == ["run", "walk", "ride", "row", "elliptical", "swim", "strength", "other"])
    }

    @Test(arguments: ActivityType.allCases) func activity(_ type: ActivityType) throws {
        let row = try #require(Self.activities[type.rawValue])
        #expect(type.sport?.rawValue == row.sport)
        #expect(type.family.rawValue == row.family)
        #expect(type.isRunning == row.running)
        #expect(type.planSport == row.plan)
        #expect(ActivityFamily.workout(activityType: type.rawValue) == type.family)
    }

    @Test(arguments: MachineKind.allCases) func machine(_ kind: MachineKind) throws {
        let row = try #require(Self.machines[kind.rawValue])
        #expect(kind.sport?.rawValue == row.sport)
        #expect(kind.family.rawValue == row.family)
        #expect(kind.planSport == row.plan)
        #expect(kind.recordsPower == row.power)
        #expect(ActivityFamily.session(machine: kind.rawValue) == kind.family)
    }

    /// Stored strings outside the lists: a workout's unknown type is `other`; a session without a recording (nil) or
    /// with a machine name not in the list is a ride.
    @Test func valuesOutsideTheLists() {
        #expect(ActivityFamily.workout(activityType: "yoga") == .other)
        #expect(ActivityFamily.session(machine: nil) == .ride)
        #expect(ActivityFamily.session(machine: "hoverboard") == .ride)
    }
}
