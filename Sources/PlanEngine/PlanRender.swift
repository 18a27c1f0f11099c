import CivilDate
import Foundation

/// The apps' plan screen: no plan yet, or a plan in one of its states (`PlanState`, shared with the store: ready,
/// completed, error). Encoded as one string, as the apps spell the screen: `no_plan`, `ready`, `completed`, `error`.
public enum PlanScreen: Hashable, Sendable, Codable, RawRepresentable {
    case noPlan
    case plan(PlanState)

    /// The screen of `document` on the runner's local `today`: no plan without a document (or with one that has
    /// neither a plan nor an error), `error` for a refusal, `completed` once the race date has passed, else `ready`.
    public static func of(_ document: PlanDocument?, today: LocalDate) -> PlanScreen {
        guard let doc = document else { return .noPlan }
        if doc.error != nil { return .plan(.error) }
        guard let plan = doc.plan else { return .noPlan }
        return .plan(today > plan.raceDate ? .completed : .ready)
    }

    /// The plan's state; nil when there is no plan.
    public var state: PlanState? {
        switch self {
        case .noPlan: nil
        case .plan(let state): state
        }
    }

    /// `no_plan`, or the state's raw value.
    public var rawValue: String {
        switch self {
        case .noPlan: "no_plan"
        case .plan(let state): state.rawValue
        }
    }

    public init?(rawValue: String) {
        if rawValue == "no_plan" {
            self = .noPlan
        } else if let state = PlanState(rawValue: rawValue) {
            self = .plan(state)
        } else {
            return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decode(
            parsing: PlanScreen.init(rawValue:), expected: "no_plan, ready, completed or error")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension PlanEngine {
    /// A week as a table a runner can follow in a terminal. `weekIndex` is 1-based.
    public static func renderWeek(_ doc: PlanDocument, weekIndex: Int) -> String {
        if let e = doc.error {
            return "No plan: \(e.code.rawValue) — \(e.message)" + (e.suggestion.map { "\n\($0)" } ?? "")
        }
        guard let plan = doc.plan, weekIndex >= 1, weekIndex <= plan.allWeeks.count else {
            return "No such week (the plan has \(doc.plan?.allWeeks.count ?? 0) weeks)."
        }
        return render(
            plan.allWeeks, paces: plan.paces, weekIndex: weekIndex, miles: doc.request.units == .mi, title: "Week")
    }

    /// A week of the base plan that comes with a refusal (docs/plan-engine.md, "Base plans"), as the same table.
    /// `weekIndex` is 1-based.
    public static func renderBaseWeek(_ doc: PlanDocument, weekIndex: Int) -> String {
        guard let base = doc.basePlan, weekIndex >= 1, weekIndex <= base.weeks.count else {
            return "No such week (the base plan has \(doc.basePlan?.weeks.count ?? 0) weeks)."
        }
        return render(
            base.weeks, paces: base.paces, weekIndex: weekIndex, miles: doc.request.units == .mi, title: "Base week")
    }

    private static func render(_ weeks: [Week], paces: Paces, weekIndex: Int, miles: Bool, title: String) -> String {
        func dist(_ m: Double) -> String {
            miles ? String(format: "%.1f mi", m / 1609.344) : String(format: "%.1f km", m / 1000)
        }
        func pace(_ r: PaceRange) -> String {
            if miles {
                return "\(Fmt.pace(r.minSPerKm * 1.609344))–\(Fmt.pace(r.maxSPerKm * 1.609344))/mi"
            }
            return Fmt.range(r)
        }
        let week = weeks[weekIndex - 1]
        let volume = week.runningVolume(paces: paces)
        let end = week.startDate.adding(days: 6)
        var lines = [
            "\(title) \(weekIndex) of \(weeks.count) · \(week.startDate) – \(end) · \(week.phase?.rawValue ?? "") · \(dist(volume)) running"
        ]
        lines.append(String(repeating: "─", count: 78))
        for day in week.days {
            let head = "\(day.date.weekday.shortName) \(String(day.date.description.suffix(5)))"
            if day.workouts.isEmpty { lines.append("\(head)  Rest"); continue }
            for (k, w) in day.workouts.enumerated() {
                let prefix = k == 0 ? head : String(repeating: " ", count: head.count)
                let kind = w.type.rawValue.replacingOccurrences(of: "_", with: " ").capitalized
                let size = w.distanceM.map(dist) ?? w.durationS.map { "\(Int($0 / 60)) min" } ?? ""
                let zone = w.pace.map { "\($0.zone.rawValue) \(pace(paces[$0.zone]))" } ?? (w.intensity?.rawValue ?? "")
                lines.append(
                    "\(prefix)  \(kind.padding(toLength: 14, withPad: " ", startingAt: 0)) \(size.padding(toLength: 9, withPad: " ", startingAt: 0)) \(zone)"
                )
                let work = (w.segments ?? []).filter {
                    $0.kind == .work && $0.zone != (w.pace?.zone ?? .easy) || $0.repeats > 1
                }
                for seg in work {
                    let one = seg.distanceM.map(dist) ?? seg.durationS.map { "\(Int($0 / 60)) min" } ?? ""
                    let rec =
                        seg.recoveryS.map { ", \(Int($0)) s jog" } ?? seg.recoveryDistanceM.map { ", \(Int($0)) m jog" }
                        ?? ""
                    let reps = seg.repeats > 1 ? "\(seg.repeats) × " : ""
                    lines.append(
                        String(repeating: " ", count: head.count + 2)
                            + "  ↳ \(reps)\(one) @ \(seg.zone.rawValue) \(pace(seg.pace ?? paces[seg.zone]))\(rec)")
                }
                if let d = w.description { lines.append(String(repeating: " ", count: head.count + 2) + "  " + d) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The 1-based index of the week containing `date`, if any.
    public static func weekIndex(of date: LocalDate, in doc: PlanDocument) -> Int? {
        guard let weeks = doc.plan?.allWeeks else { return nil }
        return weeks.firstIndex { $0.startDate <= date && date <= $0.startDate.adding(days: 6) }.map { $0 + 1 }
    }
}
