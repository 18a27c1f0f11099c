// WorkoutMetrics speaks of days in the one calendar (`CivilDate`): its users get `LocalDate` and `Weekday` with it.
@_exported import CivilDate
