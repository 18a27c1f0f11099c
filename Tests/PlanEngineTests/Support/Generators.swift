import Foundation
@_exported import TestKit

@testable import PlanEngine

/// A small, repeatable random generator (SplitMix64), so every property run sees the same runners.
typealias SeededRandom = SplitMix64

enum RunnerGen {
    static let zones = [
        "Asia/Tokyo", "America/Los_Angeles", "Europe/Berlin", "UTC", "Australia/Sydney",
        "America/New_York", "Asia/Kolkata", "Pacific/Auckland",
    ]

    /// A random but plausible runner: 10–120 km/week, 8–24 weeks to race (sometimes outside, to hit refusals),
    /// 3–7 available days (sometimes 2), every experience level, with or without fitness data and goals.
    static func request(_ rng: inout SeededRandom) -> PlanRequest {
        let tz = zones.randomElement(using: &rng)!
        let start = LocalDate("2026-01-05")!.adding(days: Int.random(in: 0...400, using: &rng))
        let weeks =
            Double.random(in: 0...1, using: &rng) < 0.9
            ? Int.random(in: 8...24, using: &rng) : Int.random(in: 1...30, using: &rng)
        let race = start.adding(days: 7 * (weeks - 1) + Int.random(in: 0...6, using: &rng))
        let dayCount = Double.random(in: 0...1, using: &rng) < 0.95 ? Int.random(in: 3...7, using: &rng) : 2
        let days = Array(Weekday.allCases.shuffled(using: &rng).prefix(dayCount)).sorted()
        let maxRun = Bool.random(using: &rng) ? nil : Int.random(in: 3...max(3, dayCount), using: &rng)
        let longDay: Weekday? =
            Double.random(in: 0...1, using: &rng) < 0.8
            ? days.randomElement(using: &rng) : Weekday.allCases.randomElement(using: &rng)
        let weekly = Double(Int.random(in: 10...120, using: &rng)) * 1000
        let longest: Double? =
            Bool.random(using: &rng) ? nil : (weekly * Double.random(in: 0.2...0.45, using: &rng) / 100).rounded() * 100
        let exp = PlanRequest.Experience.allCases.randomElement(using: &rng)!
        var fitness: PlanRequest.Fitness? = nil
        let vdot = min(75, max(28, 25 + weekly / 1000 * 0.25 + Double.random(in: -5...8, using: &rng)))
        switch Int.random(in: 0...2, using: &rng) {
        case 0: fitness = .init(vdot: (vdot * 10).rounded() / 10)
        case 1:
            let d = [5000.0, 10_000, 21_097.5].randomElement(using: &rng)!
            fitness = .init(
                race: .init(
                    distanceM: d, timeS: Daniels.predictedTime(distanceM: d, vdot: vdot).rounded(),
                    date: start.adding(days: -20)))
        default: fitness = nil
        }
        var goal: Double? = nil
        if Bool.random(using: &rng) {
            let predicted = Daniels.predictedTime(distanceM: 42195, vdot: vdot)
            goal = max(7200, (predicted * Double.random(in: 0.85...1.15, using: &rng)).rounded())
        }
        return PlanRequest(
            timezone: tz, startDate: start, race: .init(date: race, goalTimeS: goal),
            runner: .init(
                availableDays: days, maxRunDays: maxRun, longRunDay: longDay, experience: exp,
                baseline: .init(weeklyDistanceM: weekly, longestRunM: longest), fitness: fitness))
    }
}
