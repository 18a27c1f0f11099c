import Foundation
import Ingest
import Pipeline
import Store
import WorkoutMetrics

/// The body of `GET /v1/me/stats`: the figures to display at the top level, in the apps' names
/// (`workout_total_count`, … as in `updated_stats`), then where they come from.
///
/// - `display_source`: `app` when the app's own figures (`PATCH /v1/me/stats`) are at least as
///   recent as the pipeline's (the app wins for display), else `pipeline`.
/// - `pipeline_stats` / `computed_at`: the pipeline's figures.
/// - `app_reported` / `app_reported_at`: the app's, when it sent any.
/// - `training_load`: CTL/ATL/TSB of today in the user's time zone (exp convention, TSS per
///   local date), absent when no session has a TSS.
struct StatsView: Encodable {
    var display: UserStats
    var displaySource: String
    var pipelineStats: UserStats
    var computedAt: String
    var appReported: UserStats?
    var appReportedAt: String?
    var trainingLoad: TrainingLoadSummary?

    enum Keys: String, CodingKey {
        case displaySource = "display_source", pipelineStats = "pipeline_stats", computedAt = "computed_at"
        case appReported = "app_reported", appReportedAt = "app_reported_at", trainingLoad = "training_load"
    }

    func encode(to encoder: any Encoder) throws {
        try display.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(displaySource, forKey: .displaySource)
        try c.encode(pipelineStats, forKey: .pipelineStats)
        try c.encode(computedAt, forKey: .computedAt)
        try c.encodeIfPresent(appReported, forKey: .appReported)
        try c.encodeIfPresent(appReportedAt, forKey: .appReportedAt)
        try c.encodeIfPresent(trainingLoad, forKey: .trainingLoad)
    }
}

/// Today's point of the performance-management series.
struct TrainingLoadSummary: Encodable {
    var date: String
    var ctl: Double
    var atl: Double
    var tsb: Double
    var dailyLoad: Double
    var ramp7d: Double?
    var acwrEwma: Double?
    var convention: String
    var sessionsWithLoad: Int

    enum CodingKeys: String, CodingKey {
        case date, ctl, atl, tsb, dailyLoad = "daily_load", ramp7d = "ramp_7d", acwrEwma = "acwr_ewma", convention
        case sessionsWithLoad = "sessions_with_load"
    }
}

extension APIServices {
    /// Builds the stats body from the store: stored figures when there are some, else computed
    /// now (without storing: a GET writes nothing).
    func statsBody(for user: User) async throws -> [UInt8] {
        try APIJSON.encode(try await statsView(for: user))
    }

    func statsView(for user: User) async throws -> StatsView {
        let record = try await store.userStats(user.id)
        let pipeline: UserStats
        let computedAt: EpochMillis
        if let record, record.computedAt > 0 {
            pipeline = record.stats
            computedAt = record.computedAt
        } else {
            pipeline = try await StatsService(store: store, clock: clock).compute(user.id)
            computedAt = now()
        }
        var view = StatsView(
            display: pipeline, displaySource: "pipeline", pipelineStats: pipeline,
            computedAt: RFC3339.format(millis: computedAt), appReported: nil, appReportedAt: nil,
            trainingLoad: try await trainingLoad(for: user))
        if let app = record?.appReported, let at = record?.appReportedAt {
            view.appReported = app
            view.appReportedAt = RFC3339.format(millis: at)
            if at >= computedAt {
                view.display = app
                view.displaySource = "app"
            }
        }
        return view
    }

    /// CTL/ATL/TSB of today in the user's zone from the stored series (`LoadService.latest`).
    func trainingLoad(for user: User) async throws -> TrainingLoadSummary? {
        let zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
        let today = LocalDate.from(instant: Date(epochMillis: now()), in: zone)
        guard let (day, sessions) = try await LoadService(store: store).latest(user.id, today: today) else {
            return nil
        }
        return TrainingLoadSummary(
            date: day.date.iso, ctl: day.ctl, atl: day.atl, tsb: day.tsb, dailyLoad: day.dailyLoad, ramp7d: day.ramp7d,
            acwrEwma: day.acwrEwma, convention: TrainingLoad.Convention.exp.rawValue, sessionsWithLoad: sessions)
    }
}

/// The body of `PATCH /v1/me/stats`: the app's figures, in its `updated_stats` names.
/// `longest_streak` is optional (the apps do not keep it).
struct AppStatsPatch: Decodable {
    var workoutTotalCount: Int
    var workoutTotalEnergy: Double
    var workoutTotalDistance: Double
    var workoutTotalDuration: Double
    var workoutStreak: Int
    var longestStreak: Int?
    var lastWorkoutDate: String?

    enum CodingKeys: String, CodingKey {
        case workoutTotalCount = "workout_total_count", workoutTotalEnergy = "workout_total_energy"
        case workoutTotalDistance = "workout_total_distance", workoutTotalDuration = "workout_total_duration"
        case workoutStreak = "workout_streak", longestStreak = "longest_streak", lastWorkoutDate = "last_workout_date"
    }

    /// The documented maxima (docs/openapi.yaml, `AppStats`): a century of training at most — no person's lifetime
    /// totals go past them, and no stored figure is one that later sums or charts cannot hold.
    static let maxCount = Int(Int32.max)
    static let maxStreakDays = 36_525
    static let maxEnergyKcal = 100_000_000.0
    static let maxDistanceM = 10_000_000_000.0
    static let maxDurationS = 3_155_760_000.0
    static let earliestDate = LocalDate(iso: "2000-01-01")!

    /// The figures to record, or a 400 saying which is wrong. `now` bounds `last_workout_date` (at most a day ahead of
    /// UTC's date, for the zones ahead of it).
    func validated(now: EpochMillis) throws(APIError) -> UserStats {
        guard workoutTotalCount >= 0, workoutStreak >= 0, (longestStreak ?? 0) >= 0 else {
            throw .badRequest("Counts and streaks must not be negative")
        }
        guard workoutTotalCount <= Self.maxCount else {
            throw .badRequest("workout_total_count goes up to \(Self.maxCount)")
        }
        guard workoutStreak <= Self.maxStreakDays, (longestStreak ?? 0) <= Self.maxStreakDays else {
            throw .badRequest("Streaks go up to \(Self.maxStreakDays) days")
        }
        for (name, value, largest) in [
            ("workout_total_energy", workoutTotalEnergy, Self.maxEnergyKcal),
            ("workout_total_distance", workoutTotalDistance, Self.maxDistanceM),
            ("workout_total_duration", workoutTotalDuration, Self.maxDurationS),
        ] {
            guard value.isFinite, value >= 0, value <= largest else {
                throw .badRequest("\(name) must be a number from 0 to \(Int(largest))")
            }
        }
        var lastDate: LocalDate?
        if let text = lastWorkoutDate {
            guard let date = LocalDate(iso: text) else {
                throw .badRequest("last_workout_date must be a date YYYY-MM-DD")
            }
            let latest = LocalDate.from(instant: Date(epochMillis: now), in: TimeZone(identifier: "UTC")!).adding(
                days: 1)
            guard date >= Self.earliestDate, date <= latest else {
                throw .badRequest("last_workout_date must be from 2000-01-01 to tomorrow")
            }
            lastDate = date
        }
        return UserStats(
            workoutTotalCount: workoutTotalCount, workoutTotalEnergy: workoutTotalEnergy,
            workoutTotalDistance: workoutTotalDistance, workoutTotalDuration: workoutTotalDuration,
            workoutStreak: workoutStreak, longestStreak: max(longestStreak ?? workoutStreak, workoutStreak),
            lastWorkoutDate: lastDate)
    }
}
