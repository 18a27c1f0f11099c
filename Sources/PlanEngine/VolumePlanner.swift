import Foundation

/// Decides each week's volume and long run from the actual volumes placed so far, then lets
/// `WeekBuilder` lay the week out. Every bound is computed against what was really placed, so the
/// ramp rules hold by construction.
struct VolumePlanner {
    var setup: Setup
    /// The return's first week as a multiple of the return table's share (adapted plans close to their race).
    var returnBoost = 1.0
    /// Only this ramp (nil: the normal one, then the faster one if the long run falls short).
    var fastRamp: Bool? = nil
    /// Whether an adapted build's loading weeks may rise above the previous version's plan, to 87 % of the biggest
    /// week already run (tried only when no build within the plan tapers as the rubric measures it).
    var liftLoading = false

    /// Break tiers (adapt mode): days without running → cap on the first week (share of the week
    /// before the break) and the most quality sessions allowed in it.
    struct Reentry {
        var cap: Double
        var firstWeekQuality: Int
        var secondWeekQuality: Int
        var preBreak: Double
    }

    var reentry: Reentry? {
        guard setup.mode == .adapt, let gap = setup.request.runner.baseline.daysSinceLastRun, gap >= 5 else {
            return nil
        }
        let b = setup.request.runner.baseline
        let pre = b.preBreakWeekM ?? (b.recentWeeksM?.max() ?? b.weeklyDistanceM)
        let share = min(1, Self.returnShare(daysOff: gap) * returnBoost)
        switch gap {
        case ...7: return Reentry(cap: share * pre, firstWeekQuality: 2, secondWeekQuality: 3, preBreak: pre)
        case 8...14: return Reentry(cap: share * pre, firstWeekQuality: 1, secondWeekQuality: 2, preBreak: pre)
        case 15...28: return Reentry(cap: share * pre, firstWeekQuality: 1, secondWeekQuality: 1, preBreak: pre)
        default: return Reentry(cap: share * pre, firstWeekQuality: 0, secondWeekQuality: 1, preBreak: pre)
        }
    }

    /// The first week after `daysOff` days without running, as a share of the week before the break
    /// (docs/ADAPTATION.md, A5–A6: the return table). The rubric's ramp from the real weeks caps it further.
    static func returnShare(daysOff gap: Int) -> Double {
        switch gap {
        case ...7: return 0.90
        case 8...14: return 0.75
        case 15...28: return 0.60
        case 29...56: return 0.40
        default: return 0.30
        }
    }

    /// Builds the weeks; if the longest run would fall outside 2–5 weeks before the race, caps the
    /// earlier long runs at what the last build weeks can hold and builds again.
    func buildWeeks() -> (weeks: [Week], qualityDropped: [Int]) {
        guard setup.mode == .adapt else {
            // A new plan whose early weeks (held up by the weeks before the plan) outgrow what its last build weeks
            // can hold would taper for more than 3 weeks as the rubric counts them (H15): its peak comes down to what
            // the build's last weeks really hold.
            var out = peakChecked(buildWeeksOnce())
            for _ in 0..<3 where Self.reducedWeeks(out.weeks, setup) > 3 {
                let volumes = out.weeks.map { $0.runningVolume(paces: setup.paces) }
                let lastBuild = volumes[max(0, volumes.count - 1 - setup.taperWeeks)]
                var lower = self
                lower.setup.peak = min(setup.peak, (1.15 * lastBuild).rounded(.down))
                lower.setup.longPeak = min(setup.longPeak, Coaching.longShareCap(week: lower.setup.peak)).rounded(.down)
                let candidate = lower.peakChecked(lower.buildWeeksOnce())
                // Never at the cost of the minimum long run (the refusal that would follow is worse).
                let longest = candidate.weeks.map { $0.longestRun(paces: setup.paces) }.max() ?? 0
                guard longest >= setup.minLong else { break }
                out = candidate
            }
            return out
        }
        // An adapted build is searched: the return table's first week (raised in steps toward the week before the
        // break, when the race is near and the taper could not otherwise stand on enough running), and a taper of
        // 3 weeks, else 2 or 1 (Hansons' 10 days) — the first build whose taper holds (`taperProblems`), else the
        // one with the fewest problems.
        var best: (weeks: [Week], qualityDropped: [Int])? = nil
        var fewest = Int.max
        let boosts = reentry == nil ? [1.0] : [1.0, 1.2, 1.4, 1.7, 2.0, 3.0]
        let variants = [false, true].flatMap { lift in boosts.flatMap { b in [(lift, b, false), (lift, b, true)] } }
        for (lift, boost, fast) in variants {
            for t in stride(from: setup.taperWeeks, through: 1, by: -1) {
                var planner = self
                planner.returnBoost = boost
                planner.fastRamp = fast
                planner.liftLoading = lift
                planner.setup.taperWeeks = t
                let out = planner.peakChecked(planner.buildWeeksOnce())
                let problems = Self.taperProblems(out.weeks, setup)
                if problems == 0 { return out }
                if problems < fewest { best = out; fewest = problems }
            }
        }
        return best!
    }

    /// The peak as the rubric measures it (H14): the build weeks are those before the weeks under 85 % of the peak
    /// that lead into race week. A cutback just before the taper makes one build week fewer than planned, so the
    /// bound is checked on the weeks as placed and the build repeated under a lower peak if it is crossed.
    private func peakChecked(_ first: (weeks: [Week], qualityDropped: [Int])) -> (weeks: [Week], qualityDropped: [Int])
    {
        var out = first
        let base =
            setup.mode == .adapt
            ? max(setup.baseline, setup.request.runner.baseline.cyclePeakWeeklyM ?? 0) : setup.baseline
        var peak = setup.peak
        for attempt in 0..<4 {
            let volumes = out.weeks.map { $0.runningVolume(paces: setup.paces) }
            guard volumes.count > 1 else { break }
            let p = volumes.dropLast().max() ?? 0
            var taper = 0
            for v in volumes.dropLast().reversed() { if v <= 0.85 * p { taper += 1 } else { break } }
            let bound = Coaching.peakBound(base: base, buildWeeks: volumes.count - 1 - taper)
            // Crossed only when the placed peak is over the bound: a runner at the base line needs every metre of it,
            // so the peak comes down to the bound the placed weeks give, then in steps if the weeks still cross it.
            guard p > bound else { break }
            peak = (min(peak, bound) - 200 * Double(attempt)).rounded(.down)
            var lower = self
            lower.setup.peak = peak
            lower.setup.longPeak = min(setup.longPeak, Coaching.longShareCap(week: peak)).rounded(.down)
            out = lower.buildWeeksOnce()
        }
        return out
    }

    /// How many of the taper's conditions an adapted build misses, measured against the biggest week of the build
    /// (run or planned) as the rubric does (H15): 1–3 reduced weeks (≤ 85 %) before race week, the week before race
    /// week at 40 % or more, race week (without the race) at 15–60 %, the taper's weeks never growing.
    static func taperProblems(_ weeks: [Week], _ s: Setup) -> Int {
        let m = TaperMeasure(weeks.map { $0.runningVolume(paces: s.paces) }, baseline: s.request.runner.baseline)
        let volumes = m.volumes, n = volumes.count, p = m.peak, t = m.reduced
        guard n >= 2, p > 0 else { return 0 }
        let race = volumes[n - 1], r1 = volumes[n - 2], r2 = n >= 3 ? volumes[n - 3] : r1
        var problems = 0
        if n >= 3 && (t < 1 || t > 3) { problems += 1 }
        if r1 < 0.40 * p + 100 { problems += 1 }
        if race > 0.60 * p || race < 0.15 * p + 100 { problems += 1 }
        // Never growing, to the metre the rubric allows (H15).
        if (t >= 2 && !(r2 >= r1 - 1 && r1 >= race - 1)) || (t == 1 && r1 < race - 1) { problems += 1 }
        if volumes.dropLast().contains(0) { problems += 1 }
        return problems
    }

    /// Weeks right before race week under 85 % of the biggest week of the build (run or planned): the rubric's
    /// taper length.
    static func reducedWeeks(_ weeks: [Week], _ s: Setup) -> Int {
        TaperMeasure(weeks.map { $0.runningVolume(paces: s.paces) }, baseline: s.request.runner.baseline).reduced
    }

    private func buildWeeksOnce() -> (weeks: [Week], qualityDropped: [Int]) {
        // A build whose longest run falls short of the minimum long run (cutbacks slowing a small
        // base too much) is built again with cutbacks spaced further apart (never more than forced).
        // A runner near the base line (whose largest safe peak only just carries the minimum long run) is built
        // again with the faster ramp the rubric allows (≤ 1.18 × the biggest of three or + 2.9 km, acute:chronic
        // ≤ 1.45) — never refused while a build within the rules reaches the long run.
        let normal = setup.level == .novice ? 3 : 4
        var first: (weeks: [Week], qualityDropped: [Int])? = nil
        var reaches: (weeks: [Week], qualityDropped: [Int])? = nil
        // A new plan's build is taken when its longest run reaches the minimum and falls 2–5 weeks before the race;
        // failing that, the first that reaches the minimum.
        func accepted(_ out: (weeks: [Week], qualityDropped: [Int])) -> Bool {
            if setup.mode == .adapt { return true }
            let longs = out.weeks.map { $0.longestRun(paces: setup.paces) }
            guard let top = longs.max(), top >= setup.minLong else { return false }
            if reaches == nil { reaches = out }
            return Self.longestRunWeeksOut(longs).map(Self.longestRunWindow.contains) ?? false
        }
        for fast in fastRamp.map({ [$0] }) ?? [false, true] {
            for cycle in [normal, normal + 1, 5] where cycle >= normal {
                let out = attempt(cycle: cycle, fast: fast)
                if first == nil { first = out }
                if accepted(out) { return out }
            }
        }
        // Last, a short build near the line: every loading week as big as the faster ramp allows (not a smooth climb
        // to the peak), cutbacks only when the fifth loading week would come.
        if setup.mode == .new && fastRamp != false {
            let out = attempt(cycle: 5, fast: true, greedy: true)
            if accepted(out) { return out }
        }
        return reaches ?? first!
    }

    /// Where a new plan's longest run belongs: 2–5 weeks before race week (the rubric's 14–35 days, S13/H16).
    static let longestRunWindow = 2...5

    /// Weeks between the last week holding the longest run (to the metre) and race week, the last of `longs`.
    static func longestRunWeeksOut(_ longs: [Double]) -> Int? {
        guard let top = longs.max(), let last = longs.lastIndex(where: { $0 >= top - 1 }) else { return nil }
        return longs.count - 1 - last
    }

    private func attempt(cycle: Int, fast: Bool, greedy: Bool = false) -> (weeks: [Week], qualityDropped: [Int]) {
        var ceiling: Double? = nil
        var (weeks, dropped) = buildWeeks(longCeiling: nil, cycle: cycle, fast: fast, greedy: greedy)
        guard setup.mode == .new else { return (weeks, dropped) }
        for _ in 0..<3 {
            let longs = weeks.map { $0.longestRun(paces: setup.paces) }
            let n = longs.count
            guard let out = Self.longestRunWeeksOut(longs) else { break }
            if Self.longestRunWindow.contains(out) { break }
            let window = longs.enumerated().filter { Self.longestRunWindow.contains(n - 1 - $0.offset) }.map(\.element)
            guard let reachable = window.max(), reachable > 0 else { break }
            ceiling = min(ceiling ?? .infinity, reachable)
            (weeks, dropped) = buildWeeks(longCeiling: ceiling, cycle: cycle, fast: fast, greedy: greedy)
        }
        return (weeks, dropped)
    }

    private func buildWeeks(longCeiling: Double?, cycle: Int, fast: Bool = false, greedy: Bool = false) -> (
        [Week], [Int]
    ) {
        let s = setup
        let n = s.totalWeeks, p = s.preTaperWeeks
        let b = s.request.runner.baseline
        // The weeks before week 1 are the runner's real ones when the request has them (`recent_weeks_m`, new plans
        // too: the store's last four weeks), else the baseline repeated.
        var volumes: [Double] = b.recentWeeksM ?? Array(repeating: s.baseline, count: 4)
        // The same weeks for the acute:chronic ratio, where a partial first week counts as at least the baseline
        // (the runner's own running fills the days before the start); the ramp's reference counts only what the
        // plan placed in it, so a one-day first week never inflates the reference week 2 ramps from.
        var chronicVolumes = volumes
        var longs: [Double] = Array((b.recentLongestM ?? Array(repeating: s.baselineLong, count: 4)).suffix(3))
        let reentry = self.reentry
        var inReentry = reentry != nil
        // Consecutive non-cutback weeks before week 1 (a new plan starts counting at zero).
        var streak = 0
        if s.mode == .adapt && !inReentry {
            for j in stride(from: volumes.count - 1, to: 0, by: -1) {
                if volumes[j] > 0.9 * volumes[j - 1] { streak += 1 } else { break }
            }
        }
        func desiredCut(_ i: Int) -> Bool { i <= p && (p - i) % cycle == cycle - 1 }

        // Smooth ramp from the start level to the peak, holding the peak for the last two build weeks.
        var level = min(
            s.peak, inReentry ? reentry!.cap : (s.mode == .adapt ? (volumes.last ?? s.baseline) : s.baseline))
        let ups = max(1, (1...max(1, p)).filter { !desiredCut($0) }.count - 2)
        // A return climbs back (A7), and a runner near the base line builds, at the faster ramp.
        // The greedy build (a short build near the line) takes the rubric's own ramp limits to a few metres.
        let rampFast = greedy ? Coaching.edgeRampFactor : Coaching.fastRampFactor
        let maxGrowth = fast || inReentry ? rampFast : Coaching.rampFactor
        // The faster build also lets the long run step by 3.9 km (the rubric's H20 allows 4 km over the longest of
        // the three weeks before; Higdon and Pfitzinger add about 2 miles).
        let longStep = fast || inReentry ? Coaching.fastLongStepM : Coaching.longStepM
        let growth =
            level > 0 && !greedy ? min(maxGrowth, max(1.0, pow(s.peak / level, 1.0 / Double(ups)))) : maxGrowth
        if inReentry { level = reentry!.cap / growth }
        var lastUpLong = longs.max() ?? 0
        // An adapted plan does not know the day before it: treat it as hard (no quality on day one).
        var lastDayHard = s.mode == .adapt
        var lastDayLong = s.mode == .adapt && s.longRunDay == s.weekStart.advanced(by: 6)
        var weeks: [Week] = []
        var qualityDropped: [Int] = []
        var peakActual = s.mode == .adapt ? (b.cyclePeakWeeklyM ?? 0) : 0
        // The biggest week already run in this build (adapt): the rubric measures the taper against it.
        let cycleRef = s.mode == .adapt ? max(b.cyclePeakWeeklyM ?? 0, b.recentWeeksM?.max() ?? 0) : 0
        var longPeakActual = s.mode == .adapt ? max(b.cycleLongestRunM ?? 0, b.recentLongestM?.max() ?? 0) : 0

        for i in 1...n {
            let weeksOut = n - i
            let last3 = volumes.suffix(3), last4 = chronicVolumes.suffix(4)
            var cap = Coaching.rampFactor * (last3.max() ?? 0)
            let chronic = last4.reduce(0, +) / Double(max(1, last4.count))
            // The acute:chronic ratio is undefined over four empty weeks (the rubric skips it there too).
            let acuteChronic = { (factor: Double) in chronic > 0 ? factor * chronic : Double.infinity }
            if !inReentry { cap = min(cap, acuteChronic(Coaching.acuteChronicFactor)) }
            if fast && !inReentry {
                let ref = last3.max() ?? 0
                cap = min(
                    max(rampFast * ref, ref + (greedy ? Coaching.edgeRampStepM : Coaching.fastRampStepM)),
                    acuteChronic(greedy ? Coaching.edgeAcuteChronicMax : Coaching.returnAcuteChronicMax))
            }
            if inReentry, let r = reentry {
                // Back to a level already run: the envelope is the rubric's (≤ 1.2 × the biggest of the last three
                // real weeks, or + 3 km — which is what lets a return after weeks of zeros start at all — and an
                // acute:chronic ratio under 1.5), the first week inside the return table's share of the week before
                // the break, none above that week.
                let ref = last3.max() ?? 0
                let envelope = min(
                    max(1.18 * ref, ref + Coaching.returnStepM), acuteChronic(Coaching.returnAcuteChronicMax))
                cap = i == 1 ? min(envelope, r.cap) : min(envelope, r.preBreak)
            }
            // Nothing added back (A9): no week above what the previous version planned for it — except that the
            // loading weeks before the taper may hold 87 % of the biggest week already run in this build, since the
            // taper is measured against that week (a runner who ran 96 km weeks tapers from 96 km, not from the 66
            // planned). A loading week before the taper may go back up to 87 % of that week (never a cutback or a taper
            // week).
            var loadingCap = cap
            if let planned = b.plannedWeeksM, i - 1 < planned.count {
                loadingCap = min(cap, liftLoading ? max(planned[i - 1], 0.87 * cycleRef) : planned[i - 1])
                cap = min(cap, planned[i - 1])
            }

            var target: Double
            var longTarget: Double
            var phase: Phase
            var isCut = false
            if i <= p {
                // During a return the cutbacks come only when due (the fifth loading week): the weeks climb back
                // to a level already run.
                isCut = (!inReentry && desiredCut(i) && streak >= 2) || streak >= 4
                if isCut && !(inReentry && i == 1) {
                    target = min(Coaching.cutbackFactor * level, 0.85 * (volumes.last ?? level), cap)
                    longTarget = min(0.75 * lastUpLong, Coaching.longShareCap(week: target))
                    phase = .recovery
                } else {
                    isCut = false
                    level = min(s.peak, level * growth)
                    target = min(level, loadingCap)
                    let longCap = (longs.suffix(3).max() ?? 0) + longStep
                    longTarget = min(s.longPeak, longCap, Coaching.longShareCap(week: target))
                    let frac = Double(i) / Double(max(1, p))
                    phase = frac <= 0.35 ? .base : (i > p - max(2, Int((Double(p) * 0.3).rounded())) ? .peak : .build)
                }
            } else {
                let peakRef = max(peakActual, s.mode == .adapt ? (volumes.max() ?? 0) : 0)
                let fractions: [Double] = [0.30, 0.68, 0.82] // race week, week before, two weeks out
                let frac = fractions[min(weeksOut, 2)]
                let longFrac: Double = weeksOut == 2 ? 0.75 : (weeksOut == 1 ? 0.55 : 0)
                target = min(frac * peakRef, 0.97 * (volumes.last ?? 0), cap)
                if weeksOut == 1 && s.taperWeeks == 2 { target = min(0.70 * peakRef, 0.97 * (volumes.last ?? 0), cap) }
                if s.mode == .adapt {
                    // An adapted taper is measured against the biggest week of the build, run or planned: the week
                    // before race week at 42–84 % of it, race week at 18–58 %, each no bigger than the taper week
                    // before it — as far as the ramp from the weeks really run allows.
                    let ref = max(peakRef, cycleRef)
                    let floor = weeksOut == 1 ? 0.42 * ref : (weeksOut == 0 ? 0.18 * ref : 0)
                    let ceiling = weeksOut == 1 ? 0.84 * ref : (weeksOut == 0 ? 0.58 * ref : 0.84 * ref)
                    let previousTaper = i - 1 > p ? (volumes.last ?? 0) : Double.infinity
                    target = min(max(min(frac * ref, ceiling), floor), cap, previousTaper)
                    // A plan that is only race week: the ramp rules judge the weeks before it, not race week itself;
                    // it holds its share of the build's biggest week (a few short runs), never nothing.
                    if n == 1 { target = max(min(frac * ref, ceiling), floor) }
                }
                // A share of the longest run actually placed in this build (and, when adapting, completed in it),
                // never of the long-run peak the plan aimed for: a return from a break that never reached that
                // peak made the taper's long run the longest of the plan.
                longTarget = min(
                    longFrac * longPeakActual, Coaching.longShareCap(week: target),
                    (longs.suffix(3).max() ?? 0) + longStep)
                phase = weeksOut == 0 ? .race : .taper
            }
            if let planned = b.plannedLongM, i - 1 < planned.count { longTarget = min(longTarget, planned[i - 1]) }
            // After a break the long run returns like the volume: the tier's share of the longest run before
            // the break in the first week, then at most 15 % more a week.
            var runCap = Double.infinity
            if inReentry, let r = reentry, let preLong = b.preBreakLongestM, preLong > 0 {
                let firstCap = r.cap / max(1, r.preBreak) * preLong
                runCap = i == 1 ? firstCap : 1.15 * (longs.last ?? firstCap)
                longTarget = min(longTarget, runCap)
            }
            longTarget = min(longTarget, s.maxLong)
            if let c = longCeiling, weeksOut > 5 { longTarget = min(longTarget, c) }
            // The taper's long-run limits hold for every run of the week, not only the one typed `long`: an easy run
            // sized against the recent long runs was longer than the taper's long run (found by CoachRules).
            if i > p, weeksOut == 1 || weeksOut == 2, longPeakActual > 0 {
                runCap = min(runCap, ((weeksOut == 2 ? 0.75 : 0.55) * longPeakActual / 100).rounded(.down) * 100)
            }
            // The same limits counted in days from race day, whatever weekday it is and whatever week start the
            // runner chose (H16): a week holding any of the last 13 days runs nothing longer than 68 % of the longest
            // run before it, one holding any of the last 6 days nothing longer than 15.9 km.
            let startDate = s.firstWeekStart.adding(days: 7 * (i - 1))
            let lastDayOut = startDate.adding(days: 6).days(to: s.race)
            if lastDayOut <= 13, longPeakActual > 0 {
                runCap = min(runCap, (0.68 * longPeakActual / 100).rounded(.down) * 100)
            }
            if lastDayOut <= 6 { runCap = min(runCap, Coaching.finalDaysRunMaxM) }
            longTarget = min(longTarget, runCap)

            var maxQuality = Self.qualityLimit(level: s.level, phase: phase)
            if inReentry, let r = reentry {
                if i == 1 { maxQuality = min(maxQuality, r.firstWeekQuality) }
                if i == 2 { maxQuality = min(maxQuality, r.secondWeekQuality) }
            }
            // A return week too small for three runs of the usual shortest length holds three short ones (down to
            // 1 km: a return-to-run session), never fewer running days than the runner has.
            let weekVolume = max(0, target - (i == 1 ? preStartCredit : 0)).rounded(.down)
            let returnRun: Double? =
                inReentry && weekVolume < 3 * s.minRun ? max(500, (weekVolume / 3 / 100).rounded(.down) * 100) : nil
            if returnRun != nil { maxQuality = min(maxQuality, weekVolume >= 12_000 ? maxQuality : 0) }
            let spec = WeekBuilder.Spec(
                index: i, startDate: startDate, phase: phase,
                volume: weekVolume,
                // A return week of short runs holds them equal: the long run is one of them.
                long: Self.sized(min(longTarget, returnRun ?? .infinity), minLong: s.minLong), maxQuality: maxQuality,
                weeksOut: weeksOut, previousDayHard: lastDayHard, previousDayLong: lastDayLong,
                longWithMarathonPace: phase == .peak && (p - i) % 2 == 0 && weeksOut >= 4,
                recentLong: longs.suffix(3).max() ?? 0, runCap: runCap, minRun: returnRun, longStep: longStep)
            let built = WeekBuilder(setup: s).build(spec)
            weeks.append(built.week)
            lastDayHard = built.lastDayHard
            lastDayLong = built.lastDayLong
            qualityDropped.append(built.qualityDropped)
            let prev = volumes.last ?? 0
            volumes.append(built.volume)
            // (The greedy build counts a partial first week as the rubric does, H12: at least the baseline.)
            chronicVolumes.append(
                i == 1 && preStartCredit > 0
                    ? max(built.volume, greedy ? s.baseline : min(built.volume + preStartCredit, s.baseline))
                    : built.volume)
            longs.append(built.longest)
            if i <= p {
                peakActual = max(peakActual, built.volume)
                longPeakActual = max(longPeakActual, built.longest)
                if volumes.last! <= 0.9 * prev { streak = 0 } else { streak += 1 }
                if !isCut { lastUpLong = built.longest }
                if inReentry, let r = reentry, built.volume >= 0.97 * r.preBreak { inReentry = false }
            }
        }
        return (weeks, qualityDropped)
    }

    /// A long run to 10 m, or the minimum long run to the metre when that is all the limits leave room for.
    static func sized(_ long: Double, minLong: Double) -> Double {
        let tens = (long / 10).rounded(.down) * 10
        return tens < minLong && long >= minLong ? minLong : tens
    }

    /// Running credited to the days of week 1 before start_date (new plans only): the last real week's daily mean
    /// when the store gives it (a runner two weeks into a break ran nothing on those days), else the baseline's;
    /// never more than the baseline's.
    var preStartCredit: Double {
        guard setup.mode == .new else { return 0 }
        let before = max(0, min(7, setup.firstWeekStart.days(to: setup.start)))
        let lastWeek = min(setup.request.runner.baseline.recentWeeksM?.last ?? setup.baseline, setup.baseline)
        return lastWeek * Double(before) / 7
    }

    static func qualityLimit(level: PlanRequest.Experience, phase: Phase) -> Int {
        switch phase {
        case .base: return 1 + (level == .novice ? 0 : 1)
        case .build: return level == .novice ? 1 : 2
        case .peak: return level == .novice ? 2 : (level == .intermediate ? 2 : 3)
        case .recovery: return 1
        case .taper: return level == .novice ? 1 : 2
        case .race: return 2
        }
    }
}

/// The taper as the rubric measures it (H15): the build's biggest week — of the weeks before race week, the cycle's
/// peak already run and the real weeks before the plan — and how many weeks right before race week stay under 85 %
/// of it. `volumes` ends with race week.
struct TaperMeasure {
    let volumes: [Double]
    let peak: Double
    let reduced: Int

    init(_ volumes: [Double], baseline b: PlanRequest.Baseline) {
        self.volumes = volumes
        let p = max(volumes.dropLast().max() ?? 0, b.cyclePeakWeeklyM ?? 0, b.recentWeeksM?.max() ?? 0)
        peak = p
        reduced = volumes.dropLast().reversed().prefix { $0 <= 0.85 * p }.count
    }
}
