import Foundation
import PlanEngine

/// Issue 17's adaptation scenarios for any runner: the plan followed as written up to a week, then a
/// missed week, a 12-day illness, a 5-week break, two weeks over-achieved by 40 %, or a new race result.
struct AdaptScenario: Sendable, CustomStringConvertible {
    enum Kind: Int, CaseIterable, Sendable {
        case missedWeek, illness12Days, fiveWeekBreak, overAchieving, raceResult
        /// The plan followed, then `breakDays` (0–90) without running, adapted on the day the runner returns.
        case anyBreak
        /// Half the planned volume for three weeks.
        case underAchieving
    }
    var spec: RequestSpec
    var kind: Kind
    /// The week (1-based, at least 3) at whose start the plan is adapted (or the break begins).
    var week: Int
    /// Days without running for `anyBreak`.
    var breakDays = 0

    var description: String { "AdaptScenario(\(kind), week \(week), break \(breakDays) d, \(spec))" }

    /// The runs of `doc`'s plan on the days in `from..<to`, done at the middle of the easy range, scaled.
    static func done(_ doc: PlanDocument, from: LocalDate, to: LocalDate, scale: Double = 1) -> [CompletedRun] {
        guard let plan = doc.plan else { return [] }
        let easy = (plan.paces.easy.minSPerKm + plan.paces.easy.maxSPerKm) / 2
        return plan.weeks.flatMap(\.days).filter { $0.date >= from && $0.date < to }.flatMap { day in
            day.workouts.filter { $0.type != .race && $0.type != .crossTraining && $0.type != .strength }.compactMap {
                w in
                w.distanceM.map {
                    CompletedRun(date: day.date, distanceM: $0 * scale, durationS: $0 * scale / 1000 * easy)
                }
            }
        }
    }

    /// The previous plan and the adapted one, or nil when the runner gets no plan or the plan is too short.
    func run() -> (previous: PlanDocument, adapted: PlanDocument, asOf: LocalDate, lastRun: LocalDate?)? {
        let doc = PlanEngine.generate(spec.request)
        guard let plan = doc.plan, plan.weeks.count >= 6 else { return nil }
        let k = min(max(3, week), plan.weeks.count - 1)
        let start = plan.weeks[0].startDate
        func weekStart(_ i: Int) -> LocalDate { plan.weeks[i - 1].startDate }
        switch kind {
        case .missedWeek:
            let asOf = weekStart(k)
            let done = Self.done(doc, from: start, to: weekStart(k - 1))
            return (doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf), asOf, done.map(\.date).max())
        case .illness12Days:
            // Two weeks of the plan, then no run for 14 days up to the next week start.
            let done = Self.done(doc, from: start, to: weekStart(k - 2))
            let asOf = weekStart(k)
            return (doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf), asOf, done.map(\.date).max())
        case .fiveWeekBreak:
            guard k + 5 <= plan.weeks.count - 1 else { return nil }
            let done = Self.done(doc, from: start, to: weekStart(k))
            let asOf = weekStart(k + 5)
            return (doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf), asOf, done.map(\.date).max())
        case .overAchieving:
            let asOf = weekStart(k)
            let done =
                Self.done(doc, from: start, to: weekStart(k - 2))
                + Self.done(doc, from: weekStart(k - 2), to: asOf, scale: 1.4)
            return (doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf), asOf, done.map(\.date).max())
        case .anyBreak:
            let asOf = weekStart(k).adding(days: breakDays)
            guard asOf < plan.weeks[plan.weeks.count - 1].startDate else { return nil }
            let done = Self.done(doc, from: start, to: weekStart(k))
            return (doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf), asOf, done.map(\.date).max())
        case .underAchieving:
            let asOf = weekStart(k)
            let done =
                Self.done(doc, from: start, to: weekStart(max(1, k - 3)))
                + Self.done(doc, from: weekStart(max(1, k - 3)), to: asOf, scale: 0.5)
            return (doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf), asOf, done.map(\.date).max())
        case .raceResult:
            let asOf = weekStart(k)
            let vdot = plan.trainingVdot ?? 40
            let race = PlanRequest.RaceResult(
                distanceM: 10_000, timeS: Daniels.predictedTime(distanceM: 10_000, vdot: vdot + 4).rounded(),
                date: asOf.adding(days: -2))
            let done = Self.done(doc, from: start, to: asOf)
            return (
                doc, PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf, newRace: race), asOf,
                done.map(\.date).max()
            )
        }
    }

    /// What fitness must do in each scenario, computed from Daniels' time-off table and the issue's "at most about
    /// one point" for evidence of better fitness.
    func fitnessViolations(previous: PlanDocument, adapted: PlanDocument, asOf: LocalDate, lastRun: LocalDate?)
        -> [String]
    {
        guard let old = previous.plan?.trainingVdot, let new = adapted.plan?.trainingVdot else { return [] }
        // No run at all counts from the day before the plan's first week (as the adapter does).
        let last = lastRun ?? previous.plan!.weeks[0].startDate.adding(days: -1)
        let gap = last.days(to: asOf) - 1
        switch kind {
        case .illness12Days, .fiveWeekBreak, .anyBreak:
            let factor = gap <= 5 ? 1 : max(0.80, 1 - 0.003 * Double(gap - 5))
            let want = (old * factor * 10).rounded() / 10
            return abs(new - want) <= 0.051
                ? [] : ["FITNESS: \(gap) days off: VDOT \(old) → \(new), Daniels says \(want)"]
        case .raceResult:
            return new > old && new <= old + 1.05
                ? [] : ["FITNESS: a better race moves VDOT \(old) → \(new), expected up by at most 1"]
        case .missedWeek, .overAchieving, .underAchieving:
            return new <= old ? [] : ["FITNESS: VDOT rose (\(old) → \(new)) without evidence"]
        }
    }
}
