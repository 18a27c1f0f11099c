import Foundation

/// What the engine was asked: docs/plan-format.md's `request`, field for field (snake_case on the wire).
public struct PlanRequest: Codable, Sendable, Equatable {
    public var generatedAt: LocalDate?
    /// IANA zone name, e.g. `Asia/Tokyo`.
    public var timezone: String
    /// Earliest day the plan may schedule anything.
    public var startDate: LocalDate
    public var race: Race
    public var runner: Runner
    public var units: Units?
    public var mode: Mode?

    enum CodingKeys: String, CodingKey {
        case generatedAt = "generated_at", timezone, startDate = "start_date", race, runner, units, mode
    }

    public init(
        generatedAt: LocalDate? = nil, timezone: String, startDate: LocalDate, race: Race, runner: Runner,
        units: Units? = nil, mode: Mode? = nil
    ) {
        self.generatedAt = generatedAt; self.timezone = timezone; self.startDate = startDate
        self.race = race; self.runner = runner; self.units = units; self.mode = mode
    }

    public var effectiveMode: Mode { mode ?? .new }

    public enum Units: String, Codable, Sendable { case km, mi }
    public enum Mode: String, Codable, Sendable { case new, adapt }
    public enum Experience: String, Codable, Sendable, CaseIterable { case novice, intermediate, experienced }

    public struct Race: Codable, Sendable, Equatable {
        public var date: LocalDate
        /// Defaults to a marathon (42 195 m).
        public var distanceM: Double?
        public var goalTimeS: Double?
        public var name: String?

        enum CodingKeys: String, CodingKey { case date, distanceM = "distance_m", goalTimeS = "goal_time_s", name }

        public init(date: LocalDate, distanceM: Double? = nil, goalTimeS: Double? = nil, name: String? = nil) {
            self.date = date; self.distanceM = distanceM; self.goalTimeS = goalTimeS; self.name = name
        }
    }

    public struct Runner: Codable, Sendable, Equatable {
        public var availableDays: [Weekday]
        public var maxRunDays: Int?
        public var longRunDay: Weekday?
        public var experience: Experience?
        public var baseline: Baseline
        public var fitness: Fitness?
        /// The weekday the runner's weeks start on (extension; Monday when absent, as the apps show weeks).
        public var weekStart: Weekday?

        enum CodingKeys: String, CodingKey {
            case availableDays = "available_days", maxRunDays = "max_run_days", longRunDay = "long_run_day"
            case experience, baseline, fitness, weekStart = "week_start"
        }

        public init(
            availableDays: [Weekday], maxRunDays: Int? = nil, longRunDay: Weekday? = nil,
            experience: Experience? = nil, baseline: Baseline, fitness: Fitness? = nil, weekStart: Weekday? = nil
        ) {
            self.availableDays = availableDays; self.maxRunDays = maxRunDays; self.longRunDay = longRunDay
            self.experience = experience; self.baseline = baseline; self.fitness = fitness; self.weekStart = weekStart
        }
    }

    /// The runner's recent training. The `adapt`-mode fields are written by `PlanAdapter`.
    public struct Baseline: Codable, Sendable, Equatable {
        /// Mean weekly running distance of the last 4 weeks (treadmill included, cross-training not).
        public var weeklyDistanceM: Double
        /// Longest single run of the last 4–6 weeks; defaults to 30% of `weeklyDistanceM`.
        public var longestRunM: Double?
        public var runsPerWeek: Double?
        public var weeksAveraged: Int?
        public var source: String?
        /// adapt: completed running of the last four 7-day windows before week 1, oldest first.
        public var recentWeeksM: [Double]?
        /// adapt: longest completed run in each of those windows.
        public var recentLongestM: [Double]?
        /// adapt: longest run completed so far in this build.
        public var cycleLongestRunM: Double?
        /// adapt: largest completed week so far in this build.
        public var cyclePeakWeeklyM: Double?
        /// adapt, and new after a break (extension): whole days without any running before `start_date` (0 = ran
        /// yesterday).
        public var daysSinceLastRun: Int?
        /// adapt, and new after a break (extension): running in the 7 days before the break began.
        public var preBreakWeekM: Double?
        /// adapt, and new after a break (extension): longest run in the 14 days before the break began (caps the long
        /// run on return).
        public var preBreakLongestM: Double?
        /// adapt (extension): the previous version's planned volume for each regenerated week (caps: nothing is added
        /// back).
        public var plannedWeeksM: [Double]?
        /// adapt (extension): the previous version's planned long run for each regenerated week.
        public var plannedLongM: [Double]?

        enum CodingKeys: String, CodingKey {
            case weeklyDistanceM = "weekly_distance_m", longestRunM = "longest_run_m", runsPerWeek = "runs_per_week"
            case weeksAveraged = "weeks_averaged", source
            case recentWeeksM = "recent_weeks_m", recentLongestM = "recent_longest_m"
            case cycleLongestRunM = "cycle_longest_run_m", cyclePeakWeeklyM = "cycle_peak_weekly_m"
            case daysSinceLastRun = "days_since_last_run", preBreakWeekM = "pre_break_week_m", preBreakLongestM =
                "pre_break_longest_m"
            case plannedWeeksM = "planned_weeks_m", plannedLongM = "planned_long_m"
        }

        public init(
            weeklyDistanceM: Double, longestRunM: Double? = nil, runsPerWeek: Double? = nil,
            weeksAveraged: Int? = nil, source: String? = nil, recentWeeksM: [Double]? = nil,
            recentLongestM: [Double]? = nil, cycleLongestRunM: Double? = nil, cyclePeakWeeklyM: Double? = nil,
            daysSinceLastRun: Int? = nil, preBreakWeekM: Double? = nil,
            plannedWeeksM: [Double]? = nil, plannedLongM: [Double]? = nil
        ) {
            self.weeklyDistanceM = weeklyDistanceM; self.longestRunM = longestRunM; self.runsPerWeek = runsPerWeek
            self.weeksAveraged = weeksAveraged; self.source = source; self.recentWeeksM = recentWeeksM
            self.recentLongestM = recentLongestM; self.cycleLongestRunM = cycleLongestRunM
            self.cyclePeakWeeklyM = cyclePeakWeeklyM; self.daysSinceLastRun = daysSinceLastRun
            self.preBreakWeekM = preBreakWeekM; self.plannedWeeksM = plannedWeeksM; self.plannedLongM = plannedLongM
        }

        public var effectiveLongestRunM: Double { longestRunM ?? 0.3 * weeklyDistanceM }
    }

    public struct Fitness: Codable, Sendable, Equatable {
        public var vdot: Double?
        public var race: RaceResult?

        public init(vdot: Double? = nil, race: RaceResult? = nil) { self.vdot = vdot; self.race = race }
    }

    /// A recent race or time trial.
    public struct RaceResult: Codable, Sendable, Equatable {
        public var distanceM: Double
        public var timeS: Double
        public var date: LocalDate?

        enum CodingKeys: String, CodingKey { case distanceM = "distance_m", timeS = "time_s", date }

        public init(distanceM: Double, timeS: Double, date: LocalDate? = nil) {
            self.distanceM = distanceM; self.timeS = timeS; self.date = date
        }
    }
}
