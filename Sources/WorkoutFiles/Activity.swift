import Foundation

/// One activity read from a workout file: what the file says, in SI units, with both figures kept where a
/// file carries two (device odometer and GPS track distance; total and moving time). See docs/workout-files.md.
public struct ImportedActivity: Sendable, Equatable {
    /// The format the activity came from.
    public var format: FileFormat
    /// The file's own identity for the activity (FIT: `serial/time_created/session index`; TCX: the activity `Id`;
    /// GPX: first point time and track index; Health: type, source and start/end), so a re-import is a duplicate.
    public var sourceIdentity: String
    public var sport: Sport
    /// The sport as the file names it (`running/trail`, `Biking`, `HKWorkoutActivityTypeRunning`, …).
    public var sourceSport: String?
    /// The start instant.
    public var start: Date
    /// The device's UTC offset at the start, where the file says it (FIT `activity.local_timestamp`, Health `+0200`,
    /// an ISO 8601 offset in TCX/GPX); nil when the file gives UTC only.
    public var utcOffsetSeconds: Int?
    /// Elapsed time from start to end, pauses included (s).
    public var durationS: Double
    /// Time moving: the device's timer time (pauses excluded) where the file has one, else derived (docs/workout-files.md).
    public var movingTimeS: Double?
    /// Distance the device reported (odometer / lap totals / Health total), m.
    public var distanceM: Double?
    /// Distance along the GPS track (haversine over consecutive positions), m; nil without positions.
    public var trackDistanceM: Double?
    public var energyKcal: Double?
    public var avgHeartRateBpm: Double?
    public var maxHeartRateBpm: Double?
    public var elevationGainM: Double?
    public var laps: [Lap]
    /// Timer pauses (FIT stop/start events, Health pause/resume events).
    public var pauses: [Pause]
    /// The sample series in time order.
    public var samples: [Sample]
    public var device: Device?
    /// Developer (Connect IQ) fields of the session, by field name.
    public var developerFields: [String: Double]
    /// What could not be read for this activity (file-level issues are on `WorkoutFile.issues`).
    public var issues: [ReadIssue]

    public init(
        format: FileFormat, sourceIdentity: String, sport: Sport, sourceSport: String? = nil, start: Date,
        utcOffsetSeconds: Int? = nil, durationS: Double, movingTimeS: Double? = nil, distanceM: Double? = nil,
        trackDistanceM: Double? = nil, energyKcal: Double? = nil, avgHeartRateBpm: Double? = nil,
        maxHeartRateBpm: Double? = nil, elevationGainM: Double? = nil, laps: [Lap] = [], pauses: [Pause] = [],
        samples: [Sample] = [], device: Device? = nil, developerFields: [String: Double] = [:], issues: [ReadIssue] = []
    ) {
        self.format = format
        self.sourceIdentity = sourceIdentity
        self.sport = sport
        self.sourceSport = sourceSport
        self.start = start
        self.utcOffsetSeconds = utcOffsetSeconds
        self.durationS = durationS
        self.movingTimeS = movingTimeS
        self.distanceM = distanceM
        self.trackDistanceM = trackDistanceM
        self.energyKcal = energyKcal
        self.avgHeartRateBpm = avgHeartRateBpm
        self.maxHeartRateBpm = maxHeartRateBpm
        self.elevationGainM = elevationGainM
        self.laps = laps
        self.pauses = pauses
        self.samples = samples
        self.device = device
        self.developerFields = developerFields
        self.issues = issues
    }

    /// End instant (start + elapsed duration).
    public var end: Date { start.addingTimeInterval(durationS) }
}

/// The `activity_type` vocabulary of docs/workout-records.md.
public enum Sport: String, Sendable, Equatable, CaseIterable {
    case running, treadmillRunning = "treadmill_running", trailRunning = "trail_running", walking, hiking, cycling
    case indoorCycling = "indoor_cycling", rowing, indoorRowing = "indoor_rowing", elliptical, swimming, strength, other
}

public struct Lap: Sendable, Equatable {
    public var start: Date
    public var durationS: Double?
    public var movingTimeS: Double?
    public var distanceM: Double?
    public var energyKcal: Double?
    public var avgHeartRateBpm: Double?
    public var maxHeartRateBpm: Double?
    public var avgPowerW: Double?

    public init(
        start: Date, durationS: Double? = nil, movingTimeS: Double? = nil, distanceM: Double? = nil,
        energyKcal: Double? = nil, avgHeartRateBpm: Double? = nil, maxHeartRateBpm: Double? = nil,
        avgPowerW: Double? = nil
    ) {
        self.start = start
        self.durationS = durationS
        self.movingTimeS = movingTimeS
        self.distanceM = distanceM
        self.energyKcal = energyKcal
        self.avgHeartRateBpm = avgHeartRateBpm
        self.maxHeartRateBpm = maxHeartRateBpm
        self.avgPowerW = avgPowerW
    }
}

/// A timer pause: `start` when the timer stopped, `end` when it started again (nil: never restarted).
public struct Pause: Sendable, Equatable {
    public var start: Date
    public var end: Date?
    public init(start: Date, end: Date?) {
        self.start = start
        self.end = end
    }
}

/// One point of the sample series; nil is "no value", never zero.
public struct Sample: Sendable, Equatable {
    public var time: Date
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeM: Double?
    /// Cumulative distance the device recorded, m.
    public var distanceM: Double?
    public var speedMps: Double?
    public var powerW: Double?
    public var heartRateBpm: Double?
    public var cadenceRpm: Double?
    public var temperatureC: Double?
    /// Developer (Connect IQ) fields described in the file, by name.
    public var developer: [String: Double]

    public init(
        time: Date, latitude: Double? = nil, longitude: Double? = nil, altitudeM: Double? = nil,
        distanceM: Double? = nil,
        speedMps: Double? = nil, powerW: Double? = nil, heartRateBpm: Double? = nil, cadenceRpm: Double? = nil,
        temperatureC: Double? = nil, developer: [String: Double] = [:]
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeM = altitudeM
        self.distanceM = distanceM
        self.speedMps = speedMps
        self.powerW = powerW
        self.heartRateBpm = heartRateBpm
        self.cadenceRpm = cadenceRpm
        self.temperatureC = temperatureC
        self.developer = developer
    }
}

/// The recording device, where the file names it.
public struct Device: Sendable, Equatable {
    public var manufacturer: String?
    public var product: String?
    public var serialNumber: String?
    public var softwareVersion: String?
    public init(
        manufacturer: String? = nil, product: String? = nil, serialNumber: String? = nil, softwareVersion: String? = nil
    ) {
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.softwareVersion = softwareVersion
    }
}
