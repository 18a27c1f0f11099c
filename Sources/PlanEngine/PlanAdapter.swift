import Foundation

/// Week-by-week adaptation (docs/ADAPTATION.md): compares what was planned with what was done and
/// regenerates the coming weeks. The past is kept as it was; every material change carries a reason.
public enum PlanAdapter {
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
        guard let boundaryIdx = old.weeks.firstIndex(where: { $0.startDate >= asOf }) else { return previous }
        let boundary = old.weeks[boundaryIdx].startDate
        let planStart = old.weeks[0].startDate
        var reasons: [Notice] = []
        let running = completed.filter { $0.isRunning && $0.date < asOf }.sorted { $0.date < $1.date }

        // Days without running up to asOf, and the running of the 7 days before the break.
        let lastRun = running.last?.date ?? planStart.adding(days: -1)
        var gap = max(0, lastRun.days(to: asOf) - 1)
        func ran(_ from: LocalDate, _ to: LocalDate) -> Double {
            running.filter { $0.date >= from && $0.date < to }.reduce(0) { $0 + $1.distanceM }
        }
        var preBreak = ran(lastRun.adding(days: -6), lastRun.adding(days: 1))
        let plannedDays = old.weeks.flatMap(\.days)
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
        var history = Array(old.weeks[..<boundaryIdx])
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
        let remainingPlanned = history.flatMap(\.days).filter { $0.date >= asOf }.flatMap(\.workouts).filter(\.isRun)

        // The four 7-day windows before the boundary: done before asOf, planned from asOf.
        var weeksM: [Double] = [], longestM: [Double] = []
        for k in 0..<4 {
            let from = boundary.adding(days: -7 * (4 - k)), to = boundary.adding(days: -7 * (3 - k))
            let done = running.filter { $0.date >= from && $0.date < to }
            let future = history.flatMap(\.days).filter { $0.date >= max(from, asOf) && $0.date < to }.flatMap(
                \.workouts
            )
            .filter { $0.isRun && $0.type != .race }.map { $0.totalDistance(paces: paces) }
            weeksM.append(done.reduce(0) { $0 + $1.distanceM } + future.reduce(0, +))
            longestM.append(max(done.map(\.distanceM).max() ?? 0, future.max() ?? 0))
        }
        _ = remainingPlanned
        let cycleRuns = running.filter { $0.date >= planStart }
        let cyclePeak = old.weeks[..<boundaryIdx].map { w in ran(w.startDate, w.startDate.adding(days: 7)) }.max() ?? 0
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
            let easyTypes: Set<WorkoutType> = [.easy, .recovery, .long, .mediumLong]
            let matched = running.filter { $0.date >= asOf.adding(days: -21) }.filter { r in
                plannedDays.first { $0.date == r.date }?.workouts.contains { easyTypes.contains($0.type) } ?? false
            }
            let earlierHr = running.filter { $0.date < asOf.adding(days: -21) }.compactMap(\.avgHr).sorted()
            let medianHr = earlierHr.isEmpty ? nil : earlierHr[earlierHr.count / 2]
            let sameEffort = matched.allSatisfy { r in medianHr == nil || r.avgHr == nil || r.avgHr! <= medianHr! + 2 }
            let paceList = matched.compactMap(\.paceSPerKm)
            if paceList.count >= 3 && sameEffort && paceList.allSatisfy({ $0 < paces.easy.minSPerKm - 5 }) {
                vdot = oldVdot + 1
                reasons.append(
                    Notice(
                        code: NoticeCode.vdotUp,
                        message:
                            "\(paceList.count) easy runs in 3 weeks faster than the easy range at the same effort: VDOT +1 (\(String(format: "%.1f", vdot)))."
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
        let coming = Array(old.weeks[boundaryIdx...])
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
        base.preBreakLongestM =
            gap >= 8
            ? running.filter { $0.date > lastRun.adding(days: -14) && $0.date <= lastRun }.map(\.distanceM).max() : nil
        base.plannedWeeksM = coming.map { $0.runningVolume(paces: paces) }
        base.plannedLongM = coming.map { w in
            w.days.flatMap(\.workouts).filter { $0.type == .long }.map { $0.totalDistance(paces: paces) }.max() ?? 0
        }
        base.source = "adaptation"
        req.runner.baseline = base
        req.runner.fitness = PlanRequest.Fitness(vdot: (vdot * 10).rounded() / 10, race: nil)

        let generated = PlanEngine.generate(req)
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
        plan.weeks = history + plan.weeks
        plan.startDate = old.startDate ?? planStart
        plan.version = version + 1
        plan.history =
            (old.history ?? []) + [
                VersionSummary(
                    version: version,
                    createdOn: previous.request.generatedAt ?? old.adaptation?.asOf ?? previous.request.startDate,
                    reasons: old.adaptation?.reasons ?? [], trainingVdot: old.trainingVdot,
                    weekVolumesM: old.weeks.map { $0.runningVolume(paces: paces) },
                    weekStartDates: old.weeks.map(\.startDate))
            ]
        plan.adaptation = Adaptation(asOf: asOf, reasons: reasons, previousVersion: version)
        return PlanDocument(request: req, plan: plan)
    }
}
