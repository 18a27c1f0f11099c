import Foundation
import PlanEngine

/// The corners of issue 17 as a handful of small integers, so a property-test library can generate and
/// shrink them (a smaller number is a simpler runner): 3–7 available days (sometimes only consecutive
/// ones, sometimes 2 to reach the refusal), `max_run_days` 3–7, the long-run day anywhere (next to
/// the other available days when they are consecutive), easy paces 4:30–8:30/km, baselines 10–120
/// km/week (a few outside), 8–24 weeks to race (a few outside), every start weekday (partial first
/// weeks), every UTC offset, and (a fifth of them) a start_date two days before `generated_at`.
struct RequestSpec: Sendable, Hashable, CustomStringConvertible {
    var dayCount = 5 // 2…7
    var firstDay = 0 // 0…6: Monday-based index of the first available day
    var dayPattern = 0 // 0…3: 0–1 consecutive block, 2–3 spread from firstDay by a pattern
    var maxRun = 0 // 0…7: 0 = not given
    var longDay = 0 // 0…7: index into the available days, 7 = not given
    var easyPace = 390 // 270…510 s/km: the middle of the easy range asked for
    var weeklyKm = 40 // 5…130
    var weeks = 16 // 6…26 weeks to race
    var startOffset = 0 // 0…6: weekday of start_date relative to Monday
    var raceOffset = 6 // 0…6: weekday of race day relative to Monday
    var zone = 0 // index into `zones`
    var experience = 1 // 0…2
    var longestPct = 0 // 0 = not given, else 15…50 % of the week
    var fitnessKind = 0 // 0 VDOT given, 1 a race result, 2 unknown
    var goalPct = 0 // 0 = no goal, else 85…115 % of the predicted time
    var dayOfYear = 0 // 0…364 (start date within 2026–27)

    /// The runner's four real weeks before the plan (`recent_weeks_m`, as the store gives them), as shares of the
    /// stated baseline: none (the baseline alone), or weeks that differ from it around the same mean — a build, a
    /// down week, an uneven month; or a break: two weeks off after two weeks at twice the mean, or four weeks and more
    /// with nothing run after weeks at `weeklyKm` (the stated baseline is then 0). Chosen by the start week, so it
    /// shrinks with `dayOfYear`.
    static let histories: [[Double]?] = [
        nil, [1.2, 0.8, 1.1, 0.9], [0.6, 1.0, 1.4, 1.0], [1.0, 1.3, 0.7, 1.0], [2.0, 2.0, 0, 0], [0, 0, 0, 0],
    ]
    var history: [Double]? { Self.histories[(dayOfYear / 7) % Self.histories.count] }

    /// The break that ends the history, as the store reports it (`days_since_last_run`, `pre_break_week_m`): 14–20
    /// days after the two-week pattern, 28–160 days after the empty one; nil for the others.
    var lastBreak: (days: Int, weekBeforeM: Double)? {
        guard let h = history, h.last == 0 else { return nil }
        let weekly = Double(weeklyKm) * 1000
        return h.allSatisfy { $0 == 0 }
            ? (28 + (dayOfYear * 13) % 133, weekly) : (14 + dayOfYear % 7, (h.max() ?? 0) * weekly)
    }

    /// One zone per UTC offset from −12 to +14, with the half and three-quarter hours.
    static let zones = [
        "Etc/GMT+12", "Pacific/Pago_Pago", "Pacific/Honolulu", "Pacific/Marquesas", "America/Anchorage",
        "America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York", "America/Halifax",
        "America/St_Johns", "America/Sao_Paulo", "Atlantic/South_Georgia", "Atlantic/Azores", "UTC",
        "Europe/Berlin", "Europe/Athens", "Europe/Moscow", "Asia/Tehran", "Asia/Dubai", "Asia/Kabul",
        "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka", "Asia/Yangon", "Asia/Bangkok",
        "Asia/Shanghai", "Australia/Eucla", "Asia/Tokyo", "Australia/Adelaide", "Australia/Sydney",
        "Australia/Lord_Howe", "Pacific/Noumea", "Pacific/Auckland", "Pacific/Chatham", "Pacific/Tongatapu",
        "Pacific/Kiritimati",
    ]

    var description: String {
        "RequestSpec(days \(dayCount)@\(firstDay)/p\(dayPattern), maxRun \(maxRun), longDay \(longDay), easy \(easyPace) s/km, "
            + "\(weeklyKm) km/wk, \(weeks) wk, start+\(startOffset), race+\(raceOffset), zone \(Self.zones[zone]), exp \(experience), "
            + "longest \(longestPct) %, fitness \(fitnessKind), goal \(goalPct) %, day \(dayOfYear), "
            + "history \(history.map { "\($0)" } ?? "none"))"
    }

    var availableDays: [Weekday] {
        let all = Weekday.allCases
        let n = max(1, min(7, dayCount))
        var idx: [Int]
        switch dayPattern {
        case 0, 1: idx = (0..<n).map { (firstDay + $0) % 7 }
        case 2: idx = (0..<n).map { (firstDay + 2 * $0) % 7 } // every other day, wrapping
        default: idx = (0..<n).map { (firstDay + ($0 * 3)) % 7 } // thirds, wrapping
        }
        var seen = Set<Int>(), out: [Int] = []
        for i in idx where !seen.contains(i) { seen.insert(i); out.append(i) }
        var k = firstDay
        while out.count < n { if !seen.contains(k % 7) { seen.insert(k % 7); out.append(k % 7) }; k += 1 }
        return out.sorted().map { all[$0] }
    }

    /// The VDOT whose easy range is centred nearest `easyPace`.
    var vdot: Double { Self.vdotByPace[min(510, max(270, easyPace)) - 270] }

    static let vdotByPace: [Double] = (270...510).map { pace in
        var lo = 15.0, hi = 85.0
        for _ in 0..<30 {
            let m = (lo + hi) / 2
            if Daniels.trainingPaces(vdot: m).easy.mid > Double(pace) { lo = m } else { hi = m }
        }
        return ((lo + hi) / 2 * 10).rounded() / 10
    }

    var request: PlanRequest {
        let monday = LocalDate("2026-01-05")!.adding(days: 7 * (dayOfYear / 7))
        let start = monday.adding(days: startOffset)
        // The race falls on raceOffset's weekday, `weeks` weeks ahead counting start's week as week 1.
        let raceWeekMonday = monday.adding(days: 7 * (weeks - 1))
        var race = raceWeekMonday.adding(days: raceOffset)
        if race < start { race = start }
        let days = availableDays
        let weekly = Double(weeklyKm) * 1000
        let v = vdot
        var fitness: PlanRequest.Fitness?
        switch fitnessKind {
        case 0: fitness = .init(vdot: v)
        case 1:
            fitness = .init(
                race: .init(
                    distanceM: 10_000, timeS: Daniels.predictedTime(distanceM: 10_000, vdot: v).rounded(),
                    date: start.adding(days: -20)))
        default: fitness = nil
        }
        let goal: Double? =
            goalPct == 0
            ? nil
            : max(7200, (Daniels.predictedTime(distanceM: 42195, vdot: v) * Double(goalPct) / 100).rounded())
        // A fifth of the requests ask for a start_date two days before their local today (the engine starts today).
        return PlanRequest(
            generatedAt: start.adding(days: dayOfYear % 5 == 4 ? 2 : -1), timezone: Self.zones[zone % Self.zones.count],
            startDate: start,
            race: .init(date: race, goalTimeS: goal),
            runner: .init(
                availableDays: days, maxRunDays: maxRun == 0 ? nil : maxRun,
                longRunDay: longDay >= 7 ? nil : days[longDay % days.count],
                experience: PlanRequest.Experience.allCases[experience % 3],
                baseline: baseline(weekly: weekly),
                fitness: fitness))
    }

    private func baseline(weekly: Double) -> PlanRequest.Baseline {
        let share = Double(longestPct == 0 ? 30 : longestPct) / 100
        var b = PlanRequest.Baseline(
            weeklyDistanceM: weekly,
            longestRunM: longestPct == 0 ? nil : (weekly * Double(longestPct) / 100 / 100).rounded() * 100,
            recentWeeksM: history.map { $0.map { ($0 * weekly / 100).rounded() * 100 } },
            recentLongestM: history.map { $0.map { ($0 * weekly * share / 100).rounded() * 100 } })
        if let lastBreak {
            b.daysSinceLastRun = lastBreak.days
            b.preBreakWeekM = (lastBreak.weekBeforeM / 100).rounded() * 100
            b.preBreakLongestM = (lastBreak.weekBeforeM * share / 100).rounded() * 100
            if lastBreak.days >= 28 { (b.weeklyDistanceM, b.longestRunM) = (0, 0) }
        }
        return b
    }
}
