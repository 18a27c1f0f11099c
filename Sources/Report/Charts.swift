import CivilDate
import Foundation

/// A rectangle of a bar chart, in SVG user units.
public struct BarRect: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public var series: Int
    public var value: Double
    public init(x: Double, y: Double, width: Double, height: Double, series: Int, value: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.series = series; self.value = value
    }
}

public struct Point: Sendable, Equatable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// A chart's value axis: round bounds and ticks around `low`…`high` (`niceAxis`), scaled onto the height of the plot
/// area with its low end at the bottom.
struct ValueAxis {
    var scale: LinearScale
    var ticks: [Double]

    init(low: Double, high: Double, count: Int = 5, frame: Frame) {
        let axis = niceAxis(low: low, high: high, count: count)
        scale = LinearScale(domain: axis.domain, range: (frame.plotBottom, frame.plotTop))
        ticks = axis.ticks
    }
}

extension Frame {
    /// The width of each of `count` categories side by side across the plot area (all of it when there are none).
    func band(count: Int) -> Double { count == 0 ? plotWidth : plotWidth / Double(count) }
}

/// The Performance Management Chart (Coggan; GoldenCheetah's "PMC"): the day's training load as bars, CTL (fitness,
/// 42-day), ATL (fatigue, 7-day) and TSB (form = CTL − ATL of the day before) as lines, all in TSS per day on one axis.
public struct PMCGeometry: Sendable, Equatable {
    public var frame: Frame
    public var y: LinearScale
    public var ticks: [Double]
    /// Width of one day's band; day `i`'s centre is `frame.plotLeft + (i + 0.5) × band`.
    public var band: Double
    public var bars: [BarRect]
    public var ctl: [Point], atl: [Point], tsb: [Point]

    public init(days: [ReportInput.LoadDay], frame: Frame) {
        self.frame = frame
        let values = days.flatMap { [$0.load, $0.ctl, $0.atl, $0.tsb] }
        let axis = ValueAxis(low: min(0, values.min() ?? 0), high: max(values.max() ?? 1, 1), frame: frame)
        y = axis.scale
        ticks = axis.ticks
        let band = frame.band(count: days.count)
        self.band = band
        let centre: (Int) -> Double = { i in frame.plotLeft + (Double(i) + 0.5) * band }
        let y = self.y
        let zero = y(0)
        bars = days.enumerated().compactMap { i, d in
            guard d.load > 0 else { return nil }
            return BarRect(
                x: centre(i) - band * 0.35, y: y(d.load), width: band * 0.7, height: zero - y(d.load), series: 0,
                value: d.load)
        }
        ctl = days.enumerated().map { Point(centre($0.offset), y($0.element.ctl)) }
        atl = days.enumerated().map { Point(centre($0.offset), y($0.element.atl)) }
        tsb = days.enumerated().map { Point(centre($0.offset), y($0.element.tsb)) }
    }
}

/// Bars stacked per category (a week), one segment per series in series order from the baseline up.
public struct StackedBarsGeometry: Sendable, Equatable {
    public var frame: Frame
    public var y: LinearScale
    public var ticks: [Double]
    public var band: Double
    public var bars: [BarRect]

    /// `values[c][s]`: category `c`, series `s` (non-negative).
    public init(values: [[Double]], frame: Frame) {
        self.frame = frame
        let totals = values.map { $0.reduce(0, +) }
        let axis = ValueAxis(low: 0, high: max(totals.max() ?? 1, 1e-9) > 0 ? (totals.max() ?? 1) : 1, frame: frame)
        y = axis.scale
        ticks = axis.ticks
        band = frame.band(count: values.count)
        var bars: [BarRect] = []
        for (c, row) in values.enumerated() {
            var base = 0.0
            let x = frame.plotLeft + Double(c) * band + band * 0.15
            for (s, v) in row.enumerated() where v > 0 {
                bars.append(
                    BarRect(x: x, y: y(base + v), width: band * 0.7, height: y(base) - y(base + v), series: s, value: v)
                )
                base += v
            }
        }
        self.bars = bars
    }
}

/// Bars side by side per category (planned beside done), one slot per series.
public struct GroupedBarsGeometry: Sendable, Equatable {
    public var frame: Frame
    public var y: LinearScale
    public var ticks: [Double]
    public var band: Double
    public var bars: [BarRect]

    /// `values[c][s]`, nil where a series has no value for the category.
    public init(values: [[Double?]], frame: Frame) {
        self.frame = frame
        let all = values.flatMap { $0.compactMap { $0 } }
        let axis = ValueAxis(low: 0, high: max(all.max() ?? 1, 1), frame: frame)
        y = axis.scale
        ticks = axis.ticks
        band = frame.band(count: values.count)
        var bars: [BarRect] = []
        for (c, row) in values.enumerated() {
            let slot = band * 0.8 / Double(max(row.count, 1))
            for (s, v) in row.enumerated() {
                guard let v, v > 0 else { continue }
                bars.append(
                    BarRect(
                        x: frame.plotLeft + Double(c) * band + band * 0.1 + Double(s) * slot, y: y(v),
                        width: slot, height: y(0) - y(v), series: s, value: v))
            }
        }
        self.bars = bars
    }
}

/// A year of days as a heat map: one column per ISO week (Monday first), one row per weekday, 53 weeks ending with
/// the week of `to`.
public struct CalendarGeometry: Sendable, Equatable {
    public struct Cell: Sendable, Equatable {
        public var day: LocalDate
        public var x: Double, y: Double
        /// 0 (no load) to 4 (heaviest quarter of the year's maximum daily load).
        public var level: Int
        public var load: Double
    }
    public static let cell = 12.0, gap = 2.0, weeks = 53
    public var left: Double, top: Double
    public var firstWeek: LocalDate
    public var cells: [Cell]

    public init(loads: [LocalDate: Double], to: LocalDate, left: Double = 40, top: Double = 20) {
        self.left = left; self.top = top
        firstWeek = to.startOfWeek.adding(days: -7 * (Self.weeks - 1))
        let maximum = loads.values.max() ?? 0
        var cells: [Cell] = []
        var day = firstWeek
        while day <= to {
            let load = loads[day] ?? 0
            cells.append(
                Cell(
                    day: day, x: Self.x(day, firstWeek: firstWeek, left: left), y: Self.y(day, top: top),
                    level: Self.level(load, max: maximum), load: load))
            day = day.adding(days: 1)
        }
        self.cells = cells
    }

    public static func x(_ day: LocalDate, firstWeek: LocalDate, left: Double) -> Double {
        left + Double((day.startOfWeek.daysSinceEpoch - firstWeek.daysSinceEpoch) / 7) * (cell + gap)
    }
    public static func y(_ day: LocalDate, top: Double) -> Double { top + Double(day.isoWeekday - 1) * (cell + gap) }

    /// `ceil(4 × load / max)`, 0 for no load.
    public static func level(_ load: Double, max: Double) -> Int {
        guard load > 0, max > 0 else { return 0 }
        return min(4, Int((4 * load / max).rounded(.up)))
    }
}

/// Runs of consecutive active days: the longest (the latest of equals) and the current one (ending on `today` or the
/// day before: a streak is not broken before the day is over).
public enum StreakRuns {
    public static func runs(_ days: Set<LocalDate>) -> [ClosedRange<LocalDate>] {
        var out: [ClosedRange<LocalDate>] = []
        for d in days.sorted() {
            if let last = out.last, last.upperBound.adding(days: 1) == d {
                out[out.count - 1] = last.lowerBound...d
            } else {
                out.append(d...d)
            }
        }
        return out
    }
    public static func longest(_ days: Set<LocalDate>) -> ClosedRange<LocalDate>? {
        runs(days).reduce(nil) { best, r in
            guard let best else { return r }
            return length(r) >= length(best) ? r : best
        }
    }
    public static func current(_ days: Set<LocalDate>, today: LocalDate) -> ClosedRange<LocalDate>? {
        runs(days).last { $0.upperBound == today || $0.upperBound == today.adding(days: -1) }
    }
    public static func length(_ r: ClosedRange<LocalDate>) -> Int {
        r.upperBound.daysSinceEpoch - r.lowerBound.daysSinceEpoch + 1
    }
}

/// The mean-maximal power curve on a logarithmic duration axis, with the two-parameter critical-power model
/// P(t) = CP + W′/t (Monod & Scherrer 1965; Morton 1996) drawn over 1–60 min.
public struct PowerCurveGeometry: Sendable, Equatable {
    public var frame: Frame
    public var y: LinearScale
    public var ticks: [Double]
    public static let durationTicks: [Double] = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 3600]
    public var mmp: [Point]
    public var model: [Point]

    public init(mmp points: [(durationS: Double, watts: Double)], cpW: Double?, wPrimeJ: Double?, frame: Frame) {
        self.frame = frame
        let modelDurations: [Double] = [60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800, 2700, 3600]
        var modelWatts: [Double] = []
        if let cpW, let wPrimeJ { modelWatts = modelDurations.map { cpW + wPrimeJ / $0 } }
        let axis = ValueAxis(low: 0, high: max((points.map(\.watts) + modelWatts).max() ?? 100, 1), frame: frame)
        let y = axis.scale
        self.y = y
        ticks = axis.ticks
        let x = Self.x(frame: frame)
        mmp = points.filter { $0.durationS >= 1 && $0.durationS <= 3600 }.map { Point(x($0.durationS), y($0.watts)) }
        model = zip(modelDurations, modelWatts).map { Point(x($0.0), y($0.1)) }
    }

    /// x of a duration: log10 from 1 s (left) to 3600 s (right).
    public static func x(frame: Frame) -> (Double) -> Double {
        { frame.plotLeft + log10($0) / log10(3600) * frame.plotWidth }
    }
}

/// A line over days (the VDOT trend), x by day from `from` to `to`.
public struct DayLineGeometry: Sendable, Equatable {
    public var frame: Frame
    public var x: LinearScale
    public var y: LinearScale
    public var ticks: [Double]
    public var points: [Point]

    public init(values: [(day: LocalDate, value: Double)], from: LocalDate, to: LocalDate, frame: Frame) {
        self.frame = frame
        x = LinearScale(
            domain: (Double(from.daysSinceEpoch), Double(to.daysSinceEpoch)), range: (frame.plotLeft, frame.plotRight))
        let vs = values.map(\.value)
        let lo = vs.min() ?? 0, hi = vs.max() ?? 1
        let axis = ValueAxis(low: lo - 1, high: hi + 1, count: 4, frame: frame)
        y = axis.scale
        ticks = axis.ticks
        let x = self.x, y = self.y
        points = values.map { Point(x(Double($0.day.daysSinceEpoch)), y($0.value)) }
    }
}
