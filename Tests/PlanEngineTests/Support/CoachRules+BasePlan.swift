import Foundation
import PlanEngine

/// The coach's rules for the base plan that comes with a refusal (issue 17, item 5), written like
/// `CoachRules` from the issue and plan-format.md, with none of the engine's helpers: the same day-to-day,
/// recovery, ramp, cutback, long-run and peak rules as a marathon plan, no race and no taper; it never goes
/// beyond its own target; and the date from which it says the marathon is feasible really gets a plan.
extension CoachRules {
    /// Refusals that must come with a base plan when the runner has three running days and some running.
    static let baseRefusals: Set<String> = ["INSUFFICIENT_BASE", "RACE_TOO_SOON", "RACE_IN_PAST"]

    /// The return table of docs/plan-engine.md ("Returns after a break"): the first week back as a share of the
    /// week before the break, by days without running.
    static func returnShare(days: Int) -> Double {
        days <= 7 ? 0.90 : days <= 14 ? 0.75 : days <= 28 ? 0.60 : days <= 56 ? 0.40 : 0.30
    }

    /// The baseline a base plan is judged against: after a break of 8 days to 26 weeks, the return table's share of
    /// the week before the break (to the 100 m below) when that is at least 5 km and more than the four weeks' mean,
    /// with the same share of its longest run (at most 40 % of that week); otherwise the four weeks' mean, when it is
    /// at least 5 km. Nil: nothing to grow from.
    static func judgedBaseline(_ b: PlanRequest.Baseline) -> PlanRequest.Baseline? {
        if let gap = b.daysSinceLastRun, gap >= 8, gap <= 182, let pre = b.preBreakWeekM {
            let weekly = (returnShare(days: gap) * pre / 100).rounded(.down) * 100
            if weekly >= 5000, weekly > b.weeklyDistanceM {
                let long = (returnShare(days: gap) * (b.preBreakLongestM ?? 0.4 * pre) / 100).rounded(.down) * 100
                return .init(weeklyDistanceM: weekly, longestRunM: min(long, 0.4 * weekly))
            }
        }
        return b.weeklyDistanceM >= 5000 ? b : nil
    }

    static func baseViolations(of doc: PlanDocument) -> [String] {
        let r = doc.request
        guard let error = doc.error else {
            return doc.basePlan == nil ? [] : ["BASE: a base plan next to a marathon plan"]
        }
        let days = Set(r.runner.availableDays).count
        let judged = judgedBaseline(r.runner.baseline)
        let due =
            baseRefusals.contains(error.code.rawValue) && r.mode != .adapt && days >= 3
            && (r.runner.maxRunDays ?? days) >= 3
            && judged != nil
        let b = judged ?? r.runner.baseline
        guard let plan = doc.basePlan else { return due ? ["BASE: \(error.code.rawValue) without a base plan"] : [] }
        if !due { return ["BASE: a base plan with \(error.code.rawValue), which is not offered one"] }
        var v: [String] = []
        let p = plan.paces
        if plan.kind != "base" { v.append("BASE: kind is \(plan.kind)") }
        if plan.refusal.code != error.code.rawValue {
            v.append("BASE: refusal \(plan.refusal.code) ≠ error \(error.code.rawValue)")
        }
        if plan.warnings.first?.code != "BASE_PLAN"
            || !(plan.warnings.first?.message.contains(error.code.rawValue) ?? false)
        {
            v.append("BASE: the first warning must be BASE_PLAN naming \(error.code.rawValue)")
        }
        if plan.timezone != r.timezone { v.append("BASE: time zone \(plan.timezone) ≠ \(r.timezone)") }
        let wantStart = r.runner.weekStart ?? .mon
        if plan.weekStart != wantStart { v.append("DATES: weeks start on \(plan.weekStart), expected \(wantStart)") }
        guard let first = plan.weeks.first, let last = plan.weeks.last else { return v + ["BASE: no weeks"] }
        if !(first.startDate <= r.startDate && r.startDate <= first.startDate.adding(days: 6)) {
            v.append("DATES: week 1 (\(first.startDate)) does not hold start_date \(r.startDate)")
        }
        for (i, w) in plan.weeks.enumerated() {
            if w.startDate != first.startDate.adding(days: 7 * i) || w.startDate.weekday != plan.weekStart
                || w.days.count != 7
            {
                v.append(
                    "DATES: week \(i + 1) (\(w.startDate)) is not the \(plan.weekStart)-based week after the previous")
            }
            for (j, d) in w.days.enumerated() where d.date != w.startDate.adding(days: j) {
                v.append("DATES: week \(i + 1) day \(j + 1) is \(d.date)")
            }
        }
        let all = plan.weeks.flatMap(\.days)
        for d in all where !d.workouts.isEmpty && d.date < r.startDate {
            v.append("DATES: workout on \(d.date) before start_date")
        }
        for d in all where d.workouts.contains(where: { $0.type == .race || $0.type == .tuneUpRace }) {
            v.append("BASE: a race on \(d.date)")
        }

        // Days: available days only, at most max_run_days, one run a day, a day without running.
        let available = Set(r.runner.availableDays), maxRun = r.runner.maxRunDays ?? available.count
        for w in plan.weeks {
            let runDays = w.days.filter { $0.workouts.contains(where: isRun) }
            for d in runDays where !available.contains(d.date.weekday) {
                v.append("DAYS: a run on \(d.date) (\(d.date.weekday)), not an available day")
            }
            for d in runDays where d.workouts.filter(isRun).count > 1 { v.append("DAYS: two runs on \(d.date)") }
            if runDays.count > min(maxRun, 6) {
                v.append("DAYS: week \(w.startDate) has \(runDays.count) running days")
            }
        }

        // Day to day.
        let long = all.map { isLongDay($0, p) }, quality = all.map { isQualityDay($0, p) }
        for k in all.indices.dropLast() {
            if quality[k + 1] && long[k] {
                v.append("QUALITY_AFTER_LONG: quality on \(all[k + 1].date) after a long day")
            }
            if quality[k + 1] && quality[k] {
                v.append("QUALITY_AFTER_QUALITY: quality on \(all[k + 1].date) after a quality day")
            }
            if long[k] && long[k + 1] { v.append("TWO_LONG_DAYS: \(all[k].date) and \(all[k + 1].date)") }
        }
        for w in plan.weeks {
            let l = w.days.flatMap(\.workouts).filter { $0.type == .long }.map { distance($0, p) }.max()
            for d in w.days {
                for x in d.workouts where x.type == .recovery {
                    if seconds(x, p) > 50 * 60 + eps {
                        v.append("RECOVERY: \(d.date) recovery run not well under an hour")
                    }
                    if let l, distance(x, p) > 0.6 * l + eps {
                        v.append("RECOVERY: \(d.date) recovery run > 60 % of the long run")
                    }
                }
            }
        }

        // Volumes as placed: ramps, cutbacks, the peak, the target.
        let raw = plan.weeks.map { volume($0, p) }
        var vols = raw
        vols[0] += b.weeklyDistanceM * Double(max(0, min(7, first.startDate.days(to: r.startDate)))) / 7
        var seq = Array(repeating: b.weeklyDistanceM, count: 4)
        var withoutCutback = 0
        for (i, x) in vols.enumerated() {
            let max3 = seq.suffix(3).max() ?? 0, avg4 = seq.suffix(4).reduce(0, +) / 4
            if x > 1.10 * max3 + eps { v.append("RAMP: week \(i + 1) \(Int(x)) m > 110 % of \(Int(max3)) m") }
            if x > 1.30 * avg4 + eps {
                v.append("RAMP: week \(i + 1) \(Int(x)) m > 130 % of the four-week average \(Int(avg4)) m")
            }
            withoutCutback = x <= 0.90 * (seq.last ?? 0) ? 0 : withoutCutback + 1
            if withoutCutback > 4 { v.append("CUTBACK: week \(i + 1) is the 5th in a row without a cutback") }
            seq.append(x)
        }
        let bound = max(b.weeklyDistanceM * min(2.75, 1 + 0.085 * Double(plan.weeks.count)), 1.1 * b.weeklyDistanceM)
        if let peak = raw.max(), peak > bound + eps {
            v.append("PEAK: \(Int(peak)) m > \(Int(bound)) m over \(plan.weeks.count) weeks")
        }
        if let peak = raw.max(), peak > max(plan.target.weeklyDistanceM, b.weeklyDistanceM) + eps {
            v.append("BASE: week volume \(Int(peak)) m beyond the target \(Int(plan.target.weeklyDistanceM)) m")
        }

        // Long runs: steps of at most 3 km, at most 55 % of the week, never a marathon-size run.
        let longs = plan.weeks.map { longest($0, p) }
        var prior = Array(repeating: b.longestRunM ?? 0.3 * b.weeklyDistanceM, count: 3)
        for (i, l) in longs.enumerated() {
            let ref = prior.suffix(3).max() ?? 0
            if l > ref + 3000 + eps {
                v.append("LONG_STEP: week \(i + 1) longest run \(Int(l)) m > \(Int(ref)) m + 3 km")
            }
            prior.append(l)
            for x in plan.weeks[i].days.flatMap(\.workouts)
            where x.type == .long && distance(x, p) > 0.55 * raw[i] + eps {
                v.append("LONG_SHARE: week \(i + 1) long run \(Int(distance(x, p))) m > 55 % of \(Int(raw[i])) m")
            }
            if l > max(plan.target.longRunM, b.longestRunM ?? 0) + eps {
                v.append("BASE: week \(i + 1) longest run \(Int(l)) m beyond the target")
            }
        }

        // The date from which the marathon is feasible: a race then gets a plan that passes every rule.
        if let date = plan.marathonFeasibleFrom {
            let start = last.startDate.adding(days: 7)
            if date < start { v.append("BASE: marathon feasible from \(date), before the base plan ends") }
            var next = r
            next.startDate = start
            next.race.date = date
            let tail = Array(plan.weeks.suffix(4))
            next.runner.baseline = .init(
                weeklyDistanceM: tail.map { volume($0, p) }.reduce(0, +) / Double(tail.count),
                longestRunM: tail.map { longest($0, p) }.max() ?? 0)
            let then = PlanEngine.generate(next)
            if then.plan == nil {
                v.append(
                    "BASE: a marathon on \(date) after the base plan is refused (\(then.error?.code.rawValue ?? "?"))")
            } else {
                v += violations(of: then).map { "BASE → marathon on \(date): \($0)" }
            }
        }
        return v
    }
}
