import PlanEngine

// PlanEngine shares type names with WorkoutMetrics (`LocalDate`) and Store (`Weekday`, `PlanState`), and its
// main enum is named like the module, so its types cannot be qualified. This file imports only PlanEngine.
public typealias PlanDate = LocalDate
typealias PlanWeekday = Weekday
typealias PlanScreenState = PlanState
