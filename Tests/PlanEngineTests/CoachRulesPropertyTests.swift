import Foundation
import PlanCheckKit
import PropertyBased
import Testing

@testable import PlanEngine

/// Issue 17: every plan the engine does not refuse passes every rule — the engine's checker
/// (`PlanRules`) and the coach's rules written independently from the issue (`CoachRules`) — and
/// every refusal is the one the rules demand. The requests are searched (and failures shrunk) by
/// swift-property-based over the corners listed in the issue; `PLAN_PROPERTY_COUNT` (default
/// 20 000) is split over four tests that run in parallel, each with its own emphasis. Each generated
/// input is a batch of four requests (the library's per-input bookkeeping costs as much as a plan in a
/// debug build); shrinking still reduces every request of a failing batch.
@Suite(.shrinking) struct CoachRulesPropertyTests {
    static var total: Int { ProcessInfo.processInfo.environment["PLAN_PROPERTY_COUNT"].flatMap(Int.init) ?? 20_000 }
    /// Inputs per test: four tests, four requests an input.
    static var inputs: Int { max(1, total / 16) }

    /// Requests over the whole space; `days` and `pattern` choose the available days.
    static func requests(
        days: ClosedRange<Int> = 2...7, pattern: ClosedRange<Int> = 0...3, weeks: ClosedRange<Int> = 6...26,
        weekly: ClosedRange<Int> = 5...130
    ) -> Generator<RequestSpec, AnySequence<Any>> {
        zip(
            zip(
                Gen.int(in: days), Gen.int(in: 0...6), Gen.int(in: pattern), Gen.int(in: 0...7), Gen.int(in: 0...7),
                Gen.int(in: 270...510), Gen.int(in: weekly), Gen.int(in: weeks)),
            zip(
                Gen.int(in: 0...6), Gen.int(in: 0...6), Gen.int(in: 0...(RequestSpec.zones.count - 1)),
                Gen.int(in: 0...2),
                Gen.int(in: 0...50), Gen.int(in: 0...2), Gen.int(in: 0...115), Gen.int(in: 0...364))
        )
        .map { a, b in
            var s = RequestSpec()
            (s.dayCount, s.firstDay, s.dayPattern, s.maxRun, s.longDay, s.easyPace, s.weeklyKm, s.weeks) = a
            (s.startOffset, s.raceOffset, s.zone, s.experience, s.longestPct, s.fitnessKind, s.goalPct, s.dayOfYear) = b
            if s.longestPct < 15 { s.longestPct = 0 } // a third of the runners give no longest run
            if s.goalPct < 85 { s.goalPct = 0 } // most give no goal
            return s
        }
        .eraseToAny()
    }

    /// What the checks saw over a test's requests.
    struct Tally {
        var plans = 0, basePlans = 0, judged = 0
    }

    /// Checks one request — a plan, or a refusal and the base plan that comes with it (issue 17, item 5).
    static func check(_ spec: RequestSpec, _ tally: inout Tally, sourceLocation: SourceLocation = #_sourceLocation) {
        check(spec.request, label: "\(spec)", &tally, sourceLocation: sourceLocation)
    }

    static func check(
        _ request: PlanRequest, label spec: String, _ tally: inout Tally,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let doc = PlanEngine.generate(request)
        // No exemption: the known bug of accepted plans whose longest run fell short of the minimum (issue 17) is fixed
        // at the root (the feasibility check is the build; FeasibilityTests holds the shrunk cases).
        let v = PlanRules.violations(of: doc) + CoachRules.violations(of: doc) + CoachRules.baseViolations(of: doc)
        #expect(v.isEmpty, "\(spec)\n  \(v.prefix(8).joined(separator: "\n  "))", sourceLocation: sourceLocation)
        // The judge nobody here wrote: the rubric's reference checker, on every document (plans and refusals, H07).
        let verdict = RubricChecker.check(doc)
        tally.judged += 1
        #expect(
            verdict.passed, "check_plan.py: \(spec)\n  \(verdict.details.prefix(6).joined(separator: "\n  "))",
            sourceLocation: sourceLocation)
        if doc.plan != nil { tally.plans += 1 }
        if doc.basePlan != nil { tally.basePlans += 1 }
    }

    /// Also the search over refusals: every refused runner who gets a base plan gets one that passes every rule.
    @Test func anyRunner() async {
        var tally = Tally()
        await propertyCheck(count: Self.inputs, input: Self.requests().array(of: 4)) { specs in
            for spec in specs { Self.check(spec, &tally) }
        }
        #expect(tally.plans > Self.total / 4 / 5, "too few plans (\(tally.plans)): the generator mostly hits refusals")
        #expect(
            tally.basePlans > Self.total / 4 / 10,
            "too few base plans (\(tally.basePlans)): the refusals are not searched")
    }

    /// Fitness as runners state it: race results timed to the second over 5 km to the marathon, and VDOTs given to three
    /// decimals, so the VDOT is never the tenth the document prints (`training_vdot`); goals to the second; and a fifth
    /// of the runners at the ends of the VDOTs a request may state (15–20 and 73–78: beginners and the fastest; a few over 78, refused). The
    /// paces, warnings and refusals must still pass every checker, which read the printed VDOT or the request's own
    /// figures.
    @Test func fitnessToTheSecond() async {
        let distances = [5000.0, 10_000, 21_097.5, 42_195]
        await propertyCheck(
            count: max(1, Self.total / 40),
            input: zip(
                Self.requests(), Gen.int(in: 0...3), Gen.int(in: -300...300), Gen.int(in: 0...99), Gen.int(in: 0...9)
            ).array(of: 4)
        ) { cases in
            for (spec, d, seconds, hundredths, end) in cases {
                var r = spec.request
                // The runner's VDOT: the spec's, or one at an end of the range (a thousandth at a time).
                let vdot =
                    switch end {
                    case 8: 15 + Double(hundredths) / 20
                    case 9: 78.3 - Double(hundredths) / 20
                    default: (spec.vdot * 10).rounded(.down) / 10 + Double(hundredths) / 1000
                    }
                switch spec.fitnessKind {
                case 0: r.runner.fitness = .init(vdot: vdot)
                case 1:
                    let time = Daniels.predictedTime(distanceM: distances[d], vdot: vdot).rounded()
                    r.runner.fitness = .init(
                        race: .init(
                            distanceM: distances[d], timeS: max(600, time + Double(seconds)),
                            date: r.startDate.adding(days: -20)))
                default: break
                }
                r.race.goalTimeS = r.race.goalTimeS.map { $0 + Double(seconds) }
                var tally = Tally()
                Self.check(r, label: "\(spec), VDOT \(vdot), distance \(distances[d]), \(seconds) s", &tally)
            }
        }
    }

    /// Runners on the rubric's base line and up to 3 % above it (baselines to the metre): the largest safe peak only
    /// just carries the minimum long run, and the build must reach it — every one gets a plan the rubric passes, and
    /// those a hair below the line are refused with a base plan (H07). The line is worked out here from the rubric's
    /// formula and Daniels' exact easy paces, not asked of the engine.
    @Test func atTheBaseLine() async {
        let count = max(1, Self.total / 40)
        var onOrAbove = 0, plans = 0
        await propertyCheck(
            count: count, input: zip(Self.requests(days: 3...7, weeks: 8...26), Gen.int(in: -300...3000)).array(of: 4)
        ) { pairs in
            // The line is drawn for a stated baseline: runners back from a break are searched elsewhere.
            for (spec, u) in pairs where spec.lastBreak == nil {
                var r = spec.request
                // No start clamped to a later today: the line is drawn for this start.
                r.generatedAt = r.startDate.adding(days: -1)
                let b = Self.lineBaseline(r) * (1 + Double(u) / 100_000)
                let k = b.rounded() / r.runner.baseline.weeklyDistanceM
                r.runner.baseline.weeklyDistanceM = b.rounded()
                r.runner.baseline.longestRunM = r.runner.baseline.longestRunM.map { ($0 * k / 100).rounded() * 100 }
                r.runner.baseline.recentWeeksM = r.runner.baseline.recentWeeksM?.map { ($0 * k / 100).rounded() * 100 }
                r.runner.baseline.recentLongestM = r.runner.baseline.recentLongestM?.map {
                    ($0 * k / 100).rounded() * 100
                }
                let doc = PlanEngine.generate(r)
                let verdict = RubricChecker.check(doc)
                #expect(
                    verdict.passed,
                    "check_plan.py (u \(u)): \(spec)\n  \(verdict.details.prefix(6).joined(separator: "\n  "))")
                if u >= 0 && PlanRules.expectedError(for: doc.request) == nil {
                    onOrAbove += 1
                    if doc.plan != nil { plans += 1 }
                    #expect(
                        doc.plan != nil,
                        "refused at u \(u): \(spec) \(r.runner.baseline.weeklyDistanceM) m: \(doc.error?.code.rawValue ?? "") \(doc.error?.message ?? "")"
                    )
                }
            }
        }
        #expect(onOrAbove > count / 4, "\(onOrAbove) of \(4 * count) requests on or above the line")
        #expect(plans == onOrAbove)
    }

    /// The baseline (m/week) whose largest safe peak, min(b + min(40 km, 3.5 km × (weeks − 3)), 2.75 × b), carries
    /// min(25 km, 150 min at Daniels' exact easy mid pace) at 55 % of its week: the rubric's H07 line, by bisection.
    static func lineBaseline(_ r: PlanRequest) -> Double {
        let weeks = (r.startDate.days(to: r.race.date) + 7) / 7
        let p = Double(max(1, min(weeks, 24) - 3))
        let vdot: Double? =
            r.runner.fitness?.vdot
            ?? r.runner.fitness?.race.flatMap { Daniels.vdot(distanceM: $0.distanceM, timeS: $0.timeS) }
        let need =
            vdot.map { v in
                min(
                    25_000,
                    9000 / ((Daniels.pace(fraction: 0.70, vdot: v) + Daniels.pace(fraction: 0.62, vdot: v)) / 2) * 1000)
            } ?? 25_000
        var lo = 1000.0, hi = 200_000.0
        for _ in 0..<60 {
            let m = (lo + hi) / 2
            if min(m + min(40_000, 3500 * p), 2.75 * m) * 0.55 < need { lo = m } else { hi = m }
        }
        return hi
    }

    /// Only consecutive available days (3–5 of them): the long-run day always sits next to the others.
    @Test func consecutiveDays() async {
        var tally = Tally()
        await propertyCheck(
            count: Self.inputs,
            input: Self.requests(days: 3...5, pattern: 0...1, weeks: 12...24, weekly: 20...120).array(of: 4)
        ) { specs in
            for spec in specs { Self.check(spec, &tally) }
        }
        #expect(tally.plans > Self.total / 4 / 5)
    }

    /// Slow runners (easy 7:00–8:30/km) on few days: the runs where a recovery run used to be a 90-minute day.
    @Test func slowRunnersOnFewDays() async {
        let slow = Self.requests(days: 3...4, weeks: 12...24, weekly: 20...80).map { s -> RequestSpec in
            var s = s; s.easyPace = 420 + s.easyPace % 91; return s
        }
        var tally = Tally()
        await propertyCheck(count: Self.inputs, input: slow.array(of: 4)) { specs in
            for spec in specs { Self.check(spec, &tally) }
        }
    }

    /// Plans that can be made (8–24 weeks, 3–7 days, a solid base): the rules, not the refusals, are exercised.
    @Test func buildableRunners() async {
        var tally = Tally()
        await propertyCheck(
            count: Self.inputs, input: Self.requests(days: 3...7, weeks: 12...24, weekly: 30...120).array(of: 4)
        ) { specs in
            for spec in specs { Self.check(spec, &tally) }
        }
        #expect(tally.plans > Self.total / 4 / 2)
    }

    /// The adaptation scenarios (missed week, 12-day illness, 5-week break, two weeks 40 % over, a better race)
    /// for searched runners: the adapted plan passes both checkers, and fitness moves only on evidence —
    /// time off by Daniels' factor, a race by at most one point up, nothing else up.
    @Test func adaptationScenarios() async {
        let count = ProcessInfo.processInfo.environment["PLAN_ADAPT_COUNT"].flatMap(Int.init) ?? 800
        let scenarios = zip(
            Self.requests(days: 3...7, weeks: 12...24, weekly: 25...120), Gen.int(in: 0...6), Gen.int(in: 3...20),
            Gen.int(in: 0...90)
        )
        .map { spec, kind, week, days in
            AdaptScenario(spec: spec, kind: AdaptScenario.Kind(rawValue: kind)!, week: week, breakDays: days)
        }
        var adapted = 0
        await propertyCheck(count: count, input: scenarios) { scenario in
            guard let r = scenario.run() else { return }
            // A build that cannot resume within the rules close to the race ends in a refusal the rubric justifies.
            if r.adapted.plan == nil {
                let verdict = RubricChecker.check(r.adapted)
                #expect(
                    verdict.passed,
                    "check_plan.py: \(scenario)\n  \(verdict.details.prefix(6).joined(separator: "\n  "))")
                return
            }
            adapted += 1
            let v =
                PlanRules.violations(of: r.adapted) + CoachRules.violations(of: r.adapted)
                + scenario.fitnessViolations(previous: r.previous, adapted: r.adapted, asOf: r.asOf, lastRun: r.lastRun)
            #expect(r.adapted.plan?.adaptation != nil, "\(scenario): not adapted")
            #expect(v.isEmpty, "\(scenario)\n  \(v.prefix(8).joined(separator: "\n  "))")
            // The rubric's checker on the adapted document, and no empty week before the race.
            let verdict = RubricChecker.check(r.adapted)
            #expect(
                verdict.passed, "check_plan.py: \(scenario)\n  \(verdict.details.prefix(6).joined(separator: "\n  "))")
            if let weeks = r.adapted.plan?.weeks {
                let empty = weeks.dropLast().filter { $0.runningVolume(paces: r.adapted.plan!.paces) == 0 }
                #expect(empty.isEmpty, "\(scenario): empty weeks before the race: \(empty.map(\.index))")
            }
        }
        // Breaks close to the race end in refusals the rubric justifies; the rest adapt.
        #expect(adapted > count / 10, "\(adapted) of \(count) adapted")
    }

    /// A plan deferred by a race 26–40 weeks away, adapted on a day before its first week while the runner keeps
    /// running their stated week on their available days (docs/ADAPTATION.md, A0): a plan that passes both checkers
    /// and the rubric's, with the same deferred first week and no empty week — or, when that running cannot reach
    /// the race, the refusal with its base plan. Never a refusal without one.
    @Test func deferredPlansAdaptedBeforeTheyBegin() async {
        let count = ProcessInfo.processInfo.environment["PLAN_ADAPT_COUNT"].flatMap(Int.init) ?? 200
        let scenarios = zip(Self.requests(days: 3...7, weeks: 26...40, weekly: 25...120), Gen.int(in: 1...90))
        var remade = 0
        await propertyCheck(count: count, input: scenarios) { spec, day in
            let previous = PlanEngine.generate(spec.request)
            guard let first = previous.plan?.weeks.first?.startDate else { return }
            let requested = previous.request.startDate
            guard requested.days(to: first) > 7 else { return }
            let asOf = requested.adding(days: min(day, requested.days(to: first) - 1))
            let days = Set(previous.request.runner.availableDays)
            var done: [CompletedRun] = []
            var date = asOf.adding(days: -42)
            while date < asOf {
                if days.contains(date.weekday) {
                    let d = Double(spec.weeklyKm) * 1000 / Double(days.count)
                    done.append(CompletedRun(date: date, distanceM: d, durationS: d / 1000 * Double(spec.easyPace)))
                }
                date = date.adding(days: 1)
            }
            let adapted = PlanAdapter.adapt(previous: previous, completed: done, asOf: asOf)
            let verdict = RubricChecker.check(adapted)
            #expect(
                verdict.passed,
                "check_plan.py: \(spec) on \(asOf)\n  \(verdict.details.prefix(6).joined(separator: "\n  "))")
            guard let plan = adapted.plan else {
                #expect(adapted.basePlan != nil, "\(spec) on \(asOf): \(String(describing: adapted.error))")
                return
            }
            remade += 1
            let v = PlanRules.violations(of: adapted) + CoachRules.violations(of: adapted)
            #expect(v.isEmpty, "\(spec) on \(asOf)\n  \(v.prefix(8).joined(separator: "\n  "))")
            #expect(plan.weeks.first?.startDate == first, "\(spec) on \(asOf): first week moved")
            let empty = plan.weeks.dropLast().filter { $0.runningVolume(paces: plan.paces) == 0 }
            #expect(empty.isEmpty, "\(spec) on \(asOf): empty weeks before the race: \(empty.map(\.index))")
        }
        #expect(remade > count / 4, "\(remade) of \(count) remade with a plan")
    }
}
