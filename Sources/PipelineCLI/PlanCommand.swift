import ArgumentParser
import Foundation
import Pipeline
import PlanEngine
import Store

struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print a runner's marathon plan: readable week tables, or the marathon-plan/1 JSON document.",
        discussion:
            "The plan is the stored current version; --refresh generates or adapts it first from the profile and the workouts stored."
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var user: UserOption
    @Option(help: "Only this week: its 1-based index or an ISO week YYYY-Www.") var week: String?
    @Flag(help: "Print the JSON document (docs/plan-format.md).") var json = false
    @Flag(help: "Generate or adapt the plan before printing it.") var refresh = false

    func run() async throws {
        try await runReportingErrors {
            _ = logging.bootstrap(label: "pipeline.plan")
            let store = try await store.open()
            let id = try await user.existing(in: store)
            let service = PlanService(store: store)
            if refresh { _ = try await service.refresh(id) }
            guard let document = try await service.current(id) else {
                throw CLIError.notFound(
                    "no plan for \(id.rawValue) (no goal race in the profile, or not generated yet: try --refresh)")
            }
            if json {
                print(String(decoding: try document.jsonData(), as: UTF8.self))
                return
            }
            if let error = document.error {
                print("no plan: \(error.code.rawValue): \(error.message)")
                if let suggestion = error.suggestion { print(suggestion) }
                // A refusal is never a dead end (docs/plan-engine.md, "Base plans"): the base plan that comes with it,
                // week by week.
                if let base = document.basePlan {
                    let km = { (m: Double) in String(format: "%.1f km", m / 1000) }
                    var line =
                        "base-building plan instead: \(base.weeks.count) weeks toward \(km(base.target.weeklyDistanceM)) a week "
                        + "and a \(km(base.target.longRunM)) long run"
                    if let from = base.marathonFeasibleFrom {
                        line +=
                            "; a marathon is feasible from \(from)"
                            + (base.marathonPlanWeeks.map { " with a plan of \($0) weeks" } ?? "")
                    }
                    print(line + ".")
                    let indices: [Int]
                    if let week {
                        guard let index = Self.weekIndex(week, weeks: base.weeks) else {
                            throw CLIError.usage("no week \(week) in this base plan")
                        }
                        indices = [index]
                    } else {
                        indices = Array(1...max(1, base.weeks.count))
                    }
                    for i in indices { print("\n" + PlanEngine.renderBaseWeek(document, weekIndex: i)) }
                }
                return
            }
            guard let plan = document.plan else { return }
            let indices: [Int]
            if let week {
                guard let index = Self.weekIndex(week, weeks: plan.allWeeks) else {
                    throw CLIError.usage("no week \(week) in this plan")
                }
                indices = [index]
            } else {
                indices = Array(1...plan.allWeeks.count)
            }
            for i in indices { print(PlanEngine.renderWeek(document, weekIndex: i)) }
        }
    }

    /// A 1-based index, or the plan (or base plan) week containing the Monday of ISO week `YYYY-Www`.
    static func weekIndex(_ text: String, weeks: [Week]) -> Int? {
        if let n = Int(text) { return (1...max(1, weeks.count)).contains(n) && !weeks.isEmpty ? n : nil }
        let parts = text.split(separator: "-W")
        guard parts.count == 2, let year = Int(parts[0]), let w = Int(parts[1]), (1...53).contains(w) else {
            return nil
        }
        // ISO week 1 holds 4 January; its Monday is 4 Jan minus (weekday − 1).
        let jan4 = LocalDate(year: year, month: 1, day: 4)
        let monday = jan4.adding(days: -jan4.weekday.index + 7 * (w - 1))
        for (i, week) in weeks.enumerated() where week.days.contains(where: { $0.date == monday }) { return i + 1 }
        return nil
    }
}

struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract:
            "Print a user's stored daily training load as JSON: daily_load, ctl, atl, tsb, ramp_7d, acwr (docs/metrics.md), weekly volume and intensity."
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var user: UserOption
    @Option(help: "First date (YYYY-MM-DD).") var from: String?
    @Option(
        help: "Last date (YYYY-MM-DD); one after today ends on today, or on the current plan's last day when later.")
    var to: String?

    func run() async throws {
        try await runReportingErrors {
            let store = try await store.open()
            let id = try await user.existing(in: store)
            let parse = { (text: String?) throws -> LocalDate? in
                guard let text else { return nil }
                guard let d = LocalDate(iso: text) else { throw CLIError.usage("not a date: \(text)") }
                return d
            }
            try printJSON(try await LoadService(store: store).series(id, from: try parse(from), to: try parse(to)))
        }
    }
}
