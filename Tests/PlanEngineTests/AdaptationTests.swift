import Foundation
import Testing

@testable import PlanEngine

/// Adaptation scenarios: each checks the property the next week must have, and that the adapted
/// document still satisfies every rule.
@Suite struct AdaptationTests {
    let base = Fixture.plan()
    var plan: Plan { base.plan! }
    func weekStart(_ k: Int) -> LocalDate { plan.weeks[k - 1].startDate }
    func codes(_ doc: PlanDocument) -> Set<String> { Set(doc.plan?.adaptation?.reasons.map(\.code) ?? []) }
    func quality(_ w: Week, _ p: Paces) -> Int {
        w.days.filter { $0.workouts.contains { $0.isQuality(paces: p) } }.count
    }

    func check(_ doc: PlanDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        let v = PlanRules.violations(of: doc) + CoachRules.violations(of: doc)
        #expect(v.isEmpty, "\(v.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(doc.plan?.adaptation != nil, sourceLocation: sourceLocation)
    }

    /// The kept weeks are exactly the previous version's.
    func pastKept(_ doc: PlanDocument, before: LocalDate, sourceLocation: SourceLocation = #_sourceLocation) {
        let old = plan.weeks.flatMap(\.days).filter { $0.date < before }
        let new = doc.plan!.weeks.flatMap(\.days).filter { $0.date < before }
        #expect(old == new, "the past was rewritten", sourceLocation: sourceLocation)
    }

    @Test func onTrackKeepsThePlan() {
        let asOf = weekStart(5)
        let doc = PlanAdapter.adapt(
            previous: base, completed: Fixture.done(base, from: weekStart(1), to: asOf), asOf: asOf)
        check(doc); pastKept(doc, before: asOf)
        #expect(doc.plan!.version == 2 && doc.plan!.history?.count == 1)
        let old = Fixture.volumes(base), new = Fixture.volumes(doc)
        for k in 4..<old.count { #expect(new[k] <= old[k] + 300) }
        #expect(new[4] >= 0.9 * old[4], "on track keeps next week close to plan")
    }

    @Test func missedWeekStepsBackAndPilesNothingOn() {
        let asOf = weekStart(7)
        let done = Fixture.done(base, from: weekStart(1), to: weekStart(6))
        let doc = PlanAdapter.adapt(previous: base, completed: done, asOf: asOf)
        check(doc); pastKept(doc, before: asOf)
        #expect(codes(doc).isSuperset(of: [NoticeCode.missedWeek, NoticeCode.missedWorkouts]))
        let before = done.filter { $0.date >= weekStart(5) }.reduce(0) { $0 + $1.distanceM }
        let next = Fixture.volumes(doc)[6]
        #expect(next <= 0.9 * before + 300, "next week \(next) must step back from \(before)")
        #expect(next <= Fixture.volumes(base)[6] + 300)
        for d in doc.plan!.weeks.flatMap(\.days) { #expect(d.workouts.filter(\.isRun).count <= 1) }
    }

    @Test func illnessOfTenDays() {
        let asOf = weekStart(9)
        let lastRun = asOf.adding(days: -11)
        let done = Fixture.done(base, from: weekStart(1), to: lastRun.adding(days: 1))
        let doc = PlanAdapter.adapt(previous: base, completed: done, asOf: asOf)
        check(doc); pastKept(doc, before: asOf)
        #expect(codes(doc).contains(NoticeCode.breakReturn))
        let pre = done.filter { $0.date > lastRun.adding(days: -7) }.reduce(0) { $0 + $1.distanceM }
        let next = doc.plan!.weeks[8]
        #expect(next.runningVolume(paces: doc.plan!.paces) <= 0.76 * pre + 300)
        #expect(quality(next, doc.plan!.paces) <= 1)
    }

    @Test func fiveWeeksOff() {
        let asOf = weekStart(12)
        let done = Fixture.done(base, from: weekStart(1), to: weekStart(7))
        let doc = PlanAdapter.adapt(previous: base, completed: done, asOf: asOf)
        check(doc); pastKept(doc, before: asOf)
        #expect(codes(doc).contains(NoticeCode.longBreak))
        let pre = done.filter { $0.date >= weekStart(6) }.reduce(0) { $0 + $1.distanceM }
        let next = doc.plan!.weeks[11]
        #expect(next.runningVolume(paces: doc.plan!.paces) < 0.45 * pre)
        #expect(quality(next, doc.plan!.paces) == 0)
        #expect(
            doc.plan!.warnings.contains { $0.code == NoticeCode.goalRevise },
            "close to the race the goal needs revising")
    }

    @Test func overAchievingDoesNotRaiseTheRamp() {
        let asOf = weekStart(5)
        let done = Fixture.done(base, from: weekStart(1), to: asOf, scale: 1.5)
        let doc = PlanAdapter.adapt(previous: base, completed: done, asOf: asOf)
        check(doc)
        #expect(codes(doc).contains(NoticeCode.overachieved))
        let old = Fixture.volumes(base), new = Fixture.volumes(doc)
        for k in 4..<old.count { #expect(new[k] <= old[k] + 300, "week \(k + 1) raised to \(new[k]) over \(old[k])") }
    }

    @Test func nothingAddedBackInTheLastThreeWeeks() {
        let asOf = weekStart(14)
        let done = Fixture.done(base, from: weekStart(1), to: asOf, scale: 1.3)
        let doc = PlanAdapter.adapt(previous: base, completed: done, asOf: asOf)
        check(doc)
        let old = Fixture.volumes(base), new = Fixture.volumes(doc)
        for k in 13..<16 { #expect(new[k] <= old[k] + 300) }
    }

    @Test func newRaceResultUpdatesVdotWithinLimits() {
        let asOf = weekStart(9)
        let done = Fixture.done(base, from: weekStart(1), to: asOf)
        // A 10 km in 40:00 (VDOT ≈ 52), far above the plan's 42.6: the update is capped at +1.
        let doc = PlanAdapter.adapt(
            previous: base, completed: done, asOf: asOf,
            newRace: .init(distanceM: 10_000, timeS: 2400, date: asOf.adding(days: -2)))
        check(doc)
        #expect(codes(doc).contains(NoticeCode.raceResult))
        let old = plan.trainingVdot!, new = doc.plan!.trainingVdot!
        #expect(new > old && new <= old + 1.05, "a race raises VDOT by at most about one point (\(old) → \(new))")
        #expect(doc.plan!.paces.threshold.mid < plan.paces.threshold.mid)
    }

    @Test func consistentlyFasterEasyRunsRaiseVdotByOne() {
        let asOf = weekStart(7)
        let fast = -(plan.paces.easy.mid - plan.paces.easy.minSPerKm) - 15
        let done =
            Fixture.done(base, from: weekStart(1), to: weekStart(4), avgHr: 145)
            + Fixture.done(base, from: weekStart(4), to: asOf, paceOffset: fast, avgHr: 144)
        let doc = PlanAdapter.adapt(previous: base, completed: done, asOf: asOf)
        check(doc)
        #expect(codes(doc).contains(NoticeCode.vdotUp))
        #expect(abs(doc.plan!.trainingVdot! - (plan.trainingVdot! + 1)) < 0.15)
    }

    @Test func timezoneChangeKeepsLocalDates() {
        let asOf = weekStart(6)
        let doc = PlanAdapter.adapt(
            previous: base, completed: Fixture.done(base, from: weekStart(1), to: asOf), asOf: asOf,
            timezone: "America/Los_Angeles")
        check(doc)
        #expect(codes(doc).contains(NoticeCode.timezoneChanged))
        #expect(doc.plan!.timezone == "America/Los_Angeles" && doc.request.timezone == "America/Los_Angeles")
        #expect(doc.plan!.weeks.map(\.startDate) == plan.weeks.map(\.startDate))
        #expect(doc.plan!.raceDate == plan.raceDate)
        let longDays = doc.plan!.weeks.flatMap(\.days).filter { $0.workouts.contains { $0.type == .long } }.map(
            \.date.weekday)
        #expect(Set(longDays) == [.sun])
    }

    @Test func versionsAccumulate() {
        let a1 = weekStart(3), a2 = weekStart(4)
        let v2 = PlanAdapter.adapt(previous: base, completed: Fixture.done(base, from: weekStart(1), to: a1), asOf: a1)
        let v3 = PlanAdapter.adapt(previous: v2, completed: Fixture.done(v2, from: weekStart(1), to: a2), asOf: a2)
        check(v3)
        #expect(v3.plan!.version == 3)
        #expect(v3.plan!.history?.map(\.version) == [1, 2])
        #expect(v3.plan!.history?.last?.reasons == v2.plan!.adaptation!.reasons)
        #expect(v3.plan!.adaptation?.previousVersion == 2)
    }

    @Test func midWeekAdaptationKeepsTheDaysAlreadyLived() {
        let asOf = weekStart(5).adding(days: 3)
        let doc = PlanAdapter.adapt(
            previous: base, completed: Fixture.done(base, from: weekStart(1), to: asOf), asOf: asOf)
        check(doc); pastKept(doc, before: weekStart(6))
        #expect(doc.request.startDate == weekStart(6))
    }

    /// Random adaptation histories over generated runners still satisfy every rule.
    @Test func randomHistoriesStayWithinTheRules() throws {
        let env = ProcessInfo.processInfo.environment
        var rng = SeededRandom(seed: env["ADAPT_SEED"].flatMap(UInt64.init) ?? 77)
        let count = env["ADAPT_RUNNERS"].flatMap(Int.init) ?? 60
        var failures: [String] = []
        var adapted = 0
        for n in 0..<count {
            let req = RunnerGen.request(&rng)
            let doc = PlanEngine.generate(req)
            guard let p = doc.plan, p.weeks.count >= 4 else { continue }
            let k = Int.random(in: 2...(p.weeks.count - 1), using: &rng)
            let asOf = p.weeks[k - 1].startDate.adding(days: Int.random(in: 0...3, using: &rng))
            let scale = [0, 0.5, 1, 1, 1.3].randomElement(using: &rng)!
            let gapStart = asOf.adding(days: -Int.random(in: 0...40, using: &rng))
            let done = Fixture.done(doc, from: p.weeks[0].startDate, to: gapStart, scale: scale == 0 ? 1 : scale)
            let out = PlanAdapter.adapt(previous: doc, completed: done, asOf: asOf)
            if out.plan?.adaptation != nil { adapted += 1 }
            let v = PlanRules.violations(of: out) + CoachRules.violations(of: out)
            if !v.isEmpty {
                failures.append(
                    "#\(n) k=\(k) asOf=\(asOf) gapStart=\(gapStart) scale=\(scale)\n  "
                        + v.prefix(5).joined(separator: "\n  "))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failed:\n\(failures.prefix(6).joined(separator: "\n"))")
        #expect(adapted > count / 2)
    }
}
