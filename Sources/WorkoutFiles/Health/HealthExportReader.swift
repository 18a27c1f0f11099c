import Foundation

/// Reads the Apple Health export (`export.zip`, or `export.xml` with its `workout-routes/` folder beside it), streamed
/// in two passes over `export.xml` so memory stays flat whatever its size: the first collects the `Workout` elements
/// (attributes, `WorkoutStatistics`, `WorkoutEvent` pauses and laps, `MetadataEntry`, the `WorkoutRoute` file), the
/// second the heart-rate `Record`s that fall inside a workout, which become its HR samples. A route's GPX adds the
/// positions, altitude and speed.
public enum HealthExportReader {
    /// Reads an `export.zip` held in memory.
    public static func read(zipBytes: [UInt8]) throws(WorkoutFileError) -> WorkoutFile {
        try read(zip: ZipArchive(MemorySource(zipBytes)))
    }

    /// Reads an `export.zip` on disk.
    public static func read(zipURL: URL) throws(WorkoutFileError) -> WorkoutFile {
        try read(zip: ZipArchive(FileSource(url: zipURL)))
    }

    /// Reads an `export.xml` held in memory (routes cannot be resolved: they are flagged `health_route_missing`).
    public static func read(xmlBytes: [UInt8]) throws(WorkoutFileError) -> WorkoutFile {
        try read(format: .appleHealthXML, open: { AnyChunkSource(MemoryChunks(xmlBytes)) }, route: { _ in nil })
    }

    /// Reads an `export.xml` on disk; routes are looked up relative to its folder (`workout-routes/…`).
    public static func read(xmlURL: URL) throws(WorkoutFileError) -> WorkoutFile {
        let folder = xmlURL.deletingLastPathComponent()
        return try read(
            format: .appleHealthXML,
            open: { () throws(WorkoutFileError) in AnyChunkSource(try FileChunks(url: xmlURL)) },
            route: { path throws(WorkoutFileError) in
                let url = folder.appendingPathComponent(path.hasPrefix("/") ? String(path.dropFirst()) : path)
                guard FileManager.default.fileExists(atPath: url.path) else { return nil }
                return AnyChunkSource(try FileChunks(url: url))
            })
    }

    static func read(zip: ZipArchive) throws(WorkoutFileError) -> WorkoutFile {
        guard let export = zip.entries.first(where: { $0.name == "export.xml" || $0.name.hasSuffix("/export.xml") })
        else {
            throw WorkoutFileError(
                code: .zipNoExportXML, detail: "the zip has no export.xml (\(zip.entries.count) entries)")
        }
        var damage: [ReadIssue] = []
        var result = try read(
            format: .appleHealthZip,
            open: { () throws(WorkoutFileError) in
                let chunks = try zip.chunks(export)
                return AnyChunkSource(
                    chunks,
                    onEnd: {
                        if chunks.crcMismatch, !damage.contains(where: { $0.code == .zipBadCRC }) {
                            damage.append(ReadIssue(code: .zipBadCRC, detail: "CRC-32 of export.xml does not match"))
                        }
                    })
            },
            route: { path throws(WorkoutFileError) in
                guard let entry = zip.entry(endingWith: path) else { return nil }
                return AnyChunkSource(try zip.chunks(entry))
            })
        result.issues += damage
        return result
    }

    static func read(
        format: FileFormat, open: () throws(WorkoutFileError) -> AnyChunkSource,
        route: (String) throws(WorkoutFileError) -> AnyChunkSource?
    ) throws(WorkoutFileError) -> WorkoutFile {
        var issues = IssueLog()
        // Pass 1: the workouts.
        var workouts = WorkoutPass()
        var source = try open()
        if let truncation = try XMLStream.parse(&source, &workouts) {
            issues.add(truncation.code, truncation.detail, offset: truncation.offset)
        }
        source.end()
        guard workouts.sawHealthData else {
            throw WorkoutFileError(code: .unknownFormat, detail: "not a Health export (no HealthData root)")
        }
        let read = workouts.workouts.compactMap { workout in
            workout.activity(format: format, issues: &issues).map { ($0, workout.routePath) }
        }
        var activities = read.map(\.0)
        // Pass 2: heart-rate records inside a workout.
        if !activities.isEmpty {
            var pass = HeartRatePass(
                intervals: activities.enumerated().map { ($0.element.start, $0.element.end, $0.offset) }
                    .sorted { $0.0 < $1.0 })
            var again = try open()
            _ = try XMLStream.parse(&again, &pass)
            for (index, samples) in pass.samples {
                activities[index].samples = samples.sorted { $0.time < $1.time }
                // Figures at import: a workout without heart-rate statistics gets its average (the mean of
                // its records, as for TCX and GPX) and maximum from the heart-rate records inside it.
                let heartRates = samples.compactMap(\.heartRateBpm)
                if !heartRates.isEmpty {
                    activities[index].avgHeartRateBpm =
                        activities[index].avgHeartRateBpm ?? heartRates.reduce(0, +) / Double(heartRates.count)
                    activities[index].maxHeartRateBpm = activities[index].maxHeartRateBpm ?? heartRates.max()
                }
            }
        }
        // Routes.
        for (index, routePath) in read.map(\.1).enumerated() {
            guard let path = routePath else { continue }
            guard var chunks = try route(path) else {
                activities[index].issues.append(ReadIssue(code: .routeMissing, detail: "route file not found"))
                continue
            }
            do throws(WorkoutFileError) {
                let gpx = try GPXReader.read(&chunks)
                let points = gpx.activities.flatMap(\.samples)
                activities[index].samples = merge(activities[index].samples, points)
                activities[index].trackDistanceM = Geo.trackDistance(points)
                for issue in gpx.issues { activities[index].issues.append(issue) }
            } catch {
                activities[index].issues.append(
                    ReadIssue(code: error.code, detail: "route: " + error.detail, offset: error.offset))
            }
        }
        return WorkoutFile(format: format, activities: activities, issues: issues.issues)
    }

    /// Heart-rate samples and route points in one series (same instant: one sample).
    static func merge(_ a: [Sample], _ b: [Sample]) -> [Sample] {
        var all = (a + b).sorted { $0.time < $1.time }
        var out: [Sample] = []
        out.reserveCapacity(all.count)
        for s in all {
            if var last = out.last, last.time == s.time {
                last.heartRateBpm = last.heartRateBpm ?? s.heartRateBpm
                last.latitude = last.latitude ?? s.latitude
                last.longitude = last.longitude ?? s.longitude
                last.altitudeM = last.altitudeM ?? s.altitudeM
                last.speedMps = last.speedMps ?? s.speedMps
                out[out.count - 1] = last
            } else {
                out.append(s)
            }
        }
        all.removeAll()
        return out
    }
}

/// A type-erased chunk source with an end hook (the zip's CRC verdict).
struct AnyChunkSource: ChunkSource {
    var base: any ChunkSource
    var onEnd: () -> Void

    init(_ base: any ChunkSource, onEnd: @escaping () -> Void = {}) {
        self.base = base
        self.onEnd = onEnd
    }

    mutating func next() throws(WorkoutFileError) -> [UInt8]? {
        let chunk = try base.next()
        if chunk == nil { onEnd() }
        return chunk
    }

    func end() { onEnd() }
}
