import CivilDate
import Foundation

extension LocalDate {
    /// "3 Nov": the short label of a day on a chart's axis.
    var axisLabel: String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(day) \(names[month - 1])"
    }
}

/// Everything the report shows, read from the store by `Pipeline.ReportService`; plain values only.
public struct ReportInput: Sendable {
    public struct LoadDay: Sendable, Equatable {
        public var day: LocalDate
        /// Training load of the day (TSS, or HRSS without power), in TSS points.
        public var load: Double
        public var ctl: Double, atl: Double, tsb: Double
        public init(day: LocalDate, load: Double, ctl: Double, atl: Double, tsb: Double) {
            self.day = day; self.load = load; self.ctl = ctl; self.atl = atl; self.tsb = tsb
        }
    }
    public struct SportWeek: Sendable, Equatable {
        public var weekStart: LocalDate
        public var sport: String
        public var durationS: Double
        public var distanceM: Double
        public init(weekStart: LocalDate, sport: String, durationS: Double, distanceM: Double) {
            self.weekStart = weekStart; self.sport = sport; self.durationS = durationS; self.distanceM = distanceM
        }
    }
    public struct IntensityWeek: Sendable, Equatable {
        public var weekStart: LocalDate
        public var lowMin: Double, moderateMin: Double, highMin: Double
        public init(weekStart: LocalDate, lowMin: Double, moderateMin: Double, highMin: Double) {
            self.weekStart = weekStart; self.lowMin = lowMin; self.moderateMin = moderateMin; self.highMin = highMin
        }
    }
    public struct PlannedWeek: Sendable, Equatable {
        public var weekStart: LocalDate
        public var plannedKm: Double
        public init(weekStart: LocalDate, plannedKm: Double) { self.weekStart = weekStart; self.plannedKm = plannedKm }
    }
    public struct PlanRow: Sendable, Equatable {
        public var day: LocalDate
        public var workout: String
        public var distanceKm: Double?
        public var durationMin: Double?
        public var pace: String?
        public var description: String?
        public init(
            day: LocalDate, workout: String, distanceKm: Double?, durationMin: Double?, pace: String?,
            description: String?
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
    public var from: LocalDate
    public var to: LocalDate
    public var loadDays: [LoadDay]
    public var volume: [SportWeek]
    public var intensity: [IntensityWeek]
    /// Days with a session or workout (streaks), in the user's zone, over the calendar's year.
    public var activeDays: Set<LocalDate>
    /// The stored training-load days of the calendar's year (53 weeks ending with `to`'s week); empty: `loadDays`.
    public var yearLoads: [LoadDay]
    /// Mean-maximal power of the last 90 days: (duration s, watts).
    public var meanMaxPower: [(durationS: Double, watts: Double)]
    public var criticalPowerW: Double?
    public var wPrimeJ: Double?
    public var vdotTrend: [(day: LocalDate, vdot: Double)]
    public var paces: [Pace]
    public var plannedWeeks: [PlannedWeek]
    public var nextTwoWeeks: [PlanRow]
    public var planNote: String?
    /// The stats as the apps get them: (JSON name, value as the API writes it).
    public var stats: [(name: String, value: String)]

    public init(
        userID: String, timeZone: String, generatedAtLocal: String, from: LocalDate, to: LocalDate,
        loadDays: [LoadDay] = [],
        volume: [SportWeek] = [], intensity: [IntensityWeek] = [], activeDays: Set<LocalDate> = [],
        yearLoads: [LoadDay] = [],
        meanMaxPower: [(durationS: Double, watts: Double)] = [], criticalPowerW: Double? = nil, wPrimeJ: Double? = nil,
        vdotTrend: [(day: LocalDate, vdot: Double)] = [], paces: [Pace] = [], plannedWeeks: [PlannedWeek] = [],
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
