/// A session's channels on the 1 Hz grid: index `i` is second `i` of the session.
///
/// `Double.nan` marks a second with no value (a gap, `null` in JSON), which is not a zero;
/// an empty array means the channel is absent. Present channels have equal lengths
/// (`StreamDocument.parse` enforces it; `SessionMetricsCalculator` uses the longest
/// channel as the grid and treats seconds past a shorter channel's end as gaps).
public struct Stream1Hz: Sendable, Equatable {
    /// Power, W.
    public var powerW: [Double]
    /// Heart rate, bpm.
    public var hrBpm: [Double]
    /// Cadence, rpm (bike) or strides/min.
    public var cadenceRpm: [Double]
    /// Speed, m/s.
    public var speedMps: [Double]
    /// Grade as a fraction (0.05 = 5 %).
    public var grade: [Double]
    /// Rowing pace, s per 500 m.
    public var paceSPer500m: [Double]
    /// Rowing total distance so far, m.
    public var totalDistanceM: [Double]
    /// Stroke rate, strokes/min.
    public var strokeRateSpm: [Double]

    public init(
        powerW: [Double] = [], hrBpm: [Double] = [], cadenceRpm: [Double] = [],
        speedMps: [Double] = [], grade: [Double] = [], paceSPer500m: [Double] = [],
        totalDistanceM: [Double] = [], strokeRateSpm: [Double] = []
    ) {
        self.powerW = powerW
        self.hrBpm = hrBpm
        self.cadenceRpm = cadenceRpm
        self.speedMps = speedMps
        self.grade = grade
        self.paceSPer500m = paceSPer500m
        self.totalDistanceM = totalDistanceM
        self.strokeRateSpm = strokeRateSpm
    }

    /// Length of the 1 Hz grid: the longest channel.
    public var count: Int {
        Swift.max(
            powerW.count, hrBpm.count, cadenceRpm.count, speedMps.count, grade.count,
            paceSPer500m.count, totalDistanceM.count, strokeRateSpm.count)
    }

    static let channelNames = [
        "power_w", "hr_bpm", "cadence_rpm", "speed_mps", "grade",
        "pace_s_per_500m", "total_distance_m", "stroke_rate_spm",
    ]
}
