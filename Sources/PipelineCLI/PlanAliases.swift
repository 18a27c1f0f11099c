import PlanEngine

/// PlanEngine's calendar date (WorkoutMetrics has one of the same name).
typealias PlanDate = LocalDate

enum PlanWeekdays {
    /// 0 for Monday … 6 for Sunday.
    static func index(_ date: LocalDate) -> Int { Weekday.allCases.firstIndex(of: date.weekday)! }
}
