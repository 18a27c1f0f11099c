import Foundation

@testable import PlanEngine

enum Fixture {
    /// An intermediate runner in Tokyo: 40 km/week, 16 km long run, half marathon in 1:45, 16 weeks to a Sunday race.
    static func request(
        timezone: String = "Asia/Tokyo", start: String = "2026-06-01", race: String = "2026-09-20",
        weekly: Double = 40_000, longest: Double? = 16_000, days: [Weekday] = [.mon, .tue, .wed, .thu, .sat, .sun],
        maxRunDays: Int? = 5, longRunDay: Weekday? = .sun, experience: PlanRequest.Experience = .intermediate,
        goal: Double? = 13_200, fitness: PlanRequest.Fitness? = .init(race: .init(distanceM: 21_097.5, timeS: 6300)),
        distance: Double? = nil
    ) -> PlanRequest {
        PlanRequest(
            timezone: timezone, startDate: LocalDate(start)!,
            race: .init(date: LocalDate(race)!, distanceM: distance, goalTimeS: goal),
            runner: .init(
                availableDays: days, maxRunDays: maxRunDays, longRunDay: longRunDay, experience: experience,
                baseline: .init(weeklyDistanceM: weekly, longestRunM: longest), fitness: fitness))
    }

    static func plan(_ request: PlanRequest = request()) -> PlanDocument { PlanEngine.generate(request) }

    /// What the runner did if they ran the plan as written (at the middle of the easy range),
    /// for the days in `from..<to`, scaled by `scale`, at `paceOffset` s/km from the easy mid.
    static func done(
        _ doc: PlanDocument, from: LocalDate, to: LocalDate, scale: Double = 1, paceOffset: Double = 0,
        avgHr: Double? = nil
    ) -> [CompletedRun] {
        guard let plan = doc.plan else { return [] }
        return plan.allWeeks.flatMap(\.days).filter { $0.date >= from && $0.date < to }.flatMap { day in
            day.workouts.filter { $0.isRun && $0.type != .race }.map { w in
                let d = w.totalDistance(paces: plan.paces) * scale
                return CompletedRun(
                    date: day.date, distanceM: d, durationS: d / 1000 * (plan.paces.easy.mid + paceOffset),
                    avgHr: avgHr, sport: "run")
            }
        }
    }

    static func volumes(_ doc: PlanDocument) -> [Double] {
        doc.plan!.allWeeks.map { $0.runningVolume(paces: doc.plan!.paces) }
    }
}
