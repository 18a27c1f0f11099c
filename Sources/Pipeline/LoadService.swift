import Foundation
import Store
import WorkoutMetrics

/// A user's daily training-load series (CTL/ATL/TSB, ramp, ACWR; `docs/metrics.md`, "Training load"),
/// stored per user per local day (`training_load`) and kept up to date incrementally.
///
/// The day's load is the sum of the loads of the user's analysed sessions and measured workout records on that
/// local date (TSS where power exists, otherwise HRSS). `update` recomputes the stored series from the first day
/// whose load changed (a new session, a backfilled older one, a re-measured or deleted workout) onward, resuming
/// from the stored state of the day before; days without workouts are steps too (load 0, so CTL and ATL decay),
/// through the user's today at the time of the update.
///
/// The series is extended lazily (docs/training-load.md): rows are written only when the user's data changes (`update`,
/// from the nightly, a worker, `pipeline recompute`, `POST /v1/me/recompute`), never for a user whom nothing touched,
/// so a night with nothing new writes nothing per idle user. Every reader (`days`, `series`, `latest`; hence `pipeline
/// plan load`, `GET /v1/me/stats`, the report) continues the stored days past the last stored one with rest days
/// computed from that day's stored state by the same recurrence (`TrainingLoad.steps`, load 0), one step per day, in
/// memory: bit for bit the rows the nightly used to write for each rest day (a closed form `ctl × decay^days` would
/// round differently). A reader's "stored series" therefore reads as if it were stored through the user's today
/// (`servedEnd`).
public struct LoadService: ClockedService {
    public var store: any PipelineStore
    /// The run time whose day is the user's today (`PipelineClock.now`): `series` clamps a window that ends after it.
    public var clock: PipelineClock
    var now: @Sendable () -> Date { { [clock] in clock.date } }
    public init(store: any PipelineStore, clock: PipelineClock = .system) {
        self.store = store; self.clock = clock
    }

    public static let convention = TrainingLoad.Convention.exp

    public struct Series: Sendable, Codable {
        public var userID: String
        public var convention: String
        public var days: [DayLoad]
        /// Volume by sport per ISO week (`WeeklySummary.volumeBySport`) of the sessions and workout records dated in
        /// the window.
        public var weeklyVolume: [WeeklySummary.SportVolume]
        /// Minutes at low / moderate / high intensity per ISO week (`WeeklySummary.intensityDistribution`).
        public var weeklyIntensity: [WeekIntensity]
        /// CP and W′ (`cp_w`, `wprime_j`) fitted to the best mean-maximal power of the sessions and workout records of
        /// the last `criticalPowerWindowDays` days of the window (`CriticalPower.fit`, docs/metrics.md "Critical
        /// power"); absent with fewer than two durations of 2–20 min with power.
        public var criticalPower: CriticalPower.Fit?
        enum CodingKeys: String, CodingKey {
            case userID = "user_id", convention, days, weeklyVolume = "weekly_volume", weeklyIntensity =
                "weekly_intensity"
            case criticalPower = "critical_power"
        }
    }

    /// One ISO week's intensity distribution. JSON: `week_start`, `low_min`, `moderate_min`, `high_min`.
    public struct WeekIntensity: Sendable, Codable, Equatable {
        public var weekStart: LocalDate
        public var minutes: WeeklySummary.IntensityMinutes
        public init(weekStart: LocalDate, minutes: WeeklySummary.IntensityMinutes) {
            self.weekStart = weekStart; self.minutes = minutes
        }
        enum CodingKeys: String, CodingKey { case weekStart = "week_start" }
        public init(from decoder: any Decoder) throws {
            weekStart = try decoder.container(keyedBy: CodingKeys.self).decode(LocalDate.self, forKey: .weekStart)
            minutes = try WeeklySummary.IntensityMinutes(from: decoder)
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(weekStart, forKey: .weekStart)
            try minutes.encode(to: encoder)
        }
    }

    /// The stored metric document's `metrics` object (session and workout metrics alike), read with `decode`.
    struct MetricsDocument: Decodable {
        var metrics: SessionMetrics?

        /// The document of a stored `metrics_json`; one that does not read back throws `UnreadableMetricsDocument`
        /// naming the record (the pipeline wrote it: a damaged row is an error, never "no metrics").
        static func decode(_ json: String, record: String) throws -> MetricsDocument {
            do {
                return try JSONDecoder().decode(MetricsDocument.self, from: Data(json.utf8))
            } catch {
                throw UnreadableMetricsDocument(record: record, reason: "\(error)")
            }
        }
    }

    /// A stored metric document (`metrics_json` of a session's or a workout record's metrics) that does not decode.
    public struct UnreadableMetricsDocument: Error, Equatable, CustomStringConvertible {
        /// `session:<id>` or `workout:<id>`.
        public var record: String
        public var reason: String
        public var description: String { "the stored metrics of \(record) do not read back: \(reason)" }
    }

    /// "Recent sessions" for the critical-power fit: the last 90 days.
    public static let criticalPowerWindowDays = 90

    /// CP / W′ over the best efforts (mean-maximal power at 2, 5, 10 and 20 min) of the sessions and workout records
    /// dated in the `criticalPowerWindowDays` days ending on `to` (default: the latest dated one).
    public func criticalPower(_ userID: UserID, to: LocalDate?) async throws -> CriticalPower.Fit? {
        let duplicates = try await ActivityDuplicates.resolve(store: store, user: userID)
        var dated: [(date: LocalDate, record: String, json: String)] = []
        for m in try await store.sessionMetrics(user: userID) where !duplicates.isLinked(session: m.sessionID) {
            dated.append((m.localDate, "session:\(m.sessionID.rawValue)", m.metricsJSON))
        }
        for m in try await store.workoutMetrics(user: userID) where !duplicates.isLinked(workout: m.workoutID) {
            dated.append((m.localDate, "workout:\(m.workoutID.rawValue)", m.metricsJSON))
        }
        guard let end = to ?? dated.map(\.date).max() else { return nil }
        let start = end.adding(days: 1 - Self.criticalPowerWindowDays)
        let efforts = try dated.filter { $0.date >= start && $0.date <= end }.compactMap { entry in
            try MetricsDocument.decode(entry.json, record: entry.record).metrics?.mmpW
        }
        return CriticalPower.fit(CriticalPower.points(CriticalPower.bestEfforts(efforts)))
    }

    /// Each session's and workout record's contribution to the weekly summaries, dated within `from` … `to`. Workout
    /// records of types without a metric sport (elliptical, swimming, strength, other) are left out: the weekly
    /// summaries are by sport.
    public func weeklyEntries(_ userID: UserID, from: LocalDate?, to: LocalDate?) async throws -> [WeeklySummary
        .SessionEntry]
    {
        func intensity(_ json: String, record: String) throws -> WeeklySummary.IntensityMinutes? {
            try MetricsDocument.decode(json, record: record).metrics.flatMap { WeeklySummary.IntensityMinutes($0) }
        }
        func inWindow(_ d: LocalDate) -> Bool { (from.map { d >= $0 } ?? true) && (to.map { d <= $0 } ?? true) }
        let duplicates = try await ActivityDuplicates.resolve(store: store, user: userID)
        var out: [WeeklySummary.SessionEntry] = []
        for m in try await store.sessionMetrics(user: userID) where !duplicates.isLinked(session: m.sessionID) {
            let date = m.localDate
            guard inWindow(date), let sport = Sport(rawValue: m.sport) else { continue }
            out.append(
                .init(
                    date: date, sport: sport, durationS: m.durationS,
                    distanceM: duplicates.distanceM(of: .session(m.sessionID), own: m.distanceM),
                    intensity: try intensity(m.metricsJSON, record: "session:\(m.sessionID.rawValue)")))
        }
        for m in try await store.workoutMetrics(user: userID) where !duplicates.isLinked(workout: m.workoutID) {
            let date = m.localDate
            guard inWindow(date), let sport = WorkoutAnalyzer.sport(activityType: m.activityType) else { continue }
            out.append(
                .init(
                    date: date, sport: sport, durationS: m.durationS,
                    distanceM: duplicates.distanceM(of: .workout(m.workoutID), own: m.distanceM),
                    intensity: try intensity(m.metricsJSON, record: "workout:\(m.workoutID.rawValue)")))
        }
        return out
    }

    /// Each session's and workout's load on its local date (entries without a finite load are left out), summed per
    /// day in a fixed order (by date, sessions then workouts, each by id), so the same data gives the same bits. A
    /// recording linked to another of the same activity (`ActivityDuplicates`) is left out: its load counts once.
    /// `duplicates`: the user's groups when they were already resolved (`Activities`).
    public func dailyLoads(_ userID: UserID, duplicates known: ActivityDuplicates? = nil) async throws
        -> (loads: [LocalDate: Double], entries: Int)
    {
        let duplicates: ActivityDuplicates
        if let known {
            duplicates = known
        } else {
            duplicates = try await ActivityDuplicates.resolve(store: store, user: userID)
        }
        let loadEntries: [LoadEntry]
        if duplicates.isEmpty {
            loadEntries = try await store.loadEntries(user: userID)
        } else {
            // The same entries in the same order (by date, then id), read with their ids to leave the linked ones out.
            loadEntries =
                try await store.sessionMetrics(user: userID).filter { !duplicates.isLinked(session: $0.sessionID) }
                .sorted { ($0.localDate, $0.sessionID.rawValue) < ($1.localDate, $1.sessionID.rawValue) }
                .map { LoadEntry(localDate: $0.localDate, load: $0.tss) }
                + store.workoutMetrics(user: userID).filter { !duplicates.isLinked(workout: $0.workoutID) }
                .sorted { ($0.localDate, $0.workoutID.rawValue) < ($1.localDate, $1.workoutID.rawValue) }
                .map { LoadEntry(localDate: $0.localDate, load: $0.tss) }
        }
        var entries: [(date: LocalDate, load: Double?)] = []
        for m in loadEntries {
            guard let load = m.load, load.isFinite else { continue }
            entries.append((m.localDate, load))
        }
        return (TrainingLoad.dailyLoads(entries), entries.count)
    }

    /// What `update` did.
    public struct UpdateResult: Sendable, Equatable {
        /// The first day recomputed (nil when the stored series was already current).
        public var from: LocalDate?
        /// Days written.
        public var daysWritten: Int
        /// True when the series was computed from its first day (no stored series, or data before or at its start).
        public var fromScratch: Bool
    }

    /// Brings the user's stored series up to date through `today` (their local date): finds the first day whose load
    /// differs from the stored one (or the day after the last stored day), resumes from the stored state of the day
    /// before it and writes the days from there on. A change at or before the series' first day recomputes it all.
    /// `duplicates`: the user's groups when they were already resolved (`Activities`).
    @discardableResult
    public func update(
        _ userID: UserID, today: LocalDate, computedAt: EpochMillis, duplicates: ActivityDuplicates? = nil
    ) async throws -> UpdateResult {
        let loads = try await dailyLoads(userID, duplicates: duplicates).loads
        let stored = try await store.trainingLoad(user: userID, from: nil, to: nil)
        guard let first = loads.keys.min(), let lastLoad = loads.keys.max() else {
            // No load at all (every workout deleted): no series.
            if let start = stored.first?.date {
                try await store.replaceTrainingLoad(user: userID, from: start, days: [])
            }
            return UpdateResult(from: nil, daysWritten: 0, fromScratch: false)
        }
        let end = max(today, lastLoad)
        let resume = try Self.resumePoint(stored: stored, loads: loads, first: first, end: end)
        let start: LocalDate, removeFrom: LocalDate
        let steps: [TrainingLoad.Step]
        switch resume {
        case .current:
            return UpdateResult(from: nil, daysWritten: 0, fromScratch: false)
        case .fromScratch:
            // Also removes stored days before `first` when the series now starts later (its first days lost their
            // load).
            start = first
            removeFrom = min(first, stored.first?.date ?? first)
            steps = TrainingLoad.steps(
                after: .initial(before: first, convention: Self.convention), dailyLoads: loads, through: end)
        case .resume(let day, let before?):
            start = day
            removeFrom = day
            steps = TrainingLoad.steps(after: before, dailyLoads: loads, through: end)
        case .resume(let day, nil):
            // The stored state is kept on the last day only: the state before `day` is recomputed in memory from the
            // first day, bit for bit what resuming would give (the stored days before `day` carry the same loads), and
            // only the days from `day` on are written. When `day` is past the end, the day before it is written again
            // too, so that the series' new last day carries its state.
            start = day
            removeFrom = day > end ? day.adding(days: -1) : day
            steps = TrainingLoad.steps(
                after: .initial(before: first, convention: Self.convention), dailyLoads: loads, through: end
            )
            .filter { $0.day.date >= removeFrom }
        }
        let records = try Self.records(steps, user: userID, computedAt: computedAt)
        try await store.replaceTrainingLoad(user: userID, from: removeFrom, days: records)
        return UpdateResult(from: start, daysWritten: records.count, fromScratch: resume == .fromScratch)
    }

    /// The user's local calendar date at `millis` (UTC for an unknown zone).
    public static func today(for user: User, at millis: EpochMillis) -> LocalDate {
        LocalDate.from(
            instant: Date(epochMillis: millis), in: TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!)
    }

    /// Where `update` starts.
    enum Resume: Equatable {
        /// The stored series equals the loads through the end: nothing to do.
        case current
        /// From the first day with load, from zero.
        case fromScratch
        /// From `day` on, continuing the stored state of the day before (days from `day` on are replaced; when `day`
        /// is past the end, stored days from it on are only removed).
        case resume(LocalDate, TrainingLoad.State?)
    }

    /// Compares the stored series with the loads: it must start on the first day with load (else from scratch), and
    /// each stored day confirms the series while it is the next calendar day, not past `end`, and its `daily_load`
    /// equals the day's load bit for bit; the first day not confirmed is where to resume.
    static func resumePoint(
        stored: [TrainingLoadRecord], loads: [LocalDate: Double], first: LocalDate,
        end: LocalDate
    ) throws(UnreadableTrainingLoadState) -> Resume {
        guard let head = stored.first, head.date == first,
            stored.allSatisfy({ $0.convention == convention.rawValue })
        else { return .fromScratch }
        var expected = first
        var previous: TrainingLoadRecord?
        for row in stored {
            guard row.date == expected, row.date <= end, row.dailyLoad == (loads[row.date] ?? 0) else { break }
            previous = row
            expected = row.date.adding(days: 1)
        }
        guard let previous else { return .fromScratch }
        let storedEnd = stored.last?.date ?? first
        if expected > end && storedEnd <= end { return .current }
        // Only the last day written by an update carries its state (an older store has it on every day); without one
        // the caller recomputes the days before `expected` in memory.
        guard !previous.stateJSON.isEmpty else { return .resume(expected, nil) }
        let state = try storedState(previous)
        guard state.date.adding(days: 1) == expected else { return .fromScratch }
        return .resume(expected, state)
    }

    /// The rows of `steps`. Only the last carries the recursion's state (`state_json`, the JSON of
    /// `TrainingLoad.State` with sorted keys): a later update or extension resumes from the series' last day, and a
    /// change further back is recomputed from the loads (see `update`); the other rows hold an empty string.
    static func records(_ steps: [TrainingLoad.Step], user: UserID, computedAt: EpochMillis) throws
        -> [TrainingLoadRecord]
    {
        try steps.indices.map { i in
            let step = steps[i]
            let day = step.day
            return TrainingLoadRecord(
                userID: user, date: day.date, dailyLoad: day.dailyLoad, ctl: day.ctl, atl: day.atl, tsb: day.tsb,
                ramp7d: day.ramp7d, acwrRolling: day.acwrRolling, acwrUncoupled: day.acwrUncoupled,
                acwrEwma: day.acwrEwma,
                convention: step.state.convention.rawValue,
                stateJSON: try i == steps.count - 1 ? Self.stateJSON(step.state) : "",
                computedAt: computedAt)
        }
    }

    /// The state as stored: the package's JSON writer, compact with sorted keys (`SortedJSON.encoderText`: the bytes
    /// `JSONEncoder` with `.sortedKeys` wrote). A state with a non-finite number throws (`SortedJSONEncoder.NonFinite`)
    /// instead of being stored empty.
    static func stateJSON(_ state: TrainingLoad.State) throws -> String {
        try SortedJSONEncoder.encode(state, numbers: .asEncoded).encoderText
    }

    /// A stored `state_json` that does not read back as a `TrainingLoad.State`.
    public struct UnreadableTrainingLoadState: Error, Equatable, CustomStringConvertible {
        public var userID: UserID
        public var date: LocalDate
        public var reason: String
        public var description: String {
            "the stored training-load state of \(userID.rawValue) on \(date.iso) does not read back: \(reason)"
        }
    }

    /// The recursion's state stored with `r` (the series' last day); `UnreadableTrainingLoadState` when it does not
    /// decode: the pipeline wrote it, so a damaged row is an error, never "no state".
    static func storedState(_ r: TrainingLoadRecord) throws(UnreadableTrainingLoadState) -> TrainingLoad.State {
        do {
            return try JSONDecoder().decode(TrainingLoad.State.self, from: Data(r.stateJSON.utf8))
        } catch {
            throw UnreadableTrainingLoadState(userID: r.userID, date: r.date, reason: "\(error)")
        }
    }

    static func day(_ r: TrainingLoadRecord) -> DayLoad {
        DayLoad(
            date: r.date, dailyLoad: r.dailyLoad, ctl: r.ctl, atl: r.atl, tsb: r.tsb, ramp7d: r.ramp7d,
            acwrRolling: r.acwrRolling, acwrUncoupled: r.acwrUncoupled, acwrEwma: r.acwrEwma)
    }

    /// Rest days after a stored day through `through` (CTL and ATL decaying), from its stored state.
    static func restDays(after r: TrainingLoadRecord, through: LocalDate) throws -> [DayLoad] {
        TrainingLoad.steps(after: try storedState(r), dailyLoads: [:], through: through).map(\.day)
    }

    /// The values of `today` (the stored series continued with rest days when it ends before), or of the last stored
    /// day when that is later; and how many sessions and workouts carry a load. Nil when no series is stored.
    public func latest(_ userID: UserID, today: LocalDate) async throws -> (day: DayLoad, sessionsWithLoad: Int)? {
        guard let last = try await store.latestTrainingLoad(user: userID, before: nil) else { return nil }
        let lastDay = Self.day(last)
        let entries = try await dailyLoads(userID).entries
        if lastDay.date >= today { return (lastDay, entries) }
        return (try Self.restDays(after: last, through: today).last ?? lastDay, entries)
    }

    /// The last day a reader's series runs to when no end is asked for: the user's today, or the last stored day when
    /// that is later (a workout dated ahead of today). What the eager nightly stored through (it appended rest days
    /// for every user every night); nil when no series is stored.
    public func servedEnd(_ userID: UserID, today: LocalDate) async throws -> LocalDate? {
        guard let last = try await store.latestTrainingLoad(user: userID, before: nil) else { return nil }
        return max(last.date, today)
    }

    /// The series' days from `from` (default: its first day) through `to`: the stored days, continued past the last
    /// stored one with rest days from its state (CTL and ATL decaying; see the type's note on lazy extension). Empty
    /// when nothing is stored on or before `to`.
    public func days(_ userID: UserID, from: LocalDate?, to: LocalDate) async throws -> [DayLoad] {
        var days = try await store.trainingLoad(user: userID, from: from, to: to).map(Self.day)
        if days.last.map({ $0.date < to }) ?? true,
            let last = try await store.latestTrainingLoad(user: userID, before: to.adding(days: 1)), last.date < to
        {
            days += try Self.restDays(after: last, through: to).filter { from == nil || $0.date >= from! }
        }
        return days
    }

    /// The series from `from` (default: its first day) through `to` (default: the user's today, or the last stored
    /// day when later: `servedEnd`), continued with rest days past the last stored day (`days`); with the weekly
    /// volume by sport and intensity distribution of the sessions and workout records in that window, and the CP / W′
    /// fit of the recent ones.
    ///
    /// A `to` after the user's today is clamped to the last day that can hold data, as the report's window is
    /// (`ReportService.latestDay`: today, or the current plan's last day when later), so that a `to` of 9999-12-30
    /// costs what today does instead of 2.9 million rest days.
    public func series(_ userID: UserID, from: LocalDate?, to askedTo: LocalDate?) async throws -> Series {
        var to = askedTo
        if let user = try await store.user(userID) {
            let today = Self.today(for: user, at: now().epochMillis)
            if let asked = askedTo {
                if asked > today {
                    to = min(asked, try await ReportService(store: store, clock: clock).latestDay(userID, today: today))
                }
            } else {
                to = try await servedEnd(userID, today: today)
            }
        }
        var days: [DayLoad] = []
        if let end = to {
            days = try await self.days(userID, from: from, to: end)
        } else {
            days = try await store.trainingLoad(user: userID, from: from, to: nil).map(Self.day)
        }
        // Without an asked end the summaries cover every dated record, as before (the days' end is not theirs).
        if askedTo == nil { to = nil }
        let entries = try await weeklyEntries(userID, from: from, to: to)
        return Series(
            userID: userID.rawValue, convention: Self.convention.rawValue, days: days,
            weeklyVolume: WeeklySummary.volumeBySport(entries),
            weeklyIntensity: WeeklySummary.intensityDistribution(entries).map {
                WeekIntensity(weekStart: $0.weekStart, minutes: $0.minutes)
            },
            criticalPower: try await criticalPower(userID, to: to))
    }
}
