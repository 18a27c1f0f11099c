import FTMSDecode

/// The metrics module's input: one session's values on a 1 Hz grid
/// (docs/metrics.md, "Resampling", for the grid). Second `i` covers `[i, i+1)` seconds after the blob's
/// start; `seconds` = the second of the last record + 1 (0 for a blob without records;
/// at most `SessionAssembler.Configuration.maxSeconds`).
///
/// Channel conventions:
/// - every channel is a contiguous `[Double]` of length `seconds`, or **empty** when the
///   blob never carried that value;
/// - `Double.nan` means "no value that second": a gap longer than
///   `SessionAssembler.Configuration.maxGapSeconds`, a time before the first sample, or a
///   sample the device marked "data not available" (all-ones value);
/// - instantaneous channels hold the last sample received within a second; short gaps
///   (≤ `maxGapSeconds` seconds without a sample) hold the previous sample, longer ones stay
///   NaN — nothing is interpolated;
/// - `distanceM`, `energyKcal`, `strokes`, `wheelRevolutions`, `crankRevolutions` are
///   per-second **increments** of the machine's cumulative counters (rollover and resets
///   handled), 0 in held seconds, NaN across long gaps; their sums are `derivedTotals`.
public struct SessionSeries: Sendable, Equatable {
    public var machine: MachineType
    public var startMillis: Int64
    /// Grid length (1 Hz).
    public var seconds: Int

    /// W: Cycling Power Measurement (0x2A63) in the seconds where the power meter has a
    /// value, else the machine's Instantaneous Power (bike, rower, cross trainer) or Power
    /// Output (treadmill).
    public var powerW: [Double]
    /// km/h: Instantaneous Speed of the bike, treadmill or cross trainer.
    public var speedKmh: [Double]
    /// rpm: from crank revolutions of a power meter or CSC sensor in the seconds where they
    /// give one, else the bike's Instantaneous Cadence.
    public var cadenceRpm: [Double]
    /// bpm: the strap (0x2A37) in the seconds where it has a value, else the machine's Heart
    /// Rate field. 0 bpm and "contact not detected" are missing values.
    public var heartRateBpm: [Double]
    /// strokes/min: rower Stroke Rate.
    public var strokeRateSpm: [Double]
    /// steps/min: cross trainer, step climber and stair climber Step Per Minute.
    public var stepRateSpm: [Double]
    /// s per 500 m: rower Instantaneous Pace (0 counts as missing).
    public var paceSPer500m: [Double]
    /// s per km: treadmill and cross trainer, 3600 / speed (NaN at standstill); from the
    /// treadmill's pace field (60 / km per min) when a record has pace but no speed.
    public var paceSPerKm: [Double]
    /// %: treadmill and cross trainer Inclination.
    public var inclinationPct: [Double]
    /// Resistance Level as the machine reports it (bike, rower: level; cross trainer: ×0.1).
    public var resistanceLevel: [Double]

    /// m per second, from Total Distance (uint24).
    public var distanceM: [Double]
    /// kcal per second, from Total Energy (uint16).
    public var energyKcal: [Double]
    /// Strokes per second, from the rower's Stroke Count (uint16).
    public var strokes: [Double]
    /// Wheel revolutions per second (CSC / Cycling Power, uint32).
    public var wheelRevolutions: [Double]
    /// Crank revolutions per second (CSC / Cycling Power, uint16).
    public var crankRevolutions: [Double]

    /// Length `seconds`: true while the machine said it was stopped or paused (Fitness
    /// Machine Status 0x02 / 0x03 until 0x04) or its Training Status was idle, pre-workout
    /// or post-workout. The state at the end of each second.
    public var paused: [Bool]

    public var machineTotals: MachineTotals
    public var derivedTotals: DerivedTotals

    /// Records of known characteristics whose payload could not be decoded (skipped).
    public var decodeErrors: Int
    /// Records of UUIDs this module does not decode (skipped, not rejected).
    public var unknownRecords: Int
    /// Records at or after `SessionAssembler.Configuration.maxSeconds` (not used).
    public var recordsPastLimit: Int
    /// How reading the blob ended.
    public var end: BlobEnd
    /// Records read.
    public var recordCount: Int

    public init(
        machine: MachineType, startMillis: Int64, seconds: Int,
        powerW: [Double] = [], speedKmh: [Double] = [], cadenceRpm: [Double] = [], heartRateBpm: [Double] = [],
        strokeRateSpm: [Double] = [], stepRateSpm: [Double] = [], paceSPer500m: [Double] = [],
        paceSPerKm: [Double] = [], inclinationPct: [Double] = [], resistanceLevel: [Double] = [],
        distanceM: [Double] = [], energyKcal: [Double] = [], strokes: [Double] = [],
        wheelRevolutions: [Double] = [], crankRevolutions: [Double] = [], paused: [Bool] = [],
        machineTotals: MachineTotals = MachineTotals(), derivedTotals: DerivedTotals = DerivedTotals(),
        decodeErrors: Int = 0, unknownRecords: Int = 0, recordsPastLimit: Int = 0, end: BlobEnd = .complete,
        recordCount: Int = 0
    ) {
        self.machine = machine
        self.startMillis = startMillis
        self.seconds = seconds
        self.powerW = powerW
        self.speedKmh = speedKmh
        self.cadenceRpm = cadenceRpm
        self.heartRateBpm = heartRateBpm
        self.strokeRateSpm = strokeRateSpm
        self.stepRateSpm = stepRateSpm
        self.paceSPer500m = paceSPer500m
        self.paceSPerKm = paceSPerKm
        self.inclinationPct = inclinationPct
        self.resistanceLevel = resistanceLevel
        self.distanceM = distanceM
        self.energyKcal = energyKcal
        self.strokes = strokes
        self.wheelRevolutions = wheelRevolutions
        self.crankRevolutions = crankRevolutions
        self.paused = paused.isEmpty ? Array(repeating: false, count: seconds) : paused
        self.machineTotals = machineTotals
        self.derivedTotals = derivedTotals
        self.decodeErrors = decodeErrors
        self.unknownRecords = unknownRecords
        self.recordsPastLimit = recordsPastLimit
        self.end = end
        self.recordCount = recordCount
    }

    // NaN-aware equality: two series are equal when every channel holds the same values
    // with NaN matching NaN (the synthesised == would say NaN != NaN).
    public static func == (a: SessionSeries, b: SessionSeries) -> Bool {
        func same(_ x: [Double], _ y: [Double]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        }
        return a.machine == b.machine && a.startMillis == b.startMillis && a.seconds == b.seconds
            && same(a.powerW, b.powerW) && same(a.speedKmh, b.speedKmh) && same(a.cadenceRpm, b.cadenceRpm)
            && same(a.heartRateBpm, b.heartRateBpm) && same(a.strokeRateSpm, b.strokeRateSpm)
            && same(a.stepRateSpm, b.stepRateSpm) && same(a.paceSPer500m, b.paceSPer500m)
            && same(a.paceSPerKm, b.paceSPerKm) && same(a.inclinationPct, b.inclinationPct)
            && same(a.resistanceLevel, b.resistanceLevel) && same(a.distanceM, b.distanceM)
            && same(a.energyKcal, b.energyKcal) && same(a.strokes, b.strokes)
            && same(a.wheelRevolutions, b.wheelRevolutions) && same(a.crankRevolutions, b.crankRevolutions)
            && a.paused == b.paused && a.machineTotals == b.machineTotals && a.derivedTotals == b.derivedTotals
            && a.decodeErrors == b.decodeErrors && a.unknownRecords == b.unknownRecords
            && a.recordsPastLimit == b.recordsPastLimit
            && a.end == b.end && a.recordCount == b.recordCount
    }
}

/// The last values the machine itself reported (not "data not available" values), kept
/// beside what the pipeline derives so the two can be compared.
public struct MachineTotals: Sendable, Equatable {
    /// Total Distance, m.
    public var totalDistanceM: Int?
    /// Total Energy, kcal.
    public var totalEnergyKcal: Int?
    /// Elapsed Time, s.
    public var elapsedS: Int?
    /// Rower Stroke Count.
    public var strokeCount: Int?
    /// Step climber Step Count.
    public var stepCount: Int?
    /// Step / stair climber Floors.
    public var floors: Int?
    public var averageSpeedKmh: Double?
    public var averagePowerW: Int?
    public var averageCadenceRpm: Double?
    public var averageStrokeRateSpm: Double?
    public var averagePaceSPer500m: Int?

    public init(
        totalDistanceM: Int? = nil, totalEnergyKcal: Int? = nil, elapsedS: Int? = nil, strokeCount: Int? = nil,
        stepCount: Int? = nil, floors: Int? = nil, averageSpeedKmh: Double? = nil, averagePowerW: Int? = nil,
        averageCadenceRpm: Double? = nil, averageStrokeRateSpm: Double? = nil, averagePaceSPer500m: Int? = nil
    ) {
        self.totalDistanceM = totalDistanceM
        self.totalEnergyKcal = totalEnergyKcal
        self.elapsedS = elapsedS
        self.strokeCount = strokeCount
        self.stepCount = stepCount
        self.floors = floors
        self.averageSpeedKmh = averageSpeedKmh
        self.averagePowerW = averagePowerW
        self.averageCadenceRpm = averageCadenceRpm
        self.averageStrokeRateSpm = averageStrokeRateSpm
        self.averagePaceSPer500m = averagePaceSPer500m
    }
}

/// The pipeline's own totals, from the per-second increments.
public struct DerivedTotals: Sendable, Equatable {
    /// Sum of `distanceM` increments (m).
    public var distanceM: Double
    /// Sum of `energyKcal` increments (kcal).
    public var energyKcal: Double
    /// Sum of `strokes` increments.
    public var strokes: Double
    public var wheelRevolutions: Double
    public var crankRevolutions: Double
    /// Seconds marked `paused`.
    public var pausedSeconds: Int
    /// Seconds with at least one machine or sensor data sample.
    public var secondsWithData: Int
    /// Cumulative counters that went backwards and were treated as a reset (counting
    /// restarts from the new value).
    public var counterResets: Int
    /// Cumulative counters that wrapped past their maximum (24-bit distance, 16-bit
    /// energy / strokes / crank revolutions, 32-bit wheel revolutions).
    public var counterRollovers: Int

    public init(
        distanceM: Double = 0, energyKcal: Double = 0, strokes: Double = 0, wheelRevolutions: Double = 0,
        crankRevolutions: Double = 0, pausedSeconds: Int = 0, secondsWithData: Int = 0,
        counterResets: Int = 0, counterRollovers: Int = 0
    ) {
        self.distanceM = distanceM
        self.energyKcal = energyKcal
        self.strokes = strokes
        self.wheelRevolutions = wheelRevolutions
        self.crankRevolutions = crankRevolutions
        self.pausedSeconds = pausedSeconds
        self.secondsWithData = secondsWithData
        self.counterResets = counterResets
        self.counterRollovers = counterRollovers
    }
}
