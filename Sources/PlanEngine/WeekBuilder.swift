import Foundation

/// Lays one week out: long run on the preferred day, quality sessions away from it and from each
/// other, easy runs spread over the remaining available days, at least one day without running.
struct WeekBuilder {
    let setup: Setup

    struct Spec {
        var index: Int
        var startDate: LocalDate
        var phase: Phase
        var volume: Double
        var long: Double
        var maxQuality: Int
        var weeksOut: Int
        var previousDayHard: Bool
        /// The day before this week was a long day (its first day's run is then a recovery run).
        var previousDayLong: Bool = false
        var longWithMarathonPace: Bool
        /// Longest run of the last three weeks (ordinary runs stay clearly shorter).
        var recentLong: Double = 0
        /// No run of the week may be longer (the return after a break caps every run, not only the long one).
        var runCap: Double = .infinity
        /// The shortest run of the week, when not the usual (`Setup.minRun`): a return week's short runs.
        var minRun: Double? = nil
        /// How far a run may grow over the longest of the last three weeks.
        var longStep: Double = Coaching.longStepM
    }

    struct Built {
        var week: Week
        var volume: Double
        var longest: Double
        var lastDayHard: Bool
        var lastDayLong: Bool = false
        /// Quality sessions the phase asked for that the available days could not hold.
        var qualityDropped: Int = 0
    }

    enum Session { case threshold, tempo, intervals, repetition, marathonPace }

    func build(_ spec: Spec) -> Built {
        var built = sized(spec)
        // When the week's other runs cannot carry the long run (≤ 55 % of the week), a quality session
        // gives way to an easy run as long as that lets the long run grow (the plan warns QUALITY_DROPPED).
        var s = spec, dropped = 0
        while spec.phase != .race, built.longest < spec.long - 100, s.maxQuality > 0 {
            let sessions = built.week.days.filter {
                $0.workouts.contains { $0.isRun && $0.isQuality(paces: setup.paces) }
            }.count
            guard sessions > 0 else { break }
            s.maxQuality = min(s.maxQuality, sessions) - 1
            let retry = sized(s)
            guard retry.longest > built.longest + 100 else { break }
            built = retry; dropped += 1
        }
        built.qualityDropped += dropped
        return threeRunDays(built, spec)
    }

    /// At least three running days in every whole week but race week when the runner has them (the rubric's H09):
    /// a week the sizing left on fewer days (a tiny return week, a long run that took the easy days' share) gets
    /// short easy runs on free available days, their distance taken from the week's longest easy-paced run.
    private func threeRunDays(_ built: Built, _ spec: Spec) -> Built {
        let s = setup
        let dates = built.week.days.map(\.date)
        guard spec.phase != .race, let first = dates.first, first >= s.start, s.runDays >= 3 else { return built }
        var plan = built.week.days.map(\.workouts)
        func runDays() -> [Int] { plan.indices.filter { plan[$0].contains(where: \.isRun) } }
        let eligible = { (i: Int) in
            s.available.contains(dates[i].weekday) && dates[i].days(to: s.race) > 1 && !plan[i].contains(where: \.isRun)
        }
        let easyTypes: Set<WorkoutType> = [.long, .easy, .mediumLong, .recovery, .strides]
        var changed = false
        while runDays().count < 3 {
            let free = plan.indices.filter(eligible)
            guard let d = spread(free, from: runDays()) else { break }
            // The longest easy-paced run gives a share (never below 500 m on either side).
            let donors = plan.indices.flatMap { i in plan[i].indices.map { (i, $0) } }.filter { i, k in
                easyTypes.contains(plan[i][k].type) && (plan[i][k].segments ?? []).allSatisfy { $0.zone == .easy }
            }
            guard
                let (i, k) = donors.max(by: {
                    (plan[$0.0][$0.1].distanceM ?? 0) < (plan[$1.0][$1.1].distanceM ?? 0)
                }), let total = plan[i][k].distanceM, total >= 1000
            else { break }
            let take = max(500, round100(min(total / 3, 5000)))
            guard total - take >= 500 else { break }
            let donor = plan[i][k]
            plan[i][k] =
                donor.type == .long
                ? longRun(spec, distance: total - take, marathonPace: 0, day: dates[i])
                : easy(spec, distance: total - take, day: dates[i], type: donor.type == .strides ? .easy : donor.type)
            plan[d].append(easy(spec, distance: take, day: dates[d], type: .easy))
            changed = true
        }
        guard changed else { return built }
        var out = finish(spec, dates: dates, plan: plan)
        out.qualityDropped = built.qualityDropped
        return out
    }

    private func sized(_ spec: Spec) -> Built {
        var sizeBy = spec.volume
        var built = spec.phase == .race ? raceWeek(spec, sizeBy: sizeBy) : layout(spec, sizeBy: sizeBy)
        // Session sizes follow the week's volume; if less could be placed, size again against what was placed.
        for _ in 0..<4 where built.volume < sizeBy - 100 {
            sizeBy = built.volume
            built = spec.phase == .race ? raceWeek(spec, sizeBy: sizeBy) : layout(spec, sizeBy: sizeBy)
        }
        return built
    }

    // MARK: - Regular weeks

    private func layout(_ spec: Spec, sizeBy: Double) -> Built {
        let s = setup
        let minRun = spec.minRun ?? s.minRun
        let dates = (0..<7).map { spec.startDate.adding(days: $0) }
        // The last four days before a race in the next week take only easy running; the day before is rest.
        let nearRace = dates.map { (1...4).contains($0.days(to: s.race)) }
        let eligible = dates.map { s.available.contains($0.weekday) && $0 >= s.start && $0.days(to: s.race) > 1 }
        var plan: [[Workout]] = Array(repeating: [], count: 7)
        let v = spec.volume

        // Long run.
        var lr: Int? = nil
        var long = spec.long
        if let j = dates.firstIndex(where: { $0.weekday == s.longRunDay }), eligible[j], !nearRace[j], long >= minRun {
            lr = j
        } else {
            long = 0
        }
        var longMP = 0.0
        if let l = lr, spec.longWithMarathonPace, spec.maxQuality >= 2, long >= 18_000,
            !(l == 0 && spec.previousDayHard)
        {
            let cap: Double =
                switch s.level {
                case .novice: 8000;
                case .intermediate: 12_000;
                case .experienced: 16_000
                }
            longMP =
                (min(0.2 * sizeBy, cap, long - 10_000, 6600 / s.paces.marathon.mid * 1000) / 1000).rounded(.down) * 1000
            if longMP < 5000 { longMP = 0 }
        }

        // Quality days: not next to the long run or each other, not the day after last week's hard day.
        var sessions = menu(spec)
        // Keep at least one easy day beside the long run: quality never takes every running day.
        let qualityBudget = max(0, min(spec.maxQuality - (longMP > 0 ? 1 : 0), s.runDays - (lr != nil ? 2 : 1)))
        sessions = Array(sessions.prefix(qualityBudget))
        var blocked = Set<Int>()
        if let l = lr { blocked.formUnion([l, (l + 6) % 7, (l + 1) % 7]) }
        if spec.previousDayHard { blocked.insert(0) }
        let maxRunDays = s.runDays
        var qDays: [Int] = []
        var built: [(Int, Workout)] = []
        var used = (lr != nil ? 1 : 0)
        let candidates = (0..<7).filter { eligible[$0] && !blocked.contains($0) && !nearRace[$0] }
        let wanted = min(sessions.count, maxRunDays - used)
        let chosen = bestQualityDays(candidates, count: wanted, longRun: lr)
        // Sessions the days cannot hold without breaking a rule are given up (and the plan says so).
        let dropped = wanted - chosen.count
        var sessionQueue = sessions
        for day in chosen {
            while !sessionQueue.isEmpty {
                let session = sessionQueue.removeFirst()
                if let w = workout(session, spec: spec, sizeBy: sizeBy, day: dates[day]),
                    (w.distanceM ?? 0) <= stepCap(spec)
                {
                    qDays.append(day); used += 1; built.append((day, w)); break
                }
            }
        }
        // Hard running (T + I + R) stays within 20 % of the week.
        while hardDistance(built.map(\.1)) > 0.2 * sizeBy, !built.isEmpty {
            built.removeLast(); qDays.removeLast(); used -= 1
        }

        var remaining = v - long - built.reduce(0) { $0 + ($1.1.distanceM ?? 0) }
        while remaining < 0, !built.isEmpty {
            built.removeLast(); qDays.removeLast(); used -= 1
            remaining = v - long - built.reduce(0) { $0 + ($1.1.distanceM ?? 0) }
        }
        if remaining < 0 { long = max(0, long + remaining); remaining = 0 }

        // Easy days spread over what is left.
        let taken = Set(qDays + (lr.map { [$0] } ?? []))
        var free = (0..<7).filter { eligible[$0] && !taken.contains($0) }
        let slots = maxRunDays - used
        let wholeWeek = dates[0] >= s.start
        // An ordinary run stays clearly shorter than the long run; in a partial first week also within 55 % of the
        // runner's own weekly running, which fills the days before the start (the rubric's H19 counts any run).
        let easyCap = min(
            s.maxRun, max(minRun, round100(0.75 * max(spec.long, spec.recentLong, minRun))), stepCap(spec),
            wholeWeek ? .infinity : round100(Coaching.longShareMax * s.baseline))
        var e = min(slots, free.count, Int((remaining / minRun).rounded(.down)))
        // At least three running days in a whole week when the runner has them (the rubric's H09): shorter easy runs
        // (down to 1 km, or a return week's shortest run) rather than a week on two days.
        let needed = max(0, 3 - used)
        if wholeWeek, e < needed, remaining >= min(1000, minRun) * Double(needed) { e = min(needed, slots, free.count) }
        while e > 0 && remaining / Double(e) > easyCap && e < min(slots, free.count) { e += 1 }
        var easyDays: [Int] = []
        for _ in 0..<max(0, e) {
            guard let d = spread(free, from: Array(taken) + easyDays) else { break }
            easyDays.append(d); free.removeAll { $0 == d }
        }
        easyDays.sort()
        var easyDistances: [Double] = []
        if !easyDays.isEmpty {
            let each = min(easyCap, (remaining / Double(easyDays.count) / 100).rounded(.down) * 100)
            easyDistances = Array(repeating: each, count: easyDays.count)
            // The slack to 10 m: at the base line the long run's 55 % needs every metre the week holds.
            let slack = ((remaining - each * Double(easyDays.count)) / 10).rounded(.down) * 10
            if slack > 0 { easyDistances[0] = min(easyCap, easyDistances[0] + slack) }
        }
        // Recovery runs (the day after the long run, or after a hard last day of the week before) stay short:
        // ≤ 60 % of the long run and ≤ 45 min; what they give up goes to the other easy days if it fits.
        let recovery = easyDays.indices.filter { k in
            easyType(after: easyDays[k], lr: lr, q: qDays, previousDayLong: spec.previousDayLong) == .recovery
        }
        func capRecovery(_ long: Double) {
            let cap = round100(min(long > 0 ? Coaching.recoveryShareOfLong * long : .infinity, s.maxRecovery))
            for k in recovery where easyDistances[k] > cap {
                var excess = easyDistances[k] - cap
                easyDistances[k] = cap
                for j in easyDistances.indices where !recovery.contains(j) && excess >= 100 {
                    let add = round100(min(excess, easyCap - easyDistances[j]))
                    if add > 0 { easyDistances[j] += add; excess -= add }
                }
            }
        }
        // The long run keeps within 55 % of what the week really holds (recovery caps and long run settle together).
        var loneRun = false
        // long ≤ 55 % of (long + others), within half a metre: long ≤ (0.55 × others + 0.5) / 0.45.
        let longShare = Coaching.longShareMax, slack = 0.5
        func longCapFor(_ others: Double) -> Double { (longShare * others + slack) / (1 - longShare) }
        for _ in 0..<60 {
            capRecovery(loneRun ? 0 : long)
            var others = easyDistances.reduce(0, +) + built.reduce(0) { $0 + ($1.1.distanceM ?? 0) }
            // What rounding and the recovery cap left of the week goes to an ordinary easy run before the long run
            // gives way (at the base line the minimum long run needs every metre of the week).
            let deficit = (((1 - longShare) * long - slack) / longShare - others).rounded(.up)
            if !loneRun, deficit > 0, long + others + deficit <= v,
                let k = easyDistances.indices.first(where: {
                    !recovery.contains($0) && easyDistances[$0] + deficit <= easyCap
                })
            {
                easyDistances[k] += deficit
                others += deficit
            } else if !loneRun, deficit > 0, let q = built.indices.first(where: { built[$0].1.hasCooldown }) {
                // No easy run to take it (the week's quality and long run leave less than a run's minimum): the
                // metres go to a quality session's cool-down, easy running that changes neither its work nor the
                // week's hard share — at the base line the long run's 55 % needs them.
                let add = (deficit / 10).rounded(.up) * 10
                if long + others + add <= v {
                    built[q].1 = built[q].1.withLongerCooldown(by: add)
                    others += add
                }
            }
            // The long run is sized to 10 m: at the base line the week's 55 % is the minimum long run to the metre.
            let longCap = VolumePlanner.sized(longCapFor(others), minLong: s.minLong)
            if long <= longCap || loneRun { break }
            if others == 0 {
                // A partial first week holding only the long-run day: an easy run instead, no longer than 55 % of
                // the runner's own weekly running (which fills the days before the start; the rubric's H19).
                long = min(long, easyCap, round100(Coaching.longShareMax * s.baseline))
                loneRun = true; longMP = 0
            } else {
                long = long - longCap > 10 ? longCap : long - 10
                if long < minRun { long = 0 }
                if longMP > 0 && long - longMP < 10_000 { longMP = 0 }
            }
        }
        // A recovery run too short to be worth it becomes a rest day.
        var removed = false
        for k in recovery.reversed() where easyDistances[k] < min(minRun, 3000) {
            // Never below three running days in a whole week (H09).
            if wholeWeek && used + easyDays.count <= 3 && easyDistances[k] >= min(1000, minRun) { continue }
            easyDistances.remove(at: k); easyDays.remove(at: k); removed = true
        }
        if removed && !loneRun {
            let others = easyDistances.reduce(0, +) + built.reduce(0) { $0 + ($1.1.distanceM ?? 0) }
            long = min(long, VolumePlanner.sized(longCapFor(others), minLong: s.minLong))
            if long < minRun { long = 0 }
            if longMP > 0 && long - longMP < 10_000 { longMP = 0 }
        }

        // Assemble.
        if let l = lr, long > 0 {
            plan[l].append(
                loneRun
                    ? easy(spec, distance: long, day: dates[l], type: .easy)
                    : longRun(spec, distance: long, marathonPace: longMP, day: dates[l]))
        }
        for (d, w) in built { plan[d].append(w) }
        var stridesLeft =
            spec.weeksOut >= 2 && 600 <= 0.05 * sizeBy && hardDistance(built.map(\.1)) + 600 <= 0.2 * sizeBy ? 1 : 0
        var mediumLongLeft = s.level != .novice && (spec.phase == .build || spec.phase == .peak) ? 1 : 0
        for (k, d) in easyDays.enumerated() {
            let dist = easyDistances[k]
            if stridesLeft > 0 && dist >= 5000 && !(lr.map { d == $0 + 1 } ?? false)
                && !(d == 0 && spec.previousDayHard)
            {
                plan[d].append(strides(spec, distance: dist, day: dates[d])); stridesLeft -= 1
            } else if mediumLongLeft > 0 && dist >= 14_000 {
                plan[d].append(easy(spec, distance: dist, day: dates[d], type: .mediumLong)); mediumLongLeft -= 1
            } else {
                plan[d].append(
                    easy(
                        spec, distance: dist, day: dates[d],
                        type: easyType(after: d, lr: lr, q: qDays, previousDayLong: spec.previousDayLong)))
            }
        }
        // Optional easy cross-training on a spare available day for runners on few running days.
        let spare = (0..<7).filter { eligible[$0] && plan[$0].isEmpty }
        if s.runDays <= 4, spare.count >= 2, [.base, .build, .peak, .recovery].contains(spec.phase) {
            let d = spare[spare.count / 2]
            plan[d].append(
                Workout(
                    id: id(spec, dates[d], suffix: "x"), type: .crossTraining, sport: .bike, durationS: 2700,
                    intensity: .easy,
                    description: "Optional 45 min easy spin: aerobic work without the pounding (not running volume)."))
        }
        var out = finish(spec, dates: dates, plan: plan)
        out.qualityDropped = spec.weeksOut >= 2 ? max(0, dropped) : 0
        return out
    }

    private func menu(_ spec: Spec) -> [Session] {
        let novice = setup.level == .novice
        switch spec.phase {
        case .base: return novice ? [.threshold] : [.threshold, .repetition]
        case .build: return novice ? [.threshold] : [.intervals, .threshold]
        case .peak: return novice ? [.tempo, .marathonPace] : [.threshold, .marathonPace, .intervals]
        case .recovery: return [.threshold]
        case .taper: return [.threshold, .marathonPace]
        case .race: return [.marathonPace]
        }
    }

    private func easyType(after d: Int, lr: Int?, q: [Int], previousDayLong: Bool) -> WorkoutType {
        if let l = lr, d == l + 1 { return .recovery }
        if d == 0 && previousDayLong { return .recovery }
        return .easy
    }

    // MARK: - Race week

    private func raceWeek(_ spec: Spec, sizeBy: Double) -> Built {
        let s = setup
        let dates = (0..<7).map { spec.startDate.adding(days: $0) }
        var plan: [[Workout]] = Array(repeating: [], count: 7)
        let raceIdx = dates.firstIndex(of: s.race) ?? 6
        // Runs only up to three days before the race; the day before is a rest day.
        let eligible = (0..<7).map {
            $0 < raceIdx - 1 && s.available.contains(dates[$0].weekday) && dates[$0] >= s.start
        }
        // A plan that is only race week (a return days before the race) may run four days, so that race week holds
        // its share of the build's biggest week in runs no longer than the step from the weeks before.
        let others = max(0, min(s.runDays - 1, spec.index == 1 ? 4 : 3))
        var remaining = spec.volume
        var used: [Int] = []
        if others > 0 && spec.maxQuality >= 2 && remaining >= 7000 {
            let candidates = [1, 2].filter { $0 <= raceIdx - 4 && eligible[$0] && !($0 == 0 && spec.previousDayHard) }
            if let d = candidates.first, let w = workout(.marathonPace, spec: spec, sizeBy: sizeBy, day: dates[d]),
                (w.distanceM ?? 0) <= stepCap(spec)
            {
                plan[d].append(w); used.append(d); remaining -= w.distanceM ?? 0
            }
        }
        var free = (0..<7).filter { eligible[$0] && !used.contains($0) }
        let e = min(others - used.count, free.count, Int((remaining / (spec.minRun ?? s.minRun)).rounded(.down)))
        var easyDays: [Int] = []
        for _ in 0..<max(0, e) {
            guard let d = spread(free, from: used + easyDays + [raceIdx]) else { break }
            easyDays.append(d); free.removeAll { $0 == d }
        }
        if !easyDays.isEmpty {
            // Runs of up to 10 km; on two days or fewer up to 14 km, so race week keeps its share of the peak.
            let each = min(
                easyDays.count <= 2 ? 14_000 : 10_000, s.maxRun, stepCap(spec),
                (remaining / Double(easyDays.count) / 100).rounded(.down) * 100)
            for d in easyDays.sorted() {
                plan[d].append(
                    easy(
                        spec, distance: each, day: dates[d], type: .easy,
                        purpose: "Short and relaxed: stay loose, bank the rest."))
            }
        }
        // The pace named is the marathon range the plan trained, with the finish it gives (one pace story: a goal
        // far from fitness has its own warning, GOAL_AGGRESSIVE or GOAL_CONSERVATIVE).
        let m = s.paces.marathon
        let finishTimes =
            "\(Fmt.duration(m.minSPerKm * Coaching.marathonM / 1000))–\(Fmt.duration(m.maxSPerKm * Coaching.marathonM / 1000))"
        let raceText = "a \(finishTimes) finish: "
        plan[raceIdx].append(
            Workout(
                id: id(spec, dates[raceIdx]), type: .race, sport: .run, distanceM: Coaching.marathonM,
                pace: WorkoutPace(
                    zone: .marathon, minSPerKm: s.paces.marathon.minSPerKm, maxSPerKm: s.paces.marathon.maxSPerKm),
                segments: [Segment(kind: .work, zone: .marathon, distanceM: Coaching.marathonM)],
                description: "Race day: \(raceText)start at \(Fmt.range(s.paces.marathon)) and hold it; fuel early."))
        return finish(spec, dates: dates, plan: plan)
    }

    private func finish(_ spec: Spec, dates: [LocalDate], plan: [[Workout]]) -> Built {
        let days = (0..<7).map { Day(date: dates[$0], workouts: plan[$0]) }
        var week = Week(index: spec.index, startDate: spec.startDate, phase: spec.phase, days: days)
        let volume = week.runningVolume(paces: setup.paces)
        week.plannedDistanceM = volume
        let last = plan[6]
        let lastLong = last.contains { $0.type == .long } || days[6].isLongDay(paces: setup.paces)
        let lastHard = lastLong || last.contains { $0.isQuality(paces: setup.paces) }
        return Built(
            week: week, volume: volume, longest: week.longestRun(paces: setup.paces), lastDayHard: lastHard,
            lastDayLong: lastLong)
    }

    /// The set of `count` (or fewer, if impossible) non-adjacent days farthest from each other and from
    /// the long run: maximise the smallest gap, then the total gap, then prefer earlier days.
    private func bestQualityDays(_ candidates: [Int], count: Int, longRun: Int?) -> [Int] {
        var k = min(count, candidates.count)
        while k > 0 {
            var best: [Int]? = nil
            var bestScore = (Int.min, Int.min)
            func score(_ set: [Int]) -> (Int, Int) {
                var gaps: [Int] = []
                for (a, x) in set.enumerated() { for y in set[(a + 1)...] { gaps.append(circular(x, y)) } }
                if let l = longRun { gaps += set.map { circular($0, l) } }
                return (gaps.min() ?? 7, gaps.reduce(0, +))
            }
            func visit(_ start: Int, _ current: [Int]) {
                if current.count == k {
                    let sc = score(current)
                    if sc.0 > bestScore.0 || (sc.0 == bestScore.0 && sc.1 > bestScore.1) {
                        best = current; bestScore = sc
                    }
                    return
                }
                guard start < candidates.count else { return }
                for i in start..<candidates.count {
                    let d = candidates[i]
                    if let last = current.last, d - last < 2 { continue }
                    visit(i + 1, current + [d])
                }
            }
            visit(0, [])
            if let b = best { return b }
            k -= 1
        }
        return []
    }

    /// No run grows more than a few km over the longest run of the last three weeks.
    private func stepCap(_ spec: Spec) -> Double {
        min(
            // The step holds for the week's shortest runs too: after weeks without running (recent long run 0) a
            // usual-length easy run would be a bigger step than the long run may take.
            spec.recentLong > 0
                ? max(spec.minRun ?? setup.minRun, round100(spec.recentLong + spec.longStep))
                : round100(spec.longStep),
            spec.runCap.isFinite ? round100(spec.runCap) : .infinity)
    }

    /// The candidate farthest from every day already taken (earliest on ties).
    private func spread(_ candidates: [Int], from taken: [Int]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        if taken.isEmpty { return candidates.first }
        return candidates.max { a, b in
            let da = taken.map { circular(a, $0) }.min()!, db = taken.map { circular(b, $0) }.min()!
            return da != db ? da < db : a > b
        }
    }

    private func circular(_ a: Int, _ b: Int) -> Int { let d = abs(a - b); return min(d, 7 - d) }

    private func hardDistance(_ ws: [Workout]) -> Double {
        ws.reduce(0) { acc, w in
            let z = w.zoneDistances(paces: setup.paces)
            return acc + (z[.threshold] ?? 0) + (z[.interval] ?? 0) + (z[.repetition] ?? 0)
        }
    }

    // MARK: - Workouts

    private func id(_ spec: Spec, _ date: LocalDate, suffix: String = "") -> String {
        "w" + Fmt.pad2(spec.index) + "-" + date.weekday.rawValue + (suffix.isEmpty ? "" : "-" + suffix)
    }

    private func round100(_ x: Double) -> Double { (x / 100).rounded(.down) * 100 }

    private func easy(_ spec: Spec, distance: Double, day: LocalDate, type: WorkoutType, purpose: String? = nil)
        -> Workout
    {
        let p = setup.paces
        let text =
            purpose
            ?? (type == .recovery
                ? "Recovery run: truly easy, let the long run soak in."
                : type == .mediumLong
                    ? "Medium-long run: aerobic endurance without the long-run fatigue."
                    : "Easy aerobic running: builds capillaries and durability; conversational pace.")
        return Workout(
            id: id(spec, day), type: type, sport: .run, distanceM: distance,
            pace: WorkoutPace(zone: .easy, minSPerKm: p.easy.minSPerKm, maxSPerKm: p.easy.maxSPerKm),
            segments: [Segment(kind: .work, zone: .easy, distanceM: distance)],
            description: "\(Fmt.km(distance)) easy at \(Fmt.range(p.easy)) — \(text)")
    }

    private func strides(_ spec: Spec, distance: Double, day: LocalDate) -> Workout {
        let p = setup.paces
        let recovery = 5 * 60 / p.easy.mid * 1000
        let warm = round100(distance - 600 - recovery - 1000)
        let cool = (distance - warm - 600 - recovery).rounded(.down)
        return Workout(
            id: id(spec, day), type: .strides, sport: .run, distanceM: distance,
            pace: WorkoutPace(zone: .easy, minSPerKm: p.easy.minSPerKm, maxSPerKm: p.easy.maxSPerKm),
            segments: [
                Segment(kind: .warmup, zone: .easy, distanceM: warm),
                Segment(kind: .work, zone: .repetition, distanceM: 100, repeat: 6, recoveryS: 60),
                Segment(kind: .cooldown, zone: .easy, distanceM: cool),
            ],
            description: "\(Fmt.km(distance)) easy with 6 × 100 m strides — quick, relaxed legs without fatigue.")
    }

    private func longRun(_ spec: Spec, distance: Double, marathonPace m: Double, day: LocalDate) -> Workout {
        let p = setup.paces
        if m > 0 {
            let cool = 2000.0, warm = distance - m - cool
            return Workout(
                id: id(spec, day), type: .long, sport: .run, distanceM: distance,
                pace: WorkoutPace(zone: .easy, minSPerKm: p.easy.minSPerKm, maxSPerKm: p.easy.maxSPerKm),
                segments: [
                    Segment(kind: .warmup, zone: .easy, distanceM: warm),
                    Segment(kind: .work, zone: .marathon, distanceM: m),
                    Segment(kind: .cooldown, zone: .easy, distanceM: cool),
                ],
                description:
                    "Long run \(Fmt.km(distance)) with \(Fmt.km(m)) at marathon pace \(Fmt.range(p.marathon)) — rehearse race pace and fuelling on tired legs."
            )
        }
        return Workout(
            id: id(spec, day), type: .long, sport: .run, distanceM: distance,
            pace: WorkoutPace(zone: .easy, minSPerKm: p.easy.minSPerKm, maxSPerKm: p.easy.maxSPerKm),
            segments: [Segment(kind: .work, zone: .easy, distanceM: distance)],
            description: "Long run \(Fmt.km(distance)) at \(Fmt.range(p.easy)) — the marathon's endurance backbone.")
    }

    /// A quality session sized within Daniels' limits for a week of `sizeBy` metres.
    private func workout(_ session: Session, spec: Spec, sizeBy v: Double, day: LocalDate) -> Workout? {
        let s = setup, p = s.paces
        let level = s.level
        let warm: Double = v >= 60_000 ? 3000 : 2000
        let cool: Double = spec.phase == .race || spec.phase == .taper ? 1500 : 2000
        func make(
            _ type: WorkoutType, _ zone: Zone, rep: Double, n: Int, recoveryS: Double?, recoveryM: Double?, text: String
        ) -> Workout {
            let recovery = Double(n - 1) * (recoveryM ?? ((recoveryS ?? 0) / p.easy.mid * 1000))
            let total = ((warm + rep * Double(n) + recovery + cool) / 100).rounded(.up) * 100
            let cd = (total - warm - rep * Double(n) - recovery).rounded(.down)
            return Workout(
                id: id(spec, day), type: type, sport: .run, distanceM: total,
                pace: WorkoutPace(zone: zone, minSPerKm: p[zone].minSPerKm, maxSPerKm: p[zone].maxSPerKm),
                segments: [
                    Segment(kind: .warmup, zone: .easy, distanceM: warm),
                    Segment(
                        kind: .work, zone: zone, distanceM: rep, repeat: n, recoveryS: recoveryS,
                        recoveryDistanceM: recoveryM),
                    Segment(kind: .cooldown, zone: .easy, distanceM: cd),
                ],
                description: text)
        }
        switch session {
        case .threshold:
            let cap: Double =
                switch level {
                case .novice: 5000;
                case .intermediate: 8000;
                case .experienced: 10_000
                }
            var work = min(0.10 * v, cap)
            if spec.phase == .taper { work = min(work, spec.weeksOut <= 1 ? 3200 : 4800) }
            let rep: Double = work >= 4800 ? 1600 : 1000
            let n = Int((work / rep).rounded(.down))
            guard n >= 2 else { return nil }
            return make(
                .threshold, .threshold, rep: rep, n: n, recoveryS: 60, recoveryM: nil,
                text:
                    "Cruise intervals \(n) × \(Fmt.dist(rep)) at T \(Fmt.range(p.threshold)), 1 min jog — raises the pace you can hold for an hour."
            )
        case .tempo:
            let cap: Double =
                switch level {
                case .novice: 5000;
                case .intermediate: 8000;
                case .experienced: 10_000
                }
            let work = (min(0.10 * v, cap, 1200 / p.threshold.mid * 1000) / 500).rounded(.down) * 500
            guard work >= 2000 else { return workout(.threshold, spec: spec, sizeBy: v, day: day) }
            return make(
                .tempo, .threshold, rep: work, n: 1, recoveryS: nil, recoveryM: nil,
                text:
                    "Tempo \(Fmt.km(work)) steady at T \(Fmt.range(p.threshold)) — comfortably hard, lifts lactate threshold."
            )
        case .intervals:
            let cap: Double =
                switch level {
                case .novice: 4000;
                case .intermediate: 6000;
                case .experienced: 8000
                }
            let work = min(0.08 * v, 10_000, cap)
            if work >= 4000 {
                let n = min(8, Int((work / 1000).rounded(.down)))
                return make(
                    .intervals, .interval, rep: 1000, n: n, recoveryS: 180, recoveryM: nil,
                    text: "Intervals \(n) × 1 km at I \(Fmt.range(p.interval)), 3 min jog — builds VO2max.")
            } else if work >= 2400 {
                let n = Int((work / 800).rounded(.down))
                return make(
                    .intervals, .interval, rep: 800, n: n, recoveryS: 120, recoveryM: nil,
                    text: "Intervals \(n) × 800 m at I \(Fmt.range(p.interval)), 2 min jog — builds VO2max.")
            }
            return workout(.threshold, spec: spec, sizeBy: v, day: day)
        case .repetition:
            let work = min(0.05 * v, 8000, 4000)
            if work >= 2400 {
                let n = Int((work / 400).rounded(.down))
                return make(
                    .repetition, .repetition, rep: 400, n: n, recoveryS: nil, recoveryM: 400,
                    text:
                        "Repetitions \(n) × 400 m at R \(Fmt.range(p.repetition)), 400 m jog — speed and economy, never strained."
                )
            } else if work >= 1200 {
                let n = Int((work / 200).rounded(.down))
                return make(
                    .repetition, .repetition, rep: 200, n: n, recoveryS: nil, recoveryM: 200,
                    text:
                        "Repetitions \(n) × 200 m at R \(Fmt.range(p.repetition)), 200 m jog — speed and economy, never strained."
                )
            }
            return nil
        case .marathonPace:
            let cap: Double =
                switch level {
                case .novice: 8000;
                case .intermediate: 12_000;
                case .experienced: 16_000
                }
            var work = min(0.20 * v, cap, 6600 / p.marathon.mid * 1000)
            if spec.phase == .taper { work = min(work, spec.weeksOut <= 1 ? 6000 : 8000) }
            if spec.phase == .race { work = min(work, 5000) }
            work = (work / 1000).rounded(.down) * 1000
            guard work >= 3000 else { return nil }
            return make(
                .marathonPace, .marathon, rep: work, n: 1, recoveryS: nil, recoveryM: nil,
                text: "\(Fmt.km(work)) at marathon pace \(Fmt.range(p.marathon)) — lock in race rhythm.")
        }
    }
}

extension Workout {
    /// Whether the session ends in a cool-down segment (a quality session as `WeekBuilder` makes it).
    fileprivate var hasCooldown: Bool { segments?.last?.kind == .cooldown }

    /// The session with `metres` more of easy cool-down (and as much more in all).
    fileprivate func withLongerCooldown(by metres: Double) -> Workout {
        var w = self
        guard var segments = w.segments, let last = segments.indices.last else { return w }
        segments[last].distanceM = (segments[last].distanceM ?? 0) + metres
        w.segments = segments
        w.distanceM = (w.distanceM ?? 0) + metres
        return w
    }
}
