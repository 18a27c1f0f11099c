import Foundation

@testable import PlanEngine

/// `PlanRules` for the base plan that comes with a refusal (issue 17, item 5; docs/plan-engine.md, "Base plans"):
/// offered exactly when it is due, in the document's shape, and under the new plan's rules without a race and a
/// taper — dates, days, quality spacing and long days, short recovery runs, ramps against the weeks as placed,
/// cutbacks, the peak week by week, long-run steps and share — never beyond its own target, and naming a marathon
/// date whose request the rules accept.
struct BasePlanCheck {
    let doc: PlanDocument
    typealias L = PlanRules.Limit

    var request: PlanRequest { doc.request }

    /// What the base plan grows from: the runner's baseline, or after a break of 8 days or more the return table's
    /// share of the week before it (docs/plan-engine.md, "Returns after a break").
    var baseline: PlanRequest.Baseline { BasePlanner.returnLevel(request.runner.baseline) ?? request.runner.baseline }

    /// A base plan is due with INSUFFICIENT_BASE, RACE_TOO_SOON or RACE_IN_PAST for a new plan, three running days
    /// and at least 5 km a week to grow from.
    var due: Bool {
        guard let e = doc.error, BasePlan.offeredFor.contains(e.code), request.effectiveMode == .new else {
            return false
        }
        let days = Set(request.runner.availableDays).count
        return days >= 3 && (request.runner.maxRunDays ?? days) >= 3 && baseline.weeklyDistanceM >= 5000
    }

    func run() -> [String] {
        guard let base = doc.basePlan else {
            return due ? ["BASE: \(doc.error?.code.rawValue ?? "?") without a base plan"] : []
        }
        if doc.plan != nil { return ["BASE: a base plan next to a marathon plan"] }
        if !due {
            return ["BASE: a base plan with \(doc.error?.code.rawValue ?? "no error"), which is not offered one"]
        }
        var v = shape(base)
        if !v.isEmpty { return v }
        v += days(base)
        v += volumes(base)
        v += longRuns(base)
        v += feasibility(base)
        return v
    }

    // MARK: shape and dates

    func shape(_ base: BasePlan) -> [String] {
        var v: [String] = []
        if base.kind != BasePlan.kindName { v.append("BASE: kind is '\(base.kind)'") }
        if base.refusal.code != doc.error?.code.rawValue {
            v.append("BASE: refusal \(base.refusal.code) ≠ error \(doc.error?.code.rawValue ?? "?")")
        }
        if base.warnings.first?.code != NoticeCode.basePlan
            || !(base.warnings.first?.message.contains(base.refusal.code) ?? false)
        {
            v.append("BASE: the first warning must be BASE_PLAN naming \(base.refusal.code)")
        }
        if base.timezone != request.timezone {
            v.append("BASE: timezone \(base.timezone) ≠ request.timezone \(request.timezone)")
        }
        if base.weekStart != (request.runner.weekStart ?? .mon) { v.append("BASE: weeks start on \(base.weekStart)") }
        guard let first = base.weeks.first else { return v + ["BASE: no weeks"] }
        if base.weeks.count > BasePlanner.maxWeeks {
            v.append("BASE: \(base.weeks.count) weeks, at most \(BasePlanner.maxWeeks)")
        }
        for (i, w) in base.weeks.enumerated() {
            if w.startDate != first.startDate.adding(days: 7 * i) || w.startDate.weekday != base.weekStart
                || w.days.count != 7
            {
                v.append(
                    "BASE: week \(i + 1) (\(w.startDate)) is not the \(base.weekStart)-based week after the previous")
                continue
            }
            for (j, d) in w.days.enumerated() where d.date != w.startDate.adding(days: j) {
                v.append("BASE: week \(i + 1) day \(j + 1) is \(d.date)")
            }
        }
        if !(first.startDate <= request.startDate && request.startDate <= first.startDate.adding(days: 6)) {
            v.append("BASE: week 1 (\(first.startDate)) does not hold start_date \(request.startDate)")
        }
        for d in base.weeks.flatMap(\.days) where !d.workouts.isEmpty && d.date < request.startDate {
            v.append("BASE: workout on \(d.date) before start_date \(request.startDate)")
        }
        for d in base.weeks.flatMap(\.days)
        where d.workouts.contains(where: { $0.type == .race || $0.type == .tuneUpRace }) {
            v.append("BASE: a race on \(d.date)")
        }
        return v
    }

    // MARK: days

    func days(_ base: BasePlan) -> [String] {
        var v: [String] = []
        let p = base.paces
        let available = Set(request.runner.availableDays)
        let maxRun = min(request.runner.maxRunDays ?? available.count, 6)
        for w in base.weeks {
            let runDays = w.days.filter { $0.workouts.contains(where: \.isRun) }
            for d in runDays where !available.contains(d.date.weekday) {
                v.append("BASE DAYS: a run on \(d.date) (\(d.date.weekday)), not an available day")
            }
            for d in runDays where d.workouts.filter(\.isRun).count > 1 { v.append("BASE DAYS: two runs on \(d.date)") }
            if runDays.count > maxRun {
                v.append("BASE DAYS: week \(w.index ?? 0) has \(runDays.count) running days > \(maxRun)")
            }
            let long = w.days.flatMap(\.workouts).filter { $0.type == .long }.map { $0.totalDistance(paces: p) }.max()
            for d in w.days {
                for x in d.workouts where x.type == .recovery {
                    if x.estimatedDuration(paces: p) > Coaching.recoveryMaxS + 60 {
                        v.append("BASE RECOVERY: \(d.date) recovery run longer than 45 min")
                    }
                    if let l = long, x.totalDistance(paces: p) > Coaching.recoveryShareOfLong * l + 100 {
                        v.append("BASE RECOVERY: \(d.date) recovery run > 60 % of the week's long run")
                    }
                }
            }
        }
        let all = base.weeks.flatMap(\.days)
        let long = all.map { $0.isLongDay(paces: p) || $0.workouts.contains { $0.type == .long } }
        let quality = all.map { $0.workouts.contains { $0.isQuality(paces: p) } }
        for k in all.indices.dropLast() {
            if quality[k + 1] && (quality[k] || long[k]) {
                v.append("BASE QUALITY: quality on \(all[k + 1].date) right after a quality day or long run")
            }
            if all[k].isLongDay(paces: p) && all[k + 1].isLongDay(paces: p) {
                v.append("BASE LONG: \(all[k].date) and \(all[k + 1].date) are both long days")
            }
        }
        return v
    }

    // MARK: volumes

    func volumes(_ base: BasePlan) -> [String] {
        var v: [String] = []
        let b = baseline.weeklyDistanceM
        let raw = base.weeks.map { $0.runningVolume(paces: base.paces) }
        var vols = raw
        // Week 1's days before start_date count as baseline running (the runner keeps running).
        vols[0] += b * Double(max(0, min(7, base.weeks[0].startDate.days(to: request.startDate)))) / 7
        var seq = Array(repeating: b, count: 4)
        var streak = 0
        for (i, x) in vols.enumerated() {
            let max3 = seq.suffix(3).max() ?? 0, avg4 = seq.suffix(4).reduce(0, +) / 4
            if x > L.ramp * max3 + L.rampSlackM {
                v.append(
                    "BASE RAMP: week \(i + 1) \(Int(x)) m > 110 % of the biggest of the previous three (\(Int(max3)) m)"
                )
            }
            if avg4 > 0 && x >= L.acuteChronic * avg4 {
                v.append(
                    "BASE RAMP: week \(i + 1) \(Int(x)) m not well under 1.5 × the 4-week average (\(Int(avg4)) m)")
            }
            streak = x <= L.cutbackRatio * (seq.last ?? 0) ? 0 : streak + 1
            if streak > L.maxWeeksWithoutCutback {
                v.append("BASE CUTBACK: week \(i + 1) is the 5th week in a row without a cutback")
            }
            // The peak rule week by week: at most baseline × min(2.75, 1 + 0.085 × weeks so far).
            let cap = max(b * min(2.75, 1 + 0.085 * Double(i + 1)), 1.1 * b)
            if raw[i] > cap + 1000 {
                v.append("BASE PEAK: week \(i + 1) \(Int(raw[i])) m beyond \(Int(cap)) m for a \(Int(b)) m baseline")
            }
            seq.append(x)
        }
        if let peak = raw.max(), peak > max(base.target.weeklyDistanceM, b) + 100 {
            v.append("BASE TARGET: a week of \(Int(peak)) m beyond the target \(Int(base.target.weeklyDistanceM)) m")
        }
        return v
    }

    // MARK: long runs

    func longRuns(_ base: BasePlan) -> [String] {
        var v: [String] = []
        let p = base.paces
        let bl = baseline
        let vols = base.weeks.map { $0.runningVolume(paces: p) }
        var prior = Array(repeating: bl.effectiveLongestRunM, count: 3)
        for (i, w) in base.weeks.enumerated() {
            let l = w.longestRun(paces: p)
            let ref = prior.suffix(3).max() ?? 0
            if l > ref + L.longStepM {
                v.append("BASE LONG: week \(i + 1) longest run \(Int(l)) m grows more than 3 km over \(Int(ref)) m")
            }
            prior.append(l)
            for x in w.days.flatMap(\.workouts)
            where x.type == .long && x.totalDistance(paces: p) > L.longShare * vols[i] + 100 {
                v.append("BASE LONG: week \(i + 1) long run is more than 55 % of the week")
            }
            if l > max(base.target.longRunM, bl.effectiveLongestRunM) + 100 {
                v.append(
                    "BASE TARGET: week \(i + 1) longest run \(Int(l)) m beyond the target long run \(Int(base.target.longRunM)) m"
                )
            }
        }
        return v
    }

    // MARK: the marathon it leads to

    func feasibility(_ base: BasePlan) -> [String] {
        guard let date = base.marathonFeasibleFrom else {
            return base.marathonPlanWeeks == nil ? [] : ["BASE: marathon_plan_weeks without marathon_feasible_from"]
        }
        var v: [String] = []
        let start = base.weeks.last!.startDate.adding(days: 7)
        if date < start { v.append("BASE: marathon feasible from \(date), before the base plan ends") }
        if base.marathonPlanWeeks != Coaching.weeksAvailable(start: start, race: date) {
            v.append(
                "BASE: marathon_plan_weeks \(base.marathonPlanWeeks.map(String.init) ?? "absent") ≠ the weeks from \(start) to \(date)"
            )
        }
        // The marathon request after the base plan (its last four weeks as the baseline) must pass the refusal rules.
        var next = request
        next.startDate = start
        next.generatedAt = nil
        next.race.date = date
        let tail = base.weeks.suffix(4)
        next.runner.baseline = PlanRequest.Baseline(
            weeklyDistanceM: tail.map { $0.runningVolume(paces: base.paces) }.reduce(0, +) / Double(tail.count),
            longestRunM: tail.map { $0.longestRun(paces: base.paces) }.max() ?? 0)
        if let code = PlanRules.expectedError(for: next) {
            v.append("BASE: a marathon on \(date) after the base plan is refused by the rules (\(code.rawValue))")
        }
        return v
    }
}
