import Foundation

/// Decides each week's volume and long run from the actual volumes placed so far, then lets
/// `WeekBuilder` lay the week out. Every bound is computed against what was really placed, so the
/// ramp rules hold by construction.
struct VolumePlanner {
    let setup: Setup

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
        switch gap {
        case ...7: return Reentry(cap: 0.90 * pre, firstWeekQuality: 2, secondWeekQuality: 3, preBreak: pre)
        case 8...14: return Reentry(cap: 0.75 * pre, firstWeekQuality: 1, secondWeekQuality: 2, preBreak: pre)
        case 15...28: return Reentry(cap: 0.60 * pre, firstWeekQuality: 1, secondWeekQuality: 1, preBreak: pre)
        default: return Reentry(cap: 0.40 * pre, firstWeekQuality: 0, secondWeekQuality: 1, preBreak: pre)
        }
    }

    /// Builds the weeks; if the longest run would fall outside 2–5 weeks before the race, caps the
    /// earlier long runs at what the last build weeks can hold and builds again.
    func buildWeeks() -> (weeks: [Week], qualityDropped: [Int]) {
        // A build whose longest run falls short of the minimum long run (cutbacks slowing a small
        // base too much) is built again with cutbacks spaced further apart (never more than forced).
        let normal = setup.level == .novice ? 3 : 4
        var first: (weeks: [Week], qualityDropped: [Int])? = nil
        for cycle in [normal, normal + 1, 5] where cycle >= normal {
            let out = attempt(cycle: cycle)
            if first == nil { first = out }
            let longest = out.weeks.map { $0.longestRun(paces: setup.paces) }.max() ?? 0
            if setup.mode == .adapt || longest >= setup.minLong { return out }
        }
        return first!
    }

    private func attempt(cycle: Int) -> (weeks: [Week], qualityDropped: [Int]) {
        var ceiling: Double? = nil
        var (weeks, dropped) = buildWeeks(longCeiling: nil, cycle: cycle)
        guard setup.mode == .new else { return (weeks, dropped) }
        for _ in 0..<3 {
            let longs = weeks.map { $0.longestRun(paces: setup.paces) }
            let n = longs.count
            guard let top = longs.max(), let last = longs.lastIndex(where: { $0 >= top - 1 }) else { break }
            if (2...5).contains(n - 1 - last) { break }
            let window = longs.enumerated().filter { (2...5).contains(n - 1 - $0.offset) }.map(\.element)
            guard let reachable = window.max(), reachable > 0 else { break }
            ceiling = min(ceiling ?? .infinity, reachable)
            (weeks, dropped) = buildWeeks(longCeiling: ceiling, cycle: cycle)
        }
        return (weeks, dropped)
    }

    private func buildWeeks(longCeiling: Double?, cycle: Int) -> ([Week], [Int]) {
        let s = setup
        let n = s.totalWeeks, p = s.preTaperWeeks
        let b = s.request.runner.baseline
        var volumes: [Double] =
            s.mode == .adapt
            ? (b.recentWeeksM ?? Array(repeating: s.baseline, count: 4))
            : Array(repeating: s.baseline, count: 4)
        var longs: [Double] =
            s.mode == .adapt
            ? Array((b.recentLongestM ?? Array(repeating: s.baselineLong, count: 4)).suffix(3))
            : Array(repeating: s.baselineLong, count: 3)
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
        let growth =
            level > 0 ? min(Coaching.rampFactor, max(1.0, pow(s.peak / level, 1.0 / Double(ups)))) : Coaching.rampFactor
        if inReentry { level = reentry!.cap / growth }
        var lastUpLong = longs.max() ?? 0
        // An adapted plan does not know the day before it: treat it as hard (no quality on day one).
        var lastDayHard = s.mode == .adapt
        var lastDayLong = s.mode == .adapt && s.longRunDay == s.weekStart.advanced(by: 6)
        var weeks: [Week] = []
        var qualityDropped: [Int] = []
        var peakActual = s.mode == .adapt ? (b.cyclePeakWeeklyM ?? 0) : 0
        var longPeakActual = s.mode == .adapt ? max(b.cycleLongestRunM ?? 0, b.recentLongestM?.max() ?? 0) : 0

        for i in 1...n {
            let weeksOut = n - i
            let last3 = volumes.suffix(3), last4 = volumes.suffix(4)
            var cap = Coaching.rampFactor * (last3.max() ?? 0)
            if !inReentry {
                cap = min(cap, Coaching.acuteChronicFactor * last4.reduce(0, +) / Double(max(1, last4.count)))
            }
            if inReentry, let r = reentry {
                cap = i == 1 ? min(cap, r.cap) : min(cap, 1.15 * (volumes.last ?? 0), r.preBreak)
            }
            if let planned = b.plannedWeeksM, i - 1 < planned.count { cap = min(cap, planned[i - 1]) }

            var target: Double
            var longTarget: Double
            var phase: Phase
            var isCut = false
            if i <= p {
                isCut = (desiredCut(i) && streak >= 2) || streak >= 4
                if isCut && !(inReentry && i == 1) {
                    target = min(Coaching.cutbackFactor * level, 0.85 * (volumes.last ?? level), cap)
                    longTarget = min(0.75 * lastUpLong, Coaching.longShareMax * target)
                    phase = .recovery
                } else {
                    isCut = false
                    level = min(s.peak, level * growth)
                    target = min(level, cap)
                    let longCap = (longs.suffix(3).max() ?? 0) + Coaching.longStepM
                    longTarget = min(s.longPeak, longCap, Coaching.longShareMax * target)
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
                // A share of the longest run actually placed in this build (and, when adapting, completed in it),
                // never of the long-run peak the plan aimed for: a return from a break that never reached that
                // peak made the taper's long run the longest of the plan (issue 17).
                longTarget = min(
                    longFrac * longPeakActual, Coaching.longShareMax * target,
                    (longs.suffix(3).max() ?? 0) + Coaching.longStepM)
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
            // sized against the recent long runs was longer than the taper's long run (found by CoachRules, issue 17).
            if i > p, weeksOut == 1 || weeksOut == 2, longPeakActual > 0 {
                runCap = min(runCap, ((weeksOut == 2 ? 0.75 : 0.55) * longPeakActual / 100).rounded(.down) * 100)
            }

            var maxQuality = Self.qualityLimit(level: s.level, phase: phase)
            if inReentry, let r = reentry {
                if i == 1 { maxQuality = min(maxQuality, r.firstWeekQuality) }
                if i == 2 { maxQuality = min(maxQuality, r.secondWeekQuality) }
            }
            let startDate = s.firstWeekStart.adding(days: 7 * (i - 1))
            let spec = WeekBuilder.Spec(
                index: i, startDate: startDate, phase: phase,
                volume: max(0, target - (i == 1 ? preStartCredit : 0)).rounded(.down),
                long: (longTarget / 100).rounded(.down) * 100, maxQuality: maxQuality,
                weeksOut: weeksOut, previousDayHard: lastDayHard, previousDayLong: lastDayLong,
                longWithMarathonPace: phase == .peak && (p - i) % 2 == 0 && weeksOut >= 4,
                recentLong: longs.suffix(3).max() ?? 0, runCap: runCap)
            let built = WeekBuilder(setup: s).build(spec)
            weeks.append(built.week)
            lastDayHard = built.lastDayHard
            lastDayLong = built.lastDayLong
            qualityDropped.append(built.qualityDropped)
            let prev = volumes.last ?? 0
            // Days of week 1 before start_date: the runner keeps running their baseline (ramps count it).
            volumes.append(built.volume + (i == 1 ? preStartCredit : 0))
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

    /// Baseline running credited to the days of week 1 before start_date (new plans only).
    var preStartCredit: Double {
        guard setup.mode == .new else { return 0 }
        let before = max(0, min(7, setup.firstWeekStart.days(to: setup.start)))
        return setup.baseline * Double(before) / 7
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
