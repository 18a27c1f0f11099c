import FTMSDecode

/// Turns a decoded blob into the 1 Hz `SessionSeries` the metrics module reads
/// (`docs/ftms-fields.md`, "Decoding rules" 8–9; `docs/metrics.md`, "Resampling").
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
        for record in blob.records {
            record.payload.withUnsafeBytes { bytes in
                accumulator.addOwned(
                    timeMillis: record.timeMillis, uuid: record.uuid, kindRaw: record.kindRaw, payload: bytes)
            }
        }
        return accumulator.finish(end: blob.end)
    }

    /// Zero-copy path straight from blob bytes (no `BlobRecord` array): the same result as
    /// `assemble(BlobReader.read(bytes))`.
    ///
    /// The grid's length is projected from the first minute of records (`projectedSeconds`), and every channel
    /// writes into the storage of a fresh array of that length, which becomes the series' array without a copy (a
    /// merged pair's in the preferred channel's). A channel that outgrows the projection moves to storage of its own
    /// and is copied out at the end, as in `assemble(_:)`.
    public static func assemble(bytes: [UInt8], configuration: Configuration = .default) throws(BlobError)
        -> SessionSeries
    {
        let result: Result<SessionSeries, BlobError> = bytes.withUnsafeBytes { raw in
            do throws(BlobError) {
                let header = try BlobReader.readHeader(raw)
                var accumulator = SessionAccumulator(header: header, configuration: configuration)
                let projected = min(projectedSeconds(raw), configuration.maxSeconds)
                let (arrays, (series, inPlace)) = withFreshArrays(
                    count: SessionAccumulator.channelCount, capacity: projected
                ) { lent in
                    accumulator.lend(lent, seconds: projected)
                    let end = BlobReader.scanRecords(raw, from: BlobReader.headerLength) { view in
                        accumulator.addOwned(
                            timeMillis: view.timeMillis, uuid: view.uuid, kindRaw: view.kindRaw, payload: view.payload)
                    }
                    let finished = accumulator.finish(end: end, lent: lent)
                    var counts = [Int](repeating: 0, count: lent.count)
                    for (_, k) in finished.inPlace { counts[k] = finished.series.seconds }
                    return (counts, finished)
                }
                var whole = series
                for (channel, k) in inPlace { whole[keyPath: channel] = arrays[k] }
                return .success(whole)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension SessionAssembler {
    /// The grid's length of a blob, projected from its first minute before it is decoded (record headers only): the
    /// second of its last record + 1 when it ends within the first minute, else `projectedSeconds(atMillis:offset:
    /// length:)` at the first record past it. A record the scan will reject ends the walk.
    static func projectedSeconds(_ raw: UnsafeRawBufferPointer) -> Int {
        var offset = BlobReader.headerLength
        var last: UInt32?
        while raw.count - offset >= BlobReader.recordHeaderLength {
            let (time, _, _, length) = BlobReader.readRecordHeader(raw, at: offset)
            if length > BlobReader.maxPayloadLength || raw.count - offset - BlobReader.recordHeaderLength < length {
                break
            }
            if time >= 60_000, offset > BlobReader.headerLength {
                return projectedSeconds(atMillis: time, offset: offset, length: raw.count)
            }
            last = time
            offset += BlobReader.recordHeaderLength + length
        }
        return last.map { Int($0 / 1000) + 1 } ?? 0
    }

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

    /// Runs `body` with `count` fresh buffers of at least `capacity` doubles, each the storage of an array returned
    /// in the same order with as many elements as `body` says it initialised in it (`body`'s counts): what is written
    /// into a buffer becomes an array without a copy. The buffers are valid only while `body` runs (each is used
    /// inside its array's `init(unsafeUninitializedCapacity:initializingWith:)`, nested).
    static func withFreshArrays<R>(
        count: Int, capacity: Int, _ body: ([UnsafeMutableBufferPointer<Double>]) -> ([Int], R)
    ) -> ([[Double]], R) {
        var buffers: [UnsafeMutableBufferPointer<Double>] = []
        buffers.reserveCapacity(count)
        var counts: [Int] = []
        var result: R?
        var arrays: [[Double]] = []
        func nest() {
            guard buffers.count < count else {
                let (initialized, value) = body(buffers)
                (counts, result) = (initialized, value)
                return
            }
            let k = buffers.count
            let array = [Double](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                buffers.append(buffer)
                nest()
                initialized = counts[k]
            }
            arrays.append(array) // innermost first
        }
        nest()
        return (arrays.reversed(), result!)
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
    // The open multi-notification record of each FTMS data characteristic, by UUID − 0x2ACD
    // (Treadmill, Cross Trainer, Step Climber, Stair Climber, Rower, Indoor Bike).
    var merges = InlineArray<6, MergeGroup>(repeating: MergeGroup())

    var recordCount = 0
    var recordsPastLimit = 0
    var hasGridRecords = false
    var decodeErrors = 0
    var unknownRecords = 0
    var lastTimeMillis: UInt32 = 0
    var secondsWithData = 0
    var lastDataSecond = -1
    /// Every channel that has had a sample has room for this many seconds, and every second handed to a channel is
    /// below it (`dataSecond` grows the grid first), so the channels' paths for the next second check no capacity.
    var gridCapacity = 0
    /// Shared by the copies of an accumulator, which share their columns too: the first copy to take a record gives
    /// itself columns of its own (`makeUnique`), so that a record costs one uniqueness check, not one per channel.
    private var owner = Owner()

    /// The channels, by kind: every channel is in one of these lists (`makeUnique`, `growGrid`, `lend`).
    static let instantChannels: [WritableKeyPath<SessionAccumulator, InstantChannel> & Sendable] = [
        \.machinePower, \.sensorPower, \.machineCadence, \.sensorCadence, \.machineHeartRate, \.strapHeartRate, \.speed,
        \.strokeRate, \.stepRate, \.pace500, \.paceKm, \.inclination, \.resistance,
    ]
    static let counterChannels: [WritableKeyPath<SessionAccumulator, CounterChannel> & Sendable] = [
        \.distance, \.energy, \.strokes, \.cscWheel, \.cscCrank, \.powerWheel, \.powerCrank,
    ]
    static var channelCount: Int { instantChannels.count + counterChannels.count }

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
    public mutating func add(timeMillis: UInt32, uuid: UInt16, kindRaw: UInt8, payload: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&owner) { makeUnique() }
        addOwned(timeMillis: timeMillis, uuid: uuid, kindRaw: kindRaw, payload: payload)
    }

    /// Columns of its own for a copy of an accumulator (value semantics: the copy and the original go on
    /// independently).
    @inline(never)
    mutating func makeUnique() {
        owner = Owner()
        for channel in Self.instantChannels { self[keyPath: channel].makeUnique() }
        for channel in Self.counterChannels { self[keyPath: channel].makeUnique() }
    }

    /// `add`, by the owner of an accumulator that has not been copied (the assembler's own).
    @inline(__always)
    mutating func addOwned(timeMillis t: UInt32, uuid: UInt16, kindRaw: UInt8, payload: UnsafeRawBufferPointer) {
        recordCount &+= 1
        if Int(t / 1000) >= configuration.maxSeconds {
            recordsPastLimit += 1
            return
        }
        hasGridRecords = true
        if t > lastTimeMillis { lastTimeMillis = t }
        switch uuid {
        case IndoorBikeData.uuid: addData(IndoorBikeLayout.self, payload, t)
        case RowerData.uuid: addData(RowerLayout.self, payload, t)
        case TreadmillData.uuid: addData(TreadmillLayout.self, payload, t)
        case CrossTrainerData.uuid: addData(CrossTrainerLayout.self, payload, t)
        case StepClimberData.uuid: addData(StepClimberLayout.self, payload, t)
        case StairClimberData.uuid: addData(StairClimberLayout.self, payload, t)
        case HeartRateMeasurement.uuid: addHeartRate(payload, t)
        case CyclingPowerLayout.uuid: addRevolutions(CyclingPowerLayout.self, payload, t)
        case CSCLayout.uuid: addRevolutions(CSCLayout.self, payload, t)
        default: addOther(uuid, payload, t)
        }
    }

    // MARK: - Per characteristic

    private var gap: Int { configuration.maxGapSeconds }

    /// A Heart Rate Measurement (the strap): 0 bpm and "contact not detected" are missing values.
    @inline(__always)
    private mutating func addHeartRate(_ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        guard let hr = try? HeartRateMeasurement.decodeView(bytes: payload) else {
            decodeErrors += 1
            return
        }
        let (bpm, contact) = (hr.heartRateBpm, hr.sensorContact)
        let s = dataSecond(t)
        let missing = bpm == 0 || contact == .notDetected
        strapHeartRate.add(second: s, missing ? .nan : Double(bpm), maxGap: gap)
    }

    /// The records that carry no sample: machine status and training status (pauses), and those only checked for
    /// decoding (feature, supported ranges, control point, device information); other UUIDs are unknown.
    @inline(never)
    private mutating func addOther(_ uuid: UInt16, _ payload: UnsafeRawBufferPointer, _ t: UInt32) {
        switch uuid {
        case FitnessMachineStatus.uuid:
            guard let v = try? FitnessMachineStatus.decode(bytes: payload) else { decodeErrors += 1; return }
            switch v {
            case .stoppedOrPausedByUser(let info) where info == 1 || info == 2: pause(t, true)
            case .stoppedBySafetyKey: pause(t, true)
            case .startedOrResumedByUser: pause(t, false)
            default: break
            }
        case TrainingStatus.uuid:
            guard let status = try? TrainingStatus.decodeStatus(bytes: payload) else { decodeErrors += 1; return }
            switch status {
            case 0x01, 0x0E, 0x0F: pause(t, true) // idle, pre-workout, post-workout
            case 0x02...0x0D: pause(t, false) // an exercise phase
            default: break // other, reserved: no information
            }
        case FitnessMachineFeature.uuid:
            if (try? FitnessMachineFeature.decode(bytes: payload)) == nil { decodeErrors += 1 }
        case 0x2AD4...0x2AD8:
            if (try? SupportedRange.decode(kind: SupportedRange.Kind(rawValue: uuid)!, bytes: payload)) == nil {
                decodeErrors += 1
            }
        case ControlPointMessage.uuid:
            if (try? ControlPointMessage.decode(bytes: payload)) == nil { decodeErrors += 1 }
        case 0x2A29, 0x2A24, 0x2A26:
            if payload.isEmpty { decodeErrors += 1 }
        default:
            unknownRecords += 1
        }
    }

    /// An FTMS data record goes from the streaming decoder straight into the channels
    /// (`DataRecordSink`), field by field; nothing is decoded twice and no value is built.
    @inline(never)
    private mutating func addData<Layout: FTMSDataLayout>(
        _ layout: Layout.Type, _ payload: UnsafeRawBufferPointer, _ t: UInt32
    ) {
        let failed = withUnsafeMutablePointer(to: &self) { accumulator in
            var sink = DataRecordSink<Layout>(accumulator, t)
            do { try Layout.visitFields(bytes: payload, &sink); return false } catch { return true }
        }
        if failed { decodeErrors += 1 }
    }

    /// A Cycling Power or CSC Measurement from the streaming decoder (`RevolutionSink`), as the
    /// values' properties would give it: the power (CP only), the wheel and crank counters, and
    /// the cadence from the crank revolutions and event time (raw 1/1024 s ticks).
    @inline(never)
    private mutating func addRevolutions<Layout: RecordLayout>(
        _ layout: Layout.Type, _ payload: UnsafeRawBufferPointer, _ t: UInt32
    ) {
        var sink = RevolutionSink()
        do { try Layout.visitFields(bytes: payload, &sink) } catch {
            decodeErrors += 1
            return
        }
        let fromPower = Layout.uuid == CyclingPowerLayout.uuid
        let s = dataSecond(t)
        if fromPower {
            sensorPower.add(second: s, sink.power == WireType.s16.notAvailable ? .nan : Double(sink.power), maxGap: gap)
        }
        if let wheel = sink.wheelRevolutions {
            let revs = UInt32(truncatingIfNeeded: wheel)
            if fromPower {
                powerWheel.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
            } else {
                cscWheel.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
            }
        }
        if let crank = sink.crankRevolutions, let time = sink.crankTicks {
            let (revs, ticks) = (UInt16(truncatingIfNeeded: crank), UInt16(truncatingIfNeeded: time))
            let rpm: Double?
            if fromPower {
                powerCrank.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
                rpm = powerCadence.add(revolutions: revs, ticks: ticks, timeMillis: t)
            } else {
                cscCrank.add(raw: UInt64(revs), timeMillis: t, second: s, maxGap: gap)
                rpm = cscCadence.add(revolutions: revs, ticks: ticks, timeMillis: t)
            }
            if let rpm { sensorCadence.add(second: s, rpm, maxGap: gap) }
        }
    }

    private mutating func pause(_ t: UInt32, _ paused: Bool) {
        pauseEvents.append((Int(t / 1000), paused))
    }

    // MARK: - Merging and seconds

    /// Second of a sample at record time `t`, counting seconds that carry data; the grid grows to take it.
    @inline(always)
    fileprivate mutating func dataSecond(_ t: UInt32) -> Int {
        let s = Int(t / 1000)
        if s > lastDataSecond {
            secondsWithData += 1
            lastDataSecond = s
            // At least doubling: s < maxSeconds, as records at or past it are not used.
            if s >= gridCapacity { growGrid(to: max(s + 1, min(max(2 * gridCapacity, 64), configuration.maxSeconds))) }
        }
        return s
    }

    // MARK: - Result

    /// Sizes the channels' storage for a grid of about `seconds` seconds: now for the channels
    /// that have samples, at their first sample for the others (avoids regrowing large arrays;
    /// a hint, not a limit).
    public mutating func reserveSeconds(_ seconds: Int) {
        growGrid(to: max(0, min(seconds, configuration.maxSeconds)))
    }

    /// Room for `n` seconds in every channel (now in those with samples, at their first in the others).
    @inline(never)
    mutating func growGrid(to n: Int) {
        guard n > gridCapacity else { return }
        gridCapacity = n
        for channel in Self.instantChannels { self[keyPath: channel].reserveGrid(n) }
        for channel in Self.counterChannels { self[keyPath: channel].reserveGrid(n) }
    }

    /// Each channel writes into one of the `buffers` (`channelCount` of them, each at least `seconds` long), and the
    /// grid has room for `seconds`. Before the first record.
    mutating func lend(_ buffers: [UnsafeMutableBufferPointer<Double>], seconds: Int) {
        var buffer = buffers.makeIterator()
        for channel in Self.instantChannels { self[keyPath: channel].column.lend(buffer.next()!) }
        for channel in Self.counterChannels { self[keyPath: channel].column.lend(buffer.next()!) }
        growGrid(to: seconds)
    }

    /// The series: channels padded to the grid, sources combined (a dedicated sensor's
    /// value where it has one, else the machine's), pauses laid out. Each channel's column is
    /// copied once into its array of the series (a merged pair's two columns in one pass).
    public consuming func finish(end: BlobEnd) -> SessionSeries { finish(end: end, lent: []).series }

    /// `finish`, where the channels that were written into one of the `lent` buffers are finished in place
    /// (`InstantChannel.finishInPlace`): the series leaves them empty, and `inPlace` lists them with the index of the
    /// buffer whose array, `seconds` long, is the channel.
    func finish(end: BlobEnd, lent: [UnsafeMutableBufferPointer<Double>]) -> (
        series: SessionSeries, inPlace: [(WritableKeyPath<SessionSeries, [Double]>, Int)]
    ) {
        let seconds = hasGridRecords ? Int(lastTimeMillis / 1000) + 1 : 0
        let g = gap
        var inPlace: [(WritableKeyPath<SessionSeries, [Double]>, Int)] = []
        func instant(_ channel: InstantChannel, _ path: WritableKeyPath<SessionSeries, [Double]>) -> [Double] {
            guard let k = channel.finishInPlace(lent, seconds: seconds, maxGap: g) else {
                return channel.take(seconds: seconds, maxGap: g)
            }
            inPlace.append((path, k))
            return []
        }
        func counter(_ channel: CounterChannel, _ path: WritableKeyPath<SessionSeries, [Double]>) -> [Double] {
            guard let k = channel.finishInPlace(lent, seconds: seconds, maxGap: g) else {
                return channel.take(seconds: seconds, maxGap: g)
            }
            inPlace.append((path, k))
            return []
        }
        // A dedicated sensor's value where it has one, the machine's value in the other seconds.
        func merged(
            _ preferred: InstantChannel, over fallback: InstantChannel, _ path: WritableKeyPath<SessionSeries, [Double]>
        ) -> [Double] {
            guard let k = InstantChannel.mergeInPlace(preferred, over: fallback, lent, seconds: seconds, maxGap: g)
            else { return InstantChannel.merge(preferred, over: fallback, seconds: seconds, maxGap: g) }
            inPlace.append((path, k))
            return []
        }
        let power = merged(sensorPower, over: machinePower, \.powerW)
        let cadence = merged(sensorCadence, over: machineCadence, \.cadenceRpm)
        let heartRate = merged(strapHeartRate, over: machineHeartRate, \.heartRateBpm)
        // Each second holds the state of the last event applied by its end; events are applied in record order, an
        // event earlier than one before it at that one's second. Filled by runs, not second by second.
        var paused = [Bool](repeating: false, count: seconds)
        var pausedSeconds = 0
        paused.withUnsafeMutableBufferPointer { out in
            var state = false
            var from = 0 // seconds from `from` on have `state` (until the next event)
            func fill(to end: Int) {
                if state, end > from {
                    out[from..<end].update(repeating: true)
                    pausedSeconds += end - from
                }
            }
            for event in pauseEvents {
                let second = max(from, event.second)
                if second >= seconds { break }
                fill(to: second)
                from = second
                state = event.paused
            }
            fill(to: seconds)
        }
        let wheelFromPower = powerWheel.appeared
        let crankFromPower = powerCrank.appeared
        let wheelTotal = wheelFromPower ? powerWheel.total : cscWheel.total
        let crankTotal = crankFromPower ? powerCrank.total : cscCrank.total
        let wheelSeries = counter(wheelFromPower ? powerWheel : cscWheel, \.wheelRevolutions)
        let crankSeries = counter(crankFromPower ? powerCrank : cscCrank, \.crankRevolutions)
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
            pausedSeconds: pausedSeconds, secondsWithData: secondsWithData,
            counterResets: counterResets, counterRollovers: counterRollovers)
        let series = SessionSeries(
            machine: header.machine, startMillis: header.startMillis, seconds: seconds,
            powerW: power,
            speedKmh: instant(speed, \.speedKmh),
            cadenceRpm: cadence,
            heartRateBpm: heartRate,
            strokeRateSpm: instant(strokeRate, \.strokeRateSpm),
            stepRateSpm: instant(stepRate, \.stepRateSpm),
            paceSPer500m: instant(pace500, \.paceSPer500m),
            paceSPerKm: instant(paceKm, \.paceSPerKm),
            inclinationPct: instant(inclination, \.inclinationPct),
            resistanceLevel: instant(resistance, \.resistanceLevel),
            distanceM: counter(distance, \.distanceM),
            energyKcal: counter(energy, \.energyKcal),
            strokes: counter(strokes, \.strokes),
            wheelRevolutions: wheelSeries, crankRevolutions: crankSeries,
            paused: paused, machineTotals: totals, derivedTotals: derived,
            decodeErrors: decodeErrors, unknownRecords: unknownRecords, recordsPastLimit: recordsPastLimit,
            end: end, recordCount: recordCount)
        return (series, inPlace)
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

/// One FTMS data record into the accumulator, field by field as the streaming decoder reads
/// them (`FTMSDataLayout.fields`): the record joins its characteristic's open record (merge),
/// then each field the series use goes to its channel or total. "Not available" is tested on
/// the wire integer (`WireType.notAvailable`), and a value is converted with the divisor of
/// the field list exactly as the value types' properties do (`Double(raw) / divisor`). The
/// decoder calls `flags` only once the record's length is known to be right, so a record that
/// does not decode changes nothing.
struct DataRecordSink<Layout: FTMSDataLayout>: FieldSink {
    let accumulator: UnsafeMutablePointer<SessionAccumulator>
    let t: UInt32
    let gap: Int
    /// The record's time after merging, and its second.
    var te: UInt32 = 0
    var s = 0
    /// Treadmill: the pace is taken from the speed when the record has one.
    var hasSpeed = false

    @inline(__always)
    init(_ accumulator: UnsafeMutablePointer<SessionAccumulator>, _ t: UInt32) {
        self.accumulator = accumulator
        self.t = t
        gap = accumulator.pointee.configuration.maxGapSeconds
    }

    /// Treadmill and cross trainer: a pace per km is derived from the speed.
    static var pacesFromSpeed: Bool { Layout.uuid == TreadmillLayout.uuid || Layout.uuid == CrossTrainerLayout.uuid }

    @inline(__always)
    mutating func flags(_ raw: UInt32) {
        let a = accumulator
        te = a.pointee.merges[Int(Layout.uuid &- 0x2ACD)].join(
            t, flags: raw, defined: Layout.fieldBits, a.pointee.configuration)
        s = a.pointee.dataSecond(te)
    }

    @inline(__always)
    mutating func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double) {
        let a = accumulator
        let missing = raw == type.notAvailable
        // Converted at once: `divisor` is the field list's constant here, so /1 and /2 cost no division.
        let reading = missing ? Double.nan : Double(raw) / divisor
        switch field {
        case .speedKmh:
            a.pointee.speed.add(second: s, reading, maxGap: gap)
            if Self.pacesFromSpeed {
                // kmh = Double(raw) / divisor <= 0 exactly when raw <= 0.
                a.pointee.paceKm.add(
                    second: s, (missing || raw <= 0) ? .nan : 3600 / (Double(raw) / divisor), maxGap: gap)
            }
            hasSpeed = true
        case .paceKmPerMin where !hasSpeed:
            a.pointee.paceKm.add(
                second: s, (missing || raw == 0) ? .nan : 60 / (Double(raw) / divisor), maxGap: gap)
        case .cadenceRpm: a.pointee.machineCadence.add(second: s, reading, maxGap: gap)
        case .strokeRateSpm: a.pointee.strokeRate.add(second: s, reading, maxGap: gap)
        case .stepsPerMin: a.pointee.stepRate.add(second: s, reading, maxGap: gap)
        case .inclinationPct: a.pointee.inclination.add(second: s, reading, maxGap: gap)
        case .resistanceLevel: a.pointee.resistance.add(second: s, reading, maxGap: gap)
        case .powerW, .powerOutputW: a.pointee.machinePower.add(second: s, reading, maxGap: gap)
        case .paceSPer500m: a.pointee.pace500.add(second: s, raw == 0 ? .nan : reading, maxGap: gap)
        case .heartRateBpm: a.pointee.machineHeartRate.add(second: s, raw == 0 ? .nan : reading, maxGap: gap)
        case .totalDistanceM where !missing:
            a.pointee.distance.add(raw: UInt64(raw), timeMillis: te, second: s, maxGap: gap)
            a.pointee.totals.totalDistanceM = raw
        case .totalEnergyKcal where !missing:
            a.pointee.energy.add(raw: UInt64(raw), timeMillis: te, second: s, maxGap: gap)
            a.pointee.totals.totalEnergyKcal = raw
        case .strokeCount:
            a.pointee.strokes.add(raw: UInt64(raw), timeMillis: te, second: s, maxGap: gap)
            a.pointee.totals.strokeCount = raw
        case .averageSpeedKmh where !missing: a.pointee.totals.averageSpeedKmh = Double(raw) / divisor
        case .averageCadenceRpm where !missing: a.pointee.totals.averageCadenceRpm = Double(raw) / divisor
        case .averageStrokeRateSpm where !missing: a.pointee.totals.averageStrokeRateSpm = Double(raw) / divisor
        case .averagePowerW where !missing: a.pointee.totals.averagePowerW = raw
        case .averagePaceSPer500m where !missing && raw != 0: a.pointee.totals.averagePaceSPer500m = raw
        case .elapsedTimeS where !missing: a.pointee.totals.elapsedS = raw
        case .floors where !missing: a.pointee.totals.floors = raw
        case .stepCount where !missing: a.pointee.totals.stepCount = raw
        default: break
        }
    }
}

/// The fields of a Cycling Power or CSC Measurement the series use, as the streaming decoder
/// reads them (wire integers: the power in W, the counters, the crank event time in 1/1024 s).
struct RevolutionSink: FieldSink {
    var power = 0
    var wheelRevolutions: Int?
    var crankRevolutions: Int?
    var crankTicks: Int?

    @inline(__always) mutating func flags(_ raw: UInt32) {}

    @inline(__always)
    mutating func field(slot: Int, _ field: DataField, _ type: WireType, raw: Int, divisor: Double) {
        switch field {
        case .powerW: power = raw
        case .cumulativeWheelRevolutions: wheelRevolutions = raw
        case .cumulativeCrankRevolutions: crankRevolutions = raw
        case .lastCrankEventTimeS: crankTicks = raw
        default: break
        }
    }
}

/// The token whose uniqueness says whether an accumulator shares its columns with a copy (`SessionAccumulator.add`).
final class Owner: Sendable {}
