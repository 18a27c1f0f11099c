/// WorkoutMetrics: the numbers users see, defined once (`docs/metrics.md`).
///
/// - Per session: `SessionMetricsCalculator.compute(sport:athlete:stream:)` → `SessionMetrics`
///   (JSON keys as in the spec); `StreamDocument.parse` reads the `--stream` document;
///   `MetricDescriptor.all` describes every key (unit, aggregation, sports, source).
/// - Across days: `TrainingLoad` (CTL/ATL/TSB, ramp, ACWR; resumable), `WeeklySummary`.
/// - Running fitness: `RunningFitness` (VDOT, predictions, Riegel, Daniels paces).
/// - Fits and batches: `CriticalPower`, `HeartRatePowerRegression`, `BatchStatistics`,
///   `LeastSquares` (OpenBLAS; call `BLASConfiguration.singleThreaded()` at start).
/// - Dates: `LocalDate` and `Weekday`, from `CivilDate` (re-exported).
public enum WorkoutMetricsModule {}
