import WorkoutMetrics

/// WorkoutMetrics' calendar date (PlanEngine has one of the same name).
typealias MetricsDate = LocalDate
