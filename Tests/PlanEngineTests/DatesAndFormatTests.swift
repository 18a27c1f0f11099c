import Foundation
import PlanCheckKit
import Testing

@testable import PlanEngine

@Suite struct DatesAndFormatTests {
    @Test func localDateArithmeticAndWeekdays() {
        #expect(LocalDate("2026-09-27")!.weekday == .sun)
        #expect(LocalDate("2024-02-29")!.adding(days: 1) == LocalDate("2024-03-01"))
        #expect(LocalDate("2026-12-31")!.adding(days: 1) == LocalDate("2027-01-01"))
        #expect(LocalDate("1970-01-01")!.daysSinceEpoch == 0)
        #expect(LocalDate(daysSinceEpoch: LocalDate("2100-03-01")!.daysSinceEpoch) == LocalDate("2100-03-01"))
        #expect(LocalDate("2026-02-30") == nil)
        #expect(LocalDate("2026-09-26T22:00:00Z") == nil, "instants are rejected")
    }

    /// The same instant is Monday in Tokyo and still Sunday in Los Angeles.
    @Test func tokyoAndLosAngelesLandOnTheirOwnDays() {
        let instant = Date(timeIntervalSince1970: 1_780_875_000) // 2026-06-07 23:30 UTC
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!, la = TimeZone(identifier: "America/Los_Angeles")!
        #expect(LocalDate(instant: instant, timeZone: tokyo) == LocalDate("2026-06-08"))
        #expect(LocalDate(instant: instant, timeZone: la) == LocalDate("2026-06-07"))
        let runTokyo = CompletedRun(start: instant, timeZone: tokyo, distanceM: 10_000, durationS: 3600)
        let runLA = CompletedRun(start: instant, timeZone: la, distanceM: 10_000, durationS: 3600)
        #expect(runTokyo.date.weekday == .mon && runLA.date.weekday == .sun)

        // Each runner starts "today" in their own zone; both plans put the long run on Sunday and the race on race day.
        for tz in [tokyo, la] {
            let today = LocalDate.today(in: tz, now: instant)
            let doc = PlanEngine.generate(Fixture.request(timezone: tz.identifier, start: today.description))
            #expect(PlanRules.violations(of: doc).isEmpty)
            let plan = doc.plan!
            #expect(plan.timezone == tz.identifier)
            let longDays = Set(
                plan.weeks.flatMap(\.days).filter { $0.workouts.contains { $0.type == .long } }.map(\.date.weekday))
            #expect(longDays == [.sun])
            #expect(plan.weeks.last!.days.last!.date == LocalDate("2026-09-20"))
            #expect(plan.weeks.last!.days.last!.workouts.first?.type == .race)
            for d in plan.weeks.flatMap(\.days) where d.date < today { #expect(d.workouts.isEmpty) }
        }
    }

    @Test func jsonIsTheContract() throws {
        let doc = Fixture.plan()
        let data = try doc.jsonData()
        let text = String(data: data, encoding: .utf8)!
        for key in ["\"format\" : \"marathon-plan\\/1\"", "\"format\" : \"marathon-plan/1\""] where text.contains(key) {
            #expect(Bool(true))
        }
        #expect(text.contains("marathon-plan/1"))
        for key in [
            "\"start_date\"", "\"race_date\"", "\"week_start\"", "\"available_days\"", "\"min_s_per_km\"",
            "\"max_s_per_km\"", "\"distance_m\"", "\"training_vdot\"", "\"long_run_day\"", "\"weekly_distance_m\"",
        ] {
            #expect(text.contains(key), "missing \(key)")
        }
        #expect(!text.contains("startDate") && !text.contains("T00:00"))
        #expect(!text.contains("\"error\""))
        let back = try PlanDocument.decode(data)
        #expect(back == doc)
        let obj = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let weeks = (obj["plan"] as! [String: Any])["weeks"] as! [[String: Any]]
        #expect((weeks[0]["days"] as! [Any]).count == 7)
    }

    @Test func decodesTheSpecExampleRequest() throws {
        let json = """
            {"timezone": "Europe/Berlin", "start_date": "2026-05-25",
             "race": {"date": "2026-09-27", "distance_m": 42195, "goal_time_s": 13200},
             "runner": {"available_days": ["mon","tue","wed","thu","sat","sun"], "max_run_days": 5, "long_run_day": "sun",
                        "baseline": {"weekly_distance_m": 40000, "longest_run_m": 16000},
                        "fitness": {"race": {"distance_m": 21097.5, "time_s": 6300, "date": "2026-04-26"}}}}
            """
        let doc = PlanEngine.generate(requestJSON: Data(json.utf8))!
        #expect(doc.plan != nil && PlanRules.violations(of: doc).isEmpty)
        #expect(
            PlanEngine.generate(requestJSON: Data(#"{"timezone": "UTC", "start_date": "2026-09-26T22:00:00Z"}"#.utf8))
                == nil)
    }

    @Test func renderWeekAndStates() {
        let doc = Fixture.plan()
        let text = PlanEngine.renderWeek(doc, weekIndex: 3)
        #expect(text.hasPrefix("Week 3 of 16"))
        #expect(text.contains("Sun 06-21") && text.contains("Long") && text.contains("Rest"))
        #expect(text.split(separator: "\n").count >= 9)
        let mi = PlanEngine.renderWeek(
            PlanEngine.generate(
                {
                    var r = Fixture.request(); r.units = .mi; return r
                }()), weekIndex: 3)
        #expect(mi.contains("/mi") && mi.contains(" mi "))
        #expect(PlanEngine.weekIndex(of: LocalDate("2026-06-17")!, in: doc) == 3)
        #expect(PlanScreen.of(nil, today: LocalDate("2026-06-01")!) == .noPlan)
        #expect(PlanScreen.of(doc, today: LocalDate("2026-06-01")!) == .plan(.ready))
        #expect(PlanScreen.of(doc, today: LocalDate("2026-09-21")!) == .plan(.completed))
        let refused = PlanEngine.generate(Fixture.request(distance: 21_097.5))
        #expect(PlanScreen.of(refused, today: LocalDate("2026-06-01")!) == .plan(.error))
        #expect(PlanEngine.renderWeek(refused, weekIndex: 1).contains("NOT_MARATHON"))
    }

    /// The screen is one string in JSON, as before it was `PlanState` plus "no plan": `no_plan` or the state's.
    @Test func planScreenEncodesAsOneString() throws {
        let screens: [PlanScreen] = [.noPlan, .plan(.ready), .plan(.completed), .plan(.error)]
        let json = try JSONEncoder().encode(screens)
        #expect(String(decoding: json, as: UTF8.self) == #"["no_plan","ready","completed","error"]"#)
        #expect(try JSONDecoder().decode([PlanScreen].self, from: json) == screens)
        #expect(PlanScreen(rawValue: "planned") == nil)
        #expect((try? JSONDecoder().decode(PlanScreen.self, from: Data(#""planned""#.utf8))) == nil)
        #expect(PlanScreen.noPlan.state == nil && PlanScreen.plan(.completed).state == .completed)
    }
}

@Suite struct RefusalAndWarningTests {
    func code(_ r: PlanRequest) -> PlanError.Code? { PlanEngine.generate(r).error?.code }

    @Test func refusalsCarryCodesAndSuggestions() {
        #expect(code(Fixture.request(start: "2026-09-21")) == .raceInPast)
        #expect(code(Fixture.request(start: "2026-08-05")) == .raceTooSoon) // 7 weeks
        #expect(code(Fixture.request(start: "2026-07-10")) == .raceTooSoon) // 11 weeks, not experienced
        #expect(code(Fixture.request(distance: 21_097.5)) == .notMarathon)
        #expect(code(Fixture.request(days: [.tue, .sun])) == .tooFewDays)
        #expect(code(Fixture.request(maxRunDays: 2)) == .tooFewDays)
        #expect(code(Fixture.request(weekly: 12_000, longest: 6000)) == .insufficientBase)
        #expect(code(Fixture.request(timezone: "Mars/Olympus")) == .invalidRequest)
        #expect(code(Fixture.request(days: [])) == .invalidRequest)
        let e = PlanEngine.generate(Fixture.request(start: "2026-08-05")).error!
        #expect(e.weeksAvailable == 7 && !(e.suggestion ?? "").isEmpty)
    }

    @Test func shortBuildOnlyForSolidExperiencedRunners() {
        let doc = PlanEngine.generate(
            Fixture.request(start: "2026-07-10", weekly: 60_000, longest: 26_000, experience: .experienced))
        #expect(doc.plan != nil && doc.plan!.weeks.count == 11)
        #expect(doc.plan!.warnings.contains { $0.code == NoticeCode.shortBuild })
        #expect(PlanRules.violations(of: doc).isEmpty)
    }

    @Test func warnings() {
        let aggressive = PlanEngine.generate(Fixture.request(goal: 10_800)) // 3:00 from a 1:45 half
        #expect(aggressive.plan!.warnings.contains { $0.code == NoticeCode.goalAggressive })
        // Paces stay those of current fitness, not of the goal.
        #expect(
            aggressive.plan!.paces.threshold == PlanEngine.generate(Fixture.request(goal: nil)).plan!.paces.threshold)
        let unknown = PlanEngine.generate(Fixture.request(fitness: nil))
        #expect(unknown.plan!.warnings.contains { $0.code == NoticeCode.fitnessUnknown })
        let deferred = PlanEngine.generate(Fixture.request(start: "2026-01-05"))
        #expect(deferred.plan!.warnings.contains { $0.code == NoticeCode.deferredStart })
        #expect(deferred.plan!.weeks.count == 24)
        for d in [aggressive, unknown, deferred] { #expect(PlanRules.violations(of: d).isEmpty) }
    }

    @Test func treadmillCountsBikeDoesNot() {
        let asOf = LocalDate("2026-06-01")!
        var runs: [CompletedRun] = []
        for k in 0..<28 {
            let d = asOf.adding(days: -28 + k)
            switch k % 7 {
            case 0: runs.append(CompletedRun(date: d, distanceM: 16_000, durationS: 5800, sport: "run"))
            case 2: runs.append(CompletedRun(date: d, distanceM: 8000, durationS: 2700, sport: "treadmill"))
            case 4: runs.append(CompletedRun(date: d, distanceM: 30_000, durationS: 3600, sport: "bike"))
            case 5: runs.append(CompletedRun(date: d, distanceM: 6000, durationS: 1800, sport: "row"))
            default: break
            }
        }
        let b = BaselineEstimator.baseline(from: runs, asOf: asOf)
        #expect(b.weeklyDistanceM == 24_000)
        #expect(b.longestRunM == 16_000 && b.runsPerWeek == 2 && b.weeksAveraged == 4)
        #expect(b.crossTrainingSPerWeek == 5400)
        #expect(b.requestBaseline.weeklyDistanceM == 24_000)
        #expect(b.requestBaseline.daysSinceLastRun == nil, "no break: the recent weeks say it all")
    }

    /// Six weeks of 8 + 8 + 14 km, then 40 days off: the four weeks hold nothing, and the request carries the break —
    /// 40 days, the last 7 days' 30 km before it, its longest run 14 km — from which a base plan starts at 40 % (12 km).
    @Test func baselineAfterABreakCarriesTheWeekBeforeIt() throws {
        let asOf = LocalDate("2026-06-01")!
        let lastRun = asOf.adding(days: -41)
        var runs: [CompletedRun] = []
        for week in 0..<6 {
            let sunday = lastRun.adding(days: -7 * week)
            runs += [
                CompletedRun(date: sunday, distanceM: 14_000, durationS: 5000, sport: "run"),
                CompletedRun(date: sunday.adding(days: -3), distanceM: 8000, durationS: 2800, sport: "run"),
                CompletedRun(date: sunday.adding(days: -5), distanceM: 8000, durationS: 2800, sport: "run"),
                CompletedRun(date: sunday.adding(days: -10), distanceM: 20_000, durationS: 3600, sport: "bike"),
            ]
        }
        let b = BaselineEstimator.baseline(from: runs, asOf: asOf)
        #expect(b.weeklyDistanceM == 0)
        #expect(b.lastBreak == .init(days: 40, weekBeforeM: 30_000, longestBeforeM: 14_000))
        let r = b.requestBaseline
        #expect(r.daysSinceLastRun == 40 && r.preBreakWeekM == 30_000 && r.preBreakLongestM == 14_000)
        let start = try #require(BasePlanner.returnLevel(r))
        #expect(start.weeklyDistanceM == 12_000 && start.longestRunM == 4800, "40 % of 30 km, long ≤ 40 % of 12 km")
    }

    @Test func vdotEstimatesSayHowAndHowConfident() {
        let asOf = LocalDate("2026-06-01")!
        let race = CompletedRun(
            date: asOf.adding(days: -10), distanceM: 10_000, durationS: 50 * 60 + 3, sport: "run", isRace: true)
        let easy = (1...6).map {
            CompletedRun(date: asOf.adding(days: -$0 * 3), distanceM: 10_000, durationS: 3600, sport: "run")
        }
        let r = BaselineEstimator.estimate(from: [race] + easy, asOf: asOf)!
        #expect(r.method == "race" && r.confidence == .high && abs(r.vdot - 40) < 0.3)
        let old = BaselineEstimator.estimate(
            from: [CompletedRun(date: asOf.adding(days: -80), distanceM: 10_000, durationS: 3003, isRace: true)],
            asOf: asOf)!
        #expect(old.confidence == .medium)
        let training = BaselineEstimator.estimateVDOT(from: easy, asOf: asOf)!
        #expect(training.confidence == .medium && training.vdot < 35) // agreeing sub-maximal efforts: a lower bound
        let single = BaselineEstimator.estimateVDOT(from: [easy[0]], asOf: asOf)!
        #expect(single.confidence == .low)
        #expect(
            BaselineEstimator.estimateVDOT(
                from: [CompletedRun(date: asOf, distanceM: 20_000, durationS: 3600, sport: "bike")], asOf: asOf) == nil)
    }
}
