import CivilDate

/// The parts of the FIT profile's enumerations the readers use.
enum FITProfile {
    static let sports: [Int: String] = [
        0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming",
        6: "basketball",
        7: "soccer", 8: "tennis", 9: "american_football", 10: "training", 11: "walking", 12: "cross_country_skiing",
        13: "alpine_skiing", 14: "snowboarding", 15: "rowing", 16: "mountaineering", 17: "hiking", 18: "multisport",
        19: "paddling", 20: "flying", 21: "e_biking", 37: "stand_up_paddleboarding", 41: "kayaking", 254: "all",
    ]

    static let subSports: [Int: String] = [
        0: "generic", 1: "treadmill", 2: "street", 3: "trail", 4: "track", 5: "spin", 6: "indoor_cycling", 7: "road",
        8: "mountain", 9: "downhill", 10: "recumbent", 11: "cyclocross", 12: "hand_cycling", 13: "track_cycling",
        14: "indoor_rowing", 15: "elliptical", 16: "stair_climbing", 17: "lap_swimming", 18: "open_water",
        19: "flexibility_training", 20: "strength_training", 26: "cardio_training", 45: "indoor_running",
        46: "gravel_cycling",
        58: "virtual_activity",
    ]

    static func sportName(_ sport: Int?, _ subSport: Int?) -> String? {
        guard let sport else { return nil }
        let name = sports[sport] ?? "sport_\(sport)"
        guard let subSport, subSport != 0 else { return name }
        return name + "/" + (subSports[subSport] ?? "sub_sport_\(subSport)")
    }

    static func sport(_ sport: Int?, _ subSport: Int?) -> ActivityType {
        switch (sport, subSport) {
        case (1, 1), (1, 45), (4, 1): .treadmillRunning
        case (1, 3): .trailRunning
        case (1, _): .running
        case (2, 5), (2, 6), (2, 58), (4, 6): .indoorCycling
        case (2, _), (21, _): .cycling
        case (11, _): .walking
        case (17, _), (16, _): .hiking
        case (15, 14), (4, 14): .indoorRowing
        case (15, _): .rowing
        case (4, 15): .elliptical
        case (5, _): .swimming
        case (10, 20), (4, 20): .strength
        default: .other
        }
    }

    static let manufacturers: [Int: String] = [
        1: "garmin", 15: "dynastream", 23: "suunto", 32: "wahoo_fitness", 69: "stages_cycling", 95: "stryd", 89: "tacx",
        255: "development",
        260: "zwift", 265: "strava", 267: "bryton", 289: "hammerhead", 294: "coros", 309: "polar",
    ]

    static func manufacturerName(_ id: Int) -> String { manufacturers[id] ?? "manufacturer_\(id)" }
}
