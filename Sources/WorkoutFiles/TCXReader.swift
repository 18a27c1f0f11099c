import CivilDate
import Foundation

/// Reads Garmin Training Center XML (TCX v2): one activity per `Activity`, laps with their totals, trackpoints with
/// position, altitude, distance, heart rate, cadence, and Garmin's ActivityExtension v2 (`TPX` speed, watts,
/// run cadence; `LX` average watts).
public enum TCXReader {
    /// Reads a whole document held in memory.
    public static func read(bytes: [UInt8]) throws(WorkoutFileError) -> WorkoutFile {
        var source = MemoryChunks(bytes)
        return try read(&source)
    }

    static func read<S: ChunkSource>(_ source: inout S) throws(WorkoutFileError) -> WorkoutFile {
        try Handler.readDocument(&source)
    }

    struct Handler: ActivityDocumentHandler {
        static let format = FileFormat.tcx
        var activities: [ImportedActivity] = []
        var issues = IssueLog()
        var path = ElementPath()

        var inActivity = false
        var sportText: String?
        var idText: String?
        var laps: [Lap] = []
        /// Per lap: whether its `StartTime` was readable (an unreadable one is not a date to use).
        var lapStartRead: [Bool] = []
        var lap: Lap?
        var lapStartOK = false
        var lapMovingTime: Double?
        var samples: [Sample] = []
        var sample: Sample?
        var sampleHasTime = false
        /// Trackpoints of the open activity left out for want of a readable `Time` (an invalid character in it, …).
        var untimedTrackpoints = 0
        /// Values of the open activity whose text is not a number (left out, flagged).
        var unreadable = UnreadableValues()
        var latitude: Double?
        var longitude: Double?
        var device = Device()
        var versionMajor: String?
        var versionMinor: String?

        mutating func start(_ name: String, _ attributes: [XMLAttribute]) {
            path.open(name)
            switch name {
            case "Activity":
                inActivity = true
                sportText = attributes.first { $0.name == "Sport" }?.value
                idText = nil
                laps = []
                lapStartRead = []
                untimedTrackpoints = 0
                unreadable = UnreadableValues()
                samples = []
                device = Device()
                versionMajor = nil
                versionMinor = nil
            case "Lap" where inActivity:
                let startText = attributes.first { $0.name == "StartTime" }?.value
                let start = startText.flatMap(XMLTime.parse)?.date
                if start == nil { issues.add(.badValue, "Lap without a readable StartTime") }
                lap = Lap(start: start ?? Date(timeIntervalSince1970: 0))
                lapStartOK = start != nil
            case "Trackpoint" where inActivity:
                sample = Sample(time: Date(timeIntervalSince1970: 0))
                sampleHasTime = false
            case "Position":
                latitude = nil
                longitude = nil
            default: break
            }
        }

        mutating func end(_ name: String) {
            let (parent, value) = path.close()
            guard inActivity else { return }
            switch (name, parent) {
            case ("Id", "Activity"): idText = value.trimmedXML
            case ("TotalTimeSeconds", "Lap"): lap?.movingTimeS = unreadable.number(value, "Lap/TotalTimeSeconds")
            case ("DistanceMeters", "Lap"): lap?.distanceM = unreadable.number(value, "Lap/DistanceMeters")
            case ("Calories", "Lap"): lap?.energyKcal = unreadable.number(value, "Lap/Calories")
            case ("Value", "AverageHeartRateBpm") where path.stack.dropLast().last == "Lap":
                lap?.avgHeartRateBpm = unreadable.number(value, "Lap/AverageHeartRateBpm")
            case ("Value", "MaximumHeartRateBpm") where path.stack.dropLast().last == "Lap":
                lap?.maxHeartRateBpm = unreadable.number(value, "Lap/MaximumHeartRateBpm")
            case ("AvgWatts", "LX"): lap?.avgPowerW = unreadable.number(value, "LX/AvgWatts")
            case ("Lap", _):
                if let done = lap {
                    laps.append(done)
                    lapStartRead.append(lapStartOK)
                }
                lap = nil
            case ("Time", "Trackpoint"):
                if let t = XMLTime.parse(value) {
                    sample?.time = t.date
                    sampleHasTime = true
                }
            case ("LatitudeDegrees", "Position"): latitude = unreadable.number(value, "LatitudeDegrees")
            case ("LongitudeDegrees", "Position"): longitude = unreadable.number(value, "LongitudeDegrees")
            case ("Position", "Trackpoint"):
                if let latitude, let longitude, abs(latitude) <= 90, abs(longitude) <= 180 {
                    sample?.latitude = latitude
                    sample?.longitude = longitude
                }
            case ("AltitudeMeters", "Trackpoint"): sample?.altitudeM = unreadable.number(value, "AltitudeMeters")
            case ("DistanceMeters", "Trackpoint"): sample?.distanceM = unreadable.number(value, "DistanceMeters")
            case ("Value", "HeartRateBpm"): sample?.heartRateBpm = unreadable.number(value, "HeartRateBpm")
            case ("Cadence", "Trackpoint"): sample?.cadenceRpm = unreadable.number(value, "Cadence")
            case ("Speed", "TPX"): sample?.speedMps = unreadable.number(value, "TPX/Speed")
            case ("Watts", "TPX"): sample?.powerW = unreadable.number(value, "TPX/Watts")
            case ("RunCadence", "TPX"): sample?.cadenceRpm = unreadable.number(value, "TPX/RunCadence")
            case ("Trackpoint", _):
                if let done = sample {
                    if sampleHasTime {
                        samples.append(done)
                    } else {
                        issues.add(.badValue, "Trackpoint without a readable Time")
                        untimedTrackpoints += 1
                    }
                }
                sample = nil
            case ("Name", "Creator"): device.product = value.trimmedXML
            case ("UnitId", "Creator"): device.serialNumber = value.trimmedXML
            case ("VersionMajor", "Version"): versionMajor = value.trimmedXML
            case ("VersionMinor", "Version"): versionMinor = value.trimmedXML
            case ("Activity", _): finishOpenActivity()
            default: break
            }
        }

        /// Turns the activity read so far into an `ImportedActivity` (also for a document cut short).
        mutating func finishOpenActivity() {
            guard inActivity else { return }
            inActivity = false
            if let done = lap, path.stack.contains("Lap") {
                laps.append(done)
                lapStartRead.append(lapStartOK)
            }
            lap = nil
            // The dates the file agrees on: the majority of the trackpoints' times; the Id and lap starts
            // only where they agree with it.
            let (samples, outliers) = DateAgreement.majority(self.samples.sorted { $0.time < $1.time })
            var disagreements: [String] = []
            if outliers > 0 {
                disagreements.append(
                    "\(outliers) of \(samples.count + outliers) Trackpoint/Time far from the others' (left out)")
            }
            var idTime = idText.flatMap(XMLTime.parse)
            if let id = idTime, !DateAgreement.agrees(id.date, with: samples) {
                disagreements.append("Activity/Id is not within the trackpoints' times")
                idTime = nil
            } else if idTime == nil, idText != nil, !samples.isEmpty {
                disagreements.append("Activity/Id is not a readable time")
            }
            let lapStarts = zip(laps, lapStartRead).map { lap, read in
                read && DateAgreement.agrees(lap.start, with: samples, after: DateAgreement.toleranceS)
                    ? lap.start : nil
            }
            let badLapStarts = lapStarts.filter { $0 == nil }.count
            if badLapStarts > 0, !samples.isEmpty {
                disagreements.append(
                    "\(badLapStarts) of \(laps.count) Lap StartTime unreadable or not within the trackpoints' times")
            }
            let firstLapStart = lapStarts.lazy.compactMap { $0 }.first
            guard let start = idTime?.date ?? firstLapStart ?? samples.first?.time else {
                issues.add(.noActivity, "Activity without a start time")
                return
            }
            let startFrom = idTime != nil ? "Activity/Id" : firstLapStart != nil ? "Lap StartTime" : "Trackpoint/Time"
            let lastLap = laps.indices.last { lapStarts[$0] != nil }.map { laps[$0] }
            let lapEnd = lastLap.map { $0.start.addingTimeInterval($0.movingTimeS ?? 0) }
            let end = [samples.last?.time, lapEnd].compactMap { $0 }.max() ?? start
            let endFrom: String
            if let last = samples.last?.time, lapEnd.map({ last >= $0 }) ?? true {
                endFrom = "Trackpoint/Time (last)"
            } else {
                endFrom = lapEnd != nil ? "Lap StartTime + TotalTimeSeconds" : startFrom
            }
            let lapTimes = laps.compactMap(\.movingTimeS)
            let lapDistances = laps.compactMap(\.distanceM)
            let lapEnergy = laps.compactMap(\.energyKcal)
            let heartRates = samples.compactMap(\.heartRateBpm)
            let weighted = laps.filter { $0.avgHeartRateBpm != nil && ($0.movingTimeS ?? 0) > 0 }
            let weightedHR =
                weighted.isEmpty
                ? nil
                : weighted.reduce(0.0) { $0 + $1.avgHeartRateBpm! * $1.movingTimeS! }
                    / weighted.reduce(0.0) { $0 + $1.movingTimeS! }
            if versionMajor != nil { device.softwareVersion = "\(versionMajor!).\(versionMinor ?? "0")" }
            let moving = lapTimes.isEmpty ? nil : lapTimes.reduce(0, +)
            activities.append(
                ImportedActivity(
                    format: .tcx, sourceIdentity: "tcx:" + (idText ?? ISO8601DateFormatter().string(from: start)),
                    sport: Self.sport(sportText), sourceSport: sportText, start: start,
                    utcOffsetSeconds: idTime?.utcOffsetSeconds,
                    durationS: max(end.timeIntervalSince(start), moving ?? 0, 0), movingTimeS: moving,
                    distanceM: lapDistances.isEmpty
                        ? samples.last(where: { $0.distanceM != nil })?.distanceM : lapDistances.reduce(0, +),
                    trackDistanceM: Geo.trackDistance(samples),
                    energyKcal: lapEnergy.isEmpty ? nil : lapEnergy.reduce(0, +),
                    avgHeartRateBpm: heartRates.isEmpty
                        ? weightedHR : heartRates.reduce(0, +) / Double(heartRates.count),
                    maxHeartRateBpm: (heartRates + laps.compactMap(\.maxHeartRateBpm)).max(),
                    laps: laps, samples: samples, device: device == Device() ? nil : device))
            activities[activities.count - 1].datesFrom = "\(startFrom), \(endFrom)"
            let creator = [device.product, device.serialNumber].compactMap { $0 }.joined(separator: "/")
            activities[activities.count - 1].creator = creator.isEmpty ? nil : creator
            if !disagreements.isEmpty {
                activities[activities.count - 1].issues.append(
                    ReadIssue(
                        code: .datesDisagree,
                        detail: disagreements.joined(separator: "; ") + "; the dates are the trackpoints'"))
            }
            if samples.isEmpty {
                activities[activities.count - 1].issues.append(
                    ReadIssue(
                        code: .partialImport,
                        detail: "no Trackpoint with a time: the figures are the laps' totals, without samples"))
            } else if untimedTrackpoints > 0 {
                activities[activities.count - 1].issues.append(
                    ReadIssue(
                        code: .partialImport,
                        detail:
                            "\(untimedTrackpoints) of \(untimedTrackpoints + self.samples.count) Trackpoint without a "
                            + "readable Time (an invalid character, a missing Time): left out of the samples"))
            }
            if let flag = unreadable.flag { activities[activities.count - 1].issues.append(flag) }
        }

        static func sport(_ text: String?) -> ActivityType {
            switch text?.lowercased() {
            case "running": .running
            case "biking": .cycling
            default: .other
            }
        }
    }
}
