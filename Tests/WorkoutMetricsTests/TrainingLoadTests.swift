import Foundation
import Testing

@testable import WorkoutMetrics

@Suite struct TrainingLoadTests {
    let start = LocalDate(iso: "2024-01-01")!

    @Test func constantLoadFollowsTheClosedForm() {
        // load 100 every day from 0: X_d = 100·(1 − e^(−(d+1)/N)) under the exp convention.
        let loads = Dictionary(uniqueKeysWithValues: (0..<100).map { (start.adding(days: $0), 100.0) })
        let series = TrainingLoad.series(dailyLoads: loads, from: start, to: start.adding(days: 99))
        #expect(series.count == 100)
        for (d, day) in series.enumerated() {
            #expect(approx(day.ctl, 100 * (1 - exp(-Double(d + 1) / 42)), tol: 1e-12))
            #expect(approx(day.atl, 100 * (1 - exp(-Double(d + 1) / 7)), tol: 1e-12))
        }
    }

    @Test func singleSessionThenRestByHand() {
        // 100 on the first day, then nothing. k42 = 1 − e^(−1/42) = 0.0235283…, k7 = 0.133122…
        let series = TrainingLoad.series(dailyLoads: [start: 100], from: start, to: start.adding(days: 9))
        let k42 = 1 - exp(-1.0 / 42), k7 = 1 - exp(-1.0 / 7)
        #expect(abs(k42 - 0.0235283) < 1e-7 && abs(k7 - 0.133122) < 1e-6)
        #expect(approx(series[0].ctl, 100 * k42))
        #expect(approx(series[0].atl, 100 * k7))
        #expect(series[0].tsb == 0) // yesterday's CTL − ATL, both 0
        // Day 1: TSB from day 0; CTL decays by e^(−1/42).
        #expect(approx(series[1].tsb, 100 * (k42 - k7)))
        #expect(approx(series[1].ctl, 100 * k42 * exp(-1.0 / 42)))
        #expect(approx(series[9].atl, 100 * k7 * exp(-9.0 / 7)))
        #expect(series.map(\.dailyLoad) == [100] + Array(repeating: 0, count: 9))
        #expect(series.map(\.date.iso).last == "2024-01-10")
    }

    @Test func invNConvention() {
        let series = TrainingLoad.series(
            dailyLoads: [start: 42, start.adding(days: 1): 42], from: start,
            to: start.adding(days: 1), convention: .invN)
        // CTL: 0 + (42 − 0)/42 = 1; then 1 + (42 − 1)/42.
        #expect(approx(series[0].ctl, 1))
        #expect(approx(series[1].ctl, 1 + 41.0 / 42))
        #expect(approx(series[0].atl, 6))
    }

    @Test func rampAndRatiosHaveTheirWarmUp() {
        // Loads 1, 2, …, 40 on consecutive days.
        let loads = Dictionary(uniqueKeysWithValues: (0..<40).map { (start.adding(days: $0), Double($0 + 1)) })
        let s = TrainingLoad.series(dailyLoads: loads, from: start, to: start.adding(days: 39))
        #expect(s[0..<7].allSatisfy { $0.ramp7d == nil })
        #expect(approx(s[7].ramp7d, s[7].ctl - s[0].ctl, tol: 1e-12))
        #expect(approx(s[20].ramp7d, s[20].ctl - s[13].ctl, tol: 1e-12))
        #expect(s[0..<27].allSatisfy { $0.acwrRolling == nil && $0.acwrUncoupled == nil })
        // Day 28 (index 27): last 7 = 22…28 (mean 25); last 28 = 1…28 (mean 14.5);
        // days d−27 … d−7 = 1…21 (mean 11).
        #expect(approx(s[27].acwrRolling, 25 / 14.5))
        #expect(approx(s[27].acwrUncoupled, 25.0 / 11))
        // Index 39: last 7 = 34…40 (37); last 28 = 13…40 (26.5); 13…33 (23).
        #expect(approx(s[39].acwrRolling, 37 / 26.5))
        #expect(approx(s[39].acwrUncoupled, 37.0 / 23))
    }

    @Test func ewmaRatioByHand() {
        // λa = 2/8 = 0.25, λc = 2/29. Day 0 load 100: a = 25, c = 200/29 → 3.625.
        // Day 1 load 0: a = 18.75, c = 200/29·27/29.
        let s = TrainingLoad.series(dailyLoads: [start: 100], from: start, to: start.adding(days: 1))
        #expect(approx(s[0].acwrEwma, 25 / (200.0 / 29)))
        #expect(approx(s[0].acwrEwma, 3.625))
        #expect(approx(s[1].acwrEwma, 18.75 / (200.0 / 29 * 27 / 29)))
        // No load yet: ratio over zero is nil.
        let empty = TrainingLoad.series(dailyLoads: [:], from: start, to: start)
        #expect(empty[0].acwrEwma == nil && empty[0].ctl == 0)
    }

    @Test func incrementalUpdateMatchesFullRecompute() {
        var rng = SeededGenerator(seed: 11)
        var loads: [LocalDate: Double] = [:]
        for d in 0..<90 where Int.random(in: 0..<3, using: &rng) > 0 {
            loads[start.adding(days: d)] = Double(Int.random(in: 20...150, using: &rng))
        }
        let end = start.adding(days: 89)
        let steps = TrainingLoad.steps(after: .initial(before: start), dailyLoads: loads, through: end)
        // A new 80-TSS session on day 60: resume from the stored state of day 59.
        let newDay = start.adding(days: 60)
        var updated = loads
        updated[newDay, default: 0] += 80
        let resumed = TrainingLoad.steps(after: steps[59].state, dailyLoads: updated, through: end)
        #expect(resumed.count == 30)
        #expect(resumed.first?.day.date == newDay)
        let full = TrainingLoad.series(dailyLoads: updated, from: start, to: end)
        #expect(Array(full[0..<60]) == steps[0..<60].map(\.day))
        #expect(Array(full[60...]) == resumed.map(\.day))
        // The stored state survives JSON.
        let data = try! JSONEncoder().encode(steps[59].state)
        #expect(try! JSONDecoder().decode(TrainingLoad.State.self, from: data) == steps[59].state)
    }

    @Test func everyCalendarDayIsAStepAcrossALeapDay() {
        let from = LocalDate(iso: "2024-02-27")!
        let s = TrainingLoad.series(
            dailyLoads: [LocalDate(iso: "2024-02-29")!: 50], from: from, to: LocalDate(iso: "2024-03-02")!)
        #expect(s.map(\.date.iso) == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"])
        #expect(s.map(\.dailyLoad) == [0, 0, 50, 0, 0])
        #expect(TrainingLoad.series(dailyLoads: [:], from: from, to: from.adding(days: -1)).isEmpty)
    }

    @Test func dailyLoadsSumSessionsOfTheSameDate() {
        let d = LocalDate(iso: "2024-05-01")!
        let loads = TrainingLoad.dailyLoads([(d, 50), (d, 30.5), (d.adding(days: 1), nil), (d.adding(days: 2), 10)])
        #expect(loads == [d: 80.5, d.adding(days: 2): 10])
    }

    @Test func jsonKeys() throws {
        let s = TrainingLoad.series(dailyLoads: [start: 100], from: start, to: start)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(s[0])) as! [String: Any]
        #expect(Set(object.keys) == ["date", "daily_load", "ctl", "atl", "tsb", "acwr_ewma"])
        #expect(object["date"] as? String == "2024-01-01")
    }
}

@Suite struct WeeklySummaryTests {
    @Test func volumeBySportAndIntensity() {
        let mon = LocalDate(iso: "2024-02-26")! // Monday
        let sessions: [WeeklySummary.SessionEntry] = [
            .init(
                date: mon, sport: .bike, durationS: 3600, distanceM: 30000,
                intensity: .init(low: 40, moderate: 15, high: 5)),
            .init(
                date: mon.adding(days: 3), sport: .bike, durationS: 1800, distanceM: nil,
                intensity: .init(low: 30, moderate: 0, high: 0)),
            .init(date: mon.adding(days: 6), sport: .run, durationS: 2400, distanceM: 8000), // Sunday, same week
            .init(
                date: mon.adding(days: 14), sport: .row, durationS: 1200, distanceM: 5000,
                intensity: .init(low: 0, moderate: 20, high: 0)),
        ]
        let volume = WeeklySummary.volumeBySport(sessions)
        #expect(
            volume == [
                .init(weekStart: mon, sport: .bike, sessions: 2, durationS: 5400, distanceM: 30000),
                .init(weekStart: mon, sport: .run, sessions: 1, durationS: 2400, distanceM: 8000),
                .init(weekStart: mon.adding(days: 14), sport: .row, sessions: 1, durationS: 1200, distanceM: 5000),
            ])
        let weeks = WeeklySummary.intensityDistribution(sessions)
        #expect(weeks.map(\.weekStart) == [mon, mon.adding(days: 7), mon.adding(days: 14)])
        #expect(
            weeks.map(\.minutes) == [
                .init(low: 70, moderate: 15, high: 5), .zero, .init(low: 0, moderate: 20, high: 0),
            ])
    }

    @Test func intensityFromZones() {
        var m = SessionMetrics()
        m.timeInPowerZonesS = [600, 600, 300, 300, 120, 60, 60]
        #expect(WeeklySummary.IntensityMinutes(m) == .init(low: 20, moderate: 10, high: 4))
        m.timeInPowerZonesS = nil
        m.timeInHrZonesS = [60, 60, 60, 120, 180]
        #expect(WeeklySummary.IntensityMinutes(m) == .init(low: 3, moderate: 2, high: 3))
        #expect(WeeklySummary.IntensityMinutes(SessionMetrics()) == nil)
    }
}
