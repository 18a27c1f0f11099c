import Foundation

/// A base-building plan (docs/plan-engine.md, "Base plans"): what the engine offers with a refusal, so that a runner
/// the marathon is not yet safe for still has a plan to follow. It has the `plan` object's fields and
/// rules (weeks, days, workouts, paces, warnings) without a race: `race_date` is absent, and it says
/// what it builds toward and from which race date the marathon becomes feasible (docs/plan-format.md,
/// "`base_plan`").
public struct BasePlan: Codable, Sendable, Equatable {
    /// Always `base`: tells a reader that holds only this object that there is no race in it.
    public var kind: String
    public var timezone: String
    public var weekStart: Weekday
    public var startDate: LocalDate?
    public var trainingVdot: Double?
    public var vdotSource: String?
    public var paces: Paces
    /// The first one is `BASE_PLAN`, naming the refusal; then the usual codes (e.g. `FITNESS_UNKNOWN`).
    public var warnings: [Notice]
    public var weeks: [Week]
    /// The refusal this plan stands in for (the document's `error` holds it in full).
    public var refusal: Notice
    /// The weekly volume and long run the plan builds toward: the base a marathon plan then grows from.
    public var target: Target
    /// The earliest race date for which a marathon plan starting the day after this plan ends is accepted;
    /// absent when the plan's last weeks do not yet carry one (generate again at its end).
    public var marathonFeasibleFrom: LocalDate?
    /// The length of that marathon plan, in weeks.
    public var marathonPlanWeeks: Int?
    public var engine: EngineInfo?

    public struct Target: Codable, Sendable, Equatable {
        public var weeklyDistanceM: Double
        public var longRunM: Double
        enum CodingKeys: String, CodingKey { case weeklyDistanceM = "weekly_distance_m", longRunM = "long_run_m" }
        public init(weeklyDistanceM: Double, longRunM: Double) {
            self.weeklyDistanceM = weeklyDistanceM; self.longRunM = longRunM
        }
    }

    public static let kindName = "base"
    /// The refusals that come with a base plan: the runner can train, the marathon is only not safe yet.
    public static let offeredFor: Set<PlanError.Code> = [.insufficientBase, .raceTooSoon, .raceInPast]

    enum CodingKeys: String, CodingKey {
        case kind, timezone, weekStart = "week_start", startDate = "start_date", trainingVdot = "training_vdot"
        case vdotSource = "vdot_source", paces, warnings, weeks, refusal, target
        case marathonFeasibleFrom = "marathon_feasible_from", marathonPlanWeeks = "marathon_plan_weeks", engine
    }
}
