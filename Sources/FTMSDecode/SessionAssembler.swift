/// Turns a decoded blob into the 1 Hz `SessionSeries` the metrics module reads
/// (issue 3, "Session time series"; `shared/specs/ftms-fields.md`, "Decoding rules" 8–9).
public enum SessionAssembler {
    /// Tuning of the assembler, with the defaults used by the pipeline.
    public struct Configuration: Sendable, Equatable {
        /// Longest run of seconds without a sample that is bridged by holding the previous
        /// sample (instantaneous channels) or by zero increments (counters). Longer runs
        /// stay NaN. Default 3.
        public var maxGapSeconds: Int
        /// Notifications of the same data characteristic with disjoint fields are merged
        /// into one record (and so one second) when they arrive within this many ms of the
        /// record's first notification. Default 100 ms (a rower sends its three parts in
        /// the same millisecond and never clears More Data).
        public var proximityMergeMillis: UInt32
        /// Same, when the previous notification had More Data = 1. Default 1000 ms.
        public var moreDataMergeMillis: UInt32
        /// Longest grid, in seconds. A record time is a free 32-bit value, so one bad
        /// record could otherwise ask for a grid of 4.3 million seconds per channel from a
        /// 40-byte blob; records at or past this second are counted in
        /// `SessionSeries.recordsPastLimit` and not used. Default 86 400 (24 h).
        public var maxSeconds: Int

        public init(maxGapSeconds: Int = 3, proximityMergeMillis: UInt32 = 100, moreDataMergeMillis: UInt32 = 1000,
                    maxSeconds: Int = 86_400) {
            self.maxGapSeconds = maxGapSeconds
            self.proximityMergeMillis = proximityMergeMillis
            self.moreDataMergeMillis = moreDataMergeMillis
            self.maxSeconds = maxSeconds
        }

        public static let `default` = Configuration()
    }

    /// The series of a blob read by `BlobReader.read`.
    public static func assemble(_ blob: Blob, configuration: Configuration = .default) -> SessionSeries {
        var accumulator = SessionAccumulator(header: blob.header, configuration: configuration)
        if let last = blob.records.last { accumulator.reserveSeconds(Int(last.timeMillis / 1000) + 1) }
        for record in blob.records { accumulator.add(record) }
        return accumulator.finish(end: blob.end)
    }

    /// Zero-copy path straight from blob bytes (no `BlobRecord` array): the same result as
    /// `assemble(BlobReader.read(bytes))`.
    public static func assemble(bytes: [UInt8], configuration: Configuration = .default) throws(BlobError) -> SessionSeries {
        let result: Result<SessionSeries, BlobError> = bytes.withUnsafeBytes { raw in
            do throws(BlobError) {
                let header = try BlobReader.readHeader(raw)
                var accumulator = SessionAccumulator(header: header, configuration: configuration)
                // A framing-only pre-pass (several GB/s) finds the grid length, so the
                // channels are allocated once at their final size.
                var lastTime: UInt32 = 0
                _ = BlobReader.scanRecords(raw, from: BlobReader.headerLength) { lastTime = $0.timeMillis }
                accumulator.reserveSeconds(Int(lastTime / 1000) + 1)
                let end = BlobReader.scanRecords(raw, from: BlobReader.headerLength) { view in
                    accumulator.add(timeMillis: view.timeMillis, uuid: view.uuid, kindRaw: view.kindRaw, payload: view.payload)
                }
                return .success(accumulator.finish(end: end))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Incremental form of the assembler: feed records in blob order, then `finish`. Feeding a
/// blob record by record gives exactly `SessionAssembler.assemble(blob)`.
public struct SessionAccumulator: Sendable {
    public let header: BlobHeader
    public let configuration: SessionAssembler.Configuration

    // Instantaneous channels (machine and dedicated-sensor variants where both exist).
    var machinePower = InstantChannel(), sensorPower = InstantChannel()
    var machineCadence = InstantChannel(), sensorCadence = InstantChannel()
    var machineHeartRate = InstantChannel(), strapHeartRate = InstantChannel()
    var speed = InstantChannel(), strokeRate = InstantChannel(), stepRate = InstantChannel()
    var pace500 = InstantChannel(), paceKm = InstantChannel(), inclination = InstantChannel()
    var resistance = InstantChannel()
    // Counters.
    var distance = CounterChannel(bits: 24, maxPerSecond: 30, slack: 50)
    var energy = CounterChannel(bits: 16, maxPerSecond: 2, slack: 10)
    var strokes = CounterChannel(bits: 16, maxPerSecond: 3, slack: 10)
    var cscWheel = CounterChannel(bits: 32, maxPerSecond: 50, slack: 50)
    var cscCrank = CounterChannel(bits: 16, maxPerSecond: 5, slack: 10)
    var powerWheel = CounterChannel(bits: 32, maxPerSecond: 50, slack: 50)
    var powerCrank = CounterChannel(bits: 16, maxPerSecond: 5, slack: 10)
    var cscCadence = CrankCadence(), powerCadence = CrankCadence()

    var totals = MachineTotals()
    var pauseEvents: [(second: Int, paused: Bool)] = []
    var merge = [MergeGroup](repeating: MergeGroup(), count: 6)

    var recordCount = 0
    var recordsPastLimit = 0
    var hasGridRecords = false
    var decodeErrors = 0
    var unknownRecords = 0
    var lastTimeMillis: UInt32 = 0
    var secondsWithData = 0
    var lastDataSecond = -1

    public init(header: BlobHeader, configuration: SessionAssembler.Configuration = .default) {
        self.header = header
        self.configuration = configuration
    }

    public mutating func add(_ record: BlobRecord) {
        record.payload.withUnsafeBytes { bytes in
            add(timeMillis: record.timeMillis, uuid: record.uuid, kindRaw: record.kindRaw, payload: bytes)
        }
    }

    /// One record. Undecodable payloads of known characteristics are counted in
    /// `decodeErrors` and skipped; unknown UUIDs are counted in `unknownRecords` and skipped.
    public mutating func add(timeMillis t: UInt32, uuid: UInt16, kindRaw: UInt8, payload: UnsafeRawBufferPointer) {
        recordCount += 1
        if Int(t / 1000) >= configuration.maxSeconds {
            recordsPastLimit += 1
            return
        }
        hasGridRecords = true
        if t > lastTimeMillis { lastTimeMillis = t }
        switch uuid {
        case IndoorBikeData.uuid:
            guard let v = try? IndoorBikeData.decode(bytes: payload) else { decodeErrors += 1; return }
            addIndoorBike(v, flags: UInt32(flags16(payload)), t)
        case RowerData.uuid:
            guard let v = try? RowerData.decode(bytes: payload) else { decodeErrors += 1; return }
            addRower(v, flags: UInt32(flags16(payload)), t)
        case TreadmillData.uuid:
            guard let v = try? TreadmillData.decode(bytes: payload) else { decodeErrors += 1; return }
            addTreadmill(v, flags: UInt32(flags16(payload)), t)
        case CrossTrainerData.uuid:
            guard let v = try? CrossTrainerData.decode(bytes: payload) else { decodeErrors += 1; return }
            addCrossTrainer(v, flags: UInt32(payload[0]) | UInt32(payload[1]) << 8 | UInt32(payload[2]) << 16, t)
        case StepClimberData.uuid:
            guard let v = try? StepClimberData.decode(bytes: payload) else { decodeErrors += 1; return }
            addStepClimber(v, flags: UInt32(flags16(payload)), t)
        case StairClimberData.uuid:
            guard let v = try? StairClimberData.decode(bytes: payload) else { decodeErrors += 1; return }
            addStairClimber(v, flags: UInt32(flags16(payload)), t)
        case HeartRateMeasurement.uuid:
            guard let hr = try? HeartRateMeasurement.decodeView(bytes: payload) else { decodeErrors += 1; return }
            let (bpm, contact) = (hr.heartRateBpm, hr.sensorContact)
            let s = dataSecond(t)
            let missing = bpm == 0 || contact == .notDetected
            strapHeartRate.add(second: s, missing ? .nan : Double(bpm), maxGap: gap)
        case CyclingPowerMeasurement.uuid:
            guard let v = try? CyclingPowerMeasurement.decode(bytes: payload) else { decodeErrors += 1; return }
            addCyclingPower(v, t)
        case CSCMeasurement.uuid:
            guard let v = try? CSCMeasurement.decode(bytes: payload) else { decodeErrors += 1; return }
            addCSC(v, t)
        case FitnessMachineStatus.uuid:
            guard let v = try? FitnessMachineStatus.decode(bytes: payload) else { decodeErrors += 1; return }
            switch v {
            case .stoppedOrPausedByUser(let info) where info == 1 || info == 2: pause(t, true)
            case .stoppedBySafetyKey: pause(t, true)
            case .startedOrResumedByUser: pause(t, false)
            default: break
            }
        case TrainingStatus.uuid:
            guard let status = try? TrainingStatus.readStatus(payload) else { decodeErrors += 1; return }
            switch status {
            case 0x01, 0x0E, 0x0F: pause(t, true) // idle, pre-workout, post-workout
            case 0x02 ... 0x0D: pause(t, false) // an exercise phase
            default: break // other, reserved: no information
            }
        case FitnessMachineFeature.uuid:
            if (try? FitnessMachineFeature.decode(bytes: payload)) == nil { decodeErrors += 1 }
        case 0x2AD4 ... 0x2AD8:
            var c = ByteCursor(payload)
            if (try? SupportedRange.read(kind: SupportedRange.Kind(rawValue: uuid)!, &c)) == nil { decodeErrors += 1 }
        case ControlPointMessage.uuid:
            if (try? ControlPointMessage.decode(bytes: payload)) == nil { decodeErrors += 1 }
        case 0x2A29, 0x2A24, 0x2A26:
            if payload.isEmpty { decodeErrors += 1 }
        default:
            unknownRecords += 1
        }
    }

    // MARK: - Per characteristic

    private var gap: Int { configuration.maxGapSeconds }

    private mutating func addIndoorBike(_ v: IndoorBikeData, flags: UInt32, _ t: UInt32) {
        let (s, te) = mergedSecond(slot: 5, t, flags: flags, defined: 0x1FFF)
        if let x = v.speedKmh { speed.add(second: s, x == NotAvailable.speedKmh ? .nan : x, maxGap: gap) }
        if let x = v.cadenceRpm { machineCadence.add(second: s, x == NotAvailable.cadenceRpm ? .nan : x, maxGap: gap) }
        if let x = v.resistanceLevel { resistance.add(second: s, x == NotAvailable.s16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.powerW { machinePower.add(second: s, x == NotAvailable.s16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.averageSpeedKmh, x != NotAvailable.speedKmh { totals.averageSpeedKmh = x }
        if let x = v.averageCadenceRpm, x != NotAvailable.cadenceRpm { totals.averageCadenceRpm = x }
        if let x = v.averagePowerW, x != NotAvailable.s16 { totals.averagePowerW = x }
        common(distance: v.totalDistanceM, energy: v.energy, heartRate: v.heartRateBpm, elapsed: v.elapsedTimeS, s, te)
    }

    private mutating func addRower(_ v: RowerData, flags: UInt32, _ t: UInt32) {
        let (s, te) = mergedSecond(slot: 4, t, flags: flags, defined: 0x1FFF)
        if let x = v.strokeRateSpm { strokeRate.add(second: s, x == NotAvailable.strokeRateSpm ? .nan : x, maxGap: gap) }
        if let x = v.strokeCount {
            strokes.add(raw: UInt64(x), timeMillis: te, second: s, maxGap: gap)
            totals.strokeCount = x
        }
        if let x = v.paceSPer500m {
            pace500.add(second: s, (x == NotAvailable.u16 || x == 0) ? .nan : Double(x), maxGap: gap)
        }
        if let x = v.powerW { machinePower.add(second: s, x == NotAvailable.s16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.resistanceLevel { resistance.add(second: s, x == NotAvailable.s16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.averageStrokeRateSpm, x != NotAvailable.strokeRateSpm { totals.averageStrokeRateSpm = x }
        if let x = v.averagePaceSPer500m, x != NotAvailable.u16, x != 0 { totals.averagePaceSPer500m = x }
        if let x = v.averagePowerW, x != NotAvailable.s16 { totals.averagePowerW = x }
        common(distance: v.totalDistanceM, energy: v.energy, heartRate: v.heartRateBpm, elapsed: v.elapsedTimeS, s, te)
    }

    private mutating func addTreadmill(_ v: TreadmillData, flags: UInt32, _ t: UInt32) {
        let (s, te) = mergedSecond(slot: 0, t, flags: flags, defined: 0x1FFF)
        if let x = v.speedKmh { addSpeedAndPace(x, s) }
        else if let x = v.paceKmPerMin {
            paceKm.add(second: s, (x == NotAvailable.paceKmPerMin || x == 0) ? .nan : 60 / x, maxGap: gap)
        }
        if let x = v.inclinationPct { inclination.add(second: s, x == NotAvailable.signedTenths ? .nan : x, maxGap: gap) }
        if let x = v.powerOutputW { machinePower.add(second: s, x == NotAvailable.s16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.averageSpeedKmh, x != NotAvailable.speedKmh { totals.averageSpeedKmh = x }
        common(distance: v.totalDistanceM, energy: v.energy, heartRate: v.heartRateBpm, elapsed: v.elapsedTimeS, s, te)
    }

    private mutating func addCrossTrainer(_ v: CrossTrainerData, flags: UInt32, _ t: UInt32) {
        let (s, te) = mergedSecond(slot: 1, t, flags: flags, defined: 0x7FFF)
        if let x = v.speedKmh { addSpeedAndPace(x, s) }
        if let x = v.stepsPerMin { stepRate.add(second: s, x == NotAvailable.u16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.inclinationPct { inclination.add(second: s, x == NotAvailable.signedTenths ? .nan : x, maxGap: gap) }
        if let x = v.resistanceLevel { resistance.add(second: s, x == NotAvailable.signedTenths ? .nan : x, maxGap: gap) }
        if let x = v.powerW { machinePower.add(second: s, x == NotAvailable.s16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.averageSpeedKmh, x != NotAvailable.speedKmh { totals.averageSpeedKmh = x }
        if let x = v.averagePowerW, x != NotAvailable.s16 { totals.averagePowerW = x }
        common(distance: v.totalDistanceM, energy: v.energy, heartRate: v.heartRateBpm, elapsed: v.elapsedTimeS, s, te)
    }

    private mutating func addStepClimber(_ v: StepClimberData, flags: UInt32, _ t: UInt32) {
        let (s, te) = mergedSecond(slot: 2, t, flags: flags, defined: 0x01FF)
        if let x = v.stepsPerMin { stepRate.add(second: s, x == NotAvailable.u16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.floors, x != NotAvailable.u16 { totals.floors = x }
        if let x = v.stepCount, x != NotAvailable.u16 { totals.stepCount = x }
        common(distance: nil, energy: v.energy, heartRate: v.heartRateBpm, elapsed: v.elapsedTimeS, s, te)
    }

    private mutating func addStairClimber(_ v: StairClimberData, flags: UInt32, _ t: UInt32) {
        let (s, te) = mergedSecond(slot: 3, t, flags: flags, defined: 0x03FF)
        if let x = v.stepsPerMin { stepRate.add(second: s, x == NotAvailable.u16 ? .nan : Double(x), maxGap: gap) }
        if let x = v.floors, x != NotAvailable.u16 { totals.floors = x }
        common(distance: nil, energy: v.energy, heartRate: v.heartRateBpm, elapsed: v.elapsedTimeS, s, te)
    }

    private mutating func addSpeedAndPace(_ kmh: Double, _ s: Int) {
        let missing = kmh == NotAvailable.speedKmh
        speed.add(second: s, missing ? .nan : kmh, maxGap: gap)
        paceKm.add(second: s, (missing || kmh <= 0) ? .nan : 3600 / kmh, maxGap: gap)
    }

    private mutating func common(distance d: Int?, energy e: ExpendedEnergy?, heartRate hr: Int?, elapsed: Int?, _ s: Int, _ t: UInt32) {
        if let d, d != NotAvailable.u24 {
            distance.add(raw: UInt64(d), timeMillis: t, second: s, maxGap: gap)
            totals.totalDistanceM = d
        }
        if let e, e.totalKcal != NotAvailable.u16 {
            energy.add(raw: UInt64(e.totalKcal), timeMillis: t, second: s, maxGap: gap)
            totals.totalEnergyKcal = e.totalKcal
        }
        if let hr { machineHeartRate.add(second: s, (hr == 0 || hr == NotAvailable.u8) ? .nan : Double(hr), maxGap: gap) }
        if let elapsed, elapsed != NotAvailable.u16 { totals.elapsedS = elapsed }
    }

    private mutating func addCyclingPower(_ v: CyclingPowerMeasurement, _ t: UInt32) {
        let s = dataSecond(t)
        sensorPower.add(second: s, v.powerW == NotAvailable.s16 ? .nan : Double(v.powerW), maxGap: gap)
        if let revs = v.cumulativeWheelRevolutions {
            powerWheel.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
        }
        if let revs = v.cumulativeCrankRevolutions, let time = v.lastCrankEventTimeS {
            powerCrank.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
            if let rpm = powerCadence.add(revolutions: revs, ticks: UInt16(time * 1024), timeMillis: t) {
                sensorCadence.add(second: s, rpm, maxGap: gap)
            }
        }
    }

    private mutating func addCSC(_ v: CSCMeasurement, _ t: UInt32) {
        let s = dataSecond(t)
        if let revs = v.cumulativeWheelRevolutions {
            cscWheel.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
        }
        if let revs = v.cumulativeCrankRevolutions, let time = v.lastCrankEventTimeS {
            cscCrank.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
            if let rpm = cscCadence.add(revolutions: revs, ticks: UInt16(time * 1024), timeMillis: t) {
                sensorCadence.add(second: s, rpm, maxGap: gap)
            }
        }
    }

    private mutating func pause(_ t: UInt32, _ paused: Bool) {
        pauseEvents.append((Int(t / 1000), paused))
    }

    // MARK: - Merging and seconds

    /// Second of a sample at record time `t`, counting seconds that carry data.
    private mutating func dataSecond(_ t: UInt32) -> Int {
        let s = Int(t / 1000)
        if s > lastDataSecond {
            secondsWithData += 1
            lastDataSecond = s
        }
        return s
    }

    /// Multi-notification records ("Decoding rules" 8): a notification joins the open
    /// record of the same characteristic when none of its fields is already in it and it
    /// arrives within `moreDataMergeMillis` (previous notification had More Data = 1) or
    /// `proximityMergeMillis` (otherwise) of the record's first notification. All parts of
    /// a record are placed at the first part's time. Returns the second and that time.
    private mutating func mergedSecond(slot: Int, _ t: UInt32, flags: UInt32, defined: UInt32) -> (Int, UInt32) {
        let fields = (flags ^ 1) & defined
        let moreData = flags & 1 != 0
        var group = merge[slot]
        let window = group.moreData ? configuration.moreDataMergeMillis : configuration.proximityMergeMillis
        if group.open, group.fields & fields == 0, t >= group.start, t - group.start <= window {
            group.fields |= fields
            group.moreData = moreData
        } else {
            group = MergeGroup(open: true, start: t, fields: fields, moreData: moreData)
        }
        merge[slot] = group
        return (dataSecond(group.start), group.start)
    }

    // MARK: - Result

    /// Sizes the channels' storage for a grid of about `seconds` seconds when they first
    /// get a sample (avoids regrowing large arrays; a hint, not a limit).
    public mutating func reserveSeconds(_ seconds: Int) {
        let n = max(0, min(seconds, configuration.maxSeconds))
        machinePower.reserve = n; sensorPower.reserve = n; machineCadence.reserve = n; sensorCadence.reserve = n
        machineHeartRate.reserve = n; strapHeartRate.reserve = n; speed.reserve = n; strokeRate.reserve = n
        stepRate.reserve = n; pace500.reserve = n; paceKm.reserve = n; inclination.reserve = n; resistance.reserve = n
        distance.reserve = n; energy.reserve = n; strokes.reserve = n; cscWheel.reserve = n; cscCrank.reserve = n
        powerWheel.reserve = n; powerCrank.reserve = n
    }

    /// The series: channels padded to the grid, sources combined (a dedicated sensor's
    /// value where it has one, else the machine's), pauses laid out. Consumes the
    /// accumulator (its arrays become the series' without a copy).
    public consuming func finish(end: BlobEnd) -> SessionSeries {
        let seconds = hasGridRecords ? Int(lastTimeMillis / 1000) + 1 : 0
        let g = gap
        // A dedicated sensor's value where it has one, the machine's value in the other seconds.
        func merge(_ preferred: [Double], _ fallback: [Double]) -> [Double] {
            if preferred.isEmpty { return fallback }
            if fallback.isEmpty { return preferred }
            var out = preferred
            for i in out.indices where out[i].isNaN { out[i] = fallback[i] }
            return out
        }
        let power = merge(sensorPower.take(seconds: seconds, maxGap: g), machinePower.take(seconds: seconds, maxGap: g))
        let cadence = merge(sensorCadence.take(seconds: seconds, maxGap: g), machineCadence.take(seconds: seconds, maxGap: g))
        let heartRate = merge(strapHeartRate.take(seconds: seconds, maxGap: g), machineHeartRate.take(seconds: seconds, maxGap: g))
        var paused = [Bool](repeating: false, count: seconds)
        var state = false
        var next = 0
        for s in 0 ..< seconds {
            while next < pauseEvents.count, pauseEvents[next].second <= s {
                state = pauseEvents[next].paused
                next += 1
            }
            paused[s] = state
        }
        let wheelFromPower = powerWheel.appeared
        let crankFromPower = powerCrank.appeared
        let wheelTotal = wheelFromPower ? powerWheel.total : cscWheel.total
        let crankTotal = crankFromPower ? powerCrank.total : cscCrank.total
        let wheelSeries = wheelFromPower ? powerWheel.take(seconds: seconds, maxGap: g) : cscWheel.take(seconds: seconds, maxGap: g)
        let crankSeries = crankFromPower ? powerCrank.take(seconds: seconds, maxGap: g) : cscCrank.take(seconds: seconds, maxGap: g)
        let counted = [distance, energy, strokes, wheelFromPower ? powerWheel : cscWheel, crankFromPower ? powerCrank : cscCrank]
        let derived = DerivedTotals(
            distanceM: Double(distance.total), energyKcal: Double(energy.total), strokes: Double(strokes.total),
            wheelRevolutions: Double(wheelTotal), crankRevolutions: Double(crankTotal),
            pausedSeconds: paused.lazy.filter { $0 }.count, secondsWithData: secondsWithData,
            counterResets: counted.reduce(0) { $0 + $1.resets },
            counterRollovers: counted.reduce(0) { $0 + $1.rollovers })
        return SessionSeries(
            machine: header.machine, startMillis: header.startMillis, seconds: seconds,
            powerW: power,
            speedKmh: speed.take(seconds: seconds, maxGap: g),
            cadenceRpm: cadence,
            heartRateBpm: heartRate,
            strokeRateSpm: strokeRate.take(seconds: seconds, maxGap: g),
            stepRateSpm: stepRate.take(seconds: seconds, maxGap: g),
            paceSPer500m: pace500.take(seconds: seconds, maxGap: g),
            paceSPerKm: paceKm.take(seconds: seconds, maxGap: g),
            inclinationPct: inclination.take(seconds: seconds, maxGap: g),
            resistanceLevel: resistance.take(seconds: seconds, maxGap: g),
            distanceM: distance.take(seconds: seconds, maxGap: g),
            energyKcal: energy.take(seconds: seconds, maxGap: g),
            strokes: strokes.take(seconds: seconds, maxGap: g),
            wheelRevolutions: wheelSeries, crankRevolutions: crankSeries,
            paused: paused, machineTotals: totals, derivedTotals: derived,
            decodeErrors: decodeErrors, unknownRecords: unknownRecords, recordsPastLimit: recordsPastLimit,
            end: end, recordCount: recordCount)
    }
}

/// The open multi-notification record of one data characteristic.
struct MergeGroup: Sendable {
    var open = false
    var start: UInt32 = 0
    var fields: UInt32 = 0
    var moreData = false
}
