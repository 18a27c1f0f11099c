import CivilDate
import Foundation

/// Reads GPX 1.0/1.1 tracks: the tracks of one file as one outing (`Handler.activities`), points with position,
/// elevation and time, and the sensor extensions of Garmin's TrackPointExtension (v1/v2: `hr`, `cad`, `atemp`,
/// `speed`) and the common power elements (`power`, `PowerInWatts`). Points without a time are counted and kept in
/// the track's distance, not placed in the samples.
public enum GPXReader {
    /// Reads a whole document held in memory.
    public static func read(bytes: [UInt8]) throws(WorkoutFileError) -> WorkoutFile {
        var source = MemoryChunks(bytes)
        return try read(&source)
    }

    static func read<S: ChunkSource>(_ source: inout S) throws(WorkoutFileError) -> WorkoutFile {
        try Handler.readDocument(&source)
    }

    /// One `trk` as read: its timed points (samples), where its segments start, and its positions in document order
    /// (timed or not) as a distance.
    struct TrackRead {
        var index: Int
        var type: String?
        var samples: [Sample] = []
        var segmentStarts: Set<Int> = []
        var points = 0
        var untimed = 0
        var track = Geo.Track()
        var utcOffset: Int?
        /// Values of its points whose text is not a number (left out, flagged).
        var unreadable = UnreadableValues()
        /// The track's distance: over its timed points in time order when every point has a time (as before issue
        /// 40), else over all its positions in document order (the untimed ones have no time to order them by).
        var distance: Double?
    }

    struct Handler: ActivityDocumentHandler {
        static let format = FileFormat.gpx
        var issues = IssueLog()
        var path = ElementPath()
        var trackIndex = 0
        var tracks: [TrackRead] = []
        var current: TrackRead?
        var metadataTime: XMLTime.Parsed?
        var creator: String?
        var point: Sample?
        var pointHasTime = false

        /// The file's activities: the `trk` elements of one file are one outing — consecutive tracks are
        /// joined, each new track a segment break (a pause), unless their `type`s name different sports. Points
        /// without a time count in the distance of the track they are in; a track with no timed point at all, in a
        /// file with timed points, is a route or a saved copy of the log and is not counted (noted `no_activity`). A
        /// file with positions and no timed point at all gives one activity dated by its `metadata/time`, with its
        /// distance and no duration. Incomplete activities carry `partial_import` saying what was missing.
        var activities: [ImportedActivity] {
            let timedFile = tracks.contains { !$0.samples.isEmpty }
            var groups: [[TrackRead]] = []
            var groupType: String?
            for track in tracks where track.points > 0 && (!timedFile || !track.samples.isEmpty) {
                let type = track.type?.lowercased()
                if groups.isEmpty || (groupType != nil && type != nil && groupType != type) {
                    groups.append([track])
                    groupType = type
                } else {
                    groups[groups.count - 1].append(track)
                    groupType = groupType ?? type
                }
            }
            return groups.compactMap(activity)
        }

        mutating func start(_ name: String, _ attributes: [XMLAttribute]) {
            path.open(name)
            switch name {
            case "gpx":
                creator = attributes.first { $0.name == "creator" }?.value.trimmedXML
                if creator?.isEmpty ?? false { creator = nil }
            case "trk":
                current = TrackRead(index: trackIndex)
            case "trkseg" where current != nil:
                if !current!.samples.isEmpty { current!.segmentStarts.insert(current!.samples.count) }
            case "trkpt" where current != nil:
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

        mutating func end(_ name: String) {
            let (parent, value) = path.close()
            if point != nil {
                switch name {
                case "ele" where parent == "trkpt": point?.altitudeM = current?.unreadable.number(value, "ele")
                case "time" where parent == "trkpt":
                    if let t = XMLTime.parse(value) {
                        point?.time = t.date
                        pointHasTime = true
                        if current?.utcOffset == nil { current?.utcOffset = t.utcOffsetSeconds }
                    }
                case "hr", "heartrate": point?.heartRateBpm = current?.unreadable.number(value, name)
                case "cad", "cadence": point?.cadenceRpm = current?.unreadable.number(value, name)
                case "power", "PowerInWatts", "watts": point?.powerW = current?.unreadable.number(value, name)
                case "speed": point?.speedMps = current?.unreadable.number(value, name)
                case "atemp", "temp": point?.temperatureC = current?.unreadable.number(value, name)
                case "trkpt":
                    let done = point!
                    point = nil
                    current?.points += 1
                    current?.track.add(done.latitude, done.longitude)
                    if pointHasTime {
                        current?.samples.append(done)
                    } else {
                        current?.untimed += 1
                        issues.add(.badValue, "trkpt without a readable time")
                    }
                default: break
                }
                return
            }
            switch (name, parent) {
            case ("time", "metadata"): metadataTime = XMLTime.parse(value)
            case ("type", "trk"): current?.type = value.trimmedXML
            case ("trk", _): finishOpenActivity()
            default: break
            }
        }

        /// Ends the open `trk` (at its end tag, or where the document was cut short).
        mutating func finishOpenActivity() {
            guard var done = current else { return }
            current = nil
            trackIndex += 1
            if done.samples.isEmpty { issues.add(.noActivity, "trk without timed points") }
            done.distance = done.untimed == 0 ? Geo.trackDistance(Self.inTimeOrder(done.samples)) : done.track.distance
            tracks.append(done)
        }

        /// Points come in document order; a file with points out of order is sorted (segment breaks then lost),
        /// stably: points with the same time keep their document order (gpxpy's Mojstrovka.gpx has 183 points at one
        /// instant and one 0.3 ms before them; `sort` alone is not documented as stable).
        static func inTimeOrder(_ samples: [Sample]) -> [Sample] {
            if zip(samples, samples.dropFirst()).allSatisfy({ $0.time <= $1.time }) { return samples }
            return samples.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map(\.element)
        }

        /// One outing from consecutive tracks (see `activities`).
        func activity(_ group: [TrackRead]) -> ImportedActivity? {
            var samples: [Sample] = []
            var segmentStarts = Set<Int>()
            var points = 0, untimed = 0
            var unreadable = UnreadableValues()
            if group.count == 1 {
                // One track (the usual file): its samples as they are, not copied (a GPX may hold a million points).
                samples = group[0].samples
                segmentStarts = group[0].segmentStarts
            }
            for track in group {
                if group.count > 1 {
                    if !samples.isEmpty { segmentStarts.insert(samples.count) }
                    for start in track.segmentStarts { segmentStarts.insert(samples.count + start) }
                    samples += track.samples
                }
                points += track.points
                untimed += track.untimed
                unreadable.add(track.unreadable)
            }
            if !zip(samples, samples.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
                samples = Self.inTimeOrder(samples)
                segmentStarts = []
            }
            let type = group.lazy.compactMap(\.type).first
            let heartRates = samples.compactMap(\.heartRateBpm)
            // The sum of the tracks' distances (as gpxpy's `length_2d`): the unrecorded gap between two tracks is no
            // distance anyone measured (cerknicko-jezero.gpx: 4,575 m in its seven tracks, 13.7 km with the gaps).
            let distances = group.compactMap(\.distance)
            let trackDistance = distances.isEmpty ? nil : distances.reduce(0, +)
            guard let first = samples.first, let lastSample = samples.last else {
                // No point of the whole file has a time: the distance is known, the duration is not.
                guard let metadataTime else { return nil }
                var activity = ImportedActivity(
                    format: .gpx,
                    sourceIdentity: "gpx:\(Int(metadataTime.date.timeIntervalSince1970)):\(group[0].index)",
                    sport: GPXReader.sport(type), sourceSport: type, start: metadataTime.date,
                    utcOffsetSeconds: metadataTime.utcOffsetSeconds, durationS: 0, movingTimeS: nil,
                    distanceM: nil, trackDistanceM: trackDistance,
                    issues: [
                        ReadIssue(
                            code: .partialImport,
                            detail:
                                "no trkpt has a time (\(points) points): the track's distance is kept, its duration is "
                                + "unknown; the start is the file's metadata/time")
                    ] + [unreadable.flag].compactMap { $0 })
                activity.datesFrom = "metadata/time"
                activity.durationKnown = false
                activity.creator = creator
                return activity
            }
            var activity = ImportedActivity(
                format: .gpx, sourceIdentity: "gpx:\(Int(first.time.timeIntervalSince1970)):\(group[0].index)",
                sport: GPXReader.sport(type), sourceSport: type, start: first.time,
                utcOffsetSeconds: group.first { !$0.samples.isEmpty }?.utcOffset,
                durationS: lastSample.time.timeIntervalSince(first.time),
                // With untimed points between the timed ones, the gaps say nothing of pauses: no moving time.
                movingTimeS: untimed == 0 ? Geo.movingTime(samples, segmentStarts: segmentStarts) : nil,
                distanceM: nil, trackDistanceM: trackDistance,
                avgHeartRateBpm: heartRates.isEmpty ? nil : heartRates.reduce(0, +) / Double(heartRates.count),
                maxHeartRateBpm: heartRates.max(),
                samples: samples)
            activity.datesFrom = "trkpt/time (first and last)"
            if let flag = unreadable.flag { activity.issues.append(flag) }
            activity.creator = creator
            if untimed > 0 {
                activity.durationKnown = false
                activity.issues.append(
                    ReadIssue(
                        code: .partialImport,
                        detail:
                            "\(untimed) of \(points) trkpt without a time: their positions count in the track's "
                            + "distance; the duration is the span of the timed points, the samples are the timed points"
                    ))
            }
            return activity
        }
    }

    static func sport(_ type: String?) -> ActivityType {
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
