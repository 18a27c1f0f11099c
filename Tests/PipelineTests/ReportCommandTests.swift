import Foundation
import Store
import StoreSQLite
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `pipeline report` end to end on generated data: the page is written, self-contained, its SVG parses, and what it
/// says agrees with the store.
@Suite(.serialized) struct ReportCommandTests {
    @Test func reportOfAGeneratedUser() async throws {
        let fx = try await CLIFixture(users: 3, days: 30, seed: 16_161)
        let db = fx.newDatabase("report")
        #expect(
            try await fx.run(["nightly", "--db", db, "--inbox", fx.stage2.path])
                == ChildExit(status: 0, bySignal: false))
        let store = try SQLiteStore(path: db)
        let users = try await store.userIDs()
        let out = fx.root.appendingPathComponent("report.html")
        for user in users {
            let exit = try await fx.run([
                "report", "--db", db, "--user", user.rawValue, "--from", "2026-10-01", "--to", "2026-11-20",
                "--out", out.path,
            ])
            #expect(exit == ChildExit(status: 0, bySignal: false))
            let html = try String(contentsOf: out, encoding: .utf8)
            #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>"))
            for forbidden in ["http:", "https:", "src=", "href=", "url(", "<script", "<link", "@import"] {
                #expect(!html.contains(forbidden), "\(forbidden)")
            }
            var rest = html[...]
            var svgCount = 0
            while let start = rest.range(of: "<svg "),
                let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
            {
                #expect(XMLParser(data: Data(rest[start.lowerBound..<end.upperBound].utf8)).parse())
                svgCount += 1
                rest = rest[end.upperBound...]
            }
            #expect(svgCount >= 4)
            // The PMC has one CTL point per stored day of the window (the series starts at the user's first training day,
            // within the 30 generated days ending 2026-11-20, and runs every day through the 20th).
            let load = try await store.trainingLoad(
                user: user, from: LocalDate(iso: "2026-10-01")!, to: LocalDate(iso: "2026-11-20")!)
            let first = try #require(load.first.flatMap { LocalDateDays.days($0.date.iso) })
            #expect(load.count == LocalDateDays.days("2026-11-20")! - first + 1)
            #expect(load.count >= 20 && load.count <= 30)
            let ctlPoints = html.components(separatedBy: "<polyline points=\"")[1].components(separatedBy: "\"")[0]
                .split(separator: " ")
            #expect(ctlPoints.count == load.count)
            #expect(html.contains(String(format: "On 2026-11-20: CTL %@", Self.label(load.last!.ctl))))
            // The stats table holds the stored stats under the apps' names.
            let stats = try #require(try await store.userStats(user)).stats
            #expect(
                html.contains("<code>workout_total_count</code></td><td class=\"num\">\(stats.workoutTotalCount)</td>"))
            #expect(html.contains("<code>longest_streak</code></td><td class=\"num\">\(stats.longestStreak)</td>"))
            // The calendar's longest streak (the data is shorter than a year) is the stats' one.
            #expect(html.contains("longest streak in the year shown \(stats.longestStreak) d"))
            #expect(html.contains("User <b>\(user.rawValue)</b>"))
        }
        #expect(
            try await fx.run(["report", "--db", db, "--user", "nobody", "--out", out.path])
                == ChildExit(status: 66, bySignal: false))
        #expect(
            try await fx.run([
                "report", "--db", db, "--user", users[0].rawValue, "--from", "2026-11-31", "--out", out.path,
            ])
                == ChildExit(status: 64, bySignal: false))
    }

    /// Days since 1970-01-01 of an ISO date, through Foundation's Gregorian calendar in UTC.
    enum LocalDateDays {
        static func days(_ iso: String) -> Int? {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "UTC");
            f.dateFormat = "yyyy-MM-dd"
            return f.date(from: iso).map { Int($0.timeIntervalSince1970 / 86_400) }
        }
    }

    /// The report's number format (Report.label): no decimals from 10 up.
    static func label(_ v: Double) -> String {
        abs(v) >= 10 || v == v.rounded() ? String(Int(v.rounded())) : String(format: "%.1f", v)
    }
}
