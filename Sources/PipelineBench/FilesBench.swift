// `pipeline-bench files`: the WorkoutFiles readers (targets: FIT records ≥ 200 MB/s on one core; a 500 MB Apple
// Health export.xml streamed with ≤ 100 MB RSS at ≥ 100 MB/s). Uses only the module's public API, so the same file
// also builds against an older WorkoutFiles for a before/after run (Benchmarks/files-results.md says how).
//
//   pipeline-bench files fit [--mb 50] [--runs 7] [--fixtures DIR]   synthetic FIT file + the real fixture files
//   pipeline-bench files health [--mb 500] [--dir DIR] [--runs 1]    export.xml generated once into DIR, then read
//   pipeline-bench files digest [--fixtures DIR] [--dir DIR]         FNV-1a of the readers' output (before = after)
//
// Timing is the calling thread's CPU time (the machine is shared), with wall time beside it; health adds the
// process's user+system time (its reads) and peak RSS. Run `health` in its own process so the RSS is its own.
import Foundation
import WorkoutFiles

enum FilesBench {
    static func run(_ args: [String]) async throws {
        let mode = args.first ?? "fit"
        func option(_ name: String) -> String? {
            guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
            return args[i + 1]
        }
        let fixtures = option("--fixtures") ?? "Tests/WorkoutFilesTests/Fixtures"
        let dir = option("--dir") ?? NSTemporaryDirectory() + "pipeline-bench-files"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        print("files bench: \(mode), load average \(loadAverage())")
        switch mode {
        case "fit":
            try fit(
                mb: Double(option("--mb") ?? "50") ?? 50, runs: Int(option("--runs") ?? "7") ?? 7, fixtures: fixtures)
        case "health":
            try health(mb: Int(option("--mb") ?? "500") ?? 500, dir: dir, runs: Int(option("--runs") ?? "1") ?? 1)
        case "digest":
            try digest(fixtures: fixtures, dir: dir)
        default:
            throw BenchError("unknown mode \(mode): fit, health or digest")
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    // MARK: FIT

    static func fit(mb: Double, runs: Int, fixtures: String) throws {
        let records = Int(mb * 1_000_000 / 30)
        let bytes = SyntheticFIT.activity(records: records)
        print(
            String(
                format:
                    "synthetic FIT: %d records, %.1f MB (records of 30 bytes: time, position, distance, enhanced speed and altitude, HR, cadence, power, temperature)",
                records, Double(bytes.count) / 1e6))
        var cpu: [Double] = [], wall: [Double] = [], control: [Double] = []
        for _ in 0..<runs {
            let (c, w, file) = try measure { try FITReader.read(bytes) }
            precondition(file.activities.first?.samples.count == records)
            cpu.append(c)
            wall.append(w)
            control.append(memoryControl(bytes: records * MemoryLayout<Sample>.stride))
        }
        report("FIT synthetic", bytes: bytes.count, cpu: cpu, wall: wall)
        reportAgainstControl(bytes: bytes.count, cpu: cpu, control: control)

        // The real files of Tests/WorkoutFilesTests/Fixtures/real, each read as often as it takes to reach ≈ 20 MB.
        let real = try files(in: fixtures + "/real").filter { $0.hasSuffix(".fit") }
        guard !real.isEmpty else { return }
        let contents = try real.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let total = contents.reduce(0) { $0 + $1.count }
        let rounds = max(1, 20_000_000 / total)
        cpu = []
        wall = []
        for _ in 0..<runs {
            let (c, w, _) = try measure { () throws(WorkoutFileError) -> Int in
                var n = 0
                for _ in 0..<rounds { for file in contents { n += try FITReader.read(file).activities.count } }
                return n
            }
            cpu.append(c)
            wall.append(w)
        }
        report(
            "FIT real fixtures (\(real.count) files, \(total / 1000) kB, ×\(rounds))", bytes: total * rounds, cpu: cpu,
            wall: wall)
    }

    /// The baseline run beside each FIT run, in the same process: a fresh buffer the size of the reader's sample array
    /// written once and summed (the same fresh pages and memory traffic, no decoding). Its thread CPU time, s. The
    /// reader's time swings by up to 2× with what else the machine's memory is doing (another build on the other
    /// core, the host's neighbours); an ALU-only loop does not swing, this control swings with the reader.
    static func memoryControl(bytes: Int) -> Double {
        let count = bytes / 8
        let (c, _, sum) = try! measure { () -> Double in
            var a = [Double](repeating: 0, count: count)
            a.withUnsafeMutableBufferPointer { p in for i in p.indices { p[i] = Double(i & 1023) } }
            return a.reduce(0, +)
        }
        precondition(sum >= 0)
        return c
    }

    /// FIT against the control run after it: every run's pair, and the reader's rate over the runs where the control ran
    /// at ≥ 90 % of its best (the machine's memory quiet during that run).
    static func reportAgainstControl(bytes: Int, cpu: [Double], control: [Double]) {
        let mb = Double(bytes) / 1e6
        let best = control.min()!
        let pairs = zip(cpu, control).map { String(format: "%.0f/%.2f", mb / $0, best / $1) }
        let quiet = zip(cpu, control).filter { best / $0.1 >= 0.9 }.map(\.0).sorted()
        print("  per run, FIT MB/s / control speed relative to its best: " + pairs.joined(separator: " "))
        if !quiet.isEmpty {
            print(
                String(
                    format: "  FIT in the %d of %d runs with the control within 10%% of its best: %.1f–%.1f MB/s",
                    quiet.count, cpu.count, mb / quiet.last!, mb / quiet.first!))
        }
    }

    // MARK: Health

    static func health(mb: Int, dir: String, runs: Int) throws {
        let path = dir + "/export-\(mb)MB.xml"
        if !FileManager.default.fileExists(atPath: path) {
            let started = Date()
            try SyntheticHealth.write(path: path, megabytes: mb)
            print(String(format: "wrote %@ in %.1f s", path, Date().timeIntervalSince(started)))
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        for _ in 0..<runs {
            let processBefore = processCPU()
            let (c, w, file) = try measure { try HealthExportReader.read(xmlURL: URL(fileURLWithPath: path)) }
            let process = processCPU() - processBefore
            let samples = file.activities.reduce(0) { $0 + $1.samples.count }
            print(
                String(
                    format:
                        "Health export.xml %.1f MB: %d workouts, %d HR samples; thread CPU %.3f s (%.1f MB/s), process CPU %.3f s (%.1f MB/s), wall %.3f s (%.1f MB/s); peak RSS %.1f MB",
                    Double(size) / 1e6, file.activities.count, samples, c, Double(size) / 1e6 / c, process,
                    Double(size) / 1e6 / process,
                    w, Double(size) / 1e6 / w, Double(peakRSSKiB()) / 1024))
        }
    }

    // MARK: Digest

    /// FNV-1a 64 over everything the readers give (every field of every activity, sample, lap, pause, issue), per file
    /// and combined: equal digests before and after an optimisation mean equal output.
    static func digest(fixtures: String, dir: String) throws {
        var combined = Digest()
        var inputs: [(String, () throws -> WorkoutFile)] = []
        for path in try files(in: fixtures)
        where !path.hasSuffix(".py") && !path.hasSuffix(".md") && !path.hasSuffix(".json")
            && !path.hasSuffix(".txt")
        {
            inputs.append((path, { try WorkoutFileReader.read(url: URL(fileURLWithPath: path)) }))
        }
        let fit = SyntheticFIT.activity(records: 200_000)
        inputs.append(("synthetic FIT, 200,000 records", { try FITReader.read(fit) }))
        for cut in [fit.count / 3, fit.count - 1] {
            let part = Array(fit[..<cut])
            inputs.append(("synthetic FIT cut at \(cut)", { try FITReader.read(part) }))
        }
        let xml = dir + "/export-digest-20MB.xml"
        if !FileManager.default.fileExists(atPath: xml) { try SyntheticHealth.write(path: xml, megabytes: 20) }
        inputs.append(
            ("synthetic export.xml, 20 MB", { try HealthExportReader.read(xmlURL: URL(fileURLWithPath: xml)) }))
        for (name, read) in inputs {
            var d = Digest()
            do {
                d.add(try read())
            } catch let error as WorkoutFileError {
                d.add("error \(error.code) \(error.detail) \(error.offset.map { String($0) } ?? "-")")
            }
            print(String(format: "%016llx  %@", d.value, name))
            combined.add(d.value)
        }
        print(String(format: "%016llx  all %d inputs", combined.value, inputs.count))
    }

    struct Digest {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ v: UInt64) {
            var v = v
            for _ in 0..<8 {
                value = (value ^ (v & 0xFF)) &* 0x100_0000_01b3
                v >>= 8
            }
        }
        mutating func add(_ d: Double?) {
            if let d { add(d.bitPattern) } else { add(0x7FF8_DEAD_BEEF_0001 as UInt64) }
        }
        mutating func add(_ s: String?) {
            guard let s else { return add(0xFFFF_FFFF_FFFF_FFFE as UInt64) }
            add(UInt64(s.utf8.count))
            for byte in s.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        mutating func add(_ i: Int?) { add(i.map { UInt64(bitPattern: Int64($0)) } ?? 0xFFFF_FFFF_FFFF_FFFD) }
        mutating func add(_ date: Date?) { add(date?.timeIntervalSince1970) }

        mutating func add(_ file: WorkoutFile) {
            add(file.format.rawValue)
            for issue in file.issues { add(issue) }
            add(file.activities.count)
            for a in file.activities {
                add(a.format.rawValue)
                add(a.sourceIdentity)
                add(a.sport.rawValue)
                add(a.sourceSport)
                add(a.start)
                add(a.utcOffsetSeconds)
                for v in [
                    a.durationS, a.movingTimeS, a.distanceM, a.trackDistanceM, a.energyKcal, a.avgHeartRateBpm,
                    a.maxHeartRateBpm, a.elevationGainM,
                ] { add(v) }
                add(a.laps.count)
                for l in a.laps {
                    add(l.start)
                    for v in [
                        l.durationS, l.movingTimeS, l.distanceM, l.energyKcal, l.avgHeartRateBpm, l.maxHeartRateBpm,
                        l.avgPowerW,
                    ] { add(v) }
                }
                add(a.pauses.count)
                for p in a.pauses {
                    add(p.start)
                    add(p.end)
                }
                add(a.samples.count)
                for s in a.samples {
                    add(s.time)
                    for v in [
                        s.latitude, s.longitude, s.altitudeM, s.distanceM, s.speedMps, s.powerW, s.heartRateBpm,
                        s.cadenceRpm,
                        s.temperatureC,
                    ] { add(v) }
                    for key in s.developer.keys.sorted() {
                        add(key)
                        add(s.developer[key])
                    }
                }
                add(a.device?.manufacturer)
                add(a.device?.product)
                add(a.device?.serialNumber)
                add(a.device?.softwareVersion)
                for key in a.developerFields.keys.sorted() {
                    add(key)
                    add(a.developerFields[key])
                }
                for issue in a.issues { add(issue) }
            }
        }

        mutating func add(_ issue: ReadIssue) {
            add(issue.code.rawValue)
            add(issue.detail)
            add(issue.offset)
            add(issue.count)
        }
    }

    // MARK: Helpers

    static func measure<T>(_ body: () throws -> T) throws -> (cpu: Double, wall: Double, result: T) {
        let c0 = threadCPU(), w0 = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        let c1 = threadCPU(), w1 = DispatchTime.now().uptimeNanoseconds
        return (c1 - c0, Double(w1 - w0) / 1e9, result)
    }

    static func report(_ what: String, bytes: Int, cpu: [Double], wall: [Double]) {
        let mb = Double(bytes) / 1e6
        let c = cpu.sorted(), w = wall.sorted()
        print(
            String(
                format:
                    "%@: %.1f MB, thread CPU best %.4f s (%.1f MB/s), median %.4f s (%.1f MB/s); wall median %.4f s (%.1f MB/s); %d runs",
                what, mb, c[0], mb / c[0], c[c.count / 2], mb / c[c.count / 2], w[w.count / 2], mb / w[w.count / 2],
                cpu.count))
    }

    static func files(in dir: String) throws -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        for case let path as String in e {
            var isDir: ObjCBool = false
            let full = dir + "/" + path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue { out.append(full) }
        }
        return out.sorted()
    }

    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func peakRSSKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "?" }
        return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }
}

/// A FIT activity like a modern bike computer's: one record a second with timestamp, position, distance, enhanced
/// speed and altitude, heart rate, cadence, power and temperature (30 bytes with its header), a lap every 10 minutes,
/// a timer pause every 50 minutes, session and activity at the end. Deterministic (a fixed LCG). `serial` and `start`
/// (FIT time, the file_id's time_created and the first record's): another device or another day, another activity.
enum SyntheticFIT {
    static func activity(records: Int, serial: UInt32 = 3_912_345_678, start: UInt32 = 1_000_000_000) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(records * 30 + 4096)
        func u8(_ v: UInt8) { data.append(v) }
        func u16(_ v: UInt16) { data.append(UInt8(v & 0xFF)); data.append(UInt8(v >> 8)) }
        func u32(_ v: UInt32) { for i in 0..<4 { data.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
        func define(_ local: UInt8, _ global: UInt16, _ fields: [(UInt8, UInt8, UInt8)]) {
            u8(0x40 | local); u8(0); u8(0); u16(global); u8(UInt8(fields.count))
            for (n, s, t) in fields { u8(n); u8(s); u8(t) }
        }
        let t0 = start
        // file_id: type activity, manufacturer garmin, product, serial, time_created.
        define(0, 0, [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)])
        u8(0); u8(4); u16(1); u16(3121); u32(serial); u32(t0)
        // event: timestamp, event, event_type.
        define(1, 21, [(253, 4, 0x86), (0, 1, 0x00), (1, 1, 0x00)])
        u8(1); u32(t0); u8(0); u8(0)
        // record.
        define(
            2, 20,
            [
                (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (5, 4, 0x86), (73, 4, 0x86), (78, 4, 0x86),
                (3, 1, 0x02), (4, 1, 0x02), (7, 2, 0x84), (13, 1, 0x01),
            ])
        // lap: timestamp, start_time, total_elapsed_time, total_timer_time, total_distance, avg_heart_rate.
        define(3, 19, [(253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (15, 1, 0x02)])
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt32 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        var lat: Int32 = 555_555_555, lon: Int32 = -111_111_111
        var distance: UInt32 = 0
        var lapStart = t0
        var lapDistance: UInt32 = 0
        var paused: UInt32 = 0
        for i in 0..<records {
            let t = t0 + UInt32(i) + paused
            let speed = 6000 + next() % 4000 // mm/s
            distance += speed / 10 // cm
            lat &+= Int32(next() % 2000) - 600
            lon &+= Int32(next() % 2000) - 900
            u8(2); u32(t); u32(UInt32(bitPattern: lat)); u32(UInt32(bitPattern: lon)); u32(distance); u32(speed)
            u32(2500 + next() % 1000); u8(UInt8(110 + next() % 70)); u8(UInt8(70 + next() % 30));
            u16(UInt16(150 + next() % 200))
            u8(UInt8(bitPattern: Int8(15 + Int(next() % 10))))
            if i % 600 == 599 {
                u8(3); u32(t); u32(lapStart); u32((t - lapStart) * 1000); u32((t - lapStart) * 1000);
                u32(distance - lapDistance); u8(150)
                lapStart = t
                lapDistance = distance
            }
            if i % 3000 == 2999 {
                u8(1); u32(t); u8(0); u8(4)
                paused += 60
                u8(1); u32(t + 60); u8(0); u8(0)
            }
        }
        let tEnd = t0 + UInt32(records) + paused
        u8(1); u32(tEnd); u8(0); u8(4)
        // session: timestamp, start_time, elapsed, timer, distance, sport, sub_sport, calories, avg/max HR.
        define(
            4, 18,
            [
                (253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (5, 1, 0x00), (6, 1, 0x00),
                (11, 2, 0x84), (16, 1, 0x02), (17, 1, 0x02),
            ])
        u8(4); u32(tEnd); u32(t0); u32((tEnd - t0) * 1000); u32(UInt32(records) * 1000); u32(distance); u8(2); u8(0);
        u16(900); u8(145); u8(180)
        // activity: timestamp, local_timestamp (UTC+1).
        define(5, 34, [(253, 4, 0x86), (5, 4, 0x86)])
        u8(5); u32(tEnd); u32(tEnd + 3600)

        var header: [UInt8] = [14, 0x20, 0x08, 0x52]
        let size = UInt32(data.count)
        for i in 0..<4 { header.append(UInt8((size >> (8 * UInt32(i))) & 0xFF)) }
        header += Array(".FIT".utf8)
        let headerCRC = FITCRC.checksum(header)
        header.append(UInt8(headerCRC & 0xFF)); header.append(UInt8(headerCRC >> 8))
        var file = header + data
        let crc = FITCRC.checksum(file)
        file.append(UInt8(crc & 0xFF)); file.append(UInt8(crc >> 8))
        return file
    }
}

/// An Apple Health export.xml like a phone's after a few years: the DTD, then `Record`s (heart rate with and without
/// a motion-context `MetadataEntry`, step counts, active energy, walking distance; ≈ 60 % heart rate), a `Workout`
/// every ≈ 2 MB with statistics, events and metadata, written in 1 MB chunks (flat memory).
enum SyntheticHealth {
    static func write(path: String, megabytes: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let out = FileHandle(forWritingAtPath: path) else { throw FilesBench.BenchError("cannot write \(path)") }
        defer { try? out.close() }
        var buffer = ""
        buffer.reserveCapacity(1 << 21)
        var written = 0
        func flush() throws {
            let data = Data(buffer.utf8)
            try out.write(contentsOf: data)
            written += data.count
            buffer.removeAll(keepingCapacity: true)
        }
        buffer += """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 13 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            ]>
            <HealthData locale="en_GB">
             <ExportDate value="2024-03-05 10:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """
        var seed: UInt64 = 42
        func next(_ n: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % n
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        // Dates as text are the slow part of writing: format once a minute, add the seconds by hand.
        var t = Date(timeIntervalSince1970: 1_609_459_200) // 2021-01-01
        var minuteText = ""
        var minuteStart = -1.0
        func stamp(_ date: Date) -> String {
            let s = date.timeIntervalSince1970
            let minute = (s / 60).rounded(.down) * 60
            if minute != minuteStart {
                minuteStart = minute
                let base = formatter.string(from: Date(timeIntervalSince1970: minute))
                minuteText = String(base.dropLast(2))
            }
            let sec = Int(s - minute)
            return minuteText + (sec < 10 ? "0" : "") + String(sec) + " +0100"
        }
        let watch =
            "sourceName=\"Anna&#8217;s Apple Watch\" sourceVersion=\"10.3\" device=\"&lt;&lt;HKDevice: 0x283bc5090&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;\""
        let phone =
            "sourceName=\"Anna&#8217;s iPhone\" sourceVersion=\"17.3\" device=\"&lt;&lt;HKDevice: 0x283bc5180&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.3&gt;\""
        var sinceWorkout = 0
        var workouts = 0
        while written + buffer.utf8.count < megabytes * 1_000_000 {
            t = t.addingTimeInterval(Double(5 + next(60)))
            let s = stamp(t)
            switch next(10) {
            case 0..<6:
                let value = 60 + next(120)
                if next(3) == 0 {
                    buffer +=
                        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" \(watch) unit=\"count/min\" creationDate=\"\(s)\" startDate=\"\(s)\" endDate=\"\(s)\" value=\"\(value)\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(next(3))\"/>\n </Record>\n"
                } else {
                    buffer +=
                        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" \(watch) unit=\"count/min\" creationDate=\"\(s)\" startDate=\"\(s)\" endDate=\"\(s)\" value=\"\(value)\"/>\n"
                }
            case 6, 7:
                buffer +=
                    " <Record type=\"HKQuantityTypeIdentifierStepCount\" \(phone) unit=\"count\" creationDate=\"\(s)\" startDate=\"\(s)\" endDate=\"\(s)\" value=\"\(next(200))\"/>\n"
            case 8:
                buffer +=
                    " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" \(watch) unit=\"kcal\" creationDate=\"\(s)\" startDate=\"\(s)\" endDate=\"\(s)\" value=\"0.\(next(1000))\"/>\n"
            default:
                buffer +=
                    " <Record type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" \(phone) unit=\"km\" creationDate=\"\(s)\" startDate=\"\(s)\" endDate=\"\(s)\" value=\"0.0\(next(1000))\"/>\n"
            }
            sinceWorkout += 1
            if sinceWorkout >= 6000 {
                // A 45-minute run ending now (its HR records are the ones just written).
                sinceWorkout = 0
                workouts += 1
                let start = stamp(t.addingTimeInterval(-2700)), end = stamp(t)
                buffer += """
                     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="45" durationUnit="min" \(watch) creationDate="\(end)" startDate="\(start)" endDate="\(end)">
                      <MetadataEntry key="HKIndoorWorkout" value="0"/>
                      <MetadataEntry key="HKElevationAscended" value="4200 cm"/>
                      <WorkoutEvent type="HKWorkoutEventTypeSegment" date="\(start)" duration="10" durationUnit="min"/>
                      <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="\(start)" endDate="\(end)" average="141" minimum="90" maximum="172" unit="count/min"/>
                      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="\(start)" endDate="\(end)" sum="8.1" unit="km"/>
                      <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(start)" endDate="\(end)" sum="512" unit="kcal"/>
                     </Workout>

                    """
            }
            if buffer.utf8.count >= 1 << 20 { try flush() }
        }
        buffer += "</HealthData>\n"
        try flush()
        _ = workouts
    }
}
