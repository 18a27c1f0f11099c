import Foundation
import Testing

@testable import Report

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Chart geometry on known series: every coordinate below is worked out by hand from the frame and the data.
/// Frame: 456 × 252, margins left 56, right 0, top 12, bottom 40 → plot x 56…456 (400 wide), y 12…212 (200 high).
@Suite struct ChartGeometryTests {
    let frame = Frame(width: 456, height: 252, left: 56, right: 0, top: 12, bottom: 40)

    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func niceAxisWidensToWholeSteps() {
        let a = niceAxis(low: -40, high: 100) // 140 / 5 = 28 → step 50
        #expect(a.domain == (-50, 100))
        #expect(a.ticks == [-50, 0, 50, 100])
        let b = niceAxis(low: 0, high: 3) // 0.6 → step 1
        #expect(b.domain == (0, 3))
        #expect(b.ticks == [0, 1, 2, 3])
    }

    @Test func pmcBarsAndLinesSitWhereTheDataSays() {
        let d0 = Day(iso: "2026-11-01")!
        let days = [(0.0, 10.0, 20.0, -10.0), (100, 20, 60, -40), (50, 25, 55, -40), (0, 22, 40, -30)].enumerated().map
        { i, v in
            ReportInput.LoadDay(day: d0.adding(i), load: v.0, ctl: v.1, atl: v.2, tsb: v.3)
        }
        let g = PMCGeometry(days: days, frame: frame)
        // Values −40…100 → axis −50…100; y(v) = 212 − (v + 50) × 200 / 150.
        #expect(g.y.domain == (-50, 100))
        #expect(g.ticks == [-50, 0, 50, 100])
        #expect(g.band == 100) // 400 px / 4 days; centres 106, 206, 306, 406
        // Days 0 and 3 have no load: no bar. Bars are 70 % of the band, centred, from y(0) = 145.33 up.
        #expect(g.bars.count == 2)
        #expect(
            close(g.bars[0].x, 171) && close(g.bars[0].width, 70) && close(g.bars[0].y, 12)
                && close(g.bars[0].height, 212 - 200 / 3.0 - 12))
        #expect(close(g.bars[1].x, 271) && close(g.bars[1].y, 212 - 400 / 3.0) && close(g.bars[1].height, 200 / 3.0))
        let ctl: [(Double, Double)] = [(106, 132), (206, 212 - 280 / 3.0), (306, 112), (406, 116)]
        #expect(zip(g.ctl, ctl).allSatisfy { close($0.x, $1.0) && close($0.y, $1.1) })
        #expect(close(g.tsb[1].y, 212 - 40 / 3.0)) // −40 → 198.67
        #expect(close(g.atl[1].y, 212 - 440 / 3.0)) // 60 → 65.33
    }

    @Test func stackedBarsStackInSeriesOrder() {
        let g = StackedBarsGeometry(values: [[1, 2], [0, 3]], frame: frame)
        // Totals ≤ 3 → axis 0…3, y(v) = 212 − v × 200 / 3; band 200, bars 140 wide starting 30 px into the band.
        #expect(g.ticks == [0, 1, 2, 3])
        #expect(g.bars.count == 3)
        #expect(
            close(g.bars[0].x, 86) && close(g.bars[0].y, 212 - 200 / 3.0) && close(g.bars[0].height, 200 / 3.0)
                && g.bars[0].series == 0)
        #expect(
            close(g.bars[1].x, 86) && close(g.bars[1].y, 12) && close(g.bars[1].height, 400 / 3.0)
                && g.bars[1].series == 1)
        #expect(
            close(g.bars[2].x, 286) && close(g.bars[2].y, 12) && close(g.bars[2].height, 200) && g.bars[2].series == 1)
    }

    @Test func groupedBarsSitSideBySide() {
        let g = GroupedBarsGeometry(values: [[40, 30], [nil, 50]], frame: frame)
        // Max 50 → step 10, axis 0…50; band 200, two slots of 80 starting 20 px into the band; the missing one is left empty.
        #expect(g.ticks == [0, 10, 20, 30, 40, 50])
        #expect(g.bars.map(\.x) == [76, 156, 356])
        #expect(zip(g.bars.map(\.y), [52.0, 92, 12]).allSatisfy { close($0, $1) })
    }

    @Test func calendarCellsByWeekAndWeekday() {
        let to = Day(iso: "2026-11-24")! // a Tuesday
        #expect(to.weekday == 2)
        #expect(Day(iso: "1970-01-01")!.number == 0 && Day(iso: "1970-01-01")!.weekday == 4)
        #expect(to.number == 20_781)
        #expect(Day(20_781).iso == "2026-11-24")
        let g = CalendarGeometry(loads: [to: 100, to.adding(-1): 30], to: to)
        #expect(g.firstWeek.iso == "2025-11-24") // the Monday 52 weeks before the week of `to`
        #expect(g.cells.count == 52 * 7 + 2)
        let last = g.cells.last!
        #expect(last.day == to && last.x == 40 + 52 * 14 && last.y == 20 + 14 && last.level == 4)
        let monday = g.cells[g.cells.count - 2]
        #expect(monday.y == 20 && monday.level == 2) // ceil(4 × 30 / 100) = 2
        #expect(g.cells.first!.x == 40 && g.cells.first!.y == 20 && g.cells.first!.level == 0)
    }

    @Test func streakRuns() {
        let base = Day(iso: "2026-03-01")!
        let days = Set([1, 2, 3, 5, 6, 9, 10, 11].map { base.adding($0) })
        #expect(StreakRuns.longest(days) == base.adding(9)...base.adding(11)) // ties: the latest
        #expect(StreakRuns.current(days, today: base.adding(12)) == base.adding(9)...base.adding(11))
        #expect(StreakRuns.current(days, today: base.adding(13)) == nil)
        #expect(StreakRuns.longest([]) == nil)
    }

    @Test func powerCurveOnALogAxis() {
        let g = PowerCurveGeometry(mmp: [(1, 800), (60, 400), (3600, 200)], cpW: 250, wPrimeJ: 20_000, frame: frame)
        // log10(t) / log10(3600) × 400 + 56: 1 s → 56, 60 s → 256 (60² = 3600), 3600 s → 456. Max 800 → axis 0…800.
        #expect(g.ticks.last == 800)
        #expect(zip(g.mmp.map(\.x), [56.0, 256, 456]).allSatisfy { close($0, $1) })
        #expect(close(g.mmp[1].y, 212 - 400.0 / 800 * 200))
        // The model at 60 s: 250 + 20000 / 60 = 583.33 W.
        #expect(close(g.model[0].x, 256) && close(g.model[0].y, 212 - (250 + 20_000 / 60.0) / 800 * 200))
    }

    @Test func formatting() {
        #expect(fmt(12) == "12" && fmt(12.5) == "12.5" && fmt(145.3333) == "145.33" && fmt(-0.004) == "0")
        #expect(xmlEscape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
    }
}

/// The whole page: valid SVG, no external reference, the empty state.
@Suite struct ReportPageTests {
    static func svgs(_ html: String) -> [String] {
        var out: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<svg "),
            let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
        {
            out.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return out
    }

    final class Collector: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var texts: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            elements[name, default: 0] += 1
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    static func parse(_ svg: String) -> (ok: Bool, Collector) {
        let parser = XMLParser(data: Data(svg.utf8))
        let c = Collector()
        parser.delegate = c
        return (parser.parse(), c)
    }

    static func assertSelfContained(_ html: String) {
        for forbidden in [
            "http:", "https:", "//", "src=", "href=", "url(", "@import", "<script", "<link", "<iframe", "<object",
            "<embed",
        ] {
            // `//` may only appear in… nothing: the page has no comment or URL at all.
            #expect(!html.contains(forbidden), "the page contains \(forbidden)")
        }
    }

    static var full: ReportInput {
        let to = Day(iso: "2026-11-24")!
        let from = to.adding(-83)
        var loadDays: [ReportInput.LoadDay] = []
        var ctl = 0.0, atl = 0.0
        for i in 0...83 {
            let load = i % 7 == 0 || i % 7 == 3 ? 0 : Double(40 + (i * 37) % 70)
            ctl += (load - ctl) * (1 - exp(-1 / 42.0))
            let tsb = ctl - atl
            atl += (load - atl) * (1 - exp(-1 / 7.0))
            loadDays.append(.init(day: from.adding(i), load: load, ctl: ctl, atl: atl, tsb: tsb))
        }
        let weeks = stride(from: 0, through: 77, by: 7).map { from.startOfWeek.adding($0) }
        return ReportInput(
            userID: "u-<1>&", timeZone: "Europe/Berlin", generatedAtLocal: "2026-11-24 20:00", from: from, to: to,
            loadDays: loadDays,
            volume: weeks.flatMap {
                [
                    ReportInput.SportWeek(weekStart: $0, sport: "run", durationS: 14_400, distanceM: 42_000),
                    ReportInput.SportWeek(weekStart: $0, sport: "bike", durationS: 7_200, distanceM: 60_000),
                ]
            },
            intensity: weeks.map { .init(weekStart: $0, lowMin: 250, moderateMin: 60, highMin: 20) },
            activeDays: Set(loadDays.filter { $0.load > 0 }.map(\.day)),
            meanMaxPower: [
                (1, 900), (5, 850), (30, 600), (60, 450), (120, 380), (300, 320), (600, 290), (1200, 270), (3600, 240),
            ],
            criticalPowerW: 255, wPrimeJ: 18_000,
            vdotTrend: weeks.enumerated().map { ($0.element.adding(6), 45 + Double($0.offset) * 0.2) },
            paces: [
                .init(zone: "easy", fastSPerKm: 330, slowSPerKm: 370),
                .init(zone: "threshold", fastSPerKm: 270, slowSPerKm: 275),
            ],
            plannedWeeks: weeks.suffix(4).map { .init(weekStart: $0, plannedKm: 45) } + [
                .init(weekStart: to.startOfWeek.adding(7), plannedKm: 48)
            ],
            nextTwoWeeks: [
                .init(
                    day: to.adding(1), workout: "easy", distanceKm: 10, durationMin: 58, pace: "5:30–6:10",
                    description: "Easy run <relaxed>")
            ],
            stats: [("workout_total_count", "42"), ("workout_streak", "3")])
    }

    @Test func everySVGIsValidXMLAndThePageIsSelfContained() {
        let html = ReportPage.html(Self.full)
        let svgs = Self.svgs(html)
        #expect(svgs.count == 7) // PMC, planned/done, volume, intensity, calendar, power, VDOT
        for svg in svgs {
            let (ok, c) = Self.parse(svg)
            #expect(ok, "not XML: \(svg.prefix(200))")
            #expect(c.elements["svg"] == 1 && c.elements["title", default: 0] >= 1)
        }
        Self.assertSelfContained(html)
        // Escaped user text; axis titles with their units.
        #expect(html.contains("u-&lt;1&gt;&amp;") && !html.contains("u-<1>"))
        for unit in [
            "TSS per day", "km per week", "hours per week", "minutes per week", "power (W)", "VDOT (ml/kg/min)",
        ] {
            #expect(html.contains(unit), "axis title \(unit)")
        }
        #expect(html.contains("Easy run &lt;relaxed&gt;"))
        #expect(html.contains("<code>workout_total_count</code>"))
        // The PMC's CTL line has one point per day.
        let pmc = svgs[0]
        let ctlLine = pmc.components(separatedBy: "<polyline points=\"")[1].components(separatedBy: "\"")[0]
        #expect(ctlLine.split(separator: " ").count == 84)
        // Only Okabe–Ito colours (and greys/white) fill the charts.
        let allowed: Set<String> = [
            OkabeIto.black, OkabeIto.orange, OkabeIto.skyBlue, OkabeIto.bluishGreen, OkabeIto.yellow, OkabeIto.blue,
            OkabeIto.vermillion, OkabeIto.reddishPurple, "#9E9E9E", "#EEEEEE", "#FFFFFF", "#ffffff", "#999999",
            "#dddddd",
            "#666666", "#eeeeee", "none",
        ]
        for svg in svgs {
            for part in svg.components(separatedBy: "fill=\"").dropFirst()
                + svg.components(separatedBy: "stroke=\"").dropFirst()
            {
                let colour = String(part.prefix { $0 != "\"" })
                #expect(allowed.contains(colour), "colour \(colour)")
            }
        }
    }

    @Test func emptyStateForAUserWithNoData() {
        let to = Day(iso: "2026-11-24")!
        let html = ReportPage.html(
            ReportInput(
                userID: "new", timeZone: "UTC", generatedAtLocal: "2026-11-24 20:00", from: to.adding(-83), to: to))
        #expect(html.contains("No training load yet"))
        #expect(html.contains("No sessions or workouts in this period."))
        #expect(html.contains("No power data in the last 90 days."))
        #expect(html.contains("No plan"))
        let svgs = Self.svgs(html)
        #expect(svgs.count == 1) // the (empty) calendar
        #expect(Self.parse(svgs[0]).ok)
        Self.assertSelfContained(html)
    }
}
