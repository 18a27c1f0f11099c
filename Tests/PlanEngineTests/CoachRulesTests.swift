import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

/// The cases issue 17 reported, checked with values computed here from the wording, and the
/// independent checker (`CoachRules`) shown to catch each rule broken by hand.
@Suite struct CoachRulesTests {
    func runs(_ d: Day) -> [Workout] { d.workouts.filter { $0.type != .crossTraining && $0.type != .strength } }
    func minutes(_ w: Workout, _ p: Paces) -> Double { CoachRules.seconds(w, p) / 60 }

    /// A runner whose easy pace is about 7:20/km on five days: recovery runs used to be 12.4–12.9 km (90 min)
    /// with intervals the next day.
    @Test func slowRunnerGetsShortRecoveryRunsAndNoQualityAfterALongDay() throws {
        var spec = RequestSpec()
        spec.easyPace = 440; spec.weeklyKm = 45; spec.weeks = 16; spec.dayCount = 5; spec.firstDay = 3;
        spec.dayPattern = 0
        spec.longDay = 7; spec.experience = 1
        let doc = PlanEngine.generate(spec.request)
        let plan = try #require(doc.plan, "expected a plan, got \(String(describing: doc.error))")
        let p = plan.paces
        #expect(abs(p.easy.mid - 440) <= 3, "easy mid \(p.easy.mid)")
        var recoveries = 0
        let days = plan.weeks.flatMap(\.days)
        for w in plan.weeks {
            let long = w.days.flatMap(\.workouts).filter { $0.type == .long }.compactMap(\.distanceM).max()
            for d in w.days {
                for r in runs(d) where r.type == .recovery {
                    recoveries += 1
                    // 50 min at 7:20/km is 6.8 km: a recovery run is well under an hour.
                    #expect(minutes(r, p) <= 50, "\(d.date): recovery of \(minutes(r, p)) min")
                    if let l = long {
                        #expect(r.distanceM! <= 0.6 * l, "\(d.date): recovery \(r.distanceM!) m vs long \(l) m")
                    }
                }
            }
        }
        #expect(recoveries > 0)
        for (a, b) in zip(days, days.dropFirst()) {
            let aMeters = runs(a).compactMap(\.distanceM).reduce(0, +)
            let aMinutes = runs(a).reduce(0) { $0 + minutes($1, p) }
            let aLong = aMeters >= 20_000 || aMinutes >= 90
            let bHard = runs(b).contains {
                [.threshold, .tempo, .intervals, .repetition, .marathonPace].contains($0.type)
            }
            #expect(
                !(aLong && bHard),
                "\(b.date): quality after a long day on \(a.date) (\(aMeters) m, \(Int(aMinutes)) min)")
        }
        #expect(CoachRules.violations(of: doc).isEmpty)
    }

    /// Three consecutive available days (Wed/Thu/Fri), at most three runs, long run on Friday: the issue's
    /// 19.8 km Thursday before a 30.6 km Friday with a marathon-pace block.
    @Test func threeConsecutiveDaysGiveUpQualityAndSaySo() throws {
        let req = Fixture.request(
            start: "2026-05-27", race: "2026-09-20", weekly: 60_000, longest: 20_000,
            days: [.wed, .thu, .fri], maxRunDays: 3, longRunDay: .fri, experience: .experienced)
        let doc = PlanEngine.generate(req)
        let plan = try #require(doc.plan, "expected a plan, got \(String(describing: doc.error))")
        let p = plan.paces
        for w in plan.weeks where w.phase != .race {
            let thu = w.days.first { $0.date.weekday == .thu }!, fri = w.days.first { $0.date.weekday == .fri }!
            let thuMeters = runs(thu).compactMap(\.distanceM).reduce(0, +)
            let thuMinutes = runs(thu).reduce(0) { $0 + minutes($1, p) }
            #expect(
                thuMeters < 20_000 && thuMinutes < 90,
                "\(thu.date): \(thuMeters) m / \(Int(thuMinutes)) min the day before the long run")
            let friQuality = runs(fri).contains { r in
                (r.segments ?? []).contains { $0.zone == .marathon && ($0.distanceM ?? 0) >= 5000 }
            }
            let thuQuality = runs(thu).contains { $0.type != .easy && $0.type != .recovery && $0.type != .strides }
            #expect(!(friQuality && thuQuality), "\(thu.date): quality before a quality long run")
        }
        #expect(CoachRules.violations(of: doc).isEmpty, "\(CoachRules.violations(of: doc))")
        #expect(PlanRules.violations(of: doc).isEmpty, "\(PlanRules.violations(of: doc))")
    }

    /// Saturday, Sunday, Monday with the long run on Sunday: the day before and the day after the long
    /// run can hold no quality, so the plan has none outside the long run and says why.
    @Test func noRoomForQualityIsSaid() throws {
        let req = Fixture.request(
            start: "2026-05-27", race: "2026-09-20", weekly: 50_000, longest: 18_000,
            days: [.sat, .sun, .mon], maxRunDays: 3, longRunDay: .sun, experience: .intermediate)
        let doc = PlanEngine.generate(req)
        let plan = try #require(doc.plan, "expected a plan, got \(String(describing: doc.error))")
        for d in plan.weeks.flatMap(\.days) where d.date.weekday != .sun && d.date != plan.raceDate {
            #expect(
                !d.workouts.contains { CoachRules.isQuality($0, plan.paces) }, "\(d.date): quality next to the long run"
            )
        }
        #expect(plan.warnings.contains { $0.code == NoticeCode.qualityDropped }, "\(plan.warnings.map(\.code))")
        #expect(CoachRules.violations(of: doc).isEmpty, "\(CoachRules.violations(of: doc))")
        #expect(PlanRules.violations(of: doc).isEmpty, "\(PlanRules.violations(of: doc))")
    }

    /// The peak case: 40.1 km over 14 weeks may peak at 40.1 × (1 + 0.085 × 11) = 77.6 km at most.
    @Test func peakWithinTheBoundOnPlacedDistances() throws {
        let req = Fixture.request(start: "2026-06-15", race: "2026-09-20", weekly: 40_100, longest: 16_000)
        let doc = PlanEngine.generate(req)
        let plan = try #require(doc.plan)
        #expect(plan.weeks.count == 14)
        let volumes = plan.weeks.map {
            $0.days.flatMap(\.workouts).filter { $0.type != .race }.compactMap(\.distanceM).reduce(0, +)
        }
        #expect(volumes.max()! <= 40_100 * (1 + 0.085 * 11))
        // Ramps on the placed distances: ≤ 110 % of the biggest of the three weeks before.
        var seq = [40_100.0, 40_100, 40_100]
        for v in volumes {
            #expect(v <= 1.10 * seq.suffix(3).max()! + 0.001, "\(v) after \(seq.suffix(3))"); seq.append(v)
        }
    }

    /// An easy pace of 6:07/km needs a 24.5 km long run (150 min); the plans used to stop 0.1 km short.
    @Test func longestRunReachesTheMinimumExactly() throws {
        var spec = RequestSpec()
        spec.easyPace = 367; spec.weeklyKm = 45; spec.weeks = 18; spec.dayCount = 5; spec.longDay = 7;
        spec.experience = 0
        let doc = PlanEngine.generate(spec.request)
        let plan = try #require(doc.plan)
        let need = min(25_000, 9000 / plan.paces.easy.mid * 1000)
        #expect(need > 24_000 && need < 25_000)
        let longest = plan.weeks.flatMap(\.days).flatMap(\.workouts).filter { $0.type == .long }.compactMap(\.distanceM)
            .max()!
        #expect(longest >= need, "longest \(longest) m, need \(need) m")
    }

    // MARK: weeks

    /// A plan made on a Tuesday (start Wednesday) for a Sunday race: Monday–Sunday weeks, nothing before
    /// the start, race week ending on race day.
    @Test func mondayToSundayWeeks() throws {
        let req = Fixture.request(start: "2026-06-03", race: "2026-09-27") // Wednesday, Sunday
        let doc = PlanEngine.generate(req)
        let plan = try #require(doc.plan)
        #expect(plan.weekStart == .mon)
        #expect(plan.weeks.first!.startDate == LocalDate("2026-06-01")!)
        #expect(plan.weeks.allSatisfy { $0.startDate.weekday == .mon })
        for d in plan.weeks[0].days where d.date < req.startDate {
            #expect(d.workouts.isEmpty, "\(d.date) is before the start")
        }
        #expect(plan.weeks[0].days.contains { $0.date >= req.startDate && !$0.workouts.isEmpty })
        #expect(plan.weeks.last!.days.last!.date == req.race.date)
    }

    /// A Saturday race ends its plan on Saturday: the Sunday after is empty.
    @Test func saturdayRace() throws {
        let req = Fixture.request(start: "2026-06-01", race: "2026-09-26")
        let doc = PlanEngine.generate(req)
        let plan = try #require(doc.plan)
        // Weeks end on race day's weekday: Sunday–Saturday weeks, race week a whole week ending with the race, and
        // every taper count of days (13 days, 6 days) from race day (the rubric's H16; issue: Saturday races got a
        // Sunday taper).
        #expect(plan.weekStart == .sun)
        let last = plan.weeks.last!
        #expect(last.days[6].date == req.race.date && last.days[6].workouts.map(\.type) == [.race])
        #expect(PlanRules.violations(of: doc).isEmpty && CoachRules.violations(of: doc).isEmpty)
        let verdict = RubricChecker.check(doc)
        #expect(verdict.passed, "check_plan.py: \(verdict.details)")
        let runs = plan.weeks.flatMap(\.days).flatMap { d in
            d.workouts.filter { $0.isRun && $0.type != .race }.map { (d.date, $0) }
        }
        let longest = runs.map { $0.1.totalDistance(paces: plan.paces) }.max()!
        for (date, w) in runs where date.days(to: req.race.date) <= 13 {
            #expect(
                w.totalDistance(paces: plan.paces) <= 0.70 * longest + 1,
                "\(date): \(w.totalDistance(paces: plan.paces)) m")
            if date.days(to: req.race.date) <= 6 { #expect(w.totalDistance(paces: plan.paces) <= 16_000) }
        }
    }

    /// A runner may choose Sunday-based weeks.
    @Test func runnerChosenWeekStart() throws {
        var req = Fixture.request(start: "2026-06-03", race: "2026-09-27")
        req.runner.weekStart = .sun
        let plan = try #require(PlanEngine.generate(req).plan)
        #expect(plan.weekStart == .sun && plan.weeks.first!.startDate == LocalDate("2026-05-31")!)
        #expect(plan.weeks.last!.startDate == LocalDate("2026-09-27")!) // race week holds only race day
    }

    // MARK: the checker catches each rule broken by hand

    let doc = Fixture.plan()
    func caught(_ prefix: String, _ mutate: (inout Plan) -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        var d = doc
        mutate(&d.plan!)
        let v = CoachRules.violations(of: d)
        #expect(v.contains { $0.hasPrefix(prefix) }, "expected \(prefix), got \(v)", sourceLocation: sourceLocation)
    }
    func easy(_ m: Double, _ type: WorkoutType = .easy) -> Workout {
        Workout(
            id: "x", type: type, sport: .run, distanceM: m, pace: WorkoutPace(zone: .easy),
            segments: [Segment(kind: .work, zone: .easy, distanceM: m)], description: "x")
    }
    func threshold() -> Workout { doc.plan!.weeks.flatMap(\.days).flatMap(\.workouts).first { $0.type == .threshold }! }

    @Test func checkerIsCleanOnTheFixture() {
        #expect(CoachRules.violations(of: doc).isEmpty, "\(CoachRules.violations(of: doc))")
    }

    @Test func checkerCatchesALongRecoveryRun() {
        // 12.9 km of "recovery" the day after the long run.
        caught("RECOVERY") { p in
            let w = 5, l = p.weeks[w].days.firstIndex { $0.workouts.contains { $0.type == .long } }!
            p.weeks[w + 1].days[(l + 1) % 7].workouts = [easy(12_900, .recovery)]
        }
    }

    @Test func checkerCatchesQualityAfterAnEasyLongDay() {
        // A 95-minute "easy" run is a long day: threshold the next day breaks the rule, whatever the types.
        caught("QUALITY_AFTER_LONG") { p in
            let minutes95 = 95 * 60 / p.paces.easy.mid * 1000
            p.weeks[4].days[1].workouts = [easy((minutes95 / 100).rounded() * 100)]
            p.weeks[4].days[2].workouts = [threshold()]
        }
    }

    @Test func checkerCatchesTwoLongDays() {
        caught("TWO_LONG_DAYS") { p in
            let l = p.weeks[6].days.firstIndex { $0.workouts.contains { $0.type == .long } }!
            p.weeks[6].days[l - 1].workouts = [easy(20_000)]
        }
    }

    /// The ramp is the rubric's (H11): a week just over 20 % above the biggest of the three before fails its checker.
    @Test func rubricCatchesARampJustOverTwentyPercent() {
        var d = doc
        let p = d.plan!, pp = p.paces
        let before = (2...4).map { CoachRules.volume(p.weeks[$0], pp) }.max()!
        let now = CoachRules.volume(p.weeks[5], pp)
        let i = p.weeks[5].days.firstIndex {
            $0.workouts.contains { [.easy, .strides, .mediumLong, .recovery].contains($0.type) }
        }!
        let run = p.weeks[5].days[i].workouts[0].distanceM!
        #expect(RubricChecker.check(d).passed)
        d.plan!.weeks[5].days[i].workouts[0] = easy(run + (1.20 * before - now) + 50) // 50 m over the ceiling
        #expect(RubricChecker.check(d).failed.contains("H11"), "\(RubricChecker.check(d).details)")
    }

    /// The engine steps 3 km, 3.9 km near the base line; the rubric's H20 allows 4 km: 4.1 km is caught.
    @Test func checkerCatchesALongRunStepOfMoreThanFourKilometres() {
        caught("LONG_STEP") { p in
            let pp = p.paces
            let prior = (0...2).map { CoachRules.longest(p.weeks[$0], pp) }.max()!
            let l = p.weeks[3].days.firstIndex { $0.workouts.contains { $0.type == .long } }!
            p.weeks[3].days[l].workouts = [easy(prior + 4100, .long)]
        }
    }

    @Test func checkerCatchesWorkoutsBeforeTheStartAndSundayWeeks() {
        caught("DATES") { p in
            p.weeks[0].days[0].workouts = [easy(5000)]; p.weeks[0].days[0].date = LocalDate("2026-05-31")!
        }
        caught("DATES") { p in p.weekStart = .sun }
    }
}
