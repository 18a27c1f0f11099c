import CivilDate
import Foundation

/// One activity read from a workout file: what the file says, in SI units, with both figures kept where a
/// file carries two (device odometer and GPS track distance; total and moving time). See docs/workout-files.md.
public struct ImportedActivity: Sendable, Equatable {
    /// The format the activity came from.
    public var format: FileFormat
    /// The file's own identity for the activity (FIT: `serial/time_created/session index`; TCX: the activity `Id`;
    /// GPX: first point time and track index; Health: type, source and start/end), so a re-import is a duplicate.
    public var sourceIdentity: String
    public var sport: ActivityType
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
    /// The fields `start` and `durationS` were read from (`session.start_time, session.total_elapsed_time`,
    /// `Trackpoint/Time`, …), so that a file refused for its dates says which of its fields gave them.
    public var datesFrom: String = ""
    /// False when points without a time lie among or instead of the timed ones (a GPX read in part): the
    /// duration is then the span of the timed points only (0 when none has a time), a lower bound, while the
    /// distance is the whole track's.
    public var durationKnown: Bool = true
    /// What wrote the file, where it says (GPX `creator`, "StravaGPX" or "Garmin Connect"; TCX `Creator` name and unit
    /// id): with `sourceIdentity`, the record's identity, so that the same ride exported by two services is
    /// two recordings of one activity — linked by the dedup, the richest the primary — not one id in conflict.
    public var creator: String?

    public init(
        format: FileFormat, sourceIdentity: String, sport: ActivityType, sourceSport: String? = nil, start: Date,
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
///
/// Stored compactly: the nine values as plain `Double`s with a bit each for "has a value" (nil is stored
/// as 0 with its bit clear), 96 bytes a sample instead of 160 with nine `Double?`, which a FIT file of a million
/// records writes (and the kernel zeroes) once. The properties are the same `Double?`s as before; equality is too.
public struct Sample: Sendable, Equatable {
    public var time: Date
    @inlinable public var latitude: Double? {
        get { present & 1 != 0 ? _latitude : nil }
        set {
            if let v = newValue {
                _latitude = v
                present |= 1
            } else {
                _latitude = 0
                present &= ~1
            }
        }
    }
    @inlinable public var longitude: Double? {
        get { present & 2 != 0 ? _longitude : nil }
        set {
            if let v = newValue {
                _longitude = v
                present |= 2
            } else {
                _longitude = 0
                present &= ~2
            }
        }
    }
    @inlinable public var altitudeM: Double? {
        get { present & 4 != 0 ? _altitudeM : nil }
        set {
            if let v = newValue {
                _altitudeM = v
                present |= 4
            } else {
                _altitudeM = 0
                present &= ~4
            }
        }
    }
    /// Cumulative distance the device recorded, m.
    @inlinable public var distanceM: Double? {
        get { present & 8 != 0 ? _distanceM : nil }
        set {
            if let v = newValue {
                _distanceM = v
                present |= 8
            } else {
                _distanceM = 0
                present &= ~8
            }
        }
    }
    @inlinable public var speedMps: Double? {
        get { present & 16 != 0 ? _speedMps : nil }
        set {
            if let v = newValue {
                _speedMps = v
                present |= 16
            } else {
                _speedMps = 0
                present &= ~16
            }
        }
    }
    @inlinable public var powerW: Double? {
        get { present & 32 != 0 ? _powerW : nil }
        set {
            if let v = newValue {
                _powerW = v
                present |= 32
            } else {
                _powerW = 0
                present &= ~32
            }
        }
    }
    @inlinable public var heartRateBpm: Double? {
        get { present & 64 != 0 ? _heartRateBpm : nil }
        set {
            if let v = newValue {
                _heartRateBpm = v
                present |= 64
            } else {
                _heartRateBpm = 0
                present &= ~64
            }
        }
    }
    @inlinable public var cadenceRpm: Double? {
        get { present & 128 != 0 ? _cadenceRpm : nil }
        set {
            if let v = newValue {
                _cadenceRpm = v
                present |= 128
            } else {
                _cadenceRpm = 0
                present &= ~128
            }
        }
    }
    @inlinable public var temperatureC: Double? {
        get { present & 256 != 0 ? _temperatureC : nil }
        set {
            if let v = newValue {
                _temperatureC = v
                present |= 256
            } else {
                _temperatureC = 0
                present &= ~256
            }
        }
    }
    /// Developer (Connect IQ) fields described in the file, by name.
    public var developer: [String: Double]

    @usableFromInline var _latitude: Double
    @usableFromInline var _longitude: Double
    @usableFromInline var _altitudeM: Double
    @usableFromInline var _distanceM: Double
    @usableFromInline var _speedMps: Double
    @usableFromInline var _powerW: Double
    @usableFromInline var _heartRateBpm: Double
    @usableFromInline var _cadenceRpm: Double
    @usableFromInline var _temperatureC: Double
    /// Bit i set: the i-th value above (in declaration order) is present.
    @usableFromInline var present: UInt16

    /// The bits of `present`, in declaration order.
    static let latitudeBit: UInt16 = 1, longitudeBit: UInt16 = 2, altitudeBit: UInt16 = 4, distanceBit: UInt16 = 8
    static let speedBit: UInt16 = 16, powerBit: UInt16 = 32, heartRateBit: UInt16 = 64, cadenceBit: UInt16 = 128
    static let temperatureBit: UInt16 = 256

    /// The stored form as it is (the FIT reader builds it so): each value is used only where its bit is set in
    /// `present`, and must be 0 where it is not (as the public initialiser stores nil), or equality would see it.
    init(
        time: Date, present: UInt16, latitude: Double, longitude: Double, altitudeM: Double, distanceM: Double,
        speedMps: Double, powerW: Double, heartRateBpm: Double, cadenceRpm: Double, temperatureC: Double,
        developer: [String: Double]
    ) {
        self.time = time
        self.developer = developer
        _latitude = latitude
        _longitude = longitude
        _altitudeM = altitudeM
        _distanceM = distanceM
        _speedMps = speedMps
        _powerW = powerW
        _heartRateBpm = heartRateBpm
        _cadenceRpm = cadenceRpm
        _temperatureC = temperatureC
        self.present = present
    }

    @inlinable
    public init(
        time: Date, latitude: Double? = nil, longitude: Double? = nil, altitudeM: Double? = nil,
        distanceM: Double? = nil,
        speedMps: Double? = nil, powerW: Double? = nil, heartRateBpm: Double? = nil, cadenceRpm: Double? = nil,
        temperatureC: Double? = nil, developer: [String: Double] = [:]
    ) {
        self.time = time
        self.developer = developer
        _latitude = latitude ?? 0
        _longitude = longitude ?? 0
        _altitudeM = altitudeM ?? 0
        _distanceM = distanceM ?? 0
        _speedMps = speedMps ?? 0
        _powerW = powerW ?? 0
        _heartRateBpm = heartRateBpm ?? 0
        _cadenceRpm = cadenceRpm ?? 0
        _temperatureC = temperatureC ?? 0
        present = 0
        if latitude != nil { present |= 1 }
        if longitude != nil { present |= 2 }
        if altitudeM != nil { present |= 4 }
        if distanceM != nil { present |= 8 }
        if speedMps != nil { present |= 16 }
        if powerW != nil { present |= 32 }
        if heartRateBpm != nil { present |= 64 }
        if cadenceRpm != nil { present |= 128 }
        if temperatureC != nil { present |= 256 }
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
