import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

/// The INSUFFICIENT_BASE check and the planner agree. Two runners the property search once shrunk to were accepted by
/// the formula and given plans whose longest run stayed short of min(25 km, 150 min at the easy pace) (14.8 km of
/// 17.7, and 22 of 25); they were then refused on the build. The rubric's H07 says a feasible runner must get a plan:
/// the formula is now the rubric's, and the build (with the faster ramp it allows) reaches the minimum for both. The
/// numbers asserted here are worked out by hand below, not read from the engine.
@Suite struct FeasibilityTests {
    func check(_ doc: PlanDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        let v = PlanRules.violations(of: doc) + CoachRules.violations(of: doc) + CoachRules.baseViolations(of: doc)
        #expect(v.isEmpty, "\(v.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// `RequestSpec(days 3@0/p0, longDay 4, easy 508 s/km, 20 km/wk, 12 wk, start+1, race+1, exp 0, longest 33 %)`:
    /// a novice on Mon–Wed with the long run on Tuesday, start Tuesday 2026-01-06, race Tuesday 2026-03-24.
    static var threeDayNovice: RequestSpec {
        var s = RequestSpec()
        (s.dayCount, s.firstDay, s.dayPattern, s.longDay, s.easyPace, s.weeklyKm, s.weeks) = (3, 0, 0, 4, 508, 20, 12)
        (s.startOffset, s.raceOffset, s.experience, s.longestPct) = (1, 1, 0, 33)
        return s
    }

    /// `RequestSpec(days 5@0/p0, easy 356 s/km, 21 km/wk, 18 wk, exp 1)`: Mon–Fri, start Monday 2026-01-05, race
    /// Sunday 2026-05-10.
    static var fiveDayIntermediate: RequestSpec {
        var s = RequestSpec()
        (s.dayCount, s.firstDay, s.dayPattern, s.easyPace, s.weeklyKm, s.weeks, s.experience) = (
            5, 0, 0, 356, 21, 18, 1
        )
        return s
    }

    /// By hand: 2026-01-06 → 2026-03-24 is 77 days, ⌈78 / 7⌉ = 12 weeks, 9 before a 3-week taper. The largest safe
    /// peak (the rubric's H07/H14) is min(20 + min(40, 3.5 × 9), 2.75 × 20) = min(51.5, 55) = 51.5 km; its 55 % is
    /// 28.3 km, well over the minimum long run (VDOT 27.9: Daniels' easy range 485.2–531.5 s/km, rounded up to whole
    /// seconds 486–532, mid 509: 9000 / 509 = 17.68 km). A refusal is not justified, so the build must find a plan: with the normal ramp and cutbacks every
    /// third week it fell short (14.8 km), with the faster ramp within the rubric's limits it reaches 17.7 km.
    @Test func threeDayNoviceGetsAPlanThatReachesTheMinimum() throws {
        let request = Self.threeDayNovice.request
        #expect(request.startDate == LocalDate("2026-01-06") && request.race.date == LocalDate("2026-03-24"))
        #expect(Coaching.weeksAvailable(start: request.startDate, race: request.race.date) == 12)
        #expect(PlanRules.expectedError(for: request) == nil, "the formula accepts this runner")
        let doc = PlanEngine.generate(request)
        let plan = try #require(doc.plan, "\(doc.error?.message ?? "")")
        #expect(plan.paces.easy.minSPerKm == 486 && plan.paces.easy.maxSPerKm == 532)
        #expect(plan.weeks.map { $0.longestRun(paces: plan.paces) }.max()! >= 17_682)
        check(doc)
    }

    /// By hand: 2026-01-05 → 2026-05-10 is 125 days, 18 weeks, 15 before the taper: the largest safe peak is
    /// min(21 + 40, 2.75 × 21) = 57.75 km, its 55 % 31.8 km ≥ 25 km (easy mid 356.5 s/km: 150 min is 25.2 km, so 25 km
    /// is the minimum). Accepted, and the plan reaches 25 km.
    @Test func fiveDayIntermediateGetsAPlanThatReachesTheMinimum() throws {
        let request = Self.fiveDayIntermediate.request
        #expect(request.startDate == LocalDate("2026-01-05") && request.race.date == LocalDate("2026-05-10"))
        #expect(Coaching.weeksAvailable(start: request.startDate, race: request.race.date) == 18)
        #expect(PlanRules.expectedError(for: request) == nil)
        let doc = PlanEngine.generate(request)
        let plan = try #require(doc.plan, "\(doc.error?.message ?? "")")
        #expect(plan.paces.easy.minSPerKm == 339 && plan.paces.easy.maxSPerKm == 374)
        #expect(plan.weeks.map { $0.longestRun(paces: plan.paces) }.max()! >= 25_000)
        check(doc)
    }

    /// Below the line: 11 km a week, 12 weeks: min(11 + 31.5, 2.75 × 11) = 30.25 km, 55 % = 16.6 km < 17.7 km —
    /// refused (justified by the rubric), with a base plan.
    @Test func belowTheLineIsRefusedWithABasePlan() throws {
        var spec = Self.threeDayNovice
        spec.weeklyKm = 11
        let doc = PlanEngine.generate(spec.request)
        #expect(doc.plan == nil && doc.error?.code == .insufficientBase)
        #expect(doc.basePlan != nil)
        #expect(RubricChecker.check(doc).passed, "\(RubricChecker.check(doc).details)")
        check(doc)
    }

    /// The same runners with a little more base or time are accepted, and their plans reach the minimum long run.
    @Test func aLittleMoreBaseGetsAPlanThatReachesTheMinimum() throws {
        for (spec, need) in [(Self.threeDayNovice, 17_682.0), (Self.fiveDayIntermediate, 25_000.0)] {
            var s = spec
            s.weeklyKm += 8
            s.weeks += 2
            let doc = PlanEngine.generate(s.request)
            let plan = try #require(doc.plan, "\(s): \(doc.error?.message ?? "")")
            let longest = plan.weeks.map { $0.longestRun(paces: plan.paces) }.max() ?? 0
            #expect(longest >= need, "\(s): longest \(longest)")
            check(doc)
        }
    }

    /// `marathon_feasible_from` uses the same check as `generate`: a base plan never names a date whose plan would be
    /// refused on the build.
    @Test func feasibleDateUsesTheBuild() throws {
        for var spec in [Self.threeDayNovice, Self.fiveDayIntermediate] {
            spec.weeklyKm = 9 // below the line: refused with a base plan
            let doc = PlanEngine.generate(spec.request)
            let base = try #require(doc.basePlan)
            guard let from = base.marathonFeasibleFrom else { continue }
            var next = doc.request
            next.startDate = base.weeks.last!.startDate.adding(days: 7)
            next.race.date = from
            let tail = base.weeks.suffix(4)
            next.runner.baseline = .init(
                weeklyDistanceM: tail.map { $0.runningVolume(paces: base.paces) }.reduce(0, +) / Double(tail.count),
                longestRunM: tail.map { $0.longestRun(paces: base.paces) }.max() ?? 0)
            #expect(Validation.refusalBuilding(next) == nil)
            #expect(PlanEngine.generate(next).plan != nil)
        }
    }

    /// `PlanRules` accepts no INSUFFICIENT_BASE beyond the formula (the rubric's H07): a refusal given to a solid
    /// runner is a violation.
    @Test func planRulesJudgesTheBuildRefusal() throws {
        var doc = PlanEngine.generate(Fixture.request())
        #expect(doc.plan != nil)
        doc.plan = nil
        doc.error = PlanError(code: .insufficientBase, message: "made up")
        #expect(PlanRules.violations(of: doc).contains { $0.hasPrefix("REFUSAL:") })
        #expect(PlanRules.violations(of: PlanEngine.generate(Self.threeDayNovice.request)).isEmpty)
        #expect(RubricChecker.check(doc).failed.contains("H07"), "the rubric refuses it too")
    }

    /// `RequestSpec(days 4@0/p2, longDay 0, easy 366 s/km, 12 wk, start+0, race+0, zone Etc/GMT+12, fitness 1)` on
    /// the base line (`CoachRulesPropertyTests.atTheBaseLine`, shrunk from a random search): Monday, Wednesday,
    /// Friday and Sunday, the long run on Monday, a 10 km in 47:18 twenty days before; start Monday 2026-01-05, race
    /// Monday 2026-03-23, so the plan's weeks run Tuesday to Monday and the first holds one day.
    ///
    /// By hand: 77 days, 12 weeks, 9 before the taper; the line's base b has min(b + 31.5 km, 2.75 b) × 55 % equal to
    /// the minimum long run (150 min at the middle of Daniels' easy range for this VDOT, about 24.5 km), so b ≈ 16.27 km
    /// and the largest safe peak is 2.75 b ≈ 44.7 km. The build reached it to within 300 m, but its peak week held the
    /// long run, a tempo and a marathon-pace run and 140 m that no easy run of the minimum length could take: the long
    /// run's 55 % then left it 80 m short and the runner was refused INSUFFICIENT_BASE, which the rubric (H07) does not
    /// justify. Those metres now go to a quality session's cool-down.
    @Test func aPeakWeekWithoutRoomForAnEasyRunStillCarriesTheLongRun() throws {
        var spec = RequestSpec()
        (spec.dayCount, spec.firstDay, spec.dayPattern, spec.longDay, spec.easyPace, spec.weeklyKm, spec.weeks) = (
            4, 0, 2, 0, 366, 5, 12
        )
        (spec.startOffset, spec.raceOffset, spec.zone, spec.experience, spec.fitnessKind) = (0, 0, 0, 0, 1)
        var request = spec.request
        request.generatedAt = request.startDate.adding(days: -1)
        let line = CoachRulesPropertyTests.lineBaseline(request)
        request.runner.baseline.weeklyDistanceM = (line * (1 + 3.0 / 100_000)).rounded()
        #expect(request.startDate == LocalDate("2026-01-05") && request.race.date == LocalDate("2026-03-23"))
        #expect(request.runner.baseline.weeklyDistanceM == 16_268)
        #expect(PlanRules.expectedError(for: request) == nil, "the rubric's line accepts this runner")
        let doc = PlanEngine.generate(request)
        let plan = try #require(doc.plan, "\(doc.error?.message ?? "")")
        // The minimum long run as the rubric reads it: 150 min at the middle of the easy range the plan prints.
        let minimumLong = min(25_000, 9000 / ((plan.paces.easy.minSPerKm + plan.paces.easy.maxSPerKm) / 2) * 1000)
        #expect(minimumLong > 24_000 && minimumLong < 25_000)
        let longest = plan.weeks.map { $0.longestRun(paces: plan.paces) }.max() ?? 0
        #expect(longest >= minimumLong - 1)
        #expect((plan.weeks.map { $0.runningVolume(paces: plan.paces) }.max() ?? 0) <= 2.75 * 16_268)
        check(doc)
        let verdict = RubricChecker.check(doc)
        #expect(verdict.passed, "\(verdict.details.joined(separator: "\n"))")
    }
}

/// A runner's fitness estimated from their running (`BaselineEstimator.evidence`, what the pipeline asks the engine
/// with) is held within the VDOTs a request may state: faster than a 2:10 marathon they are planned at VDOT 78, not
/// refused for a figure they never stated.
@Suite struct EstimatedFitnessTests {
    @Test func anEliteRaceIsPlannedAtTheTopOfTheRange() {
        let asOf = LocalDate("2026-03-02")!
        // A 10 km race in 27:30: VDOT ≈ 80 (Daniels–Gilbert), above the 78 a request may state.
        var runs = [CompletedRun(date: asOf.adding(days: -10), distanceM: 10_000, durationS: 1_650, isRace: true)]
        for d in stride(from: 2, through: 40, by: 2) {
            runs.append(CompletedRun(date: asOf.adding(days: -d), distanceM: 16_000, durationS: 16 * 200))
        }
        let raced = Daniels.vdot(distanceM: 10_000, timeS: 1_650)!
        #expect(raced > 79 && raced < 81)
        let evidence = BaselineEstimator.evidence(from: runs, asOf: asOf)
        #expect(evidence.fitness?.vdot == 78)
        var request = PlanRequest(
            generatedAt: asOf, timezone: "UTC", startDate: asOf.adding(days: 1),
            race: .init(date: asOf.adding(days: 7 * 16)),
            runner: .init(
                availableDays: [.mon, .tue, .wed, .thu, .fri, .sat], baseline: evidence.baseline,
                fitness: evidence.fitness))
        request.runner.experience = PlanRequest.Experience.experienced
        let doc = PlanEngine.generate(request)
        #expect(doc.error?.code != .invalidRequest, "\(doc.error?.message ?? "")")
        #expect(doc.plan?.trainingVdot == 78)
    }
}
