import Foundation

/// Week-by-week adaptation (docs/ADAPTATION.md): compares what was planned with what was done and
/// regenerates the coming weeks. The past is kept as it was; every material change carries a reason.
public enum PlanAdapter {
    /// Whether an adapted build holds: no empty week before the race, and a taper measured against the biggest week
    /// of the build (run or planned) of 1–3 reduced weeks, the week before race week at ≥ 40 % of it and race week at
    /// 15–60 % (the rubric's H15).
    static func resumable(_ plan: Plan, request: PlanRequest) -> Bool {
        let m = TaperMeasure(plan.weeks.map { $0.runningVolume(paces: plan.paces) }, baseline: request.runner.baseline)
        let volumes = m.volumes, peak = m.peak, reduced = m.reduced
        if volumes.dropLast().contains(where: { $0 <= 0 }) { return false }
        guard volumes.count >= 2 else {
            // Only race week left: it must still hold 15–60 % of the build's biggest week.
            let raceWeek = volumes.first ?? 0
            return raceWeek >= 0.15 * peak && raceWeek <= 0.60 * peak
        }
        let raceWeek = volumes[volumes.count - 1], before = volumes[volumes.count - 2]
        return (volumes.count < 3 || (1...3).contains(reduced)) && before >= 0.40 * peak
            && raceWeek >= 0.15 * peak && raceWeek <= 0.60 * peak
    }

    /// `previous`'s request made again on `asOf` as a new plan: the baseline and fitness from the running done before
    /// `asOf` (the fitness of `previous` when the runs give no estimate), starting tomorrow. The race, the runner's days
    /// and the rest of the request are unchanged.
    static func remade(_ previous: PlanDocument, completed: [CompletedRun], asOf: LocalDate) -> PlanDocument {
        var request = previous.request
        request.mode = nil
        request.generatedAt = asOf
        request.startDate = asOf.adding(days: 1)
        let evidence = BaselineEstimator.evidence(from: completed, asOf: asOf)
        request.runner.baseline = evidence.baseline
        // Without a qualifying run the fitness the plan was made with stands.
        if let fitness = evidence.fitness { request.runner.fitness = fitness }
        return PlanEngine.generate(request)
    }

    /// A new version of `previous` as of the runner's local date `asOf`.
    ///
    /// - completed: the runner's workouts (local dates); runs dated before `asOf` count as done.
    /// - newRace: a race or time trial result to update fitness with (also taken from `is_race` runs).
    /// - timezone: the runner's new IANA zone if they moved; local dates stay as they are.
    public static func adapt(
        previous: PlanDocument, completed: [CompletedRun], asOf: LocalDate,
        newRace: PlanRequest.RaceResult? = nil, timezone: String? = nil
    ) -> PlanDocument {
        guard let old = previous.plan, let paces = Optional(old.paces) else { return previous }
        // Every week of the build so far: the kept ones of earlier adaptations and the ones still planned.
        let oldWeeks = old.allWeeks
        // A plan whose start was deferred (a race more than 24 weeks away) has not begun on `asOf`: nothing was done
        // against it, and the four weeks before its first week are still to come. Read as weeks of zeros they made a
        // runner who trains every week lose the plan (a restart from nothing, refused as INSUFFICIENT_BASE). It is made
        // again as a first plan is, from the running done before `asOf` (docs/ADAPTATION.md, A0).
        if let first = oldWeeks.first, asOf < first.startDate {
            return remade(previous, completed: completed, asOf: asOf)
        }
        guard let boundaryIdx = oldWeeks.firstIndex(where: { $0.startDate >= asOf }) else { return previous }
        let boundary = oldWeeks[boundaryIdx].startDate
        let planStart = oldWeeks[0].startDate
        var reasons: [Notice] = []
        // Runs before asOf, and today's once it is recorded (the weekly slot is in the evening).
        let running = completed.filter { $0.isRunning && $0.date <= asOf }.sorted { $0.date < $1.date }

        // Days without running up to asOf, and the running of the 7 days before the break.
        let lastRun = running.last?.date ?? planStart.adding(days: -1)
        let lastBreak = TrainingBaseline.Break.before(asOf.adding(days: 1), in: running)
        var gap = max(0, lastRun.days(to: asOf) - 1)
        func ran(_ from: LocalDate, _ to: LocalDate) -> Double {
            running.filter { $0.date >= from && $0.date < to }.reduce(0) { $0 + $1.distanceM }
        }
        var preBreak = lastBreak?.weekBeforeM ?? 0
        let plannedDays = oldWeeks.flatMap(\.days)
        func planned(_ from: LocalDate, _ to: LocalDate) -> Double {
            plannedDays.filter { $0.date >= from && $0.date < to }.flatMap(\.workouts)
                .filter { $0.isRun && $0.type != .race }.reduce(0) { $0 + $1.totalDistance(paces: paces) }
        }
        // A missed week: less than half of the last 7 days' plan was done.
        let lastWeekPlanned = planned(asOf.adding(days: -7), asOf), lastWeekDone = ran(asOf.adding(days: -7), asOf)
        if gap < 5 && lastWeekPlanned > 0 && lastWeekDone < 0.5 * lastWeekPlanned && asOf.adding(days: -7) >= planStart
        {
            gap = 5
            preBreak = ran(asOf.adding(days: -14), asOf.adding(days: -7))
            reasons.append(
                Notice(
                    code: NoticeCode.missedWeek,
                    message:
                        "Only \(Fmt.km(lastWeekDone)) of \(Fmt.km(lastWeekPlanned)) done last week: next week steps back before building again."
                ))
        }
        if preBreak < 1000 {
            // Nothing recorded before the break: fall back to the last known weekly volume.
            let b = previous.request.runner.baseline
            preBreak = max(b.preBreakWeekM ?? 0, b.weeklyDistanceM)
        }
        switch gap {
        case 8...28:
            reasons.append(
                Notice(
                    code: NoticeCode.breakReturn,
                    message:
                        "\(gap) days without running: next week at most \(gap <= 14 ? "75" : "60") % of the week before the break, with at most one quality session."
                ))
        case 29...:
            reasons.append(
                Notice(
                    code: NoticeCode.longBreak,
                    message:
                        "\(gap) days without running: the return starts well under half of the old volume, without quality sessions."
                ))
        case 5...7 where !reasons.contains(where: { $0.code == NoticeCode.missedWeek }):
            reasons.append(
                Notice(
                    code: NoticeCode.missedWeek, message: "\(gap) days without running: next week steps back slightly.")
            )
        default: break
        }
        let missed = plannedDays.filter { $0.date >= asOf.adding(days: -7) && $0.date < asOf }
            .filter { d in
                d.workouts.contains(where: \.isRun) && !running.contains { abs($0.date.days(to: d.date)) <= 1 }
            }
        if !missed.isEmpty {
            reasons.append(
                Notice(
                    code: NoticeCode.missedWorkouts,
                    message:
                        "\(missed.count) planned run(s) of the last 7 days not done; they are not made up later."))
        }
        if lastWeekPlanned > 0 && lastWeekDone > 1.15 * lastWeekPlanned {
            reasons.append(
                Notice(
                    code: NoticeCode.overachieved,
                    message:
                        "\(Fmt.km(lastWeekDone)) done against \(Fmt.km(lastWeekPlanned)) planned: the extra is not banked; the ramp stays as planned."
                ))
        }

        // The rest of the current week: kept, but eased after a break of 8 days or more.
        var history = Array(oldWeeks[..<boundaryIdx])
        if gap >= 8, var current = history.last {
            var eased = false
            for j in current.days.indices where current.days[j].date >= asOf {
                let before = current.days[j].workouts
                current.days[j].workouts = before.compactMap { w in
                    guard w.isRun else { return w }
                    let d = min(w.totalDistance(paces: paces), 5000)
                    if w.type == .easy || w.type == .recovery, d == w.totalDistance(paces: paces) { return w }
                    eased = true
                    return Workout(
                        id: w.id, type: .easy, sport: .run, distanceM: d,
                        pace: WorkoutPace(
                            zone: .easy, minSPerKm: paces.easy.minSPerKm, maxSPerKm: paces.easy.maxSPerKm),
                        segments: [Segment(kind: .work, zone: .easy, distanceM: d)],
                        description: "\(Fmt.km(d)) easy — coming back after a break: no quality yet.")
                }
            }
            if eased {
                current.plannedDistanceM = current.runningVolume(paces: paces)
                history[history.count - 1] = current
                reasons.append(
                    Notice(code: NoticeCode.currentWeekEased, message: "The rest of this week is short easy running."))
            }
        }

        // The four 7-day windows before the boundary: what the runner really ran (runs before asOf, and today's once
        // it is recorded — planned is not done), plus, on a week that goes on as planned, the runs still planned
        // before the boundary (a mid-week adaptation must not read the rest of the week as a cutback). After a break
        // (8 days or more) the rest of the week is short eased running that has not happened yet: it is not counted,
        // so the return ramps from real running only.
        let ranToday = running.contains { $0.date == asOf }
        let futureFrom = ranToday ? asOf.adding(days: 1) : asOf
        var weeksM: [Double] = [], longestM: [Double] = []
        for k in 0..<4 {
            let from = boundary.adding(days: -7 * (4 - k)), to = boundary.adding(days: -7 * (3 - k))
            let done = running.filter { $0.date >= from && $0.date < to }
            let future =
                gap >= 8
                ? []
                : history.flatMap(\.days).filter { $0.date >= max(from, futureFrom) && $0.date < to }
                    .flatMap(\.workouts).filter { $0.isRun && $0.type != .race }.map { $0.totalDistance(paces: paces) }
            weeksM.append(done.reduce(0) { $0 + $1.distanceM } + future.reduce(0, +))
            longestM.append(max(done.map(\.distanceM).max() ?? 0, future.max() ?? 0))
        }
        let cycleRuns = running.filter { $0.date >= planStart }
        let cyclePeak = oldWeeks[..<boundaryIdx].map { w in ran(w.startDate, w.startDate.adding(days: 7)) }.max() ?? 0
        let cycleLongest = cycleRuns.map(\.distanceM).max() ?? 0

        // Fitness: a new race result, or consistently faster easy runs, move VDOT within safe limits.
        let oldVdot = old.trainingVdot ?? 40
        var vdot = oldVdot
        let raceRuns = completed.filter {
            $0.isRace == true && $0.isRunning && $0.date < asOf && $0.date >= asOf.adding(days: -28)
        }
        let raceResult =
            newRace
            ?? raceRuns.last.map { PlanRequest.RaceResult(distanceM: $0.distanceM, timeS: $0.durationS, date: $0.date) }
        if let r = raceResult, let rv = Daniels.vdot(distanceM: r.distanceM, timeS: r.timeS) {
            // Evidence raises fitness by at most one point per update; a poor race lowers it by up to three.
            vdot = min(max(rv, oldVdot - 3), oldVdot + 1)
            reasons.append(
                Notice(
                    code: NoticeCode.raceResult,
                    message:
                        "Race of \(Fmt.km(r.distanceM)) in \(Fmt.duration(r.timeS)) (VDOT \(String(format: "%.1f", rv))): training VDOT \(String(format: "%.1f", oldVdot)) → \(String(format: "%.1f", vdot)) (at most +1 / −3 per update)."
                ))
        } else if gap >= 6 {
            // Time off: Daniels' time-off factors, halved in effect when the runner kept cross-training.
            let crossSessions = completed.filter { !$0.isRunning && $0.date > lastRun && $0.date < asOf }.count
            let crossTrained = crossSessions >= max(1, gap * 2 / 7)
            let factor = Daniels.timeOffFactor(days: gap, crossTraining: crossTrained)
            vdot = oldVdot * factor
            reasons.append(
                Notice(
                    code: NoticeCode.vdotDown,
                    message:
                        "\(gap) days without running\(crossTrained ? " (with cross-training)" : ""): VDOT × \(String(format: "%.3f", factor)) per Daniels' time-off table (\(String(format: "%.1f", oldVdot)) → \(String(format: "%.1f", vdot)))."
                ))
        } else {
            // Evidence of new fitness is work at threshold or faster done at a lower heart rate than before — never
            // easy runs run briskly (an easy run that is merely brisk says nothing of the runner's VDOT).
            let easyTypes: Set<WorkoutType> = [.easy, .recovery, .long, .mediumLong]
            let hardTypes: Set<WorkoutType> = [.threshold, .tempo, .intervals, .repetition]
            func plannedAs(_ r: CompletedRun, _ types: Set<WorkoutType>) -> Bool {
                plannedDays.first { $0.date == r.date }?.workouts.contains { types.contains($0.type) } ?? false
            }
            let recent = running.filter { $0.date >= asOf.adding(days: -21) }
            let matched = recent.filter { plannedAs($0, easyTypes) }
            let paceList = matched.compactMap(\.paceSPerKm)
            // Threshold-or-faster running (the whole run at T pace or faster, as a time trial or a hard session is),
            // compared by heart rate with the same kind of run before the last three weeks.
            let fast = { (r: CompletedRun) in (r.paceSPerKm ?? .infinity) <= paces.threshold.maxSPerKm }
            let hardNow = recent.filter { plannedAs($0, hardTypes) && fast($0) }.compactMap(\.avgHr)
            let hardBefore = running.filter { $0.date < asOf.adding(days: -21) && fast($0) }.compactMap(\.avgHr)
                .sorted()
            let medianBefore = hardBefore.isEmpty ? nil : hardBefore[hardBefore.count / 2]
            if hardNow.count >= 2, let m = medianBefore, hardNow.allSatisfy({ $0 <= m - 3 }) {
                vdot = oldVdot + 1
                reasons.append(
                    Notice(
                        code: NoticeCode.vdotUp,
                        message:
                            "\(hardNow.count) sessions at threshold pace or faster in 3 weeks at a lower heart rate than before (≤ \(Int(m - 3)) bpm): VDOT +1 (\(String(format: "%.1f", vdot)))."
                    ))
            } else if paceList.count >= 3 && paceList.allSatisfy({ $0 > paces.easy.maxSPerKm + 20 }) {
                vdot = oldVdot - 1
                reasons.append(
                    Notice(
                        code: NoticeCode.vdotDown,
                        message:
                            "\(paceList.count) easy runs well slower than the easy range: VDOT −1 (\(String(format: "%.1f", vdot)))."
                    ))
            }
        }

        // The adapt request: same runner and race, history of real weeks, caps from the previous version.
        let coming = Array(oldWeeks[boundaryIdx...])
        var req = previous.request
        req.mode = .adapt
        req.generatedAt = asOf
        req.startDate = boundary
        if let tz = timezone, tz != req.timezone {
            reasons.append(
                Notice(
                    code: NoticeCode.timezoneChanged,
                    message:
                        "Time zone \(req.timezone) → \(tz): every workout keeps its local date."))
            req.timezone = tz
        }
        var base = req.runner.baseline
        base.weeklyDistanceM = weeksM.reduce(0, +) / 4
        base.longestRunM = longestM.max() ?? 0
        base.recentWeeksM = weeksM
        base.recentLongestM = longestM
        base.cycleLongestRunM = max(cycleLongest, previous.request.runner.baseline.cycleLongestRunM ?? 0)
        base.cyclePeakWeeklyM = max(cyclePeak, previous.request.runner.baseline.cyclePeakWeeklyM ?? 0)
        base.daysSinceLastRun = gap
        base.preBreakWeekM = gap >= 5 ? preBreak : nil
        base.preBreakLongestM = gap >= 8 ? lastBreak?.longestBeforeM : nil
        base.plannedWeeksM = coming.map { $0.runningVolume(paces: paces) }
        base.plannedLongM = coming.map { w in
            w.days.flatMap(\.workouts).filter { $0.type == .long }.map { $0.totalDistance(paces: paces) }.max() ?? 0
        }
        base.source = "adaptation"
        req.runner.baseline = base
        // Within the VDOTs a request may state: a VDOT 18 runner back from ten weeks off (× 0.80) is planned at 15, not
        // refused as an invalid request; a race cannot lift a VDOT 78 runner past 78.
        // To the nearest tenth (docs/ADAPTATION.md), which the engine then keeps as it is.
        req.runner.fitness = PlanRequest.Fitness(
            vdot: Validation.vdotRange.clamp((vdot * 10).rounded() / 10), race: nil)

        var generated = PlanEngine.generate(req)
        var usedRequest = req
        // A return that cannot be resumed within the rules (after weeks without any running the acute:chronic ratio
        // lets the volume climb only slowly, and the taper must still stand on 40 % of the biggest week of the build)
        // starts over: a new plan from where the runner really is, for the same race — or, when the race is out of
        // reach from there, the refusal with a base plan and the date from which the marathon is feasible again.
        if let p = generated.plan, !PlanAdapter.resumable(p, request: req) {
            var fresh = req
            fresh.mode = .new
            fresh.generatedAt = asOf
            fresh.startDate = boundary
            fresh.runner.baseline = PlanRequest.Baseline(
                weeklyDistanceM: base.weeklyDistanceM, longestRunM: base.longestRunM, source: "adaptation_restart",
                recentWeeksM: base.recentWeeksM, recentLongestM: base.recentLongestM)
            // The break goes with it: a refusal's base plan starts from the return table's share of the week before
            // the break when the last four weeks hold (almost) nothing to ramp from.
            fresh.runner.baseline.daysSinceLastRun = base.daysSinceLastRun
            fresh.runner.baseline.preBreakWeekM = base.preBreakWeekM
            fresh.runner.baseline.preBreakLongestM = base.preBreakLongestM
            // (Weeks of zeros that leave the long run short: `PlanEngine.generate` starts from the four weeks' mean.)
            var restart = PlanEngine.generate(fresh)
            fresh.runner.baseline = restart.request.runner.baseline
            let ranM = weeksM.max() ?? 0
            let why = Notice(
                code: NoticeCode.planRestarted,
                message: gap >= 5
                    ? "\(gap) days without running: the build cannot resume within the ramp and taper rules before \(req.race.date); the plan starts over from your current running."
                    : "The weeks you ran (up to \(Fmt.km(ranM))) outgrew the plan, which would taper from less than they hold: it starts over from them, within the ramp and taper rules."
            )
            if restart.plan != nil {
                if gap >= 5, !restart.plan!.warnings.contains(where: { $0.code == NoticeCode.goalRevise }) {
                    restart.plan!.warnings.insert(
                        Setup.goalRevise(
                            vdot, goal: req.race.goalTimeS,
                            because: "\(gap) days without running before \(req.race.date)"),
                        at: 0)
                }
                reasons.append(why)
                generated = restart
                usedRequest = fresh
            } else {
                return restart
            }
        }
        guard var plan = generated.plan else { return generated }
        // Renumber the new weeks after the kept ones.
        let offset = history.count
        for k in plan.weeks.indices {
            let idx = offset + k + 1
            plan.weeks[k].index = idx
            for d in plan.weeks[k].days.indices {
                for w in plan.weeks[k].days[d].workouts.indices {
                    if let id = plan.weeks[k].days[d].workouts[w].id, let dash = id.firstIndex(of: "-") {
                        plan.weeks[k].days[d].workouts[w].id = String(format: "w%02d", idx) + id[dash...]
                    }
                }
            }
        }
        let newVolumes = plan.weeks.map { $0.runningVolume(paces: plan.paces) }
        let oldVolumes = coming.map { $0.runningVolume(paces: paces) }
        let changed = zip(newVolumes, oldVolumes).filter { abs($0 - $1) > 500 }.count
        if changed > 0 {
            reasons.append(
                Notice(
                    code: NoticeCode.volumeRecomputed,
                    message:
                        "\(changed) coming week(s) changed volume from what you actually ran; never above the previous plan."
                ))
        }
        if reasons.isEmpty {
            reasons.append(Notice(code: NoticeCode.onTrack, message: "On track: the coming weeks stay as planned."))
        }
        let version = (old.version ?? 1)
        plan.pastWeeks = history.isEmpty ? nil : history
        plan.startDate = old.startDate ?? planStart
        plan.version = version + 1
        plan.history =
            (old.history ?? []) + [
                VersionSummary(
                    version: version,
                    createdOn: previous.request.generatedAt ?? old.adaptation?.asOf ?? previous.request.startDate,
                    reasons: old.adaptation?.reasons ?? [], trainingVdot: old.trainingVdot,
                    weekVolumesM: oldWeeks.map { $0.runningVolume(paces: paces) },
                    weekStartDates: oldWeeks.map(\.startDate))
            ]
        plan.adaptation = Adaptation(asOf: asOf, reasons: reasons, previousVersion: version)
        return PlanDocument(request: usedRequest, plan: plan)
    }
}
