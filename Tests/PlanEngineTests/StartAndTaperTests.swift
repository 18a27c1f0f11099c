import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

/// Issue 17's last checker additions: nothing on past days whatever `start_date` asks, and the taper's long-run
/// limits on every run of the week (the engine's fixes and `CoachRules` catching each rule broken by hand).
@Suite struct StartAndTaperTests {
    /// A request made on Thursday that asks for a start on Monday: the plan starts on Thursday and says so.
    @Test func startDateBeforeTodayIsClamped() throws {
        var req = Fixture.request(start: "2026-06-01")
        req.generatedAt = LocalDate("2026-06-04")
        let doc = PlanEngine.generate(req)
        let plan = try #require(doc.plan)
        #expect(doc.request.startDate == LocalDate("2026-06-04"))
        #expect(plan.warnings.contains { $0.code == NoticeCode.startClamped && $0.message.contains("2026-06-01") })
        for d in plan.weeks.flatMap(\.days) where d.date < LocalDate("2026-06-04")! {
            #expect(d.workouts.isEmpty, "\(d.date)")
        }
        #expect(plan.weeks[0].startDate == LocalDate("2026-06-01"), "Monday–Sunday weeks: week 1 holds today")
        #expect((PlanRules.violations(of: doc) + CoachRules.violations(of: doc)).isEmpty)

        // The checker catches a plan that schedules a past day (the request echo left as asked).
        var stale = doc
        stale.request.startDate = LocalDate("2026-06-01")!
        stale.plan!.weeks[0].days[1].workouts = [
            plan.weeks[0].days.flatMap(\.workouts).first { $0.type == .easy || $0.type == .long }!
        ]
        #expect(CoachRules.violations(of: stale).contains { $0.hasPrefix("DATES:") && $0.contains("before today") })
    }

    /// The same clamp for a refused runner: the base plan starts today too.
    @Test func basePlanStartsTodayToo() throws {
        var req = Fixture.request(start: "2026-06-01", weekly: 11_000, longest: 5_000, goal: nil, fitness: nil)
        req.generatedAt = LocalDate("2026-06-03")
        let doc = PlanEngine.generate(req)
        let base = try #require(doc.basePlan)
        for d in base.weeks.flatMap(\.days) where d.date < LocalDate("2026-06-03")! {
            #expect(d.workouts.isEmpty, "\(d.date)")
        }
        #expect(base.warnings.contains { $0.code == NoticeCode.startClamped })
        #expect(CoachRules.baseViolations(of: doc).isEmpty)
    }

    /// Two weeks out no run longer than 75 %, the week before the race none longer than 55 % of the peak long run.
    @Test func taperRunsStayWithinTheTapersLongRun() throws {
        let doc = Fixture.plan()
        let plan = try #require(doc.plan)
        let p = plan.paces, n = plan.weeks.count
        let peakLong = plan.weeks.prefix(n - 3).map { $0.longestRun(paces: p) }.max()!
        #expect(plan.weeks[n - 3].longestRun(paces: p) <= 0.75 * peakLong)
        #expect(plan.weeks[n - 2].longestRun(paces: p) <= 0.55 * peakLong)
        #expect(CoachRules.violations(of: doc).isEmpty)

        // An easy run of 60 % of the peak long run in the week before the race breaks the rule, whatever its type.
        var broken = doc
        let k = try #require(broken.plan!.weeks[n - 2].days.firstIndex { $0.workouts.contains { $0.type == .easy } })
        let j = broken.plan!.weeks[n - 2].days[k].workouts.firstIndex { $0.type == .easy }!
        let d = (0.60 * peakLong / 100).rounded() * 100
        broken.plan!.weeks[n - 2].days[k].workouts[j].distanceM = d
        broken.plan!.weeks[n - 2].days[k].workouts[j].segments = [Segment(kind: .work, zone: .easy, distanceM: d)]
        #expect(
            CoachRules.violations(of: broken).contains { $0.hasPrefix("TAPER_LONG:") },
            "\(CoachRules.violations(of: broken))")
    }
}
