import Foundation

/// How a workout record was measured.
public enum WorkoutMetricsBasis: String, Sendable, Codable, CaseIterable {
    /// From its samples, resampled to 1 Hz and measured like a session.
    case samples
    /// From its summary only (duration, distance, energy, average HR).
    case summary
}

/// The pipeline's own figures for one workout record (HealthKit, Garmin; `workout_metrics`, migration 0004),
/// measured at one version of the record (`workoutUpdatedAt`): a newer version is measured again, a deleted one
/// (tombstone) has none.
public struct WorkoutMetricsRecord: Sendable, Equatable {
    public var userID: UserID
    public var workoutID: WorkoutID
    /// The record's `updated_at` these figures were measured from.
    public var workoutUpdatedAt: EpochMillis
    /// Local date of the start, in the workout's own zone, else the user's (the streak rule of `docs/metrics.md`).
    public var localDate: LocalDate
    public var activityType: String
    public var basis: WorkoutMetricsBasis
    public var durationS: Double
    public var distanceM: Double?
    public var energyKcal: Double?
    public var avgHRBpm: Double?
    /// The workout's training load: TSS where power and FTP give one, otherwise HRSS (`docs/metrics.md`).
    public var tss: Double?
    /// The metric set (JSON object, keys as in `docs/metrics.md`).
    public var metricsJSON: String
    public var computedAt: EpochMillis
    public init(
        userID: UserID, workoutID: WorkoutID, workoutUpdatedAt: EpochMillis, localDate: LocalDate,
        activityType: String, basis: WorkoutMetricsBasis, durationS: Double, distanceM: Double?, energyKcal: Double?,
        avgHRBpm: Double?, tss: Double?, metricsJSON: String, computedAt: EpochMillis
    ) {
        self.userID = userID; self.workoutID = workoutID; self.workoutUpdatedAt = workoutUpdatedAt;
        self.localDate = localDate
        self.activityType = activityType; self.basis = basis; self.durationS = durationS; self.distanceM = distanceM
        self.energyKcal = energyKcal; self.avgHRBpm = avgHRBpm; self.tss = tss; self.metricsJSON = metricsJSON
        self.computedAt = computedAt
    }
}

/// One calendar day of a user's stored training-load series (`training_load`, migration 0004): the day's load and
/// CTL / ATL / TSB, ramp and ACWR after it, named as in `docs/metrics.md` ("Training load"), and the
/// recursion's state after the day, so that a later update resumes from the day before its first change.
public struct TrainingLoadRecord: Sendable, Equatable {
    public var userID: UserID
    public var date: LocalDate
    /// `daily_load`: the day's session and workout loads (TSS, else HRSS); 0 on a rest day.
    public var dailyLoad: Double
    public var ctl: Double
    public var atl: Double
    public var tsb: Double
    public var ramp7d: Double?
    public var acwrRolling: Double?
    public var acwrUncoupled: Double?
    public var acwrEwma: Double?
    /// `exp` (GoldenCheetah, the pipeline's) or `inv_n`.
    public var convention: String
    /// The state after this day (`TrainingLoad.State` as JSON with sorted keys).
    public var stateJSON: String
    public var computedAt: EpochMillis
    public init(
        userID: UserID, date: LocalDate, dailyLoad: Double, ctl: Double, atl: Double, tsb: Double,
        ramp7d: Double?, acwrRolling: Double?, acwrUncoupled: Double?, acwrEwma: Double?, convention: String,
        stateJSON: String, computedAt: EpochMillis
    ) {
        self.userID = userID; self.date = date; self.dailyLoad = dailyLoad; self.ctl = ctl; self.atl = atl;
        self.tsb = tsb
        self.ramp7d = ramp7d; self.acwrRolling = acwrRolling; self.acwrUncoupled = acwrUncoupled;
        self.acwrEwma = acwrEwma
        self.convention = convention; self.stateJSON = stateJSON; self.computedAt = computedAt
    }
}
