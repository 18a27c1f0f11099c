import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

/// The checker itself is trusted only if it catches hand-made violations: each test breaks one rule
/// of a valid plan and expects that rule's code.
@Suite struct PlanRulesTests {
    let doc = Fixture.plan()
    var paces: Paces { doc.plan!.paces }

    func expectViolation(
        _ code: String, _ mutate: (inout PlanDocument) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var d = doc
        mutate(&d)
        let v = PlanRules.violations(of: d)
        #expect(v.contains { $0.hasPrefix(code) }, "expected \(code), got \(v)", sourceLocation: sourceLocation)
    }

    func easy(_ m: Double, _ id: String = "x") -> Workout {
        Workout(
            id: id, type: .easy, sport: .run, distanceM: m, pace: WorkoutPace(zone: .easy),
            segments: [Segment(kind: .work, zone: .easy, distanceM: m)], description: "easy")
    }

    /// Index of the first day of week `w` matching `where` (or of any day in the week, to make the mutation visible).
    func day(_ d: PlanDocument, week w: Int, _ pred: (Day) -> Bool) -> Int {
        d.plan!.weeks[w].days.firstIndex(where: pred) ?? d.plan!.weeks[w].days.firstIndex {
            $0.workouts.contains(where: \.isRun)
        }!
    }

    /// The first workout of `type` anywhere in the plan.
    func first(_ type: WorkoutType) -> Workout {
        doc.plan!.weeks.flatMap(\.days).flatMap(\.workouts).first { $0.type == type }!
    }

    @Test func validPlanHasNoViolations() { #expect(PlanRules.violations(of: doc).isEmpty) }

    /// A rule the rubric's reference checker judges (volume progression): the hand-made violation must fail it there.
    func expectRubricFailure(
        _ id: String, _ mutate: (inout PlanDocument) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var d = doc
        #expect(RubricChecker.check(d).passed, "the fixture itself fails: \(RubricChecker.check(d).details)")
        mutate(&d)
        let verdict = RubricChecker.check(d)
        #expect(verdict.failed.contains(id), "expected \(id), got \(verdict.details)", sourceLocation: sourceLocation)
    }

    @Test func rampTooSteep() {
        expectRubricFailure("H11") { d in
            // Week 6 a third above the biggest of the three weeks before it (the rubric allows 20 %).
            let vols = d.plan!.weeks.map { $0.runningVolume(paces: paces) }
            let extra = 1.33 * vols[2...4].max()! - vols[5]
            let i = day(d, week: 5) { $0.workouts.contains { [.easy, .recovery].contains($0.type) } }
            let run = d.plan!.weeks[5].days[i].workouts[0]
            d.plan!.weeks[5].days[i].workouts[0] = easy(run.totalDistance(paces: paces) + extra)
        }
    }

    @Test func missingCutbacks() {
        expectRubricFailure("H13") { d in
            // Fill every recovery week back up to the week before it.
            for w in d.plan!.weeks.indices where d.plan!.weeks[w].phase == .recovery {
                // The long run as long as the week before's, so the week is no long-run cutback either.
                let before = d.plan!.weeks[w - 1].longestRun(paces: paces)
                if let l = d.plan!.weeks[w].days.firstIndex(where: { $0.workouts.contains { $0.type == .long } }) {
                    d.plan!.weeks[w].days[l].workouts[0].distanceM = before
                    d.plan!.weeks[w].days[l].workouts[0].segments = [
                        Segment(kind: .work, zone: .easy, distanceM: before)
                    ]
                }
                let gap =
                    d.plan!.weeks[w - 1].runningVolume(paces: paces) - d.plan!.weeks[w].runningVolume(paces: paces)
                let i = day(d, week: w) { $0.workouts.contains { $0.type == .easy || $0.type == .recovery } }
                d.plan!.weeks[w].days[i].workouts[0] = easy(d.plan!.weeks[w].days[i].workouts[0].distanceM! + gap)
            }
        }
    }

    @Test func qualityTheDayAfterTheLongRun() {
        expectViolation("QUALITY") { d in
            let q = first(.threshold)
            // Monday after week 6's Sunday long run.
            d.plan!.weeks[6].days[0].workouts = [q]
        }
    }

    @Test func runOnAnUnavailableDay() {
        expectViolation("DAYS") { d in d.plan!.weeks[3].days[4].workouts = [easy(5000)] } // Friday
    }

    @Test func noRestDay() {
        expectViolation("DAYS") { d in
            for j in 0..<7 where d.plan!.weeks[3].days[j].workouts.filter(\.isRun).isEmpty {
                d.plan!.weeks[3].days[j].workouts = [easy(4000)]
            }
        }
    }

    @Test func thresholdBeyondTenPercent() {
        expectViolation("LIMIT") { d in
            let i = day(d, week: 2) { $0.workouts.contains { $0.type == .threshold } }
            d.plan!.weeks[2].days[i].workouts[0].segments![1].repeat = 8
            d.plan!.weeks[2].days[i].workouts[0].segments![1].distanceM = 1600
            d.plan!.weeks[2].days[i].workouts[0].distanceM = 18_000
        }
    }

    @Test func longRunBeyond35km() {
        expectViolation("LONG") { d in
            let i = day(d, week: 10) { $0.workouts.contains { $0.type == .long } }
            d.plan!.weeks[10].days[i].workouts[0].distanceM = 38_000
        }
    }

    @Test func longRunOnTheWrongDay() {
        expectViolation("LONG") { d in
            let long = d.plan!.weeks[3].days[6].workouts
            d.plan!.weeks[3].days[6].workouts = []
            d.plan!.weeks[3].days[5].workouts = long
        }
    }

    @Test func longestRunTooEarly() {
        expectViolation("LONG") { d in
            let i = day(d, week: 2) { $0.workouts.contains { $0.type == .long } }
            d.plan!.weeks[2].days[i].workouts[0].distanceM = 34_000
        }
    }

    @Test func taperGoingUp() {
        expectViolation("TAPER") { d in
            let n = d.plan!.weeks.count
            d.plan!.weeks[n - 1].days[0].workouts = [easy(40_000)]
        }
    }

    @Test func overlappingEasyAndMarathonPaces() {
        expectViolation("PACES") { d in d.plan!.paces.easy.minSPerKm = d.plan!.paces.marathon.maxSPerKm - 5 }
    }

    @Test func pacesFromTheGoalInsteadOfFitness() {
        expectViolation("PACES") { d in
            d.plan!.paces = Daniels.trainingPaces(vdot: 55)
        }
    }

    @Test func brokenDates() {
        expectViolation("WEEKS") { d in d.plan!.weeks[2].days[3].date = d.plan!.weeks[2].days[3].date.adding(days: 1) }
        expectViolation("DATES") { d in d.plan!.timezone = "Europe/Paris" }
    }

    @Test func workoutWithoutStructure() {
        expectViolation("WORKOUT") { d in
            let i = day(d, week: 1) { $0.workouts.contains { $0.type == .threshold } }
            d.plan!.weeks[1].days[i].workouts[0].segments = nil
        }
        expectViolation("WORKOUT") { d in
            let i = day(d, week: 1) { $0.workouts.contains { $0.type == .threshold } }
            d.plan!.weeks[1].days[i].workouts[0].description = nil
        }
    }

    @Test func intervalsLateInRaceWeek() {
        expectViolation("RACE_WEEK") { d in
            let n = d.plan!.weeks.count
            let q = first(.intervals)
            d.plan!.weeks[n - 1].days[4].workouts = [q] // Friday before a Sunday race
        }
        expectViolation("RACE_WEEK") { d in
            let n = d.plan!.weeks.count
            d.plan!.weeks[n - 1].days[5].workouts = [easy(12_000)] // a long run the day before
        }
    }

    @Test func wrongRefusals() {
        let tooSoon = Fixture.request(start: "2026-08-01") // 7 weeks
        var d = Fixture.plan()
        d.request = tooSoon
        #expect(PlanRules.violations(of: d).contains { $0.hasPrefix("REFUSAL") })
        let refused = PlanDocument(request: Fixture.request(), error: PlanError(code: .notMarathon, message: "no"))
        #expect(PlanRules.violations(of: refused).contains { $0.hasPrefix("REFUSAL") })
        let both = PlanDocument(
            request: Fixture.request(), plan: doc.plan, error: PlanError(code: .notMarathon, message: "x"))
        #expect(PlanRules.violations(of: both).contains { $0.hasPrefix("FORMAT") })
    }

    @Test func missingOrUnwarrantedWarnings() {
        let low = Fixture.plan(Fixture.request(weekly: 25_000, longest: 10_000, start: "2026-04-01"))
        #expect(low.plan!.warnings.contains { $0.code == NoticeCode.lowBase })
        var d = low
        d.plan!.warnings.removeAll { $0.code == NoticeCode.lowBase }
        #expect(PlanRules.violations(of: d).contains { $0.hasPrefix("WARNING") })
        var e = doc
        e.plan!.warnings.append(Notice(code: NoticeCode.shortBuild, message: "x"))
        #expect(PlanRules.violations(of: e).contains { $0.hasPrefix("WARNING") })
    }

    @Test func twoRunsOnOneDay() {
        expectViolation("DAYS") { d in
            let i = day(d, week: 3) { $0.workouts.contains { $0.type == .easy } }
            d.plan!.weeks[3].days[i].workouts.append(easy(3000, "y"))
        }
    }
}

extension Fixture {
    static func request(weekly: Double, longest: Double, start: String) -> PlanRequest {
        request(start: start, weekly: weekly, longest: longest)
    }
}
