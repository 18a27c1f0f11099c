import Foundation

/// Reads GPX 1.0/1.1 tracks: one activity per `trk`, points with position, elevation and time, and the sensor
/// extensions of Garmin's TrackPointExtension (v1/v2: `hr`, `cad`, `atemp`, `speed`) and the common power
/// elements (`power`, `PowerInWatts`). Points without a time are counted, not placed.
public enum GPXReader {
    /// Reads a whole document held in memory.
    public static func read(bytes: [UInt8]) throws(WorkoutFileError) -> WorkoutFile {
        var source = MemoryChunks(bytes)
        return try read(&source)
    }

    static func read<S: ChunkSource>(_ source: inout S) throws(WorkoutFileError) -> WorkoutFile {
        try Handler.readDocument(&source)
    }

    struct Handler: ActivityDocumentHandler {
        static let format = FileFormat.gpx
        var activities: [ImportedActivity] = []
        var issues = IssueLog()
        var path = ElementPath()
        var trackIndex = 0
        var inTrack = false
        var trackType: String?
        var samples: [Sample] = []
        var segmentStarts: Set<Int> = []
        var point: Sample?
        var pointHasTime = false
        var pointOffset: Int?
        var firstOffset: Int?

        mutating func start(_ name: String, _ attributes: [XMLAttribute]) {
            path.open(name)
            switch name {
            case "trk":
                inTrack = true
                trackType = nil
                samples = []
                segmentStarts = []
                firstOffset = nil
            case "trkseg" where inTrack:
                if !samples.isEmpty { segmentStarts.insert(samples.count) }
            case "trkpt" where inTrack:
                var s = Sample(time: Date(timeIntervalSince1970: 0))
                let lat = attributes.first { $0.name == "lat" }?.value.xmlNumber
                let lon = attributes.first { $0.name == "lon" }?.value.xmlNumber
                if let lat, let lon, abs(lat) <= 90, abs(lon) <= 180 {
                    s.latitude = lat
                    s.longitude = lon
                } else {
                    issues.add(.badValue, "trkpt without a readable lat/lon")
                }
                point = s
                pointHasTime = false
            default: break
            }
        }

        mutating func text(_ text: String) { path.append(text: text) }

        mutating func end(_ name: String) {
            let (parent, value) = path.close()
            if point != nil {
                switch name {
                case "ele" where parent == "trkpt": point?.altitudeM = value.xmlNumber
                case "time" where parent == "trkpt":
                    if let t = XMLTime.parse(value) {
                        point?.time = t.date
                        pointHasTime = true
                        if firstOffset == nil { firstOffset = t.utcOffsetSeconds }
                    }
                case "hr", "heartrate": point?.heartRateBpm = value.xmlNumber
                case "cad", "cadence": point?.cadenceRpm = value.xmlNumber
                case "power", "PowerInWatts", "watts": point?.powerW = value.xmlNumber
                case "speed": point?.speedMps = value.xmlNumber
                case "atemp", "temp": point?.temperatureC = value.xmlNumber
                case "trkpt":
                    if pointHasTime {
                        samples.append(point!)
                    } else {
                        issues.add(.badValue, "trkpt without a readable time")
                    }
                    point = nil
                default: break
                }
                return
            }
            switch (name, parent) {
            case ("type", "trk"): trackType = value.trimmedXML
            case ("trk", _): finishOpenActivity()
            default: break
            }
        }

        mutating func finishOpenActivity() {
            guard inTrack else { return }
            inTrack = false
            defer { trackIndex += 1 }
            // Points come in document order; a file with points out of order is sorted (segment breaks then lost),
            // stably: points with the same time keep their document order (gpxpy's Mojstrovka.gpx has 183 points at
            // one instant and one 0.3 ms before them; `sort` alone is not documented as stable).
            var samples = self.samples
            var segmentStarts = self.segmentStarts
            if !zip(samples, samples.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
                samples = samples.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                    .map(\.element)
                segmentStarts = []
            }
            guard let first = samples.first, let last = samples.last else {
                issues.add(.noActivity, "trk without timed points")
                return
            }
            activities.append(
                ImportedActivity(
                    format: .gpx, sourceIdentity: "gpx:\(Int(first.time.timeIntervalSince1970)):\(trackIndex)",
                    sport: GPXReader.sport(trackType), sourceSport: trackType, start: first.time,
                    utcOffsetSeconds: firstOffset,
                    durationS: last.time.timeIntervalSince(first.time),
                    movingTimeS: Geo.movingTime(samples, segmentStarts: segmentStarts),
                    distanceM: nil, trackDistanceM: Geo.trackDistance(samples),
                    avgHeartRateBpm: Self.mean(samples.compactMap(\.heartRateBpm)),
                    maxHeartRateBpm: samples.compactMap(\.heartRateBpm).max(),
                    samples: samples))
        }

        static func mean(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
    }

    static func sport(_ type: String?) -> Sport {
        guard let t = type?.lowercased() else { return .other }
        if t == "9" || t.contains("trail") && t.contains("run") { return t == "9" ? .running : .trailRunning }
        if t.contains("treadmill") { return .treadmillRunning }
        if t.contains("run") { return .running }
        if t == "1" || t.contains("virtual") && t.contains("ride") { return t == "1" ? .cycling : .indoorCycling }
        if t.contains("indoor") && (t.contains("cycl") || t.contains("bik")) { return .indoorCycling }
        if t.contains("ride") || t.contains("cycl") || t.contains("bik") { return .cycling }
        if t.contains("walk") { return .walking }
        if t.contains("hik") { return .hiking }
        if t.contains("row") { return .rowing }
        if t.contains("swim") { return .swimming }
        return .other
    }
}
