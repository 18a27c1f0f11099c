import Foundation
import Report
import Store
import WorkoutMetrics

/// The training report of one user (`pipeline report`, `GET /v1/me/report`): reads what the pipeline stored — the
/// training-load series, the sessions' and workout records' metrics, the stats, the current plan — and renders it with
/// the `Report` module. Reads only; computes nothing that is not already stored except the views of it (weekly sums,
/// the 90-day best efforts, the VDOT estimate at each week's end).
public struct ReportService: ClockedService {
    public var store: any PipelineStore
    /// The run time whose day is the user's today (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Date { { [clock] in clock.date } }
    public init(store: any PipelineStore, clock: PipelineClock = .system) {
        self.store = store; self.clock = clock
    }

    public enum ReportError: Error, CustomStringConvertible {
        case unknownUser
        case badRange(String)
        public var description: String {
            switch self {
            case .unknownUser: "unknown user"
            case .badRange(let s): s
            }
        }
    }

    /// The default window: the 12 weeks (84 days) ending on `to`.
    public static let defaultDays = 84

    /// The first day a record can be on (the ingest refuses starts before 2000-01-01): a window is clamped to it.
    public static let earliestDay = LocalDate(iso: "2000-01-01")!

    /// The last day a report can show something on: today in the user's zone, or the current plan's last day when it
    /// is later. A window is clamped to it, so that a `to` of 9999-12-30 costs what today does (the training-load
    /// series was continued with rest days to `to`: 2.9 million days, 2 GB, for one request).
    public func latestDay(_ userID: UserID, today: LocalDate) async throws -> LocalDate {
        guard let stored = try await store.latestPlan(user: userID) else { return today }
        // Only the days' dates are read (`plan.weeks[].days[].date`); a document that does not have them adds nothing.
        struct Dates: Decodable {
            struct Plan: Decodable { var weeks: [Week] }
            struct Week: Decodable { var days: [Day] }
            struct Day: Decodable { var date: LocalDate }
            var plan: Plan?
        }
        let document: Dates
        do {
            document = try JSONDecoder().decode(Dates.self, from: Data(stored.documentJSON.utf8))
        } catch {
            throw UnreadablePlanDocument(userID: userID, version: stored.version, reason: "\(error)")
        }
        let planEnd = document.plan?.weeks.flatMap(\.days).map(\.date).max()
        return max(today, planEnd ?? today)
    }

    /// A stored plan document (`plans.document_json`) whose days' dates do not read back: the pipeline wrote it, so a
    /// damaged row is an error, never "no plan".
    public struct UnreadablePlanDocument: Error, Equatable, CustomStringConvertible {
        public var userID: UserID
        public var version: Int
        public var reason: String
        public var description: String {
            "the stored plan \(version) of \(userID.rawValue) does not read back: \(reason)"
        }
    }

    /// The report's input for `userID` over `from` … `to` (ISO dates in the user's zone; default: the 84 days ending
    /// today in the user's zone).
    public func input(_ userID: UserID, from: String? = nil, to: String? = nil) async throws -> ReportInput {
        guard let user = try await store.user(userID) else { throw ReportError.unknownUser }
        let zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
        let instant = now()
        let today = LocalDate(instant: instant, timeZone: zone)
        guard let askedTo = to.map({ LocalDate(iso: $0) }) ?? today else {
            throw ReportError.badRange("--to: expected YYYY-MM-DD")
        }
        guard let askedFrom = from.map({ LocalDate(iso: $0) }) ?? askedTo.adding(days: 1 - Self.defaultDays) else {
            throw ReportError.badRange("--from: expected YYYY-MM-DD")
        }
        guard askedFrom <= askedTo else { throw ReportError.badRange("--from is after --to") }
        guard askedTo.daysSinceEpoch - askedFrom.daysSinceEpoch < 3_660 else {
            throw ReportError.badRange("at most ten years at once")
        }
        // Clamped to the days that can hold data: nothing before the earliest record, nothing after today or the plan.
        var lastDay = askedTo
        if lastDay > today { lastDay = min(lastDay, try await latestDay(userID, today: today)) }
        let (fromDay, toDay) = Self.clamp(from: askedFrom, to: lastDay)

        let load = LoadService(store: store, clock: clock)
        let series = try await load.series(userID, from: fromDay, to: toDay)
        let loadDays = series.days.map {
            ReportInput.LoadDay(
                day: $0.date, load: $0.dailyLoad, ctl: $0.ctl, atl: $0.atl, tsb: $0.tsb)
        }
        // The calendar's year: the series' days' loads and the days with any session or workout, 53 weeks back from
        // `to`. The series runs through the user's today (or a later stored day), its rest days past the last stored
        // one derived (`LoadService.days`), as the nightly used to store them for everyone.
        let yearStart = toDay.startOfWeek.adding(days: -7 * 52)
        var yearLoads: [ReportInput.LoadDay] = []
        if let served = try await load.servedEnd(userID, today: today) {
            for d in try await load.days(userID, from: yearStart, to: min(toDay, served)) {
                yearLoads.append(
                    .init(day: d.date, load: d.dailyLoad, ctl: d.ctl, atl: d.atl, tsb: d.tsb))
            }
        }
        // Training days as the stats count them (`StatsService.compute`, `Streaks.activeDates`): every session and workout
        // record not deleted and started by now, on its local date (the record's zone, else the user's).
        var activity: [ActivityDay] = []
        let sessionCount = try await store.sessionCount(user: userID)
        if sessionCount > 0 {
            for s in try await store.sessionSummaries(user: userID, offset: 0, limit: sessionCount) {
                activity.append(ActivityDay(startMillis: s.startedAt))
            }
        }
        for w in try await store.workouts(user: userID, includeDeleted: false) {
            activity.append(
                ActivityDay(startMillis: w.startAt, timeZone: w.timeZone.flatMap(TimeZone.init(identifier:))))
        }
        let active = Set(
            Streaks.activeDates(activity, userZone: zone, nowMillis: instant.epochMillis)
                .filter { $0 >= yearStart && $0 <= toDay })

        // Best efforts of the 90 days ending on `to`.
        var efforts: [MeanMaximalPower] = []
        let windowStart = toDay.adding(days: 1 - LoadService.criticalPowerWindowDays)
        let sessions = try await store.sessionMetrics(user: userID).map {
            ($0.localDate, "session:\($0.sessionID.rawValue)", $0.metricsJSON)
        }
        let workouts = try await store.workoutMetrics(user: userID).map {
            ($0.localDate, "workout:\($0.workoutID.rawValue)", $0.metricsJSON)
        }
        for (day, record, json) in sessions + workouts {
            guard day >= windowStart, day <= toDay,
                let mmp = try LoadService.MetricsDocument.decode(json, record: record).metrics?.mmpW
            else { continue }
            efforts.append(mmp)
        }
        let best = CriticalPower.bestEfforts(efforts)
        let curve = zip(MeanMaximalPower.durations, best.values).compactMap { d, w in
            w.map { (durationS: Double(d), watts: $0) }
        }

        // The stats as GET /v1/me/stats answers them: the stored figures, each under the apps' JSON name.
        var stats: [(name: String, value: String)] = []
        if let record = try await store.userStats(userID) {
            stats = try Self.statRows(record.appReported ?? record.stats)
            if record.appReported != nil { stats.append(("(source)", "app-reported (PATCH /v1/me/stats)")) }
        }

        let running = try await runningParts(user: user, from: fromDay, to: toDay, today: today)
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return ReportInput(
            userID: userID.rawValue, timeZone: zone.identifier, generatedAtLocal: formatter.string(from: instant),
            from: fromDay, to: toDay, loadDays: loadDays,
            volume: series.weeklyVolume.map {
                .init(
                    weekStart: $0.weekStart, sport: $0.sport.rawValue,
                    durationS: $0.durationS, distanceM: $0.distanceM)
            },
            intensity: series.weeklyIntensity.map {
                .init(
                    weekStart: $0.weekStart, lowMin: $0.minutes.low,
                    moderateMin: $0.minutes.moderate,
                    highMin: $0.minutes.high)
            },
            activeDays: active, yearLoads: yearLoads,
            meanMaxPower: curve, criticalPowerW: series.criticalPower?.cpW, wPrimeJ: series.criticalPower?.wprimeJ,
            vdotTrend: running.vdotTrend, paces: running.paces, plannedWeeks: running.plannedWeeks,
            nextTwoWeeks: running.nextTwoWeeks, planNote: running.note, stats: stats)
    }

    /// `from` … `to` within `earliestDay` … `to` (itself at least `earliestDay`), `from` at most `to`.
    static func clamp(from: LocalDate, to: LocalDate) -> (LocalDate, LocalDate) {
        let to = max(to, earliestDay)
        return (min(max(from, earliestDay), to), to)
    }

    /// The report page.
    public func html(_ userID: UserID, from: String? = nil, to: String? = nil) async throws -> String {
        ReportPage.html(try await input(userID, from: from, to: to))
    }

    /// One stat as its JSON form (`UserStats`' own `Codable` names and values): a number, a string (a date), or
    /// null.
    enum StatValue: Equatable {
        case number(Double), string(String), null

        /// The value as the package's JSON writer encodes it (`SortedJSONEncoder`); a stat is a number, a string or
        /// null, never a nested value.
        init(_ value: SortedJSON) throws(UnexpectedStat) {
            switch value {
            case .null: self = .null
            case .int(let i): self = .number(Double(i))
            case .uint(let u): self = .number(Double(u))
            case .double(let d): self = .number(d)
            case .string(let s): self = .string(s)
            case .bool, .array, .object: throw UnexpectedStat(value: value.text)
            }
        }

        /// As the report shows it: a whole number without decimals, another with two, a string as it is.
        var text: String {
            switch self {
            case .null: "null"
            case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(format: "%.2f", d)
            case .string(let s): s
            }
        }
    }

    /// The stats under their JSON names (the names GET /v1/me/stats answers with), sorted by name; an absent optional
    /// (no last workout date) is left out, as the JSON leaves it out.
    static func statRows(_ stats: UserStats) throws -> [(name: String, value: String)] {
        guard case .object(let members) = try SortedJSONEncoder.encode(stats, numbers: .asEncoded) else {
            throw UnexpectedStat(value: "UserStats")
        }
        return try members.sorted { $0.key < $1.key }.map { ($0.key, try StatValue($0.value).text) }
    }

    /// A stat that `UserStats` encodes as neither a number, a string nor null.
    struct UnexpectedStat: Error, Equatable { var value: String }
}
