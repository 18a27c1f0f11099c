import Foundation
import PlanEngine
import Report
import Store

// This file imports PlanEngine and not WorkoutMetrics (both name a type `LocalDate`).
extension ReportService {
    /// What the report shows of running: the plan's weeks (planned distance), its next two weeks, the Daniels paces
    /// (the plan's, else from the latest VDOT estimate) and the VDOT estimated at the end of each week of the window
    /// from the runs done (`BaselineEstimator.estimateVDOT`, Daniels & Gilbert's VDOT).
    struct RunningParts {
        var plannedWeeks: [ReportInput.PlannedWeek] = []
        var nextTwoWeeks: [ReportInput.PlanRow] = []
        var paces: [ReportInput.Pace] = []
        var vdotTrend: [(day: LocalDate, vdot: Double)] = []
        var note: String?
    }

    func runningParts(user: User, from: LocalDate, to: LocalDate, today: LocalDate) async throws -> RunningParts {
        var parts = RunningParts()
        let service = PlanService(store: store)
        let runs = try await service.completedRuns(user).filter { $0.sport == "run" || $0.sport == "treadmill" }
        if !runs.isEmpty {
            var week = to
            var trend: [(day: LocalDate, vdot: Double)] = []
            while week >= from {
                if let estimate = BaselineEstimator.estimateVDOT(
                    from: runs, asOf: week)
                {
                    trend.append((week, estimate.vdot))
                }
                week = week.adding(days: -7)
            }
            parts.vdotTrend = trend.reversed()
        }
        let document = try await service.current(user.id)
        if let plan = document?.plan {
            parts.plannedWeeks = plan.allWeeks.compactMap { w in
                w.plannedDistanceM.map {
                    .init(weekStart: w.startDate, plannedKm: $0 / 1000)
                }
            }
            let end = today.adding(days: 13)
            for day in plan.allWeeks.flatMap(\.days)
            where day.date.daysSinceEpoch >= today.daysSinceEpoch && day.date.daysSinceEpoch <= end.daysSinceEpoch {
                for w in day.workouts {
                    let pace = w.pace.map { p -> String in
                        let range = [p.minSPerKm, p.maxSPerKm].compactMap { $0 }.map(Self.pace).joined(separator: "–")
                        return range.isEmpty ? p.zone.rawValue : "\(range) (\(p.zone.rawValue))"
                    }
                    parts.nextTwoWeeks.append(
                        .init(
                            day: day.date,
                            workout: w.type.rawValue.replacingOccurrences(of: "_", with: " "),
                            distanceKm: w.distanceM.map { $0 / 1000 }, durationMin: w.durationS.map { $0 / 60 },
                            pace: pace, description: w.description))
                }
            }
            parts.paces = Zone.allCases.map { z in
                .init(zone: z.rawValue, fastSPerKm: plan.paces[z].minSPerKm, slowSPerKm: plan.paces[z].maxSPerKm)
            }
            parts.note =
                "Plan version \(plan.version ?? 1) for the race on \(plan.raceDate.daysSinceEpoch == 0 ? "?" : plan.raceDate.iso)"
                + (plan.trainingVdot.map { ", training VDOT \(String(format: "%.1f", $0))" } ?? "") + "."
        } else if let error = document?.error {
            parts.note = "No plan: \(error.message)"
        } else if let vdot = parts.vdotTrend.last?.vdot {
            let paces = Daniels.trainingPaces(vdot: vdot)
            parts.paces = Zone.allCases.map { z in
                .init(zone: z.rawValue, fastSPerKm: paces[z].minSPerKm, slowSPerKm: paces[z].maxSPerKm)
            }
        }
        return parts
    }

    static func pace(_ s: Double) -> String {
        let total = Int(s.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }
}
