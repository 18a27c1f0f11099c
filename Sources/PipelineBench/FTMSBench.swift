// FTMS blob decoding benchmark: throughput of the blob reader and decoders on one
// core over a large generated blob, against a plain pass over the same bytes measured in the
// same run. `swift run -c release pipeline-bench ftms [--mb 128] [--reps 7]`.
import FTMSDecode

// Benchmarks/assembler-digest also builds this file against revisions whose FTMSDecode holds the assembler.
#if canImport(SessionAssembly)
    import SessionAssembly
#endif

// The recorded-session passes need the generator's recorder; Benchmarks/assembler-digest builds this file without it.
#if canImport(SyntheticData)
    import SyntheticData
#endif

#if canImport(Glibc)
    import Glibc
#endif

enum FTMSBench {
    static func run(_ args: [String]) async throws {
        var megabytes = 128
        var repetitions = 7
        var only: String?
        var index = 0
        while index < args.count {
            switch args[index] {
            case "--mb": index += 1; megabytes = Int(args[index]) ?? megabytes
            case "--reps": index += 1; repetitions = Int(args[index]) ?? repetitions
            case "--only": index += 1; only = args[index]
            default:
                print(
                    "usage: pipeline-bench ftms [--mb N] [--reps N] [--only plain|framing|decode|floor|assemble|read]");
                return
            }
            index += 1
        }
        let generated = ContinuousClock().measure { blob = generate(targetBytes: megabytes << 20) }
        hourBlob = generate(targetBytes: 3600 * 150) // about an hour of the indoor-bike segment
        let bytes = blob
        let records = countRecords(bytes)
        print(
            "blob: \(bytes.count) bytes, \(records) records (\(format2(Double(bytes.count) / Double(records))) bytes/record), generated in \(format2(seconds(generated))) s"
        )
        print("repetitions: \(repetitions), median reported; one core")

        var results: [(String, Double, Double)] = []
        var passChecks: [UInt64] = []
        func bench(_ name: String, size: Int? = nil, _ body: () -> UInt64) {
            let size = size ?? bytes.count
            if let only, !name.hasPrefix(only), !name.hasPrefix("plain") { return }
            _ = body() // warm-up
            var times: [Double] = []
            var cpuTimes: [Double] = []
            var check: UInt64 = 0
            for _ in 0..<repetitions {
                let cpuStart = threadCPUSeconds()
                let elapsed = ContinuousClock().measure { check &+= body() }
                cpuTimes.append(threadCPUSeconds() - cpuStart)
                times.append(seconds(elapsed))
            }
            times.sort()
            cpuTimes.sort()
            let median = times[times.count / 2]
            let cpuMedian = cpuTimes[cpuTimes.count / 2]
            results.append((name, median, cpuMedian))
            sink &+= check
            passChecks.append(check / UInt64(repetitions))
            let mbps = Double(size) / median / 1e6
            let rps = Double(records) * Double(size) / Double(bytes.count) / median / 1e6
            let cpuMbps = Double(size) / cpuMedian / 1e6
            print(
                "\(pad(name, 38)) \(pad(format2(median * 1000), 8)) ms \(pad(format2(mbps), 8)) MB/s \(pad(format2(rps), 7)) M rec/s | CPU \(pad(format2(cpuMedian * 1000), 8)) ms \(pad(format2(cpuMbps), 8)) MB/s | wall min \(format2(times[0] * 1000)) max \(format2(times[times.count - 1] * 1000)) ms"
            )
        }

        bench("plain pass (sum of bytes)") { plainSum(bytes) }
        guard !results.isEmpty else { return }
        bench("framing only (BlobReader.scan)") { framing(bytes) }
        bench("decode: framing + typed decoders") { typedDecode(bytes) }
        bench("decode, owned values") { typedDecode(bytes, owned: true) }
        if let i = results.firstIndex(where: { $0.0.hasPrefix("decode:") }), i + 1 < results.count,
            results[i + 1].0.hasPrefix("decode,")
        {
            // Both decode passes read the same values: their checksums must agree.
            print(
                "decode checksums: \(passChecks[i]) (streaming) \(passChecks[i + 1]) (owned values) — \(passChecks[i] == passChecks[i + 1] ? "equal" : "DIFFERENT")"
            )
        }
        // The floor under the assembler on the big blob: its columns alone, at the grid's length, are fresh memory.
        let bigSeconds = gridSeconds(bytes)
        bench("floor: the big blob's grid (\(bigSeconds) s)") { assembleFloor(bytes, seconds: bigSeconds) }
        // The other floor under it: the series it gives is this many arrays of the grid's length, in fresh memory.
        let bigArrays = outputArrays(bytes)
        bench("floor: big blob's \(bigArrays)+1 arrays, written") {
            writeOnce(arrays: bigArrays, seconds: bigSeconds)
        }
        bench("assemble: SessionAssembler(bytes:)") { assemble(bytes) }
        // What the nightly does: one-hour sessions, each assembled right after its Base64 was decoded (so its bytes
        // are in cache, and the series' arrays are reused memory, not fresh pages). The streaming decoders over the
        // same blobs are the reference for the assembler's ratio. Each pass runs over as many copies of the recording
        // as make up the big blob's size.
        func decodeAndAssemble(_ name: String, _ recording: [UInt8]) {
            let copies = max(1, bytes.count / recording.count)
            let seconds = gridSeconds(recording)
            let passes: [(String, ([UInt8]) -> UInt64)] = [
                ("decode", { typedDecode($0) }), ("floor", { assembleFloor($0, seconds: seconds) }),
                ("assemble", { assemble($0) }),
            ]
            let before = results.count
            for (pass, body) in passes {
                bench("\(pass): \(name) ×\(copies)", size: copies * recording.count) {
                    var check: UInt64 = 0
                    for _ in 0..<copies { check &+= body(recording) }
                    return check
                }
            }
            // The target: the assembler within 2× of the streaming decoders over the same bytes.
            if results.count == before + passes.count {
                let (decode, floor, assemble) = (results[before].1, results[before + 1].1, results[before + 2].1)
                print(
                    "\(pad("  \(name): medians against decode", 38)) floor \(format2(floor / decode))×, assemble \(format2(assemble / decode))×"
                )
            }
        }
        decodeAndAssemble("1-hour blob", hourBlob)
        // The longest recording the pipeline assembles whole: its grid is capped at 24 h (`maxSeconds`), so a longer
        // recording than this never gives a grid like the big blob's.
        decodeAndAssemble("24-hour blob", generate(targetBytes: bytes.count / bigSeconds * 86_000))
        #if canImport(SyntheticData)
            // The same pair over what the nightly reads: a one-hour bike session as `pipeline generate` records it
            // (SessionRecorder: Indoor Bike Data and the strap at 1 Hz, counters rising as a real machine's do), where
            // the pool above draws every record at random (so each counter reading is a reset or a rollover).
            var rng = SeededRandom(seed: 1)
            let body = Physiology(ftpW: 250, restingHR: 52, maxHR: 188, massKg: 75, thresholdSpeedKmh: 14)
            let simulated = BodySimulator.simulate(
                sport: .bike, shape: .intervals, seconds: 3600, body: body, pause: nil, rng: &rng)
            let recorded = SessionRecorder.record(
                simulated, startMillis: 1_766_570_400_000, options: .init(), rng: &rng)
            decodeAndAssemble("recorded session", recorded)
        #endif
        bench("read: BlobReader.read (owned records)") { readOwned(bytes) }

        let plain = results[0].1
        let plainCPU = results[0].2
        print("")
        for (name, time, cpu) in results.dropFirst() {
            print(
                "\(pad(name, 38)) \(pad(format2(100 * plain / time), 6)) % of the plain pass (wall), \(pad(format2(100 * plainCPU / cpu), 6)) % (thread CPU time)"
            )
        }
        print("checksum \(sink)")
    }

    // MARK: - The measured passes

    /// Baseline: read every byte once (the compiler vectorises this).
    static func plainSum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            var sum: UInt64 = 0
            for byte in buffer { sum &+= UInt64(byte) }
            return sum
        }
    }

    static func framing(_ bytes: [UInt8]) -> UInt64 {
        var sum: UInt64 = 0
        _ = bytes.withUnsafeBytes { raw in
            try? BlobReader.scan(raw) { view in sum &+= UInt64(view.uuid) &+ UInt64(view.payload.count) }
        }
        return sum
    }

    /// Every record decoded by its characteristic's typed decoder, and every field of every
    /// record read and folded into the checksum (units converted: the value is the wire
    /// integer divided by the field's resolution), so nothing can be optimised away. One
    /// non-inlined function per characteristic keeps each decoder inlined into a small
    /// consumer (its state then stays in registers).
    ///
    /// Streaming (the default): the six FTMS data characteristics through their visitor
    /// decoders (`decode(bytes:into:)`, each field handed over as it is read, no value built),
    /// Heart Rate Measurement through `decodeView(bytes:)` (RR intervals read in place), the
    /// others as values. With `owned`: every record through `decode(bytes:)`, the owned
    /// `Sendable` value read through its properties. Both passes sum the same values in the
    /// same order, so their checksums must be equal.
    static func typedDecode(_ bytes: [UInt8], owned: Bool = false) -> UInt64 {
        var check: UInt64 = 0
        _ = bytes.withUnsafeBytes { raw in
            try? BlobReader.scan(raw) { view in
                let p = view.payload
                switch view.uuid {
                case 0x2AD2: check &+= owned ? consumeIndoorBike(p) : streamIndoorBike(p)
                case 0x2A37: check &+= owned ? consumeHeartRateOwned(p) : consumeHeartRate(p)
                case 0x2A63: check &+= consumeCyclingPower(p)
                case 0x2AD1: check &+= owned ? consumeRower(p) : streamRower(p)
                case 0x2ACD: check &+= owned ? consumeTreadmill(p) : streamTreadmill(p)
                case 0x2ADA: check &+= consumeStatus(p)
                case 0x2AD3: check &+= consumeTrainingStatus(p)
                default: check &+= 1
                }
            }
        }
        return check
    }

    /// Sums every field of a data record as the visitor decoder hands it over: integers
    /// apart, unit values in wire order; More Data counted.
    struct FieldSum: DataFieldVisitor {
        var ints = 0
        var units = 0.0
        mutating func flags(_ raw: UInt32) { ints &+= Int(raw & 1) }
        mutating func field(_ field: DataField, raw: Int, divisor: Double) {
            if divisor == 1 { ints &+= raw } else { units += Double(raw) / divisor }
        }
    }

    @inline(never) static func streamIndoorBike(_ p: UnsafeRawBufferPointer) -> UInt64 {
        var sum = FieldSum()
        do { try IndoorBikeData.decode(bytes: p, into: &sum) } catch { return decodeErrorMark }
        return fold(sum.ints, sum.units)
    }

    @inline(never) static func streamRower(_ p: UnsafeRawBufferPointer) -> UInt64 {
        var sum = FieldSum()
        do { try RowerData.decode(bytes: p, into: &sum) } catch { return decodeErrorMark }
        return fold(sum.ints, sum.units)
    }

    @inline(never) static func streamTreadmill(_ p: UnsafeRawBufferPointer) -> UInt64 {
        var sum = FieldSum()
        do { try TreadmillData.decode(bytes: p, into: &sum) } catch { return decodeErrorMark }
        return fold(sum.ints, sum.units)
    }

    /// What a decode error adds to the checksum (none are expected).
    static let decodeErrorMark: UInt64 = 1 << 40

    /// Integer fields and unit values folded together.
    @inline(__always) static func fold(_ ints: Int, _ units: Double) -> UInt64 {
        UInt64(bitPattern: Int64(ints)) &+ units.bitPattern
    }

    @inline(__always) static func energySum(_ e: ExpendedEnergy?) -> Int {
        guard let e else { return 0 }
        return e.totalKcal &+ e.perHourKcal &+ e.perMinuteKcal
    }

    @inline(never) static func consumeIndoorBike(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? IndoorBikeData.decode(bytes: p) else { return decodeErrorMark }
        let ints =
            (v.totalDistanceM ?? 0) &+ (v.resistanceLevel ?? 0) &+ (v.powerW ?? 0) &+ (v.averagePowerW ?? 0)
            &+ energySum(v.energy) &+ (v.heartRateBpm ?? 0) &+ (v.elapsedTimeS ?? 0) &+ (v.remainingTimeS ?? 0)
            &+ (v.moreData ? 1 : 0)
        let units =
            (v.speedKmh ?? 0) + (v.averageSpeedKmh ?? 0) + (v.cadenceRpm ?? 0) + (v.averageCadenceRpm ?? 0)
            + (v.metabolicEquivalent ?? 0)
        return fold(ints, units)
    }

    @inline(never) static func consumeRower(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? RowerData.decode(bytes: p) else { return decodeErrorMark }
        let ints =
            (v.strokeCount ?? 0) &+ (v.totalDistanceM ?? 0) &+ (v.paceSPer500m ?? 0) &+ (v.averagePaceSPer500m ?? 0)
            &+ (v.powerW ?? 0) &+ (v.averagePowerW ?? 0) &+ (v.resistanceLevel ?? 0) &+ energySum(v.energy)
            &+ (v.heartRateBpm ?? 0) &+ (v.elapsedTimeS ?? 0) &+ (v.remainingTimeS ?? 0) &+ (v.moreData ? 1 : 0)
        let units = (v.strokeRateSpm ?? 0) + (v.averageStrokeRateSpm ?? 0) + (v.metabolicEquivalent ?? 0)
        return fold(ints, units)
    }

    @inline(never) static func consumeTreadmill(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? TreadmillData.decode(bytes: p) else { return decodeErrorMark }
        let ints =
            (v.totalDistanceM ?? 0) &+ energySum(v.energy) &+ (v.heartRateBpm ?? 0) &+ (v.elapsedTimeS ?? 0)
            &+ (v.remainingTimeS ?? 0) &+ (v.forceOnBeltN ?? 0) &+ (v.powerOutputW ?? 0) &+ (v.moreData ? 1 : 0)
        let units =
            (v.speedKmh ?? 0) + (v.averageSpeedKmh ?? 0) + (v.inclinationPct ?? 0) + (v.rampAngleDeg ?? 0)
            + (v.positiveElevationGainM ?? 0) + (v.negativeElevationGainM ?? 0) + (v.paceKmPerMin ?? 0)
            + (v.averagePaceKmPerMin ?? 0) + (v.metabolicEquivalent ?? 0)
        return fold(ints, units)
    }

    @inline(never) static func consumeHeartRate(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? HeartRateMeasurement.decodeView(bytes: p) else { return decodeErrorMark }
        var ints =
            v.heartRateBpm &+ (v.uses16BitHeartRate ? 1 : 0) &+ (v.energyExpendedKJ ?? 0)
            &+ contactMark(v.sensorContact)
        var units = 0.0
        if let rr = v.rrIntervals {
            ints &+= rr.count
            for i in rr.indices { units += rr.seconds(at: i) }
        }
        return fold(ints, units)
    }

    @inline(never) static func consumeHeartRateOwned(_ p: UnsafeRawBufferPointer) -> UInt64 {
        do {
            let v = try HeartRateMeasurement.decode(bytes: p)
            var ints =
                v.heartRateBpm &+ (v.uses16BitHeartRate ? 1 : 0) &+ (v.energyExpendedKJ ?? 0)
                &+ contactMark(v.sensorContact)
            var units = 0.0
            if let rr = v.rrIntervals {
                ints &+= rr.count
                for i in 0..<rr.count { units += rr.seconds(at: i) }
            }
            return fold(ints, units)
        } catch {
            return decodeErrorMark
        }
    }

    @inline(__always) static func contactMark(_ c: HeartRateMeasurement.SensorContact) -> Int {
        switch c {
        case .notSupported: 0
        case .notDetected: 2
        case .detected: 3
        }
    }

    @inline(never) static func consumeCyclingPower(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? CyclingPowerMeasurement.decode(bytes: p) else { return decodeErrorMark }
        let ints =
            v.powerW &+ (v.pedalPowerBalanceLeft ? 1 : 0) &+ (v.accumulatedTorqueFromCrank ? 2 : 0)
            &+ Int(v.cumulativeWheelRevolutions ?? 0) &+ Int(v.cumulativeCrankRevolutions ?? 0)
            &+ (v.maximumForceN ?? 0) &+ (v.minimumForceN ?? 0) &+ (v.maximumAngleDeg ?? 0) &+ (v.minimumAngleDeg ?? 0)
            &+ (v.topDeadSpotAngleDeg ?? 0) &+ (v.bottomDeadSpotAngleDeg ?? 0) &+ (v.accumulatedEnergyKJ ?? 0)
            &+ (v.offsetCompensationIndicator ? 4 : 0)
        let units =
            ((v.pedalPowerBalancePct ?? 0) + (v.accumulatedTorqueNm ?? 0))
            + ((v.lastWheelEventTimeS ?? 0) + (v.lastCrankEventTimeS ?? 0))
            + ((v.maximumTorqueNm ?? 0) + (v.minimumTorqueNm ?? 0))
        return fold(ints, units)
    }

    @inline(never) static func consumeStatus(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? FitnessMachineStatus.decode(bytes: p) else { return decodeErrorMark }
        return UInt64(v.opCode) &+ UInt64(truncatingIfNeeded: v.encode().count)
    }

    @inline(never) static func consumeTrainingStatus(_ p: UnsafeRawBufferPointer) -> UInt64 {
        guard let v = try? TrainingStatus.decode(bytes: p) else { return decodeErrorMark }
        return UInt64(v.status) &+ (v.extendedString ? 1 : 0) &+ UInt64(v.statusString?.utf8.count ?? 0)
    }

    /// The assembler's configuration in these passes: no grid limit short of the 32-bit record time (the big blob's
    /// grid is 6.5 days; the pipeline's stops at 24 h).
    static let unlimitedGrid = SessionAssembler.Configuration(maxSeconds: 1 << 32 / 1000 + 1)

    static func assemble(_ bytes: [UInt8]) -> UInt64 {
        guard let series = try? SessionAssembler.assemble(bytes: bytes, configuration: unlimitedGrid) else { return 0 }
        precondition(series.recordsPastLimit == 0 && series.decodeErrors == 0)
        return UInt64(series.seconds) &+ UInt64(series.derivedTotals.distanceM) &+ UInt64(series.recordCount)
    }

    /// Seconds of a recording's 1 Hz grid (its last record's second + 1).
    static func gridSeconds(_ bytes: [UInt8]) -> Int {
        var last: UInt32 = 0
        _ = bytes.withUnsafeBytes { raw in try? BlobReader.scan(raw) { view in last = max(last, view.timeMillis) } }
        return Int(last / 1000) + 1
    }

    /// A floor under any assembler of these recordings, to judge the assembler's ratio to the decode pass by: every
    /// record through the same streaming decoders as `typedDecode`, and each value the series keep for a 1 Hz bike
    /// or rower recording with a strap (power, speed, cadence, resistance or stroke rate, distance and energy
    /// increments, heart rate) stored once at its record's second, in columns allocated at their final size in one
    /// block. Nothing else: no merging of notifications, no gaps, no "not available" or plausibility tests, no
    /// pauses, no arrays handed over, other characteristics skipped. Whatever the assembler does, it does at least
    /// this.
    static func assembleFloor(_ bytes: [UInt8], seconds n: Int) -> UInt64 {
        let columns = UnsafeMutablePointer<Double>.allocate(capacity: 7 * n)
        defer { columns.deallocate() }
        // The seconds read back below, initialised: a column the recording never fills is read too.
        for k in 0..<7 { (columns + k * n + n / 2).initialize(to: 0) }
        var previous = FloorCounters()
        _ = bytes.withUnsafeBytes { raw in
            try? BlobReader.scan(raw) { view in
                let s = min(Int(view.timeMillis / 1000), n - 1)
                switch view.uuid {
                case 0x2AD2: floorData(IndoorBikeData.self, view.payload, columns, n, s, &previous)
                case 0x2AD1: floorData(RowerData.self, view.payload, columns, n, s, &previous)
                case 0x2A37:
                    if let hr = try? HeartRateMeasurement.decodeView(bytes: view.payload) {
                        columns[6 * n + s] = Double(hr.heartRateBpm)
                    }
                default: break
                }
            }
        }
        // Read back a second of every column, so that no store can be left out.
        var check = 0.0
        for k in 0..<7 { check += columns[k * n + n / 2] }
        return UInt64(n) &+ check.bitPattern
    }

    struct FloorCounters { var distance = 0, energy = 0 }

    /// How many non-empty channels the assembler's series of this recording has (each an array of doubles of the
    /// grid's length; `paused` is one more, of `Bool`).
    static func outputArrays(_ bytes: [UInt8]) -> Int {
        guard let s = try? SessionAssembler.assemble(bytes: bytes, configuration: unlimitedGrid) else { return 0 }
        let channels = [
            s.powerW, s.speedKmh, s.cadenceRpm, s.heartRateBpm, s.strokeRateSpm, s.stepRateSpm, s.paceSPer500m,
            s.paceSPerKm, s.inclinationPct, s.resistanceLevel, s.distanceM, s.energyKcal, s.strokes, s.wheelRevolutions,
            s.crankRevolutions,
        ]
        return channels.filter { !$0.isEmpty }.count
    }

    /// A floor under any assembler whose series is `arrays` arrays of `seconds` doubles and one of as many `Bool`s:
    /// allocating them and writing each element once, nothing else (the memory is fresh in each run, as the series' is:
    /// above the mmap threshold, each array is mapped and its pages faulted in).
    static func writeOnce(arrays: Int, seconds n: Int) -> UInt64 {
        var check: UInt64 = 0
        for k in 0..<arrays {
            let column = [Double](unsafeUninitializedCapacity: n) { out, initialized in
                for i in 0..<n { out[i] = Double(i &+ k) }
                initialized = n
            }
            check &+= column[n / 2].bitPattern
        }
        let paused = [Bool](unsafeUninitializedCapacity: n) { out, initialized in
            for i in 0..<n { out[i] = i & 64 != 0 }
            initialized = n
        }
        return check &+ (paused[n / 2] ? 1 : 0)
    }

    /// One data record's values into the floor's columns (see `assembleFloor`).
    @inline(never) static func floorData<Layout: FTMSDataLayout>(
        _ type: FlaggedRecord<Layout>.Type, _ payload: UnsafeRawBufferPointer, _ columns: UnsafeMutablePointer<Double>,
        _ n: Int,
        _ s: Int, _ previous: inout FloorCounters
    ) {
        var sink = FloorSink(columns: columns, n: n, s: s)
        do { try type.decode(bytes: payload, into: &sink) } catch { return }
        columns[4 * n + s] = Double(sink.distance &- previous.distance)
        columns[5 * n + s] = Double(sink.energy &- previous.energy)
        previous = FloorCounters(distance: sink.distance, energy: sink.energy)
    }

    struct FloorSink: DataFieldVisitor {
        let columns: UnsafeMutablePointer<Double>
        let n: Int
        let s: Int
        var distance = 0, energy = 0

        @inline(__always) mutating func field(_ field: DataField, raw: Int, divisor: Double) {
            switch field {
            case .powerW: columns[s] = Double(raw)
            case .speedKmh: columns[n + s] = Double(raw) / divisor
            case .cadenceRpm, .strokeRateSpm: columns[2 * n + s] = Double(raw) / divisor
            case .resistanceLevel: columns[3 * n + s] = Double(raw) / divisor
            case .totalDistanceM: distance = raw
            case .totalEnergyKcal: energy = raw
            default: break
            }
        }
    }

    static func readOwned(_ bytes: [UInt8]) -> UInt64 {
        guard let blob = try? BlobReader.read(bytes) else { return 0 }
        return UInt64(blob.records.count) &+ UInt64(blob.records.last?.payload.count ?? 0)
    }

    static func countRecords(_ bytes: [UInt8]) -> Int {
        var count = 0
        _ = bytes.withUnsafeBytes { raw in try? BlobReader.scan(raw) { _ in count += 1 } }
        return count
    }

    // MARK: - The generated blob

    nonisolated(unsafe) static var blob: [UInt8] = []
    nonisolated(unsafe) static var hourBlob: [UInt8] = []
    nonisolated(unsafe) static var sink: UInt64 = 0

    /// A realistic recording, repeated until `targetBytes`: an indoor bike session with a
    /// strap and a power meter (per second: 4 Indoor Bike Data notifications of 21 octets,
    /// 1 Heart Rate Measurement with RR intervals, 1 Cycling Power Measurement with crank
    /// data), a status or training status every minute, and every tenth hour a rower
    /// segment (3-part records) and a treadmill segment. Payloads are drawn from pools of
    /// pre-encoded values with a seeded generator; record times advance like a real
    /// session (128 MB is about 12 days of recording; 256 MB stays far below the 49.7-day
    /// limit of the 32-bit record time).
    static func generate(targetBytes: Int) -> [UInt8] {
        var rng = Random(seed: 0x5F52_4221)
        func pool(_ count: Int, _ make: (inout Random) -> [UInt8]) -> [[UInt8]] {
            (0..<count).map { _ in make(&rng) }
        }
        let bike = pool(512) { r in
            IndoorBikeData {
                $0.speedKmh = Double(r.int(2000, 4500)) / 100
                $0.cadenceRpm = Double(r.int(140, 200)) / 2
                $0.totalDistanceM = r.int(0, 100_000)
                $0.powerW = r.int(80, 450)
                $0.energy = ExpendedEnergy(
                    totalKcal: r.int(0, 2000), perHourKcal: r.int(300, 1200), perMinuteKcal: r.int(5, 20))
                $0.heartRateBpm = r.int(90, 190)
                $0.elapsedTimeS = r.int(0, 20000)
            }.encode()
        }
        let heart = pool(256) { r in
            let bpm = r.int(90, 190)
            return HeartRateMeasurement(
                heartRateBpm: bpm, sensorContact: .detected,
                rrIntervalsS: (0..<r.int(1, 2)).map { _ in 60.0 / Double(bpm) }
            ).encode()
        }
        let power = pool(256) { r in
            CyclingPowerMeasurement {
                $0.powerW = r.int(80, 450)
                $0.cumulativeCrankRevolutions = UInt16(r.int(0, 65535))
                $0.lastCrankEventTimeS = Double(r.int(0, 65535)) / 1024
            }.encode()
        }
        let rower = pool(256) { r in
            RowerData {
                $0.strokeRateSpm = Double(r.int(36, 64)) / 2
                $0.strokeCount = r.int(0, 3000)
                $0.totalDistanceM = r.int(0, 10000)
                $0.paceSPer500m = r.int(95, 150)
                $0.powerW = r.int(100, 400)
            }.encode()
        }
        let rowerTail = pool(64) { r in
            RowerData {
                $0.energy = ExpendedEnergy(
                    totalKcal: r.int(0, 800), perHourKcal: r.int(400, 1200), perMinuteKcal: r.int(6, 20))
                $0.heartRateBpm = r.int(90, 190)
                $0.elapsedTimeS = r.int(0, 7200)
            }.encode()
        }
        let treadmill = pool(256) { r in
            TreadmillData {
                $0.speedKmh = Double(r.int(600, 1800)) / 100
                $0.totalDistanceM = r.int(0, 30000)
                $0.inclinationPct = Double(r.int(0, 100)) / 10
                $0.rampAngleDeg = 0
                $0.energy = ExpendedEnergy(
                    totalKcal: r.int(0, 1500), perHourKcal: r.int(400, 1000), perMinuteKcal: r.int(6, 16))
                $0.heartRateBpm = r.int(90, 190)
                $0.elapsedTimeS = r.int(0, 7200)
            }.encode()
        }
        // Target power changed to 220 W (op 0x08, sint16 LE), then started or resumed by the user.
        let statuses: [[UInt8]] = [[0x08, 0xDC, 0x00], FitnessMachineStatus.startedOrResumedByUser.encode()]
        let training = [TrainingStatus(status: 0x0D).encode(), TrainingStatus(status: 0x0C).encode()]

        var w = BlobWriter(
            machineRaw: MachineType.indoorBike.rawValue, startMillis: 1_766_570_400_000,
            reservingCapacity: targetBytes + 4096)
        var second: UInt32 = 0
        while w.bytes.count < targetBytes {
            let base = second * 1000
            let segment = (second / 3600) % 10
            if segment == 8 {
                // Rower: one record in three notifications in the same millisecond.
                let t = base + UInt32(rng.int(0, 900))
                w.append(timeMillis: t, uuid: 0x2AD1, kind: .notification, payload: rower[rng.int(0, rower.count - 1)])
                w.append(
                    timeMillis: t, uuid: 0x2AD1, kind: .notification,
                    payload: rowerTail[rng.int(0, rowerTail.count - 1)])
            } else if segment == 9 {
                w.append(
                    timeMillis: base + UInt32(rng.int(0, 900)), uuid: 0x2ACD, kind: .notification,
                    payload: treadmill[rng.int(0, treadmill.count - 1)])
            } else {
                for quarter in 0..<4 as Range<UInt32> {
                    w.append(
                        timeMillis: base + quarter * 250 + UInt32(rng.int(0, 20)), uuid: 0x2AD2, kind: .notification,
                        payload: bike[rng.int(0, bike.count - 1)])
                    if quarter == 1 {
                        w.append(
                            timeMillis: base + 400, uuid: 0x2A63, kind: .notification,
                            payload: power[rng.int(0, power.count - 1)])
                    }
                }
            }
            w.append(
                timeMillis: base + 950, uuid: 0x2A37, kind: .notification, payload: heart[rng.int(0, heart.count - 1)])
            if second % 60 == 59 {
                w.append(timeMillis: base + 990, uuid: 0x2ADA, kind: .notification, payload: statuses[rng.int(0, 1)])
                w.append(timeMillis: base + 995, uuid: 0x2AD3, kind: .notification, payload: training[rng.int(0, 1)])
            }
            second += 1
        }
        return w.bytes
    }

    // MARK: - Helpers

    /// CPU time of the calling thread (excludes time other processes had the core; the
    /// development machine is shared).
    static func threadCPUSeconds() -> Double {
        #if canImport(Glibc)
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        #else
            return 0
        #endif
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Two decimals, without Foundation or libm.
    static func format2(_ x: Double) -> String {
        let hundredths = Int(x * 100 + (x < 0 ? -0.5 : 0.5))
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return "\(hundredths < 0 ? "-" : "")\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// SplitMix64, so the generated blob is the same in every run. The same generator as SyntheticData's
    /// `SeededRandom.SplitMix64`, kept here because Benchmarks/assembler-digest builds this file without SyntheticData.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in lo...hi.
        mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt64(hi - lo + 1)) }
    }
}
