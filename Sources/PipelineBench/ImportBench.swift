// `pipeline-bench import`: `pipeline import` end to end (target ≥ 50 MB/s on the FIT corpus and the synthetic 50 MB
// FIT), beside the FIT reader alone on the same bytes in the same run, and the stored size of a million-point GPX's
// samples against their JSON text (at most a fifth). Figures in Benchmarks/files-results.md.
//
//   pipeline-bench import [--mb 50] [--runs 3] [--fixtures DIR] [--gpx-points 1000000] [--short] [--no-whole]
//
// Each import is `RecordProcessor.importWorkoutFiles` of the files on disk (`.file(url)`, as `pipeline import` calls it:
// each file read and validated while the one before it is written) into a fresh SQLite store with the user in it:
// read, validate, hash, samples into columns, commit. With several files the same files are then imported each whole
// before the next (`importWorkoutFile` in turn), the same-run baseline of that overlap. Wall time is the
// figure (the store's writer runs on its own thread), with the process's CPU time (all threads) beside it; the reader's
// figure is `FITReader.read` of the same bytes, wall and thread CPU, just before. `--short`: 2 MB, one run, 20,000 GPX
// points (CI). `--no-whole`: without the refused 19-day file.
import Foundation
import Ingest
import Store
import StoreSQLite
import WorkoutFiles

enum ImportBench {
    static func run(_ args: [String]) async throws {
        func option(_ name: String) -> String? {
            guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
            return args[i + 1]
        }
        let short = args.contains("--short")
        let mb = Double(option("--mb") ?? (short ? "2" : "50")) ?? 50
        let runs = Int(option("--runs") ?? (short ? "1" : "3")) ?? 3
        let points = Int(option("--gpx-points") ?? (short ? "20000" : "1000000")) ?? 1_000_000
        let fixtures = option("--fixtures") ?? "Tests/WorkoutFilesTests/Fixtures"
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "pipeline-bench-import-\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        print("import bench: load average \(FilesBench.loadAverage()), \(runs) runs")

        // The reader benchmark's synthetic file (`SyntheticFIT`, 30-byte records at 1 Hz): 50 MB of it is 19 days of
        // records, past the 7 days a workout file may last (`invalid_duration`, docs/workout-files.md), so it is
        // imported whole (refused: read, validated, quarantined) and as `parts` files of ≤ 2.5 days each (stored), each
        // another activity.
        let records = Int(mb * 1_000_000 / 30)
        let parts = max(1, Int((Double(records) / 216_000).rounded(.up)))
        let whole = root.appendingPathComponent("synthetic.fit")
        try Data(SyntheticFIT.activity(records: records)).write(to: whole)
        var split: [URL] = []
        for part in 0..<parts {
            let url = root.appendingPathComponent("synthetic-\(part).fit")
            // Each part another activity (its file_id serial and its days: 4 days apart), so that each is imported and
            // stored, none a duplicate of the first.
            let activity = SyntheticFIT.activity(
                records: records / parts, serial: 3_912_345_678 &+ UInt32(part),
                start: 1_000_000_000 + UInt32(part) * 345_600)
            try Data(activity).write(to: url)
            split.append(url)
        }
        let real = try FilesBench.files(in: fixtures + "/real").filter { $0.hasSuffix(".fit") }.sorted()
        for run in 1...runs {
            if parts > 1, !args.contains("--no-whole") {
                try await measure("synthetic FIT whole (refused: 7-day bound)", [whole], root: root, run: run)
            }
            try await measure("synthetic FIT in \(parts) files", split, root: root, run: run)
            if !real.isEmpty {
                try await measure("real FIT corpus", real.map(URL.init(fileURLWithPath:)), root: root, run: run)
            }
        }
        try await gpx(points: points, root: root)
    }

    /// One run: the reader over every file's bytes, then each file imported into a fresh store.
    static func measure(_ what: String, _ files: [URL], root: URL, run: Int) async throws {
        // The path `pipeline import` takes, then (the same-run baseline) each file imported whole before the next is
        // read: their ratio is what preparing a file while the one before it is written gives.
        try await measure(what, files, root: root, run: run, oneByOne: false)
        if files.count > 1 {
            try await measure(what + ", one file after the other", files, root: root, run: run, oneByOne: true)
        }
    }

    static func measure(_ what: String, _ files: [URL], root: URL, run: Int, oneByOne: Bool) async throws {
        let contents = try files.map { [UInt8](try Data(contentsOf: $0)) }
        let bytes = contents.reduce(0) { $0 + $1.count }
        let (readerCPU, readerWall, _) = try FilesBench.measure { () throws(WorkoutFileError) -> Int in
            var n = 0
            for file in contents { n += try FITReader.read(file).activities.count }
            return n
        }
        let path = root.appendingPathComponent("store-\(run)-\(what.count).sqlite").path
        let store = try SQLiteStore(path: path)
        let user = UserID("bench")
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))
        let processor = RecordProcessor(store: store)
        let clock = ContinuousClock()
        let cpu0 = FilesBench.processCPU()
        let t0 = clock.now
        var stored = 0
        let inputs = files.map { url in
            WorkoutFileInput(
                user: user, sourceKey: "import/\(url.lastPathComponent)", fileName: url.lastPathComponent,
                contents: .file(url))
        }
        if oneByOne {
            for input in inputs {
                stored +=
                    try await processor.importWorkoutFile(input, source: "import", receivedAt: Date().epochMillis)
                    .workouts.stored
            }
        } else {
            try await processor.importWorkoutFiles(inputs, source: "import", receivedAt: { Date().epochMillis }) {
                _, report in
                stored += report.workouts.stored
            }
        }
        let elapsed = (clock.now - t0).components
        let wall = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let cpu = FilesBench.processCPU() - cpu0
        let megabytes = Double(bytes) / 1e6
        // What was stored and quarantined, as one hash (equal before and after an optimisation: the same records, the
        // same content hashes, the same quarantine rows).
        var outcome: [String] = []
        for w in try await store.workouts(user: user, includeDeleted: false) {
            outcome.append(
                "\(w.workoutID.rawValue) \(w.contentHash) \(w.samplesJSON.map { Hashing.sha256Hex(Array($0.utf8)) } ?? "-")"
            )
        }
        for q in try await store.quarantined(reason: nil, offset: 0, limit: 10_000) {
            outcome.append(
                "q \(q.sourceKey) \(q.reasonCode) \(q.userID?.rawValue ?? "-") \(q.message) \(Hashing.sha256Hex(q.payload))"
            )
        }
        print(
            "  run \(run) \(what): outcome \(Hashing.sha256Hex(Array(outcome.sorted().joined(separator: "\n").utf8)).prefix(16))"
        )
        print(
            String(
                format:
                    "  run %d %@: %.1f MB in %d files, %d records stored — import %.3f s wall = %.1f MB/s, %.3f s process CPU = %.1f MB/s | reader %.3f s wall = %.1f MB/s, %.3f s thread CPU = %.1f MB/s | import/reader %.2f (wall), %.2f (CPU) | load %@",
                run, what, megabytes, files.count, stored, wall, megabytes / wall, cpu, megabytes / cpu, readerWall,
                megabytes / readerWall, readerCPU, megabytes / readerCPU, readerWall / wall, readerCPU / cpu,
                FilesBench.loadAverage()))
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A GPX of `points` trackpoints at 2 Hz (position, elevation with one decimal, heart rate), imported: its samples'
    /// JSON text against what the store holds.
    static func gpx(points: Int, root: URL) async throws {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>

            """
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var state: UInt64 = 7
        var lat = 46.0, lon = 14.5, ele = 500.0
        let t0 = 1_700_000_000
        for i in 0..<points {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            lat += Double(Int(state >> 60) - 7) * 1e-6
            lon += Double(Int((state >> 56) & 15) - 7) * 1e-6 + 1e-5
            ele = ((ele * 10).rounded() + Double(Int((state >> 52) & 7) - 3)) / 10
            // Two points a second: a million points in under 6 days (a file may last 7).
            let time = iso.string(from: Date(timeIntervalSince1970: TimeInterval(t0) + Double(i) / 2))
            text += String(
                format: "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>%@</time>", lat, lon, ele, time)
            text += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + Int(state >> 59) % 40)</gpxtpx:hr>"
            text += "</gpxtpx:TrackPointExtension></extensions></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let url = root.appendingPathComponent("million.gpx")
        try Data(text.utf8).write(to: url)
        let path = root.appendingPathComponent("gpx.sqlite").path
        let store = try SQLiteStore(path: path)
        let user = UserID("bench")
        try await store.upsertUser(User(id: user, timeZone: "UTC", createdAt: 0))
        let clock = ContinuousClock()
        let start = clock.now
        let report = try await RecordProcessor(store: store).importWorkoutFile(
            WorkoutFileInput(
                user: user, sourceKey: "import/million.gpx", fileName: "million.gpx", contents: .file(url)),
            source: "import", receivedAt: Date().epochMillis)
        let elapsed = clock.now - start
        let record = try require(try await store.workouts(user: user, includeDeleted: false).first, "the GPX's record")
        let json = record.samplesJSON?.utf8.count ?? 0
        // The bytes the store wrote for them (`StoredSamples.encode` is deterministic).
        let stored = record.samples.map { StoredSamples.encode($0).count } ?? 0
        print(
            "  GPX of \(points) points (\(text.utf8.count / 1_000_000) MB), \(report.workouts.stored) record in \(elapsed):"
                + " samples as JSON \(json) bytes, stored \(stored) bytes = "
                + String(
                    format: "%.2f %% (%.1f× smaller)", 100 * Double(stored) / Double(json),
                    Double(json) / Double(stored)))
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `#require` outside a test: the value, or the benchmark stops.
private func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw FilesBench.BenchError("missing \(what)") }
    return value
}
