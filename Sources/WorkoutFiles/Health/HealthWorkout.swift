import CivilDate
import Foundation

/// One `Workout` element of the export as read in the first pass.
struct HealthWorkout {
    var type: String = ""
    var sourceName: String = ""
    var startText: String = ""
    var endText: String = ""
    var start: XMLTime.Parsed?
    var end: XMLTime.Parsed?
    var durationS: Double?
    var distanceM: Double?
    var energyKcal: Double?
    var avgHR: Double?
    var maxHR: Double?
    var indoor = false
    var elevationGainM: Double?
    var events: [(type: String, date: Date, durationS: Double?)] = []
    var routePath: String?

    func activity(format: FileFormat, issues: inout IssueLog) -> ImportedActivity? {
        guard let start, let end, end.date >= start.date else {
            issues.add(.badValue, "Workout without readable startDate/endDate")
            return nil
        }
        var pauses: [Pause] = []
        var laps: [Lap] = []
        for event in events.sorted(by: { $0.date < $1.date }) {
            switch event.type {
            case "HKWorkoutEventTypePause", "HKWorkoutEventTypeMotionPaused":
                if pauses.last.map({ $0.end != nil }) ?? true { pauses.append(Pause(start: event.date, end: nil)) }
            case "HKWorkoutEventTypeResume", "HKWorkoutEventTypeMotionResumed":
                if let last = pauses.last, last.end == nil { pauses[pauses.count - 1].end = event.date }
            case "HKWorkoutEventTypeLap":
                laps.append(Lap(start: event.date, durationS: event.durationS))
            default: break
            }
        }
        let elapsed = end.date.timeIntervalSince(start.date)
        let paused = pauses.reduce(0.0) { $0 + ($1.end ?? end.date).timeIntervalSince($1.start) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (type + "\u{0}" + sourceName + "\u{0}" + startText + "\u{0}" + endText).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        var activity = ImportedActivity(
            format: format, sourceIdentity: "health:" + String(hash, radix: 16),
            sport: Self.sport(type, indoor: indoor),
            sourceSport: type, start: start.date, utcOffsetSeconds: start.utcOffsetSeconds, durationS: elapsed,
            movingTimeS: durationS ?? max(0, elapsed - paused), distanceM: distanceM, energyKcal: energyKcal,
            avgHeartRateBpm: avgHR, maxHeartRateBpm: maxHR, elevationGainM: elevationGainM, laps: laps, pauses: pauses,
            device: sourceName.isEmpty ? nil : Device(product: sourceName))
        activity.datesFrom = "Workout startDate, endDate"
        return activity
    }

    static func sport(_ type: String, indoor: Bool) -> ActivityType {
        switch type {
        case "HKWorkoutActivityTypeRunning": indoor ? .treadmillRunning : .running
        case "HKWorkoutActivityTypeCycling": indoor ? .indoorCycling : .cycling
        case "HKWorkoutActivityTypeWalking": .walking
        case "HKWorkoutActivityTypeHiking": .hiking
        case "HKWorkoutActivityTypeRowing": indoor ? .indoorRowing : .rowing
        case "HKWorkoutActivityTypeElliptical": .elliptical
        case "HKWorkoutActivityTypeSwimming": .swimming
        case "HKWorkoutActivityTypeTraditionalStrengthTraining", "HKWorkoutActivityTypeFunctionalStrengthTraining":
            .strength
        default: .other
        }
    }

    static func seconds(_ value: Double, unit: String?) -> Double? {
        switch unit ?? "min" {
        case "min": value * 60
        case "s", "sec": value
        case "ms": value / 1000
        case "hr", "h": value * 3600
        case "d": value * 86_400
        default: nil
        }
    }

    static func metres(_ value: Double, unit: String?) -> Double? {
        switch unit ?? "km" {
        case "km": value * 1000
        case "m": value
        case "cm": value / 100
        case "mi": value * 1609.344
        case "yd": value * 0.9144
        case "ft": value * 0.3048
        default: nil
        }
    }

    static func kilocalories(_ value: Double, unit: String?) -> Double? {
        switch unit ?? "kcal" {
        case "kcal", "Cal": value
        case "cal": value / 1000
        case "kJ": value / 4.184
        case "J": value / 4184
        default: nil
        }
    }
}

/// Pass 1: `Workout` elements and their children.
struct WorkoutPass: XMLHandler {
    static let used: Set<String> = ["Workout", "WorkoutStatistics", "WorkoutEvent", "MetadataEntry", "FileReference"]
    var workouts: [HealthWorkout] = []
    var current: HealthWorkout?
    var inRoute = false
    var sawHealthData = false
    var issues = IssueLog()

    func attributeFilter(for name: String) -> [[UInt8]]? {
        name == "Workout" || current != nil && Self.used.contains(name) ? nil : []
    }

    mutating func start(_ name: String, _ attributes: [XMLAttribute]) {
        switch name {
        case "HealthData": sawHealthData = true
        case "Workout":
            var w = HealthWorkout()
            var durationUnit: String?, distanceUnit: String?, energyUnit: String?
            var duration: Double?, distance: Double?, energy: Double?
            for a in attributes {
                switch a.name {
                case "workoutActivityType": w.type = a.value
                case "sourceName": w.sourceName = a.value
                case "startDate": w.startText = a.value; w.start = XMLTime.parse(a.value)
                case "endDate": w.endText = a.value; w.end = XMLTime.parse(a.value)
                case "duration": duration = a.value.xmlNumber
                case "durationUnit": durationUnit = a.value
                case "totalDistance": distance = a.value.xmlNumber
                case "totalDistanceUnit": distanceUnit = a.value
                case "totalEnergyBurned": energy = a.value.xmlNumber
                case "totalEnergyBurnedUnit": energyUnit = a.value
                default: break
                }
            }
            w.durationS = duration.flatMap { HealthWorkout.seconds($0, unit: durationUnit) }
            w.distanceM = distance.flatMap { HealthWorkout.metres($0, unit: distanceUnit) }
            w.energyKcal = energy.flatMap { HealthWorkout.kilocalories($0, unit: energyUnit) }
            current = w
        case "WorkoutStatistics" where current != nil:
            let get = { (key: String) in attributes.first { $0.name == key }?.value }
            let type = get("type") ?? ""
            let unit = get("unit")
            if type.hasPrefix("HKQuantityTypeIdentifierDistance"), current?.distanceM == nil,
                let sum = get("sum")?.xmlNumber
            {
                current?.distanceM = HealthWorkout.metres(sum, unit: unit)
            } else if type == "HKQuantityTypeIdentifierActiveEnergyBurned", current?.energyKcal == nil,
                let sum = get("sum")?.xmlNumber
            {
                current?.energyKcal = HealthWorkout.kilocalories(sum, unit: unit)
            } else if type == "HKQuantityTypeIdentifierHeartRate" {
                current?.avgHR = get("average")?.xmlNumber
                current?.maxHR = get("maximum")?.xmlNumber
            }
        case "WorkoutEvent" where current != nil:
            let get = { (key: String) in attributes.first { $0.name == key }?.value }
            if let type = get("type"), let date = get("date").flatMap(XMLTime.parse) {
                current?.events.append(
                    (
                        type, date.date,
                        get("duration")?.xmlNumber.flatMap { HealthWorkout.seconds($0, unit: get("durationUnit")) }
                    ))
            }
        case "MetadataEntry" where current != nil && !inRoute:
            let key = attributes.first { $0.name == "key" }?.value
            let value = attributes.first { $0.name == "value" }?.value ?? ""
            if key == "HKIndoorWorkout" { current?.indoor = value.trimmedXML == "1" }
            if key == "HKElevationAscended" {
                // "1234 cm"
                let parts = value.split(separator: " ")
                if let number = parts.first.flatMap({ Double($0) }) {
                    current?.elevationGainM = HealthWorkout.metres(
                        number, unit: parts.count > 1 ? String(parts[1]) : "m")
                }
            }
        case "WorkoutRoute" where current != nil: inRoute = true
        case "FileReference" where inRoute:
            current?.routePath = attributes.first { $0.name == "path" }?.value
        default: break
        }
    }

    mutating func end(_ name: String) {
        switch name {
        case "Workout":
            if let w = current { workouts.append(w) }
            current = nil
        case "WorkoutRoute": inRoute = false
        default: break
        }
    }

    mutating func text(_ text: String) {}
}

/// Pass 2: heart-rate `Record`s whose start falls inside a workout.
struct HeartRatePass: XMLHandler {
    /// (start, end, activity index), sorted by start.
    let intervals: [(Date, Date, Int)]
    var samples: [Int: [Sample]] = [:]

    init(intervals: [(Date, Date, Int)]) { self.intervals = intervals }

    static let recordAttributes: [[UInt8]] = ["type", "startDate", "value"].map { Array($0.utf8) }

    func attributeFilter(for name: String) -> [[UInt8]]? { name == "Record" ? Self.recordAttributes : [] }

    mutating func start(_ name: String, _ attributes: [XMLAttribute]) {
        guard name == "Record" else { return }
        // The last of each attribute counts (as when each was read as it came); the date and value are parsed only
        // for a heart-rate record.
        var isHeartRate = false
        var dateText: String?
        var valueText: String?
        for a in attributes {
            switch a.name {
            case "type": isHeartRate = a.value == "HKQuantityTypeIdentifierHeartRate"
            case "startDate": dateText = a.value
            case "value": valueText = a.value
            default: break
            }
        }
        guard isHeartRate, let date = dateText.flatMap({ XMLTime.parse($0)?.date }),
            let value = valueText.flatMap({ $0.xmlNumber })
        else { return }
        // Last interval starting at or before the record; walk back over overlapping ones.
        var lo = 0, hi = intervals.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if intervals[mid].0 <= date { lo = mid + 1 } else { hi = mid }
        }
        var i = lo - 1
        while i >= 0 {
            let (start, end, index) = intervals[i]
            if date >= start && date <= end {
                samples[index, default: []].append(Sample(time: date, heartRateBpm: value))
                return
            }
            if i < lo - 4 { return }
            i -= 1
        }
    }

    mutating func end(_ name: String) {}

    mutating func text(_ text: String) {}
}
