import Foundation
import Ingest
import Store
import WorkoutMetrics

/// Which week of a plan `GET /v1/me/plan/weeks/{week}` asks for.
///
/// - `3`: the 3rd week of the plan (1-based, `weeks[2]`);
/// - `2026-W14`: the plan week that contains the Monday of ISO week 14 of 2026 (so it works
///   whatever weekday the plan's weeks start on).
enum WeekSelector: Equatable {
    case index(Int)
    case isoWeek(year: Int, week: Int)

    init(_ text: String) throws(APIError) {
        if let n = Int(text), String(n) == text {
            guard n >= 1 else { throw .badRequest("Week numbers start at 1") }
            self = .index(n)
            return
        }
        // A week number too large for an integer is a week no plan has (the document's pattern admits it).
        if let first = text.utf8.first, first != UInt8(ascii: "0"), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            throw APIError(.notFound, .notFound, "The plan has no such week")
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), parts[1].count == 3,
            parts[1].first == "W" || parts[1].first == "w", let week = Int(parts[1].dropFirst()),
            (1...53).contains(week)
        else { throw .badRequest("week must be a 1-based index (3) or an ISO week (2026-W14)") }
        // Week 53 of a 52-week year is well formed but does not exist: like a week the plan does not have, 404.
        guard Self.mondayOfISOWeek(year: year, week: week) != nil else {
            throw APIError(.notFound, .notFound, "\(year) has no ISO week \(week)")
        }
        self = .isoWeek(year: year, week: week)
    }

    /// The Monday of ISO week `week` of `year`; nil for week 53 of a 52-week year.
    static func mondayOfISOWeek(year: Int, week: Int) -> LocalDate? {
        let monday = LocalDate(year: year, month: 1, day: 4).startOfWeek.adding(days: 7 * (week - 1))
        // An ISO week belongs to the year of its Thursday.
        return monday.adding(days: 3).year == year ? monday : nil
    }

    /// The 0-based index of the selected week in `weeks`, if the plan has it.
    func position(in weeks: [JSONValue]) -> Int? {
        switch self {
        case .index(let n):
            return n <= weeks.count ? n - 1 : nil
        case .isoWeek(let year, let week):
            guard let monday = Self.mondayOfISOWeek(year: year, week: week) else { return nil }
            return weeks.firstIndex { week in
                guard let start = week["start_date"]?.stringValue.flatMap(LocalDate.init(iso:)) else { return false }
                let offset = start.days(to: monday)
                return offset >= 0 && offset < 7
            }
        }
    }
}

extension APIServices {
    /// The latest plan document (`marathon-plan/1`) with `version`, `generated_at` and `state`
    /// added at its top level; 404 `no_plan` when the user has none.
    func planBody(for user: UserID) async throws -> [UInt8] {
        let (record, document) = try await latestPlanDocument(user)
        var object = document
        object["version"] = .number(Double(record.version))
        object["generated_at"] = .string(RFC3339.format(millis: record.generatedAt))
        object["state"] = .string(record.state.rawValue)
        return try APIJSON.encode(JSONValue.object(object))
    }

    /// One week of the latest plan, with what is needed to render it on its own (time zone,
    /// week start, paces, race date).
    func planWeekBody(for user: UserID, selector: WeekSelector) async throws -> [UInt8] {
        let (record, document) = try await latestPlanDocument(user)
        // A refused runner's base-building plan (`base_plan`) has weeks like a plan's.
        // An adapted plan's kept weeks (`past_weeks`) come first: week numbers count the whole build, as before.
        guard let plan = (document["plan"] ?? document["base_plan"])?.objectValue,
            let weeks = plan["weeks"]?.arrayValue.map({ (plan["past_weeks"]?.arrayValue ?? []) + $0 })
        else {
            throw APIError(.notFound, .noPlan, "The current plan has no weeks (state: \(record.state.rawValue))")
        }
        guard let position = selector.position(in: weeks) else {
            throw APIError(.notFound, .notFound, "The plan has no such week")
        }
        var object: [String: JSONValue] = [
            "format": document["format"] ?? .null,
            "version": .number(Double(record.version)),
            "generated_at": .string(RFC3339.format(millis: record.generatedAt)),
            "state": .string(record.state.rawValue),
            "index": .number(Double(position + 1)),
            "week_count": .number(Double(weeks.count)),
            "week": weeks[position],
        ]
        for key in ["timezone", "week_start", "race_date", "paces"] {
            if let value = plan[key] { object[key] = value }
        }
        return try APIJSON.encode(JSONValue.object(object))
    }

    func latestPlanDocument(_ user: UserID) async throws -> (PlanRecord, [String: JSONValue]) {
        guard let record = try await store.latestPlan(user: user) else {
            throw APIError(.notFound, .noPlan, "No plan has been generated for this user yet")
        }
        guard let document = try? JSONDecoder().decode(JSONValue.self, from: Data(record.documentJSON.utf8)).objectValue
        else {
            logger.error("stored plan document is not a JSON object", metadata: ["plan.version": "\(record.version)"])
            throw APIError(.internalServerError, .internalError, "The stored plan cannot be read")
        }
        return (record, document)
    }
}
