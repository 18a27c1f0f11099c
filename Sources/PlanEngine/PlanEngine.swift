import Foundation

/// Generates `marathon-plan/1` documents. Pure: the same request always gives the same document.
public enum PlanEngine {
    public static let info = EngineInfo(name: "havital-plan-engine", version: "1.0")

    /// A plan for `request`, or a refusal with a code and a suggestion.
    public static func generate(_ request: PlanRequest) -> PlanDocument {
        let doc = generateOnce(request)
        // Real weeks that end in a break (zeros) let the first weeks grow only slowly — the acute:chronic ratio counts
        // the days off — which can leave the long run short although the base carries it. Such a runner starts from
        // the four weeks' mean instead (the baseline's own definition, and below the return table's share of the week
        // before the break): conservative, and within every rule. The echoed request is the one used.
        guard request.effectiveMode == .new, doc.error?.code == .insufficientBase,
            request.runner.baseline.recentWeeksM != nil, Validation.refusal(request) == nil
        else { return doc }
        var plain = request
        plain.runner.baseline.recentWeeksM = nil
        plain.runner.baseline.recentLongestM = nil
        let second = generateOnce(plain)
        return second.plan != nil ? second : doc
    }

    static func generateOnce(_ request: PlanRequest) -> PlanDocument {
        // Nothing on past days (docs/plan-engine.md, "Dates and time zones"): a new plan never starts before the
        // request's local today (`generated_at`). The echoed request carries the start actually used; a warning keeps
        // the one asked for.
        var request = request
        var clamped: Notice? = nil
        if request.effectiveMode == .new, let today = request.generatedAt, request.startDate < today {
            clamped = Notice(
                code: NoticeCode.startClamped,
                message:
                    "start_date \(request.startDate) is before today (\(today)): the plan starts today, nothing is planned on past days."
            )
            request.startDate = today
        }
        // A refusal is never a dead end (docs/plan-engine.md, "Base plans"): where the runner can train, a
        // base-building plan comes with it.
        func refuse(_ error: PlanError) -> PlanDocument {
            var base = BasePlanner.plan(for: request, refusal: error)
            if let c = clamped { base?.warnings.append(c) }
            return PlanDocument(request: request, error: error, basePlan: base)
        }
        switch Setup.make(request) {
        case .failure(let error):
            return refuse(error)
        case .success(let setup):
            let (weeks, dropped) = VolumePlanner(setup: setup).buildWeeks()
            // The feasibility check is the build itself: a plan whose longest run, as placed, stays short of the
            // minimum long run is refused INSUFFICIENT_BASE (with a base plan), never handed out.
            if let short = Validation.shortfall(setup, weeks: weeks) { return refuse(short) }
            var warnings = setup.warnings
            if let c = clamped { warnings.append(c) }
            // An adapted plan whose return cannot reach the minimum long run before the race (nor reached it earlier
            // in this build) says the goal needs revising, with the time current fitness predicts.
            if setup.mode == .adapt, !warnings.contains(where: { $0.code == NoticeCode.goalRevise }) {
                let longest = max(
                    weeks.map { $0.longestRun(paces: setup.paces) }.max() ?? 0,
                    request.runner.baseline.cycleLongestRunM ?? 0)
                if longest < setup.minLong {
                    warnings.append(
                        Setup.goalRevise(
                            setup.vdot, goal: request.race.goalTimeS,
                            because:
                                "The return from time off leaves the longest run at \(Fmt.km(longest)) before the race, short of the \(Fmt.km(setup.minLong)) a marathon build needs"
                        ))
                }
            }
            let short = zip(weeks, dropped).filter { $0.1 > 0 }.compactMap { $0.0.index }
            if !short.isEmpty {
                warnings.append(
                    Notice(
                        code: NoticeCode.qualityDropped,
                        message:
                            "Your available days cannot hold every quality session without one the day after a long or hard day: "
                            + "\(short.count) week(s) (\(short.prefix(6).map { "week \($0)" }.joined(separator: ", "))\(short.count > 6 ? ", …" : "")) carry fewer sessions. Freeing a day apart from the long run would allow them."
                    ))
            }
            let plan = Plan(
                timezone: request.timezone, weekStart: setup.weekStart, startDate: request.startDate,
                raceDate: request.race.date, trainingVdot: (setup.vdot * 10).rounded() / 10,
                vdotSource: setup.vdotSource, paces: setup.paces, warnings: warnings, weeks: weeks,
                engine: info, version: 1)
            return PlanDocument(request: request, plan: plan)
        }
    }

    /// Decodes a request and generates; malformed JSON becomes nil (the caller answers INVALID_REQUEST).
    public static func generate(requestJSON data: Data) -> PlanDocument? {
        guard let request = try? JSONDecoder().decode(PlanRequest.self, from: data) else { return nil }
        return generate(request)
    }
}

/// Everything derived from the request before weeks are built.
struct Setup {
    var request: PlanRequest
    var mode: PlanRequest.Mode
    var start: LocalDate
    var race: LocalDate
    var weekStart: Weekday
    var firstWeekStart: LocalDate
    var totalWeeks: Int
    var taperWeeks: Int
    var level: PlanRequest.Experience
    var available: Set<Weekday>
    var runDays: Int
    var longRunDay: Weekday
    var vdot: Double
    var vdotSource: String
    var paces: Paces
    var easyMid: Double
    var minLong: Double
    var maxLong: Double
    var baseline: Double
    var baselineLong: Double
    var peak: Double
    var longPeak: Double
    var warnings: [Notice]

    var preTaperWeeks: Int { totalWeeks - taperWeeks }
    /// Shortest easy run worth lacing up for: 30 min, between 3 and 5 km.
    var minRun: Double { (max(3000, min(5000, 1800 / easyMid * 1000)) / 100).rounded(.down) * 100 }
    /// Longest ordinary run: 85 min and 19 km, so that it never makes a long day (≥ 20 km or ≥ 90 min).
    var maxRun: Double {
        (min(Coaching.ordinaryRunMaxM, Coaching.ordinaryRunMaxS / easyMid * 1000) / 100).rounded(.down) * 100
    }
    /// Longest recovery run: 45 min at the easy pace (the week's long run caps it further, at 60 %).
    var maxRecovery: Double { (Coaching.recoveryMaxS / easyMid * 1000 / 100).rounded(.down) * 100 }

    /// GOAL_REVISE with the revised goal: the marathon current fitness predicts (never faster than the old goal).
    static func goalRevise(_ vdot: Double, goal: Double?, because reason: String) -> Notice {
        let predicted = Daniels.predictedTime(distanceM: Daniels.marathonM, vdot: Validation.vdotRange.clamp(vdot))
        let revised = max(predicted, goal ?? 0)
        return Notice(
            code: NoticeCode.goalRevise,
            message:
                "\(reason): the goal needs revising. Revised goal \(Fmt.duration((revised / 60).rounded(.up) * 60)) (what VDOT \(Fmt.fixed1(vdot)) predicts\(goal.map { ", was \(Fmt.duration($0))" } ?? "")); run this race by effort at that pace, or choose a later one."
        )
    }

    static func make(_ request: PlanRequest, refusing: Bool = true) -> Result<Setup, PlanError> {
        if let invalid = Validation.invalid(request) { return .failure(invalid) }
        if refusing, let refusal = Validation.refusal(request) { return .failure(refusal) }
        let mode = request.effectiveMode
        let runner = request.runner
        let base = runner.baseline
        var warnings: [Notice] = []

        let available = Set(runner.availableDays)
        let runDays = min(runner.maxRunDays ?? available.count, available.count, 6)
        let level = runner.experience ?? .intermediate
        let longRunDay: Weekday = {
            if let d = runner.longRunDay, available.contains(d) { return d }
            for d in [Weekday.sun, .sat] where available.contains(d) { return d }
            return available.max()!
        }()

        // Length: N weeks ending with race week; the first week holds start_date unless deferred.
        let race = request.race.date
        let weeksAvailable = Coaching.weeksAvailable(start: request.startDate, race: race)
        var totalWeeks: Int
        // Calendar weeks (Monday–Sunday unless the runner chose another start): week 1 holds start_date,
        // the last week holds race day; nothing is planned before the one or after the other.
        // Unless the runner chose a week start, weeks end on race day's weekday: the race week is a whole week and
        // every taper count (the week before, two weeks out) is a count of days from race day, whatever weekday it
        // falls on (a Saturday race gets Sunday–Saturday weeks; docs/plan-engine.md, "Dates and time zones").
        let weekStart = runner.weekStart ?? race.weekday.advanced(by: 1)
        func weekOf(_ d: LocalDate) -> LocalDate { d.adding(days: -((d.weekday.index - weekStart.index + 7) % 7)) }
        let raceWeekStart = weekOf(race)
        let calendarWeeks = weekOf(request.startDate).days(to: raceWeekStart) / 7 + 1
        // A race more than 24 weeks away defers the start (a partial first week may make 25 calendar weeks).
        totalWeeks = mode == .new && weeksAvailable > Coaching.maxWeeks ? Coaching.maxWeeks : calendarWeeks
        let firstWeekStart = raceWeekStart.adding(days: -7 * (totalWeeks - 1))
        if totalWeeks < calendarWeeks {
            warnings.append(
                Notice(
                    code: NoticeCode.deferredStart,
                    message:
                        "The race is \(weeksAvailable) weeks away; the \(Coaching.maxWeeks)-week plan starts on \(firstWeekStart). Until then keep running about \(Fmt.km(base.weeklyDistanceM)) a week, all easy."
                ))
        }

        // Fitness: a given VDOT, else a recent race, else a conservative estimate from volume.
        let goal = request.race.goalTimeS
        let vdotSource: String
        var vdot: Double
        if let v = runner.fitness?.vdot {
            vdot = v; vdotSource = "given"
        } else if let r = runner.fitness?.race, let v = Daniels.vdot(distanceM: r.distanceM, timeS: r.timeS) {
            vdot = v; vdotSource = "race"
        } else {
            vdot = Validation.estimatedVdot(weeklyM: base.weeklyDistanceM, goal: goal)
            vdotSource = "estimated_from_volume"
            warnings.append(
                Notice(
                    code: NoticeCode.fitnessUnknown,
                    message:
                        goal == nil
                        ? "No recent race or VDOT: paces use a conservative estimate (VDOT \(String(format: "%.0f", vdot))) from your weekly volume. Run a 5 km time trial to sharpen them."
                        : "No recent race or VDOT: paces assume the fitness your goal implies, less a point (VDOT \(Fmt.fixed1(vdot))). Run a 5 km time trial before the build gets hard, to check them."
                ))
        }
        vdot = Validation.tabled(vdot)
        let paces = Daniels.trainingPaces(vdot: vdot, goalTimeS: goal)
        let predicted = Daniels.predictedTime(distanceM: Daniels.marathonM, vdot: vdot)
        // One pace story: where goal and fitness disagree, the plan says so and names both finishing times. A goal
        // is aggressive when it is more than 5 % faster than the prediction, or needs more VDOT points than the build
        // can add (1 + weeks / 6: about a point a month, the rubric's H28).
        let goalVdot = goal.flatMap { Daniels.vdot(distanceM: Daniels.marathonM, timeS: $0) }
        if let g = goal,
            g < predicted * Coaching.goalAggressiveFactor
                || (goalVdot ?? 0) - vdot > 1 + Double(totalWeeks) / 6 - 0.05
        {
            warnings.append(
                Notice(
                    code: NoticeCode.goalAggressive,
                    message:
                        "Goal \(Fmt.duration(g)) is far beyond current fitness (predicted \(Fmt.duration(predicted))). Paces come from current fitness; revisit the goal after a tune-up race."
                ))
        } else if let g = goal, g > predicted * Coaching.goalConservativeFactor {
            warnings.append(
                Notice(
                    code: NoticeCode.goalConservative,
                    message:
                        "Goal \(Fmt.duration(g)) is well within current fitness, which predicts \(Fmt.duration(predicted)). Marathon-pace work runs at \(Fmt.range(paces.marathon)) (a \(Fmt.duration(paces.marathon.minSPerKm * 42.195))–\(Fmt.duration(paces.marathon.maxSPerKm * 42.195)) finish); the goal's own pace is \(Fmt.pace(g / 42.195))/km."
                ))
        }
        if mode == .new && weeksAvailable < Coaching.normalMinWeeks {
            warnings.append(
                Notice(
                    code: NoticeCode.shortBuild,
                    message:
                        "Only \(totalWeeks) weeks: a short build for an experienced runner; expect a modest peak and a 2-week taper."
                ))
        }
        if mode == .new && base.weeklyDistanceM < Coaching.lowBaseM {
            warnings.append(
                Notice(
                    code: NoticeCode.lowBase,
                    message:
                        "Your base of \(Fmt.km(base.weeklyDistanceM)) a week is low for a marathon: the long run will be a large share of each week. A later race would be kinder."
                ))
        }

        if mode == .adapt, let gap = base.daysSinceLastRun,
            (gap >= 8 && totalWeeks <= 8) || (gap > 28 && totalWeeks <= 16)
        {
            warnings.append(
                Setup.goalRevise(
                    vdot, goal: goal, because: "\(gap) days without running with \(totalWeeks) weeks to go"))
        }
        let easyMid = paces.easy.mid
        // Rounded up to the metre: long runs are sized to 10 m, except a long run at this minimum (a runner at the base
        // line has no 10 m to spare).
        let minLong = Coaching.minimumLongRun(easyMidSPerKm: easyMid).rounded(.up)
        let maxLong = Coaching.maximumLongRun(easyMidSPerKm: easyMid)
        let taper = Coaching.taperWeeks(totalWeeks: totalWeeks, mode: mode)
        let preTaper = totalWeeks - taper

        // Peak: what the level wants, capped by a safe multiple of the baseline and by what the days can hold.
        let recent = base.recentWeeksM ?? []
        let reference =
            mode == .adapt
            ? max(base.weeklyDistanceM, recent.max() ?? 0, base.cyclePeakWeeklyM ?? 0)
            : base.weeklyDistanceM
        let levelPeak: Double =
            switch level {
            case .novice: 55_000;
            case .intermediate: 70_000;
            case .experienced: 90_000
            }
        let levelLong: Double =
            switch level {
            case .novice: 30_000;
            case .intermediate: 32_000;
            case .experienced: 34_000
            }
        let perRun = min(18_000, Coaching.ordinaryRunMaxS / easyMid * 1000)
        let longTarget = min(levelLong, 10_800 / easyMid * 1000, maxLong)
        let capacity = longTarget + Double(runDays - 1) * perRun
        let desired = max(levelPeak, reference * 1.1)
        var peak: Double
        if mode == .adapt {
            let planned = base.plannedWeeksM?.max() ?? desired
            peak = min(max(planned, base.cyclePeakWeeklyM ?? 0), capacity)
        } else {
            peak = min(desired, capacity)
        }
        // The peak reachable from the runner's real volume in the weeks before the taper (H14): at most +3.5 km a
        // build week and +40 km in all, or 2.75 × (an adapted plan counts the peak already run in this build).
        // The bound to the metre below it: a runner at the base line needs every metre.
        peak = min(peak, Coaching.peakBound(base: reference, buildWeeks: preTaper))
        peak = peak.rounded(.down)
        let longPeak = min(longTarget, max(minLong, 0.45 * peak), Coaching.longShareCap(week: peak)).rounded(.down)

        let baselineLong =
            mode == .adapt
            ? max(base.recentLongestM?.max() ?? 0, base.effectiveLongestRunM)
            : base.effectiveLongestRunM
        return .success(
            Setup(
                request: request, mode: mode, start: request.startDate, race: race, weekStart: weekStart,
                firstWeekStart: firstWeekStart, totalWeeks: totalWeeks, taperWeeks: taper, level: level,
                available: available, runDays: runDays, longRunDay: longRunDay, vdot: vdot,
                vdotSource: vdotSource, paces: paces, easyMid: easyMid, minLong: minLong, maxLong: maxLong,
                baseline: base.weeklyDistanceM, baselineLong: baselineLong, peak: peak, longPeak: longPeak,
                warnings: warnings))
    }
}

/// Refusals, in this order: INVALID_REQUEST, NOT_MARATHON, RACE_IN_PAST, RACE_TOO_SOON, TOO_FEW_DAYS,
/// INSUFFICIENT_BASE.
enum Validation {
    static func invalid(_ r: PlanRequest) -> PlanError? {
        func bad(_ m: String) -> PlanError {
            PlanError(code: .invalidRequest, message: m, suggestion: "Fix the request and try again.")
        }
        guard TimeZone(identifier: r.timezone) != nil else { return bad("Unknown IANA time zone '\(r.timezone)'.") }
        let b = r.runner.baseline
        guard b.weeklyDistanceM.isFinite, b.weeklyDistanceM >= 0, b.weeklyDistanceM <= 400_000 else {
            return bad("baseline.weekly_distance_m must be between 0 and 400 000.")
        }
        if let l = b.longestRunM, !(l.isFinite && l >= 0 && l <= 100_000) {
            return bad("baseline.longest_run_m is out of range.")
        }
        if r.runner.availableDays.isEmpty { return bad("runner.available_days is empty.") }
        if let m = r.runner.maxRunDays, !(1...7).contains(m) { return bad("runner.max_run_days must be 1–7.") }
        if let d = r.race.distanceM, !(d.isFinite && d > 0) { return bad("race.distance_m must be positive.") }
        if let g = r.race.goalTimeS, !(g.isFinite && g >= fastestGoalS && g <= 30 * 3600) {
            return bad("race.goal_time_s must be between 7800 s (2:10:00) and 30 h.")
        }
        if let v = r.runner.fitness?.vdot, !(v.isFinite && vdotRange.contains(v)) {
            return bad(
                "fitness.vdot must be 15–78: above 78 the repetition pace is faster than the 2:30/km a plan may state.")
        }
        if let fr = r.runner.fitness?.race,
            Daniels.vdot(distanceM: fr.distanceM, timeS: fr.timeS).map(vdotRange.contains) != true
        {
            return bad(
                "fitness.race does not describe a race this engine plans from (distance_m, time_s: a VDOT of 15–78).")
        }
        if let w = b.recentWeeksM, w.count != 4 || w.contains(where: { !$0.isFinite || $0 < 0 || $0 > 400_000 }) {
            return bad("baseline.recent_weeks_m must hold four numbers between 0 and 400 000.")
        }
        if let w = b.recentLongestM, w.count != 4 || w.contains(where: { !$0.isFinite || $0 < 0 || $0 > 100_000 }) {
            return bad("baseline.recent_longest_m must hold four numbers between 0 and 100 000.")
        }
        return nil
    }

    static func refusal(_ r: PlanRequest) -> PlanError? {
        let distance = r.race.distanceM ?? Coaching.marathonM
        if abs(distance - Coaching.marathonM) > Coaching.marathonToleranceM {
            return PlanError(
                code: .notMarathon, message: "Only marathons (42 195 m) are planned for now; got \(Fmt.km(distance)).",
                suggestion: "Choose a marathon, or train for this race with a general plan.")
        }
        let weeks = Coaching.weeksAvailable(start: r.startDate, race: r.race.date)
        if r.race.date < r.startDate {
            return PlanError(
                code: .raceInPast,
                message: "The race on \(r.race.date) is before the plan could start (\(r.startDate)).",
                suggestion: "Pick an upcoming marathon.", weeksAvailable: 0)
        }
        let adapt = r.effectiveMode == .adapt
        let b = r.runner.baseline
        if !adapt {
            let solid =
                r.runner.experience == .experienced && b.weeklyDistanceM >= Coaching.shortBuildMinWeeklyM
                && b.effectiveLongestRunM >= Coaching.shortBuildMinLongM
            if weeks < Coaching.minWeeks || (weeks < Coaching.normalMinWeeks && !solid) {
                let need = weeks < Coaching.minWeeks || !solid ? Coaching.normalMinWeeks : Coaching.minWeeks
                return PlanError(
                    code: .raceTooSoon,
                    message:
                        "The race is \(weeks) weeks away; a safe marathon build needs \(need) weeks"
                        + (weeks >= Coaching.minWeeks
                            ? " unless you are experienced with about 50 km a week and a recent long run of 24 km."
                            : "."),
                    suggestion: "Choose a marathon at least \(need) weeks out, or run a half marathon first.",
                    weeksAvailable: weeks)
            }
        }
        let days = Set(r.runner.availableDays).count
        if days < Coaching.minDays || (r.runner.maxRunDays ?? days) < Coaching.minDays {
            return PlanError(
                code: .tooFewDays,
                message:
                    "A marathon plan needs at least 3 running days a week; got \(min(days, r.runner.maxRunDays ?? days)).",
                suggestion: "Free up a third day, even a short one.", weeksAvailable: weeks)
        }
        if !adapt {
            // The largest peak the base may reach before a 3-week taper (`Coaching.peakBound`, without its 1.1 ×
            // floor) must carry the minimum long run at 55 % of its week; this is the only reason to refuse a base
            // (the rubric's H07): below that line no safe build exists, above it the build must find one.
            let n = min(weeks, Coaching.maxWeeks)
            let p = max(1, n - 3)
            let largest = min(
                b.weeklyDistanceM + min(Coaching.peakMaxGainM, Coaching.peakGainPerBuildWeekM * Double(p)),
                Coaching.maxPeakGrowth * b.weeklyDistanceM)
            // Daniels' exact easy paces: the plan's paces are rounded up to whole seconds (never a faster easy run,
            // never a longer minimum long run than the line's), so every runner on or above the line can be planned.
            let minLong = Coaching.minimumLongRun(easyMidSPerKm: Validation.easyMid(r, exact: true))
            if largest * Coaching.longShareMax < minLong {
                let needWeekly = Coaching.baseNeeded(
                    peak: minLong * Coaching.minLongMargin / Coaching.longShareMax, buildWeeks: p)
                return PlanError(
                    code: .insufficientBase,
                    message:
                        "A base of \(Fmt.km(b.weeklyDistanceM)) a week (longest run \(Fmt.km(b.effectiveLongestRunM))) cannot safely grow to a \(Fmt.km(minLong)) long run in \(n) weeks.",
                    suggestion:
                        "Build to about \(Fmt.km(max(needWeekly, 16_500).rounded(.up))) a week with a 10–12 km long run first, or pick a race further out.",
                    weeksAvailable: weeks)
            }
        }
        return nil
    }

    /// The refusal for `r`: the rules' refusals (`refusal(_:)`), and, for a new plan they accept, INSUFFICIENT_BASE
    /// when the plan the engine would build never reaches the minimum long run (`shortfall`). This is the check
    /// `generate` makes; the base plan's `marathon_feasible_from` uses it too, so the date it names gets a plan.
    static func refusalBuilding(_ r: PlanRequest) -> PlanError? {
        if let refusal = refusal(r) { return refusal }
        guard r.effectiveMode == .new, case .success(let setup) = Setup.make(r, refusing: false) else { return nil }
        return shortfall(setup, weeks: VolumePlanner(setup: setup).buildWeeks().weeks)
    }

    /// INSUFFICIENT_BASE for a new plan whose longest run, as placed, stays short of the minimum long run.
    ///
    /// The formula in `refusal(_:)` is a necessary condition (the largest safe peak, the long-run steps); what the
    /// weeks can really hold also depends on the ramp rules against the weeks as placed, cutbacks, a partial first
    /// week, recovery runs that must stay short and the long run's 55 % share on few running days. Runners just above
    /// the formula's line were accepted with a longest run of 14.8 km for 17.7 required: the build is the test.
    static func shortfall(_ s: Setup, weeks: [Week]) -> PlanError? {
        guard s.mode == .new else { return nil }
        let longest = weeks.map { $0.longestRun(paces: s.paces) }.max() ?? 0
        guard longest < s.minLong else { return nil }
        let b = s.request.runner.baseline
        let weeks = Coaching.weeksAvailable(start: s.start, race: s.race)
        let p = s.preTaperWeeks
        let needWeekly = Coaching.baseNeeded(
            peak: s.minLong * Coaching.minLongMargin / Coaching.longShareMax, buildWeeks: p)
        return PlanError(
            code: .insufficientBase,
            message:
                "A base of \(Fmt.km(b.weeklyDistanceM)) a week (longest run \(Fmt.km(b.effectiveLongestRunM))) cannot safely grow to a \(Fmt.km(s.minLong)) long run in \(s.totalWeeks) weeks on \(s.runDays) running days: within the ramp, cutback and long-run limits the longest run reaches \(Fmt.km(longest)).",
            suggestion:
                "Build to about \(Fmt.km((max(needWeekly * 1.1, b.weeklyDistanceM * 1.1, 16_500) / 1000).rounded(.up) * 1000)) a week with a longer long run first, free another running day, or pick a race further out.",
            weeksAvailable: weeks)
    }

    /// VDOT without a race or a given VDOT: min(45, 28 + 0.2 × km/week) from the volume; with a goal, within a point
    /// of the goal's VDOT (the goal is the only evidence there is, and marathon pace must tell the same story as
    /// the goal: the rubric's H27 then has only the goal to go by).
    ///
    /// To the nearest tenth, as the plan prints it: the estimate is then the VDOT the paces come from (`tabled` keeps
    /// it) and the one the base line is drawn with (`easyMid(exact: true)`), and a point under the goal within 0.05.
    static func estimatedVdot(weeklyM: Double, goal: Double?) -> Double {
        let fromVolume = min(45, 28 + 0.2 * weeklyM / 1000)
        guard let g = goal, let gv = Daniels.vdot(distanceM: Daniels.marathonM, timeS: g) else {
            return (fromVolume * 10).rounded() / 10
        }
        return ((gv - 1) * 10).rounded() / 10
    }

    /// The easy mid pace the engine will use (same fitness rules as Setup); `exact`: before the paces are rounded to
    /// whole seconds (the base line is drawn with Daniels' exact paces, as the rubric's H07 draws it).
    static func easyMid(_ r: PlanRequest, exact: Bool = false) -> Double {
        let f = r.runner.fitness
        var vdot: Double
        if let v = f?.vdot {
            vdot = v
        } else if let rr = f?.race, let v = Daniels.vdot(distanceM: rr.distanceM, timeS: rr.timeS) {
            vdot = v
        } else {
            vdot = estimatedVdot(weeklyM: r.runner.baseline.weeklyDistanceM, goal: r.race.goalTimeS)
        }
        vdot = vdotRange.clamp(vdot)
        if exact {
            return
                (Daniels.pace(fraction: Daniels.Fraction.easyFast, vdot: vdot)
                + Daniels.pace(fraction: Daniels.Fraction.easySlow, vdot: vdot)) / 2
        }
        return Daniels.trainingPaces(vdot: tabled(vdot), goalTimeS: r.race.goalTimeS).easy.mid
    }

    /// The VDOTs a request may state (`fitness.vdot`, or the VDOT of `fitness.race`), and the range every VDOT the
    /// engine plans with is held in (an estimate from a very slow goal, or an adaptation after a long break, would
    /// fall below it). Below 15 the easy pace is slower than 14 min/km: walking. Above 78 (a 2:10 marathon) Daniels'
    /// repetition pace is faster than 2:32/km and its range crosses the 2:30/km that a plan's paces may state (the
    /// rubric's H25); such a runner is refused (`INVALID_REQUEST`, saying why) rather than given paces held at a
    /// slower VDOT, which would put marathon pace outside what their fitness predicts (H27). Held at 20–85 before, a
    /// beginner at VDOT 18 was given a VDOT 20 runner's paces, faster than their fitness allows.
    static let vdotRange = 15.0...78.0
    /// The fastest goal a request may state: 7,800 s (2:10:00), a goal VDOT of 78.4, so that a runner with only a goal
    /// (planned a point under it) is within `vdotRange`.
    static let fastestGoalS = 7800.0

    /// The VDOT a plan's paces, predictions and warnings come from: the runner's, in `vdotRange`, to the tenth below,
    /// which the document prints as `training_vdot` (docs/plan-format.md: the VDOT the paces come from). A race timed
    /// to the second or a VDOT given to more decimals moves the paces by under a second at most VDOTs, but by up to
    /// three at the slowest (a tenth of a VDOT is 3 s/km of marathon pace near VDOT 25), enough for the paces to
    /// disagree with the VDOT printed beside them. Down, never up: the paces are then never faster than the runner's
    /// fitness, and the minimum long run (150 min at the easy pace) never longer than the base line (`easyMid(exact:
    /// true)`, on the unrounded VDOT as the rubric draws it for a refusal) promised — rounded to the nearest tenth,
    /// a runner just above the line was refused.
    static func tabled(_ vdot: Double) -> Double {
        // The 1e-9: 42.6 is 42.59999… in binary, and must stay 42.6.
        (vdotRange.clamp(vdot) * 10 + 1e-9).rounded(.down) / 10
    }
}

extension ClosedRange where Bound == Double {
    /// `value` held within the range.
    func clamp(_ value: Double) -> Double { Swift.min(upperBound, Swift.max(lowerBound, value)) }
}
