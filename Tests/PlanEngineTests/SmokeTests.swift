import Foundation
import Testing

@testable import PlanEngine

@Test func exampleRequestProducesAPlan() throws {
    let req = PlanRequest(
        timezone: "Europe/Berlin", startDate: LocalDate("2026-05-25")!,
        race: .init(date: LocalDate("2026-09-27")!, goalTimeS: 13200),
        runner: .init(
            availableDays: [.mon, .tue, .wed, .thu, .sat, .sun], maxRunDays: 5, longRunDay: .sun,
            baseline: .init(weeklyDistanceM: 40000, longestRunM: 16000),
            fitness: .init(race: .init(distanceM: 21097.5, timeS: 6300, date: LocalDate("2026-04-26")!))))
    let doc = PlanEngine.generate(req)
    if ProcessInfo.processInfo.environment["PLAN_DUMP"] != nil {
        try doc.jsonData().write(to: URL(fileURLWithPath: "/tmp/pe/example.json"))
        var text = ""
        for i in 1...(doc.plan?.weeks.count ?? 0) { text += PlanEngine.renderWeek(doc, weekIndex: i) + "\n\n" }
        try text.write(toFile: "/tmp/pe/example.txt", atomically: true, encoding: .utf8)
    }
    #expect(doc.plan != nil)
}
