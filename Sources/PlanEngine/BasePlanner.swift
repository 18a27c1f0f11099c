import Foundation

/// Builds the base plan offered with a refusal (docs/plan-engine.md, "Base plans"): the new plan's rules — ramps
/// against the weeks really placed, cutbacks, long-run steps and share, quality spacing, long days — without a race and
/// without a taper, growing toward the base from which a 16-week marathon build is accepted, then holding it.
enum BasePlanner {
    /// Longest base plan; a runner who has not reached the target by then generates again at its end.
    static let maxWeeks = 24
    /// Shortest base plan (also for a runner who already has the base but whose race is too soon).
    static let minWeeks = 4
    /// The marathon build the target is sized for.
    static let referenceBuildWeeks = 16

    static func plan(for request: PlanRequest, refusal: PlanError) -> BasePlan? {
        guard BasePlan.offeredFor.contains(refusal.code), request.effectiveMode == .new else { return nil }
        let days = Set(request.runner.availableDays).count
        // The rules need three running days and some running to grow from (a ramp from nothing is no ramp): the
        // runner's recent weeks, or after a long break the return table's share of the week before it.
        let comeback = returnLevel(request.runner.baseline)
        guard days >= Coaching.minDays, (request.runner.maxRunDays ?? days) >= Coaching.minDays,
            request.runner.baseline.weeklyDistanceM >= minBaselineM || comeback != nil
        else { return nil }
        // Setup with a race far enough away that nothing is refused; the race plays no part in the weeks.
        var r = request
        if let comeback { r.runner.baseline = comeback }
        r.race.date = request.startDate.adding(days: 7 * (maxWeeks + 30))
        guard case .success(var s) = Setup.make(r, refusing: false) else { return nil }
        s.race = r.race.date
        // A base plan has no race to end its weeks on: Monday–Sunday weeks unless the runner chose a start.
        s.weekStart = request.runner.weekStart ?? .mon
        // Week 1 holds start_date (the far race would otherwise defer the start).
        s.firstWeekStart = request.startDate.adding(
            days: -((request.startDate.weekday.index - s.weekStart.index + 7) % 7))

        let b = r.runner.baseline
        let capacity =
            (min(Coaching.ordinaryRunMaxM, Coaching.ordinaryRunMaxS / s.easyMid * 1000)) * Double(s.runDays - 1)
            + min(s.maxLong, 10_800 / s.easyMid * 1000)
        let target = BasePlan.Target(
            weeklyDistanceM: targetWeekly(r, easyMid: s.easyMid, capacity: capacity),
            longRunM: 0)
        let targetLong = min(
            max(0.40 * target.weeklyDistanceM, b.effectiveLongestRunM), Coaching.longShareMax * target.weeklyDistanceM,
            Coaching.ordinaryRunMaxM
        ).rounded(.down)
        let goal = BasePlan.Target(
            weeklyDistanceM: target.weeklyDistanceM, longRunM: (targetLong / 100).rounded(.down) * 100)

        let weeks = build(s, target: goal)
        let (feasible, buildWeeks) = feasibility(request, weeks: weeks, paces: s.paces)
        var returning = ""
        if let c = comeback {
            let share = Int((c.weeklyDistanceM / (request.runner.baseline.preBreakWeekM ?? 1) * 100).rounded())
            returning =
                " After \(request.runner.baseline.daysSinceLastRun ?? 0) days without running it starts from \(Fmt.km(c.weeklyDistanceM)) a week, \(share) % of the week before the break."
        }
        var warnings = [
            Notice(
                code: NoticeCode.basePlan,
                message:
                    "No marathon plan yet (\(refusal.code.rawValue)): \(refusal.message)\(returning) This plan builds toward \(Fmt.km(goal.weeklyDistanceM)) a week with a \(Fmt.km(goal.longRunM)) long run"
                    + (feasible.map {
                        "; a marathon on or after \($0) (a \(buildWeeks ?? 0)-week plan from \(weeks.last!.startDate.adding(days: 7))) is then within reach."
                    }
                        ?? "; generate a plan again when it ends."))
        ]
        warnings += s.warnings.filter { $0.code == NoticeCode.fitnessUnknown }
        return BasePlan(
            kind: BasePlan.kindName, timezone: request.timezone, weekStart: s.weekStart, startDate: request.startDate,
            trainingVdot: (s.vdot * 10).rounded() / 10, vdotSource: s.vdotSource, paces: s.paces, warnings: warnings,
            weeks: weeks, refusal: Notice(code: refusal.code.rawValue, message: refusal.message), target: goal,
            marathonFeasibleFrom: feasible, marathonPlanWeeks: buildWeeks, engine: PlanEngine.info)
    }

    /// The long run's share of a base week: 40 %, below the 55 % ceiling, so that a small week's other runs stay
    /// long enough to be worth lacing up for (at 55 % a 13 km week left one short run beside the long one).
    static let longShare = 0.40

    /// Below this weekly running there is nothing to ramp from: no base plan (a walk–run start is another kind of
    /// plan), unless the runner is returning from a break (`returnLevel`).
    static let minBaselineM = 5_000.0

    /// The longest break after which the week before it still says what the runner can return to.
    static let maxReturnGapDays = 182

    /// The baseline a base plan starts from after a break of 8 days or more: the return table's share of the week
    /// before the break and of its longest run (docs/plan-engine.md, "Returns after a break"), when that is more
    /// than the four weeks' mean (which counts the days off as zeros) and at least `minBaselineM`; else nil.
    static func returnLevel(_ b: PlanRequest.Baseline) -> PlanRequest.Baseline? {
        guard let gap = b.daysSinceLastRun, gap >= 8, gap <= maxReturnGapDays, let pre = b.preBreakWeekM else {
            return nil
        }
        let share = VolumePlanner.returnShare(daysOff: gap)
        let weekly = (share * pre / 100).rounded(.down) * 100
        guard weekly >= minBaselineM, weekly > b.weeklyDistanceM else { return nil }
        let long = ((share * (b.preBreakLongestM ?? longShare * pre)) / 100).rounded(.down) * 100
        return PlanRequest.Baseline(
            weeklyDistanceM: weekly, longestRunM: min(long, longShare * weekly), source: "return_from_break")
    }

    /// The weekly volume from which a `referenceBuildWeeks` marathon plan is accepted with 5 % to spare (at
    /// least the current base), at most the largest safe growth of the baseline and what the running days hold.
    static func targetWeekly(_ r: PlanRequest, easyMid: Double, capacity: Double) -> Double {
        let p = referenceBuildWeeks - Coaching.taperWeeks(totalWeeks: referenceBuildWeeks, mode: .new)
        let minLong = Coaching.minimumLongRun(easyMidSPerKm: easyMid)
        let need = Coaching.baseNeeded(peak: minLong * Coaching.minLongMargin / Coaching.longShareMax, buildWeeks: p)
        let b = r.runner.baseline.weeklyDistanceM
        let want = (max(need * 1.2, b) / 1000).rounded(.up) * 1000
        // Never beyond what the plan's weeks may grow to from the baseline (the peak rule), nor what the days hold.
        return min(
            want, max(b, (b * Coaching.baseGrowthCap(weeks: maxWeeks)).rounded(.down)), max(b, 0.9 * capacity))
    }

    /// The weeks: like a new plan's build weeks (VolumePlanner), held at the target once it is reached.
    static func build(_ s: Setup, target: BasePlan.Target) -> [Week] {
        let cycle = s.level == .novice ? 3 : 4
        var volumes = Array(repeating: s.baseline, count: 4)
        var longs = Array(repeating: s.baselineLong, count: 3)
        var level = s.baseline
        var streak = 0, lastUpLong = longs.max() ?? 0
        var lastDayHard = false, lastDayLong = false
        var weeks: [Week] = []
        let credit = s.baseline * Double(max(0, min(7, s.firstWeekStart.days(to: s.start)))) / 7
        let maxQuality = s.level == .novice ? 0 : 1
        var reachedAt: Int? = nil
        for i in 1...maxWeeks {
            let cap = min(
                Coaching.rampFactor * (volumes.suffix(3).max() ?? 0),
                Coaching.acuteChronicFactor * volumes.suffix(4).reduce(0, +) / 4)
            let isCut = streak >= cycle - 1
            let volume: Double, long: Double
            if isCut {
                volume = min(Coaching.cutbackFactor * level, 0.85 * (volumes.last ?? level), cap)
                long = min(0.75 * lastUpLong, Self.longShare * volume)
            } else {
                // The peak rule week by week: at most baseline × min(2.75, 1 + 0.085 × weeks so far).
                level = min(
                    target.weeklyDistanceM, level * Coaching.rampFactor,
                    max(s.baseline * Coaching.baseGrowthCap(weeks: i), s.baseline).rounded(.down))
                volume = min(level, cap)
                long = min(target.longRunM, (longs.suffix(3).max() ?? 0) + Coaching.longStepM, Self.longShare * volume)
            }
            let spec = WeekBuilder.Spec(
                index: i, startDate: s.firstWeekStart.adding(days: 7 * (i - 1)), phase: isCut ? .recovery : .base,
                volume: max(0, volume - (i == 1 ? credit : 0)).rounded(.down),
                long: (long / 100).rounded(.down) * 100, maxQuality: isCut ? 0 : maxQuality,
                weeksOut: 99, previousDayHard: lastDayHard, previousDayLong: lastDayLong,
                longWithMarathonPace: false, recentLong: longs.suffix(3).max() ?? 0,
                // No run of any kind beyond the long-run step (a shortest worthwhile run can be
                // longer than a small base's longest run + 3 km).
                runCap: (longs.suffix(3).max() ?? 0) + Coaching.longStepM)
            // A small week on many days would be cut into runs too short to keep: no more running days than
            // the week holds runs of the shortest worthwhile length (at least three).
            var week = s
            week.runDays = max(Coaching.minDays, min(s.runDays, Int(spec.volume / s.minRun)))
            let built = WeekBuilder(setup: week).build(spec)
            weeks.append(built.week)
            // The next Monday's run is a (short) recovery run only after a real long day (≥ 20 km or 90 min): after
            // a 5 km "long" run it would be too short to keep, and the small weeks of a base plan would lose it.
            lastDayHard = built.lastDayHard
            lastDayLong = built.week.days.last.map { $0.isLongDay(paces: s.paces) } ?? false
            let placed = built.volume + (i == 1 ? credit : 0)
            if placed <= 0.9 * (volumes.last ?? 0) { streak = 0 } else { streak += 1 }
            volumes.append(placed)
            longs.append(built.longest)
            if !isCut { lastUpLong = built.longest }
            // Reached: a full week at the target with the target long run; two more weeks settle the base in.
            if reachedAt == nil, !isCut, placed >= 0.97 * target.weeklyDistanceM, built.longest >= target.longRunM - 100
            {
                reachedAt = i
            }
            if let at = reachedAt, i >= max(minWeeks, at + 2) { break }
        }
        return weeks
    }

    /// The earliest race date (and build length) for which a new plan starting the day after the base plan is
    /// accepted, with the base plan's last four weeks as the baseline.
    static func feasibility(_ r: PlanRequest, weeks: [Week], paces: Paces) -> (LocalDate?, Int?) {
        guard let last = weeks.last else { return (nil, nil) }
        let tail = weeks.suffix(4)
        let start = last.startDate.adding(days: 7)
        var next = r
        next.startDate = start
        next.runner.baseline = PlanRequest.Baseline(
            weeklyDistanceM: tail.map { $0.runningVolume(paces: paces) }.reduce(0, +) / Double(tail.count),
            longestRunM: tail.map { $0.longestRun(paces: paces) }.max() ?? 0)
        for n in Coaching.minWeeks...Coaching.maxWeeks {
            next.race.date = start.adding(days: 7 * n - 1)
            // The engine's own check, build included: the date named really gets a plan.
            if Validation.refusalBuilding(next) == nil { return (next.race.date, n) }
        }
        return (nil, nil)
    }
}
