import CivilDate
import Foundation

/// One self-contained HTML page of a user's training: inline SVG and CSS only — no script, no font, image or style
/// sheet from elsewhere — so it reads offline and in a phone's web view. Colours are the Okabe–Ito palette
/// (`OkabeIto`), and every series is also told apart by its dash pattern or its label, not by colour alone.
public enum ReportPage {
    public static let sportColours: [String: String] = [
        "run": OkabeIto.blue, "treadmill": OkabeIto.skyBlue, "bike": OkabeIto.orange, "row": OkabeIto.bluishGreen,
    ]
    public static let sportNames: [String: String] = [
        "run": "Run", "treadmill": "Treadmill", "bike": "Bike", "row": "Row",
    ]

    public static func html(_ input: ReportInput) -> String {
        let sections = [
            section("Fitness, fatigue and form", pmc(input)),
            section("Planned and done", planVsDone(input)),
            section("Weekly volume by sport", volume(input)),
            section("Weekly intensity", intensity(input)),
            section("Training days", calendar(input)),
            section("Power curve, last 90 days", powerCurve(input)),
            section("Running fitness", running(input)),
            section("The next two weeks", planTable(input)),
            section("Stats as the apps get them", statsTable(input)),
        ]
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Training report — \(xmlEscape(input.userID))</title>
            <style>\(css)</style>
            </head>
            <body>
            <header><h1>Training report</h1>
            <p class="meta">User <b>\(xmlEscape(input.userID))</b> · \(input.from.iso) to \(input.to.iso) · dates in \(xmlEscape(input.timeZone)) · made \(xmlEscape(input.generatedAtLocal))</p></header>
            \(sections.joined(separator: "\n"))
            <footer>Made by the pipeline from stored data only. Colours: Okabe &amp; Ito's colour-universal palette.</footer>
            </body>
            </html>
            """
    }

    static let css = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:960px;padding:12px;color:#222;background:#fff}
        h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid #ddd}
        .meta,footer,.empty,.note{color:#555;font-size:.9em}svg{display:block;max-width:100%;height:auto}
        table{border-collapse:collapse;font-size:.9em;width:100%}td,th{border-bottom:1px solid #e4e4e4;padding:4px 6px;text-align:left;vertical-align:top}
        th{background:#f4f4f4}.nw{white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
        .legend{font-size:.85em;margin:.3em 0}.legend span{margin-right:1em;white-space:nowrap}
        .sw{display:inline-block;width:14px;height:10px;margin-right:4px;vertical-align:middle;border:1px solid #0003}
        .ln{display:inline-block;width:22px;height:0;margin-right:4px;vertical-align:middle;border-top-width:3px}
        footer{margin-top:2em}
        """

    static func section(_ title: String, _ body: String) -> String {
        "<section><h2>\(xmlEscape(title))</h2>\n\(body)\n</section>"
    }
    static func empty(_ text: String) -> String { "<p class=\"empty\">\(xmlEscape(text))</p>" }
    static func swatch(_ colour: String, _ name: String) -> String {
        "<span><i class=\"sw\" style=\"background:\(colour)\"></i>\(xmlEscape(name))</span>"
    }
    static func lineKey(_ colour: String, _ style: String, _ name: String) -> String {
        "<span><i class=\"ln\" style=\"border-top:3px \(style) \(colour)\"></i>\(xmlEscape(name))</span>"
    }

    /// Day labels along the bottom: about `count` evenly spaced days.
    static func dayLabels(_ w: inout SVGWriter, days: [LocalDate], centre: (Int) -> Double, count: Int = 6) {
        guard !days.isEmpty else { return }
        let step = max(1, Int((Double(days.count) / Double(count)).rounded(.up)))
        for i in stride(from: 0, to: days.count, by: step) {
            w.text(days[i].axisLabel, x: centre(i), y: w.frame.plotBottom + 14, size: 10)
        }
    }

    // MARK: Sections

    static func pmc(_ input: ReportInput) -> String {
        guard !input.loadDays.isEmpty else {
            return empty("No training load yet: it appears after the first analysed session or workout.")
        }
        let g = PMCGeometry(days: input.loadDays, frame: Frame(width: 900, height: 300))
        var w = SVGWriter(
            frame: g.frame, title: "Performance Management Chart: daily load, CTL, ATL and TSB in TSS per day")
        w.yAxis(g.y, ticks: g.ticks, title: "TSS per day")
        for b in g.bars {
            w.rect(
                x: b.x, y: b.y, width: b.width, height: b.height, fill: "#9E9E9E", title: "load \(label(b.value)) TSS")
        }
        w.polyline(g.ctl.map { ($0.x, $0.y) }, stroke: OkabeIto.blue, width: 2.5)
        w.polyline(g.atl.map { ($0.x, $0.y) }, stroke: OkabeIto.vermillion, width: 2, dash: "6 3")
        w.polyline(g.tsb.map { ($0.x, $0.y) }, stroke: OkabeIto.bluishGreen, width: 2, dash: "2 2")
        dayLabels(&w, days: input.loadDays.map(\.day), centre: { g.frame.plotLeft + (Double($0) + 0.5) * g.band })
        w.xTitle("Date (\(input.timeZone))")
        let last = input.loadDays.last!
        return w.finish() + """
            <p class="legend">\(swatch("#9E9E9E", "daily load (TSS)"))\(lineKey(OkabeIto.blue, "solid", "CTL fitness (42 d)"))\(lineKey(OkabeIto.vermillion, "dashed", "ATL fatigue (7 d)"))\(lineKey(OkabeIto.bluishGreen, "dotted", "TSB form"))</p>
            <p class="note">On \(last.day.iso): CTL \(label(last.ctl)), ATL \(label(last.atl)), TSB \(label(last.tsb)).</p>
            """
    }

    /// Running distance per week: planned (the current plan's weeks) beside done.
    static func planVsDone(_ input: ReportInput) -> String {
        guard !input.plannedWeeks.isEmpty else {
            return empty(
                input.planNote ?? "No plan yet: planned weeks appear here beside the weeks done once a plan exists.")
        }
        var done: [LocalDate: Double] = [:]
        for v in input.volume where v.sport == "run" || v.sport == "treadmill" {
            done[v.weekStart, default: 0] += v.distanceM / 1000
        }
        let planned = Dictionary(input.plannedWeeks.map { ($0.weekStart, $0.plannedKm) }, uniquingKeysWith: { $1 })
        // Eight weeks done up to the window's last week, and the plan's weeks around and after it: 16 weeks at most.
        let current = input.to.startOfWeek
        let weeks = Set(planned.keys).union(done.keys)
            .filter { $0 >= current.adding(days: -7 * 7) && $0 <= current.adding(days: 7 * 8) }.sorted()
        let g = GroupedBarsGeometry(
            values: weeks.map { [planned[$0], done[$0]] }, frame: Frame(width: 900, height: 260))
        var w = SVGWriter(frame: g.frame, title: "Running distance per week: planned beside done, in km")
        w.yAxis(g.y, ticks: g.ticks, title: "km per week")
        for b in g.bars {
            w.rect(
                x: b.x, y: b.y, width: b.width, height: b.height, fill: b.series == 0 ? "#FFFFFF" : OkabeIto.blue,
                title: "\(b.series == 0 ? "planned" : "done") \(label(b.value)) km",
                extra: b.series == 0 ? "stroke=\"\(OkabeIto.blue)\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"" : "")
        }
        dayLabels(&w, days: Array(weeks), centre: { g.frame.plotLeft + (Double($0) + 0.5) * g.band }, count: 8)
        if let i = weeks.firstIndex(of: current) {
            let x = g.frame.plotLeft + Double(i) * g.band
            w.line(x, g.frame.plotTop, x, g.frame.plotBottom, stroke: OkabeIto.black, dash: "3 3")
            w.text("this week", x: x + 4, y: g.frame.plotTop + 10, anchor: "start", size: 10)
        }
        w.xTitle("Week starting (Monday)")
        return w.finish()
            + "<p class=\"legend\"><span><i class=\"sw\" style=\"background:#fff;border:1.5px dashed \(OkabeIto.blue)\"></i>planned</span>\(swatch(OkabeIto.blue, "done"))</p>"
            + (input.planNote.map { "<p class=\"note\">\(xmlEscape($0))</p>" } ?? "")
    }

    static func weeks(_ days: [LocalDate]) -> [LocalDate] { Array(Set(days)).sorted() }

    static func volume(_ input: ReportInput) -> String {
        guard !input.volume.isEmpty else { return empty("No sessions or workouts in this period.") }
        let sports =
            ["run", "treadmill", "bike", "row"].filter { s in input.volume.contains { $0.sport == s } }
            + Set(input.volume.map(\.sport)).subtracting(["run", "treadmill", "bike", "row"]).sorted()
        let weekList = weeks(input.volume.map(\.weekStart)).suffix(26)
        var hours: [LocalDate: [String: Double]] = [:]
        for v in input.volume { hours[v.weekStart, default: [:]][v.sport, default: 0] += v.durationS / 3600 }
        let g = StackedBarsGeometry(
            values: weekList.map { wk in sports.map { hours[wk]?[$0] ?? 0 } }, frame: Frame(width: 900, height: 260))
        var w = SVGWriter(frame: g.frame, title: "Weekly training time by sport, in hours")
        w.yAxis(g.y, ticks: g.ticks, title: "hours per week")
        for b in g.bars {
            let sport = sports[b.series]
            w.rect(
                x: b.x, y: b.y, width: b.width, height: b.height, fill: sportColours[sport] ?? OkabeIto.reddishPurple,
                title: "\(sportNames[sport] ?? sport) \(String(format: "%.1f", b.value)) h",
                extra: "stroke=\"#ffffff\" stroke-width=\"0.5\"")
        }
        dayLabels(&w, days: Array(weekList), centre: { g.frame.plotLeft + (Double($0) + 0.5) * g.band }, count: 8)
        w.xTitle("Week starting (Monday)")
        return w.finish() + "<p class=\"legend\">"
            + sports.map { swatch(sportColours[$0] ?? OkabeIto.reddishPurple, sportNames[$0] ?? $0) }.joined() + "</p>"
    }

    static func intensity(_ input: ReportInput) -> String {
        let rows = input.intensity.filter { $0.lowMin + $0.moderateMin + $0.highMin > 0 }.suffix(26)
        guard !rows.isEmpty else { return empty("No heart-rate or power data to tell intensity in this period.") }
        let g = StackedBarsGeometry(
            values: rows.map { [$0.lowMin, $0.moderateMin, $0.highMin] }, frame: Frame(width: 900, height: 260))
        let colours = [OkabeIto.skyBlue, OkabeIto.orange, OkabeIto.vermillion]
        let names = ["low", "moderate", "high"]
        var w = SVGWriter(frame: g.frame, title: "Weekly minutes at low, moderate and high intensity")
        w.yAxis(g.y, ticks: g.ticks, title: "minutes per week")
        for b in g.bars {
            w.rect(
                x: b.x, y: b.y, width: b.width, height: b.height, fill: colours[b.series],
                title: "\(names[b.series]) \(label(b.value)) min", extra: "stroke=\"#ffffff\" stroke-width=\"0.5\"")
        }
        dayLabels(&w, days: rows.map(\.weekStart), centre: { g.frame.plotLeft + (Double($0) + 0.5) * g.band }, count: 8)
        w.xTitle("Week starting (Monday)")
        return w.finish() + "<p class=\"legend\">" + zip(colours, names).map { swatch($0, $1) }.joined() + "</p>"
    }

    static func calendar(_ input: ReportInput) -> String {
        let loads = Dictionary(
            (input.yearLoads.isEmpty ? input.loadDays : input.yearLoads).map { ($0.day, $0.load) }, uniquingKeysWith: +)
        let g = CalendarGeometry(loads: loads, to: input.to)
        let width = g.left + Double(CalendarGeometry.weeks) * (CalendarGeometry.cell + CalendarGeometry.gap) + 8
        var w = SVGWriter(
            frame: Frame(width: width, height: g.top + 7 * (CalendarGeometry.cell + CalendarGeometry.gap) + 8),
            title: "Daily training load over the last year, one square per day, weeks as columns")
        let opacity = ["0", "0.3", "0.55", "0.8", "1"]
        for (i, name) in ["Mon", "", "Wed", "", "Fri", "", "Sun"].enumerated() where !name.isEmpty {
            w.text(name, x: g.left - 6, y: g.top + Double(i) * 14 + 10, anchor: "end", size: 9)
        }
        // A month's name over the first week that starts in it, unless too close to the previous name.
        var lastMonth = 0, lastX = -100.0
        for c in g.cells where c.day.isoWeekday == 1 {
            let month = c.day.month
            if month != lastMonth, c.x - lastX >= 3 * (CalendarGeometry.cell + CalendarGeometry.gap) {
                w.text(String(c.day.axisLabel.split(separator: " ")[1]), x: c.x, y: g.top - 6, anchor: "start", size: 9)
                lastX = c.x
            }
            lastMonth = month
        }
        let active = input.activeDays
        for c in g.cells {
            let fill = c.level == 0 ? "#EEEEEE" : OkabeIto.blue
            w.rect(
                x: c.x, y: c.y, width: CalendarGeometry.cell, height: CalendarGeometry.cell, fill: fill,
                title:
                    "\(c.day.iso): \(c.load > 0 ? "load \(label(c.load)) TSS" : active.contains(c.day) ? "trained (no load)" : "rest")",
                extra: c.level == 0 ? "" : "fill-opacity=\"\(opacity[c.level])\"")
        }
        // Streak outlines: longest in orange (solid), current in vermillion (dashed), drawn over the cells.
        func outline(_ range: ClosedRange<LocalDate>?, colour: String, dash: String?) {
            guard let range else { return }
            var d = range.lowerBound
            while d <= range.upperBound {
                if d >= g.firstWeek {
                    w.add(
                        "<rect x=\"\(fmt(CalendarGeometry.x(d, firstWeek: g.firstWeek, left: g.left) - 1))\" y=\"\(fmt(CalendarGeometry.y(d, top: g.top) - 1))\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"
                    )
                }
                d = d.adding(days: 1)
            }
        }
        let longest = StreakRuns.longest(active), current = StreakRuns.current(active, today: input.to)
        outline(longest, colour: OkabeIto.orange, dash: nil)
        outline(current, colour: OkabeIto.vermillion, dash: "3 2")
        var legend =
            "<p class=\"legend\"><span>less</span>"
            + opacity.enumerated().map { i, o in
                "<i class=\"sw\" style=\"background:\(i == 0 ? "#EEEEEE" : OkabeIto.blue);opacity:\(i == 0 ? "1" : o)\"></i>"
            }.joined()
            + "<span>more load</span>"
        legend +=
            "<span><i class=\"sw\" style=\"border:2px solid \(OkabeIto.orange)\"></i>longest streak in the year shown"
            + (longest.map { " \(StreakRuns.length($0)) d (\($0.lowerBound.iso) – \($0.upperBound.iso))" } ?? ": none")
            + "</span>"
        legend +=
            "<span><i class=\"sw\" style=\"border:2px dashed \(OkabeIto.vermillion)\"></i>current streak"
            + (current.map { " \(StreakRuns.length($0)) d" } ?? ": none") + "</span></p>"
        return w.finish() + legend
    }

    static func powerCurve(_ input: ReportInput) -> String {
        guard !input.meanMaxPower.isEmpty else { return empty("No power data in the last 90 days.") }
        let g = PowerCurveGeometry(
            mmp: input.meanMaxPower, cpW: input.criticalPowerW, wPrimeJ: input.wPrimeJ,
            frame: Frame(width: 900, height: 280))
        var w = SVGWriter(
            frame: g.frame,
            title: "Mean-maximal power of the last 90 days and the critical-power model, watts against duration")
        w.yAxis(g.y, ticks: g.ticks, title: "power (W)")
        let x = PowerCurveGeometry.x(frame: g.frame)
        let names: [Double: String] = [
            1: "1 s", 5: "5 s", 10: "10 s", 30: "30 s", 60: "1 min", 120: "2 min", 300: "5 min",
            600: "10 min", 1200: "20 min", 3600: "60 min",
        ]
        for t in PowerCurveGeometry.durationTicks {
            w.line(x(t), g.frame.plotTop, x(t), g.frame.plotBottom, stroke: "#eeeeee")
            w.text(
                names[t] ?? "", x: x(t), y: g.frame.plotBottom + 14,
                anchor: t == 3600 ? "end" : t == 1 ? "start" : "middle", size: 10)
        }
        w.polyline(g.model.map { ($0.x, $0.y) }, stroke: OkabeIto.vermillion, width: 2, dash: "6 3")
        w.polyline(g.mmp.map { ($0.x, $0.y) }, stroke: OkabeIto.blue, width: 2.5)
        for (p, v) in zip(g.mmp, input.meanMaxPower.filter { $0.durationS >= 1 && $0.durationS <= 3600 }) {
            w.add(
                "<circle cx=\"\(fmt(p.x))\" cy=\"\(fmt(p.y))\" r=\"3\" fill=\"\(OkabeIto.blue)\"><title>\(label(v.durationS)) s: \(label(v.watts)) W</title></circle>"
            )
        }
        w.xTitle("Duration (logarithmic)")
        var note = ""
        if let cp = input.criticalPowerW, let wp = input.wPrimeJ {
            note =
                "<p class=\"note\">Critical power \(label(cp)) W, W′ \(String(format: "%.1f", wp / 1000)) kJ (model P = CP + W′/t, fitted to the best 2–20 min efforts).</p>"
        } else {
            note = "<p class=\"note\">Too few 2–20 min efforts with power to fit critical power.</p>"
        }
        return w.finish()
            + "<p class=\"legend\">\(lineKey(OkabeIto.blue, "solid", "best power"))\(lineKey(OkabeIto.vermillion, "dashed", "CP / W′ model"))</p>"
            + note
    }

    static func pace(_ s: Double) -> String {
        let total = Int(s.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }

    static func running(_ input: ReportInput) -> String {
        guard !input.vdotTrend.isEmpty || !input.paces.isEmpty else { return empty("No runs to estimate a VDOT from.") }
        var out = ""
        if !input.vdotTrend.isEmpty {
            let from = input.vdotTrend.first!.day, to = max(input.vdotTrend.last!.day, from.adding(days: 1))
            let g = DayLineGeometry(
                values: input.vdotTrend.map { ($0.day, $0.vdot) }, from: from, to: to,
                frame: Frame(width: 900, height: 220))
            var w = SVGWriter(frame: g.frame, title: "VDOT estimated week by week from the runs (Daniels)")
            w.yAxis(g.y, ticks: g.ticks, title: "VDOT (ml/kg/min)")
            w.polyline(g.points.map { ($0.x, $0.y) }, stroke: OkabeIto.blue, width: 2.5)
            for (p, v) in zip(g.points, input.vdotTrend) {
                w.add(
                    "<circle cx=\"\(fmt(p.x))\" cy=\"\(fmt(p.y))\" r=\"3\" fill=\"\(OkabeIto.blue)\"><title>\(v.day.iso): VDOT \(String(format: "%.1f", v.vdot))</title></circle>"
                )
            }
            let days = input.vdotTrend.map(\.day)
            let step = max(1, days.count / 6)
            for i in stride(from: 0, to: days.count, by: step) {
                w.text(days[i].axisLabel, x: g.points[i].x, y: g.frame.plotBottom + 14, size: 10)
            }
            w.xTitle("Week ending")
            out += w.finish()
        }
        if !input.paces.isEmpty {
            out +=
                "<table><tr><th>Daniels pace</th><th>min/km (fast – slow)</th></tr>"
                + input.paces.map {
                    "<tr><td>\(xmlEscape($0.zone))</td><td class=\"num\">\(pace($0.fastSPerKm)) – \(pace($0.slowSPerKm))</td></tr>"
                }.joined()
                + "</table>"
        }
        return out
    }

    static func planTable(_ input: ReportInput) -> String {
        guard !input.nextTwoWeeks.isEmpty else {
            return empty(input.planNote ?? "No plan: a plan is made for a runner with a goal race.")
        }
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return
            "<table><tr><th>Day</th><th>Workout</th><th class=\"num\">km</th><th class=\"num\">min</th><th>Pace (min/km)</th><th>What</th></tr>"
            + input.nextTwoWeeks.map { r in
                "<tr><td class=\"nw\">\(names[r.day.isoWeekday - 1]) \(r.day.iso)</td><td>\(xmlEscape(r.workout))</td>"
                    + "<td class=\"num\">\(r.distanceKm.map { String(format: "%.1f", $0) } ?? "")</td>"
                    + "<td class=\"num\">\(r.durationMin.map { String(Int($0.rounded())) } ?? "")</td>"
                    + "<td>\(xmlEscape(r.pace ?? ""))</td><td>\(xmlEscape(r.description ?? ""))</td></tr>"
            }.joined() + "</table>"
    }

    /// The units of the apps' stats fields (`updated_stats`, named as in `UserTotals` of WorkoutMetrics).
    static let statUnits: [String: String] = [
        "workout_total_count": "workouts", "workout_total_energy": "kcal", "workout_total_distance": "m",
        "workout_total_duration": "s", "workout_streak": "days", "longest_streak": "days",
        "last_workout_date": "date (user's zone)",
    ]

    static func statsTable(_ input: ReportInput) -> String {
        guard !input.stats.isEmpty else { return empty("No stats computed yet.") }
        return "<table><tr><th>Field (JSON name)</th><th class=\"num\">Value</th><th>Unit</th></tr>"
            + input.stats.map {
                "<tr><td><code>\(xmlEscape($0.name))</code></td><td class=\"num\">\(xmlEscape($0.value))</td><td>\(statUnits[$0.name] ?? "")</td></tr>"
            }.joined() + "</table>"
    }
}
