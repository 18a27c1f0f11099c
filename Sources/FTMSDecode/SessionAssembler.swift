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

        public init(
            maxGapSeconds: Int = 3, proximityMergeMillis: UInt32 = 100, moreDataMergeMillis: UInt32 = 1000,
            maxSeconds: Int = 86_400
        ) {
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
    public static func assemble(bytes: [UInt8], configuration: Configuration = .default) throws(BlobError)
        -> SessionSeries
    {
        let result: Result<SessionSeries, BlobError> = bytes.withUnsafeBytes { raw in
            do throws(BlobError) {
                let header = try BlobReader.readHeader(raw)
                var accumulator = SessionAccumulator(header: header, configuration: configuration)
                // The grid length is projected from the first minute (seconds per byte so far, times the
                // blob's length), so the channels are allocated about once at their final size without a
                // framing pre-pass over the whole blob; a short projection only costs the arrays a regrowth.
                var projectAt: UInt32 = 60_000
                let end = BlobReader.scanRecords(raw, from: BlobReader.headerLength) { view in
                    if view.timeMillis >= projectAt, view.offset > BlobReader.headerLength {
                        projectAt = .max
                        accumulator.reserveSeconds(
                            projectedSeconds(
                                atMillis: view.timeMillis, offset: view.offset, length: raw.count))
                    }
                    accumulator.add(
                        timeMillis: view.timeMillis, uuid: view.uuid, kindRaw: view.kindRaw, payload: view.payload)
                }
                return .success(accumulator.finish(end: end))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension SessionAssembler {
    /// Grid length of a blob of `length` bytes whose record at byte `offset` (past the header) is at
    /// `atMillis`, if the rest of the blob carries seconds at the same rate: + 25 % and 64 s, so that a
    /// recording a little denser at its start still fits; at most one second per 8 bytes (a record
    /// header).
    static func projectedSeconds(atMillis: UInt32, offset: Int, length: Int) -> Int {
        let seconds =
            Double(atMillis) / 1000 * Double(length - BlobReader.headerLength)
            / Double(offset - BlobReader.headerLength)
        return Int(min(seconds * 1.25 + 64, Double(length / 8)))
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
    // The open multi-notification record of each FTMS data characteristic.
    var mergeTreadmill = MergeGroup(), mergeCrossTrainer = MergeGroup(), mergeStepClimber = MergeGroup()
    var mergeStairClimber = MergeGroup(), mergeRower = MergeGroup(), mergeIndoorBike = MergeGroup()

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
        case IndoorBikeData.uuid: addIndoorBike(payload, t)
        case RowerData.uuid: addRower(payload, t)
        case TreadmillData.uuid: addTreadmill(payload, t)
        case CrossTrainerData.uuid: addCrossTrainer(payload, t)
        case StepClimberData.uuid: addStepClimber(payload, t)
        case StairClimberData.uuid: addStairClimber(payload, t)
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
            case 0x02...0x0D: pause(t, false) // an exercise phase
            default: break // other, reserved: no information
            }
        case FitnessMachineFeature.uuid:
            if (try? FitnessMachineFeature.decode(bytes: payload)) == nil { decodeErrors += 1 }
        case 0x2AD4...0x2AD8:
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

    // Each decodes its record with the streaming decoder into `RecordFields` (decode and handling in one
    // function per characteristic) and hands the wire integers on; a value is
    // converted only when its second is written (`Reading`), exactly as the value types' properties
    // do (`Double(raw) / divisor`, the divisors of the characteristic's walk); "not available" is
    // tested on the wire integer.

    /// Indoor Bike Data, the most frequent record (4 Hz on most bikes), goes from the streaming
    /// decoder straight into the channels (`IndoorBikeSink`), with no `RecordFields` in between.
    @inline(never)
    private mutating func addIndoorBike(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        let failed = withUnsafeMutablePointer(to: &self) { accumulator in
            var sink = IndoorBikeSink(accumulator, t)
            do { try IndoorBikeData.decode(bytes: payload, into: &sink); return false } catch { return true }
        }
        if failed { decodeErrors += 1 }
    }

    @inline(never)
    private mutating func addRower(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        var f = RecordFields()
        do { try RowerData.decode(bytes: payload, into: &f) } catch { decodeErrors += 1; return }
        let te = mergeRower.join(t, flags: f.flags, defined: 0x1FFF, configuration)
        let s = dataSecond(te)
        if f.has(f.strokeRate) {
            strokeRate.add(
                second: s, f.strokeRate == 0xFF ? .value(.nan) : .scaled(f.strokeRate, divisor: 2), maxGap: gap)
        }
        if f.has(f.strokeCount) {
            strokes.add(raw: UInt64(f.strokeCount), timeMillis: te, second: s, maxGap: gap)
            totals.strokeCount = f.strokeCount
        }
        if f.has(f.pace500) {
            pace500.add(second: s, (f.pace500 == 0xFFFF || f.pace500 == 0) ? .nan : Double(f.pace500), maxGap: gap)
        }
        if f.has(f.power) { machinePower.add(second: s, f.power == 0x7FFF ? .nan : Double(f.power), maxGap: gap) }
        if f.has(f.resistance) {
            resistance.add(second: s, f.resistance == 0x7FFF ? .nan : Double(f.resistance), maxGap: gap)
        }
        if f.has(f.averageStrokeRate), f.averageStrokeRate != 0xFF {
            totals.averageStrokeRateSpm = Double(f.averageStrokeRate) / 2
        }
        if f.has(f.averagePace500), f.averagePace500 != 0xFFFF, f.averagePace500 != 0 {
            totals.averagePaceSPer500m = f.averagePace500
        }
        if f.has(f.averagePower), f.averagePower != 0x7FFF { totals.averagePowerW = f.averagePower }
        common(f, s, te)
    }

    @inline(never)
    private mutating func addTreadmill(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        var f = RecordFields()
        do { try TreadmillData.decode(bytes: payload, into: &f) } catch { decodeErrors += 1; return }
        let te = mergeTreadmill.join(t, flags: f.flags, defined: 0x1FFF, configuration)
        let s = dataSecond(te)
        if f.has(f.speed) {
            addSpeedAndPace(raw: f.speed, s)
        } else if f.has(f.paceKm) {
            paceKm.add(
                second: s, (f.paceKm == 0xFF || f.paceKm == 0) ? .value(.nan) : .inverse(60, f.paceKm, divisor: 10),
                maxGap: gap)
        }
        if f.has(f.inclination) {
            inclination.add(
                second: s, f.inclination == 0x7FFF ? .value(.nan) : .scaled(f.inclination, divisor: 10), maxGap: gap)
        }
        if f.has(f.powerOutput) {
            machinePower.add(second: s, f.powerOutput == 0x7FFF ? .nan : Double(f.powerOutput), maxGap: gap)
        }
        if f.has(f.averageSpeed), f.averageSpeed != 0xFFFF { totals.averageSpeedKmh = Double(f.averageSpeed) / 100 }
        common(f, s, te)
    }

    @inline(never)
    private mutating func addCrossTrainer(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        var f = RecordFields()
        do { try CrossTrainerData.decode(bytes: payload, into: &f) } catch { decodeErrors += 1; return }
        let te = mergeCrossTrainer.join(t, flags: f.flags, defined: 0x7FFF, configuration)
        let s = dataSecond(te)
        if f.has(f.speed) { addSpeedAndPace(raw: f.speed, s) }
        if f.has(f.stepsPerMin) {
            stepRate.add(second: s, f.stepsPerMin == 0xFFFF ? .nan : Double(f.stepsPerMin), maxGap: gap)
        }
        if f.has(f.inclination) {
            inclination.add(
                second: s, f.inclination == 0x7FFF ? .value(.nan) : .scaled(f.inclination, divisor: 10), maxGap: gap)
        }
        if f.has(f.resistance) {
            resistance.add(
                second: s, f.resistance == 0x7FFF ? .value(.nan) : .scaled(f.resistance, divisor: 10), maxGap: gap)
        }
        if f.has(f.power) { machinePower.add(second: s, f.power == 0x7FFF ? .nan : Double(f.power), maxGap: gap) }
        if f.has(f.averageSpeed), f.averageSpeed != 0xFFFF { totals.averageSpeedKmh = Double(f.averageSpeed) / 100 }
        if f.has(f.averagePower), f.averagePower != 0x7FFF { totals.averagePowerW = f.averagePower }
        common(f, s, te)
    }

    @inline(never)
    private mutating func addStepClimber(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        var f = RecordFields()
        do { try StepClimberData.decode(bytes: payload, into: &f) } catch { decodeErrors += 1; return }
        let te = mergeStepClimber.join(t, flags: f.flags, defined: 0x01FF, configuration)
        let s = dataSecond(te)
        if f.has(f.stepsPerMin) {
            stepRate.add(second: s, f.stepsPerMin == 0xFFFF ? .nan : Double(f.stepsPerMin), maxGap: gap)
        }
        if f.has(f.floors), f.floors != 0xFFFF { totals.floors = f.floors }
        if f.has(f.stepCount), f.stepCount != 0xFFFF { totals.stepCount = f.stepCount }
        common(f, s, te)
    }

    @inline(never)
    private mutating func addStairClimber(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        var f = RecordFields()
        do { try StairClimberData.decode(bytes: payload, into: &f) } catch { decodeErrors += 1; return }
        let te = mergeStairClimber.join(t, flags: f.flags, defined: 0x03FF, configuration)
        let s = dataSecond(te)
        if f.has(f.stepsPerMin) {
            stepRate.add(second: s, f.stepsPerMin == 0xFFFF ? .nan : Double(f.stepsPerMin), maxGap: gap)
        }
        if f.has(f.floors), f.floors != 0xFFFF { totals.floors = f.floors }
        common(f, s, te)
    }

    /// Speed in km/h (wire integer in 0.01 km/h) and the pace derived from it.
    @inline(always)
    private mutating func addSpeedAndPace(raw: Int, _ s: Int) {
        // kmh = Double(raw) / 100 <= 0 exactly when raw <= 0.
        let missing = raw == 0xFFFF
        speed.add(second: s, missing ? .value(.nan) : .scaled(raw, divisor: 100), maxGap: gap)
        paceKm.add(second: s, (missing || raw <= 0) ? .value(.nan) : .inverse(3600, raw, divisor: 100), maxGap: gap)
    }

    /// The fields every data characteristic may carry (the climbers send no distance: absent).
    @inline(always)
    private mutating func common(_ f: RecordFields, _ s: Int, _ t: UInt32) {
        if f.has(f.distance), f.distance != 0xFF_FFFF {
            distance.add(raw: UInt64(f.distance), timeMillis: t, second: s, maxGap: gap)
            totals.totalDistanceM = f.distance
        }
        if f.has(f.energy), f.energy != 0xFFFF {
            energy.add(raw: UInt64(f.energy), timeMillis: t, second: s, maxGap: gap)
            totals.totalEnergyKcal = f.energy
        }
        if f.has(f.heartRate) {
            machineHeartRate.add(
                second: s, (f.heartRate == 0 || f.heartRate == 0xFF) ? .nan : Double(f.heartRate), maxGap: gap)
        }
        if f.has(f.elapsed), f.elapsed != 0xFFFF { totals.elapsedS = f.elapsed }
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
    @inline(always)
    fileprivate mutating func dataSecond(_ t: UInt32) -> Int {
        let s = Int(t / 1000)
        if s > lastDataSecond {
            secondsWithData += 1
            lastDataSecond = s
        }
        return s
    }

    // MARK: - Result

    /// Sizes the channels' storage for a grid of about `seconds` seconds: now for the channels
    /// that have samples, at their first sample for the others (avoids regrowing large arrays;
    /// a hint, not a limit).
    public mutating func reserveSeconds(_ seconds: Int) {
        let n = max(0, min(seconds, configuration.maxSeconds))
        machinePower.reserveGrid(n); sensorPower.reserveGrid(n); machineCadence.reserveGrid(n);
        sensorCadence.reserveGrid(n)
        machineHeartRate.reserveGrid(n); strapHeartRate.reserveGrid(n); speed.reserveGrid(n); strokeRate.reserveGrid(n)
        stepRate.reserveGrid(n); pace500.reserveGrid(n); paceKm.reserveGrid(n); inclination.reserveGrid(n)
        resistance.reserveGrid(n); distance.reserveGrid(n); energy.reserveGrid(n); strokes.reserveGrid(n)
        cscWheel.reserveGrid(n); cscCrank.reserveGrid(n); powerWheel.reserveGrid(n); powerCrank.reserveGrid(n)
    }

    /// The series: channels padded to the grid, sources combined (a dedicated sensor's
    /// value where it has one, else the machine's), pauses laid out. Consumes the
    /// accumulator (its arrays become the series' without a copy).
    public consuming func finish(end: BlobEnd) -> SessionSeries {
        let seconds = hasGridRecords ? Int(lastTimeMillis / 1000) + 1 : 0
        let g = gap
        // A dedicated sensor's value where it has one, the machine's value in the other seconds.
        // `preferred` is the channel's own array, filled in place (no copy).
        func merge(_ preferred: consuming [Double], _ fallback: [Double]) -> [Double] {
            if preferred.isEmpty { return fallback }
            if fallback.isEmpty { return preferred }
            preferred.withUnsafeMutableBufferPointer { out in
                fallback.withUnsafeBufferPointer { other in
                    for i in out.indices where out[i].isNaN { out[i] = other[i] }
                }
            }
            return preferred
        }
        let power = merge(sensorPower.take(seconds: seconds, maxGap: g), machinePower.take(seconds: seconds, maxGap: g))
        let cadence = merge(
            sensorCadence.take(seconds: seconds, maxGap: g), machineCadence.take(seconds: seconds, maxGap: g))
        let heartRate = merge(
            strapHeartRate.take(seconds: seconds, maxGap: g), machineHeartRate.take(seconds: seconds, maxGap: g))
        var paused = [Bool](repeating: false, count: seconds)
        var state = false
        var next = 0
        for s in 0..<seconds {
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
        let wheelSeries =
            wheelFromPower ? powerWheel.take(seconds: seconds, maxGap: g) : cscWheel.take(seconds: seconds, maxGap: g)
        let crankSeries =
            crankFromPower ? powerCrank.take(seconds: seconds, maxGap: g) : cscCrank.take(seconds: seconds, maxGap: g)
        // Summed from the channels in place: a copy of a channel would share its array and make `take` copy it.
        let counterResets =
            distance.resets + energy.resets + strokes.resets
            + (wheelFromPower ? powerWheel.resets : cscWheel.resets)
            + (crankFromPower ? powerCrank.resets : cscCrank.resets)
        let counterRollovers =
            distance.rollovers + energy.rollovers + strokes.rollovers
            + (wheelFromPower ? powerWheel.rollovers : cscWheel.rollovers)
            + (crankFromPower ? powerCrank.rollovers : cscCrank.rollovers)
        let derived = DerivedTotals(
            distanceM: Double(distance.total), energyKcal: Double(energy.total), strokes: Double(strokes.total),
            wheelRevolutions: Double(wheelTotal), crankRevolutions: Double(crankTotal),
            pausedSeconds: paused.lazy.filter { $0 }.count, secondsWithData: secondsWithData,
            counterResets: counterResets, counterRollovers: counterRollovers)
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

    /// Multi-notification records ("Decoding rules" 8): a notification joins the open
    /// record of the same characteristic when none of its fields is already in it and it
    /// arrives within `moreDataMergeMillis` (previous notification had More Data = 1) or
    /// `proximityMergeMillis` (otherwise) of the record's first notification. All parts of
    /// a record are placed at the first part's time. Returns that time.
    @inline(__always)
    mutating func join(_ t: UInt32, flags: UInt32, defined: UInt32, _ configuration: SessionAssembler.Configuration)
        -> UInt32
    {
        let fields = (flags ^ 1) & defined
        let moreData = flags & 1 != 0
        let window = self.moreData ? configuration.moreDataMergeMillis : configuration.proximityMergeMillis
        if open, self.fields & fields == 0, t >= start, t - start <= window {
            self.fields |= fields
            self.moreData = moreData
        } else {
            self = MergeGroup(open: true, start: t, fields: fields, moreData: moreData)
        }
        return start
    }
}

/// One Indoor Bike Data record into the accumulator, field by field as the streaming decoder reads
/// them: the rules of the other characteristics' `add…(RecordFields)` (merge, second, "not
/// available" tested on the wire integer, conversion when the second is written). The decoder
/// calls `flags` only once the record's length is known to be right, so a record that does not
/// decode changes nothing.
struct IndoorBikeSink: DataFieldVisitor {
    let accumulator: UnsafeMutablePointer<SessionAccumulator>
    let t: UInt32
    let gap: Int
    /// The record's time after merging, and its second.
    var te: UInt32 = 0
    var s = 0

    @inline(__always)
    init(_ accumulator: UnsafeMutablePointer<SessionAccumulator>, _ t: UInt32) {
        self.accumulator = accumulator
        self.t = t
        gap = accumulator.pointee.configuration.maxGapSeconds
    }

    @inline(__always)
    mutating func flags(_ raw: UInt32) {
        te = accumulator.pointee.mergeIndoorBike.join(t, flags: raw, defined: 0x1FFF, accumulator.pointee.configuration)
        s = accumulator.pointee.dataSecond(te)
    }

    @inline(__always)
    mutating func field(_ field: DataField, raw: Int, divisor: Double) {
        let a = accumulator
        switch field {
        case .speedKmh:
            a.pointee.speed.add(second: s, raw == 0xFFFF ? .value(.nan) : .scaled(raw, divisor: 100), maxGap: gap)
        case .cadenceRpm:
            a.pointee.machineCadence.add(
                second: s, raw == 0xFFFF ? .value(.nan) : .scaled(raw, divisor: 2), maxGap: gap)
        case .resistanceLevel: a.pointee.resistance.add(second: s, raw == 0x7FFF ? .nan : Double(raw), maxGap: gap)
        case .powerW: a.pointee.machinePower.add(second: s, raw == 0x7FFF ? .nan : Double(raw), maxGap: gap)
        case .averageSpeedKmh: if raw != 0xFFFF { a.pointee.totals.averageSpeedKmh = Double(raw) / 100 }
        case .averageCadenceRpm: if raw != 0xFFFF { a.pointee.totals.averageCadenceRpm = Double(raw) / 2 }
        case .averagePowerW: if raw != 0x7FFF { a.pointee.totals.averagePowerW = raw }
        case .totalDistanceM:
            if raw != 0xFF_FFFF {
                a.pointee.distance.add(raw: UInt64(raw), timeMillis: te, second: s, maxGap: gap)
                a.pointee.totals.totalDistanceM = raw
            }
        case .totalEnergyKcal:
            if raw != 0xFFFF {
                a.pointee.energy.add(raw: UInt64(raw), timeMillis: te, second: s, maxGap: gap)
                a.pointee.totals.totalEnergyKcal = raw
            }
        case .heartRateBpm:
            a.pointee.machineHeartRate.add(second: s, (raw == 0 || raw == 0xFF) ? .nan : Double(raw), maxGap: gap)
        case .elapsedTimeS: if raw != 0xFFFF { a.pointee.totals.elapsedS = raw }
        default: break
        }
    }
}

/// The wire integers of one FTMS data record that the series use, as the streaming decoder
/// hands them over (`DataFieldVisitor`); `absent` where the record does not carry the field.
/// Nothing is converted here: the assembler converts the values it keeps.
struct RecordFields: DataFieldVisitor {
    static let absent = Int.min
    var flags: UInt32 = 0
    var speed = absent, averageSpeed = absent, cadence = absent, averageCadence = absent
    var distance = absent, resistance = absent, power = absent, averagePower = absent
    var energy = absent, heartRate = absent, elapsed = absent
    var strokeRate = absent, strokeCount = absent, averageStrokeRate = absent, pace500 = absent, averagePace500 = absent
    var inclination = absent, paceKm = absent, powerOutput = absent, stepsPerMin = absent, floors = absent,
        stepCount = absent

    @inline(__always) func has(_ raw: Int) -> Bool { raw != Self.absent }

    @inline(__always) mutating func flags(_ raw: UInt32) { flags = raw }

    @inline(__always) mutating func field(_ field: DataField, raw: Int, divisor: Double) {
        switch field {
        case .speedKmh: speed = raw
        case .averageSpeedKmh: averageSpeed = raw
        case .cadenceRpm: cadence = raw
        case .averageCadenceRpm: averageCadence = raw
        case .totalDistanceM: distance = raw
        case .resistanceLevel: resistance = raw
        case .powerW: power = raw
        case .averagePowerW: averagePower = raw
        case .totalEnergyKcal: energy = raw
        case .heartRateBpm: heartRate = raw
        case .elapsedTimeS: elapsed = raw
        case .strokeRateSpm: strokeRate = raw
        case .strokeCount: strokeCount = raw
        case .averageStrokeRateSpm: averageStrokeRate = raw
        case .paceSPer500m: pace500 = raw
        case .averagePaceSPer500m: averagePace500 = raw
        case .inclinationPct: inclination = raw
        case .paceKmPerMin: paceKm = raw
        case .powerOutputW: powerOutput = raw
        case .stepsPerMin: stepsPerMin = raw
        case .floors: floors = raw
        case .stepCount: stepCount = raw
        default: break
        }
    }
}
