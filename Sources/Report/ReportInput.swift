import Foundation

/// A calendar date as days since 1970-01-01, with its ISO form; the report's own, so that this module needs no other.
/// Conversions are Howard Hinnant's `days_from_civil` / `civil_from_days` (proleptic Gregorian,
/// https://howardhinnant.github.io/date_algorithms.html).
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var number: Int
    public init(_ number: Int) { self.number = number }
    public init?(iso: String) {
        let parts = iso.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        number = era * 146_097 + doe - 719_468
    }
    public var civil: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
    public var iso: String { let c = civil; return String(format: "%04d-%02d-%02d", c.year, c.month, c.day) }
    public var description: String { iso }
    /// ISO weekday, 1 = Monday … 7 = Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { ((number % 7 + 7) % 7 + 3) % 7 + 1 }
    public var startOfWeek: Day { Day(number - (weekday - 1)) }
    public func adding(_ days: Int) -> Day { Day(number + days) }
    public static func < (a: Day, b: Day) -> Bool { a.number < b.number }
    /// "3 Nov" — short labels for axes.
    public var short: String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let c = civil
        return "\(c.day) \(names[c.month - 1])"
    }
}

/// Everything the report shows, read from the store by `Pipeline.ReportService`; plain values only.
public struct ReportInput: Sendable {
    public struct LoadDay: Sendable, Equatable {
        public var day: Day
        /// Training load of the day (TSS, or HRSS without power), in TSS points.
        public var load: Double
        public var ctl: Double, atl: Double, tsb: Double
        public init(day: Day, load: Double, ctl: Double, atl: Double, tsb: Double) {
            self.day = day; self.load = load; self.ctl = ctl; self.atl = atl; self.tsb = tsb
        }
    }
    public struct SportWeek: Sendable, Equatable {
        public var weekStart: Day
        public var sport: String
        public var durationS: Double
        public var distanceM: Double
        public init(weekStart: Day, sport: String, durationS: Double, distanceM: Double) {
            self.weekStart = weekStart; self.sport = sport; self.durationS = durationS; self.distanceM = distanceM
        }
    }
    public struct IntensityWeek: Sendable, Equatable {
        public var weekStart: Day
        public var lowMin: Double, moderateMin: Double, highMin: Double
        public init(weekStart: Day, lowMin: Double, moderateMin: Double, highMin: Double) {
            self.weekStart = weekStart; self.lowMin = lowMin; self.moderateMin = moderateMin; self.highMin = highMin
        }
    }
    public struct PlannedWeek: Sendable, Equatable {
        public var weekStart: Day
        public var plannedKm: Double
        public init(weekStart: Day, plannedKm: Double) { self.weekStart = weekStart; self.plannedKm = plannedKm }
    }
    public struct PlanRow: Sendable, Equatable {
        public var day: Day
        public var workout: String
        public var distanceKm: Double?
        public var durationMin: Double?
        public var pace: String?
        public var description: String?
        public init(
            day: Day, workout: String, distanceKm: Double?, durationMin: Double?, pace: String?, description: String?
        ) {
            self.day = day; self.workout = workout; self.distanceKm = distanceKm; self.durationMin = durationMin
            self.pace = pace; self.description = description
        }
    }
    public struct Pace: Sendable, Equatable {
        public var zone: String
        public var fastSPerKm: Double, slowSPerKm: Double
        public init(zone: String, fastSPerKm: Double, slowSPerKm: Double) {
            self.zone = zone; self.fastSPerKm = fastSPerKm; self.slowSPerKm = slowSPerKm
        }
    }

    public var userID: String
    public var timeZone: String
    /// "2026-11-24 19:30" in the user's zone.
    public var generatedAtLocal: String
    public var from: Day
    public var to: Day
    public var loadDays: [LoadDay]
    public var volume: [SportWeek]
    public var intensity: [IntensityWeek]
    /// Days with a session or workout (streaks), in the user's zone, over the calendar's year.
    public var activeDays: Set<Day>
    /// The stored training-load days of the calendar's year (53 weeks ending with `to`'s week); empty: `loadDays`.
    public var yearLoads: [LoadDay]
    /// Mean-maximal power of the last 90 days: (duration s, watts).
    public var meanMaxPower: [(durationS: Double, watts: Double)]
    public var criticalPowerW: Double?
    public var wPrimeJ: Double?
    public var vdotTrend: [(day: Day, vdot: Double)]
    public var paces: [Pace]
    public var plannedWeeks: [PlannedWeek]
    public var nextTwoWeeks: [PlanRow]
    public var planNote: String?
    /// The stats as the apps get them: (JSON name, value as the API writes it).
    public var stats: [(name: String, value: String)]

    public init(
        userID: String, timeZone: String, generatedAtLocal: String, from: Day, to: Day, loadDays: [LoadDay] = [],
        volume: [SportWeek] = [], intensity: [IntensityWeek] = [], activeDays: Set<Day> = [], yearLoads: [LoadDay] = [],
        meanMaxPower: [(durationS: Double, watts: Double)] = [], criticalPowerW: Double? = nil, wPrimeJ: Double? = nil,
        vdotTrend: [(day: Day, vdot: Double)] = [], paces: [Pace] = [], plannedWeeks: [PlannedWeek] = [],
        nextTwoWeeks: [PlanRow] = [], planNote: String? = nil, stats: [(name: String, value: String)] = []
    ) {
        self.userID = userID; self.timeZone = timeZone; self.generatedAtLocal = generatedAtLocal; self.from = from;
        self.to = to
        self.loadDays = loadDays; self.volume = volume; self.intensity = intensity; self.activeDays = activeDays;
        self.yearLoads = yearLoads
        self.meanMaxPower = meanMaxPower; self.criticalPowerW = criticalPowerW; self.wPrimeJ = wPrimeJ
        self.vdotTrend = vdotTrend; self.paces = paces; self.plannedWeeks = plannedWeeks;
        self.nextTwoWeeks = nextTwoWeeks
        self.planNote = planNote; self.stats = stats
    }
}
