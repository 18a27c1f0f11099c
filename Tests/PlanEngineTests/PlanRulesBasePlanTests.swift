import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

/// `PlanRules`, the engine's own checker, now checks what only `CoachRules` checked before (issue 17): the base plan
/// that comes with a refusal, and the taper's long runs. Each rule is shown holding on the engine's output and
/// caught when broken by hand.
@Suite struct PlanRulesBasePlanTests {
    /// The runner: 11 km a week, a marathon in 17 weeks.
    static let refused = PlanEngine.generate(
        Fixture.request(
            start: "2026-06-01", race: "2026-09-27", weekly: 11_000, longest: 5_000,
            experience: .novice, goal: nil, fitness: nil))

    func rules(_ doc: PlanDocument) -> [String] { PlanRules.violations(of: doc) }

    @Test func theEnginesBasePlanPasses() throws {
        #expect(Self.refused.basePlan != nil)
        #expect(rules(Self.refused).isEmpty, "\(rules(Self.refused))")
    }

    @Test func aBasePlanIsOfferedExactlyWhenDue() throws {
        var missing = Self.refused
        missing.basePlan = nil
        #expect(rules(missing).contains { $0.hasPrefix("BASE:") && $0.contains("without a base plan") })

        // TOO_FEW_DAYS is not offered one.
        var extra = PlanEngine.generate(Fixture.request(days: [.tue, .sun]))
        #expect(extra.error?.code == .tooFewDays && extra.basePlan == nil)
        extra.basePlan = Self.refused.basePlan
        #expect(rules(extra).contains { $0.contains("not offered one") })
    }

    @Test func shapeAndDatesAreChecked() throws {
        var doc = Self.refused
        doc.basePlan!.kind = "marathon"
        #expect(rules(doc).contains { $0.contains("kind") })

        doc = Self.refused
        doc.basePlan!.warnings.removeFirst()
        #expect(rules(doc).contains { $0.contains("BASE_PLAN") })

        doc = Self.refused
        doc.basePlan!.weeks[1].startDate = doc.basePlan!.weeks[1].startDate.adding(days: 1)
        #expect(rules(doc).contains { $0.contains("is not the mon-based week after the previous") })

        // A run before start_date (the request asks to start on the Wednesday of week 1).
        var late = Self.refused
        late.request.startDate = LocalDate("2026-06-03")!
        late.basePlan!.weeks[0].days[0].workouts = [Self.easyRun(3000)]
        #expect(rules(late).contains { $0.contains("before start_date") })

        doc = Self.refused
        let last = doc.basePlan!.weeks.count - 1
        doc.basePlan!.weeks[last].days[6].workouts = [Workout(type: .race, sport: .run, distanceM: 42_195)]
        #expect(rules(doc).contains { $0.contains("a race on") })
    }

    @Test func daysVolumesAndLongRunsAreChecked() throws {
        let base = try #require(Self.refused.basePlan)
        // A run on Friday, which is not an available day.
        var doc = Self.refused
        doc.basePlan!.weeks[2].days[4].workouts = [Self.easyRun(3000)]
        #expect(rules(doc).contains { $0.hasPrefix("BASE DAYS:") && $0.contains("not an available day") })

        // Week 2 half again as big: the ramp, and the target, are broken.
        doc = Self.refused
        let k = try #require(base.weeks[1].days.firstIndex { $0.workouts.contains { $0.type == .long } })
        var long = base.weeks[1].days[k].workouts[0]
        long.distanceM = (long.distanceM ?? 0) + 6000
        long.segments = [Segment(kind: .work, zone: .easy, distanceM: long.distanceM!)]
        doc.basePlan!.weeks[1].days[k].workouts = [long]
        let v = rules(doc)
        #expect(v.contains { $0.hasPrefix("BASE RAMP:") }, "\(v)")
        #expect(v.contains { $0.hasPrefix("BASE LONG:") && $0.contains("grows more than 3 km") }, "\(v)")
        #expect(v.contains { $0.hasPrefix("BASE LONG:") && $0.contains("55 %") }, "\(v)")

        // Never beyond its own target.
        doc = Self.refused
        doc.basePlan!.target.weeklyDistanceM = 12_000
        doc.basePlan!.target.longRunM = 5_000
        #expect(rules(doc).contains { $0.hasPrefix("BASE TARGET:") })
    }

    @Test func theMarathonDateItNamesIsChecked() throws {
        var doc = Self.refused
        let end = doc.basePlan!.weeks.last!.startDate.adding(days: 6)
        doc.basePlan!.marathonFeasibleFrom = end.adding(days: -14)
        #expect(rules(doc).contains { $0.contains("before the base plan ends") })

        doc = Self.refused
        doc.basePlan!.marathonPlanWeeks = (doc.basePlan!.marathonPlanWeeks ?? 0) + 1
        #expect(rules(doc).contains { $0.contains("marathon_plan_weeks") })

        // Eight weeks after the base plan is too soon for a runner who is not experienced.
        doc = Self.refused
        doc.basePlan!.marathonFeasibleFrom = end.adding(days: 7 * 8)
        doc.basePlan!.marathonPlanWeeks = 8
        #expect(rules(doc).contains { $0.contains("refused by the rules (RACE_TOO_SOON)") })
    }

    /// Taper long runs: two weeks out at most 75 %, the week before race week at most 55 % of the peak long run.
    @Test func taperLongRunsAreChecked() throws {
        let doc = Fixture.plan()
        let plan = try #require(doc.plan)
        #expect(rules(doc).isEmpty)
        let p = plan.paces, n = plan.weeks.count
        let peakLong = plan.weeks.prefix(n - 3).map { $0.longestRun(paces: p) }.max()!
        for (week, share) in [(n - 3, 0.75), (n - 2, 0.55)] {
            var broken = doc
            let k = try #require(
                plan.weeks[week].days.firstIndex {
                    $0.workouts.contains { $0.isRun && $0.type != .long && $0.type != .race }
                })
            let d = ((share + 0.05) * peakLong / 100).rounded() * 100
            broken.plan!.weeks[week].days[k].workouts = [Self.easyRun(d)]
            #expect(
                rules(broken).contains {
                    $0.hasPrefix("TAPER:") && $0.contains("\(Int(share * 100)) % of the peak long run")
                },
                "week \(week + 1): \(rules(broken))")
        }
    }

    static func easyRun(_ m: Double) -> Workout {
        Workout(
            id: "x", type: .easy, sport: .run, distanceM: m, pace: WorkoutPace(zone: .easy),
            segments: [Segment(kind: .work, zone: .easy, distanceM: m)], description: "easy")
    }
}
