import FTMSDecode
import Testing
import WorkoutMetrics

@testable import Pipeline

/// The pipeline's readers of activity types and machines use the one mapping of each (`CivilDate`), and say what they
/// said before it (tables written here from the code they replaced).
@Suite struct DomainMappingTests {
    /// The store keeps a session's machine as `"\(MachineType)"` (Ingest); `MachineKind` reads back every one.
    @Test(arguments: MachineType.allCases) func machineKindIsTheStoredName(_ machine: MachineType) {
        #expect(MachineKind(machine).rawValue == "\(machine)")
        #expect(MachineKind(rawValue: "\(machine)") == MachineKind(machine))
    }

    /// A session's metric sport: the blob's machine, else the app's detail, else a bike.
    @Test func sessionSport() {
        let expected: [MachineType: Sport] = [
            .unknown: .bike, .indoorBike: .bike, .rower: .row, .treadmill: .treadmill, .crossTrainer: .bike,
            .stepClimber: .bike, .stairClimber: .bike,
        ]
        for machine in MachineType.allCases {
            #expect(SessionAnalyzer.sport(machine: machine, detail: "{}") == expected[machine])
        }
        #expect(SessionAnalyzer.sport(machine: nil, detail: "{}") == .bike)
        let rowerDetail = #"{"machine_type":"rower"}"#, treadmillDetail = #"{"machine_type":"treadmill"}"#
        #expect(SessionAnalyzer.sport(machine: nil, detail: rowerDetail) == .row)
        #expect(SessionAnalyzer.sport(machine: .unknown, detail: treadmillDetail) == .treadmill)
        #expect(SessionAnalyzer.sport(machine: .crossTrainer, detail: rowerDetail) == .row)
        // The machine wins over the detail when it names a sport.
        #expect(SessionAnalyzer.sport(machine: .indoorBike, detail: rowerDetail) == .bike)
    }

    /// A workout record's metric sport, every activity type and one outside the list.
    @Test func workoutSport() {
        let expected: [String: Sport?] = [
            "running": .run, "treadmill_running": .treadmill, "trail_running": .run, "walking": .run, "hiking": .run,
            "cycling": .bike, "indoor_cycling": .bike, "rowing": .row, "indoor_rowing": .row, "elliptical": nil,
            "swimming": nil, "strength": nil, "other": nil, "yoga": nil,
        ]
        #expect(Set(expected.keys) == Set(ActivityType.allCases.map(\.rawValue) + ["yoga"]))
        for (type, sport) in expected { #expect(WorkoutAnalyzer.sport(activityType: type) == sport, "\(type)") }
    }

    /// The stored flag strings, every one.
    @Test func sessionFlagsAreTheStoredStrings() {
        #expect(
            SessionFlag.allCases.map(\.rawValue) == [
                "distance_mismatch", "energy_mismatch", "duration_mismatch", "no_heart_rate", "no_recording",
                "recording_unreadable", "truncated_blob", "corrupted_blob", "samples_unreadable", "no_load",
                "metrics_unencodable",
            ])
    }
}
