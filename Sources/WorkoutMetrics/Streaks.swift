import Foundation

/// One workout as streaks and totals see it.
public struct ActivityDay: Sendable, Equatable {
    /// Start instant, milliseconds since the Unix epoch.
    public var startMillis: Int64
    /// The zone the workout was recorded in, when known; else the user's zone is used.
    public var timeZone: TimeZone?
    public var deleted: Bool
    public init(startMillis: Int64, timeZone: TimeZone? = nil, deleted: Bool = false) {
        self.startMillis = startMillis; self.timeZone = timeZone; self.deleted = deleted
    }
}

/// Streaks of consecutive local calendar days with at least one workout (`docs/metrics.md`, "Streaks").
///
/// The rules, and why:
/// - A workout counts on the local date of its **start**, in the zone it was recorded in (else the user's zone):
///   a ride from 23:40 to 00:30 belongs to the day it started, as the app shows it; it never counts twice.
/// - Days are calendar days, so a daylight-saving change (a 23- or 25-hour day) neither breaks nor extends a
///   streak: dates are compared, never 24-hour spans.
/// - A user who changes zone keeps each workout on the date it had where it was recorded. Flying east over the
///   date line can skip a date (the streak breaks) or repeat one (counted once).
/// - "Today" is the date of `now` in the user's zone, or the latest workout date if that is later. A streak is
///   still current on a day with no workout yet: it runs to today or to yesterday, otherwise it is 0.
/// - Deleted workouts and workouts that start after `now` do not count.
public struct StreakSummary: Sendable, Equatable, Codable {
    public var currentStreakDays: Int
    public var longestStreakDays: Int
    public var lastWorkoutDate: LocalDate?
    public init(currentStreakDays: Int, longestStreakDays: Int, lastWorkoutDate: LocalDate?) {
        self.currentStreakDays = currentStreakDays; self.longestStreakDays = longestStreakDays
        self.lastWorkoutDate = lastWorkoutDate
    }
    enum CodingKeys: String, CodingKey {
        case currentStreakDays = "current_streak_days", longestStreakDays = "longest_streak_days"
        case lastWorkoutDate = "last_workout_date"
    }
}

public enum Streaks {
    /// The set of local dates with at least one counted workout.
    public static func activeDates(_ days: [ActivityDay], userZone: TimeZone, nowMillis: Int64) -> Set<LocalDate> {
        var dates = Set<LocalDate>()
        for day in days where !day.deleted && day.startMillis <= nowMillis {
            let instant = Date(timeIntervalSince1970: Double(day.startMillis) / 1000)
            dates.insert(LocalDate.from(instant: instant, in: day.timeZone ?? userZone))
        }
        return dates
    }

    public static func summary(_ days: [ActivityDay], userZone: TimeZone, nowMillis: Int64) -> StreakSummary {
        let dates = activeDates(days, userZone: userZone, nowMillis: nowMillis)
        guard let last = dates.max() else {
            return StreakSummary(currentStreakDays: 0, longestStreakDays: 0, lastWorkoutDate: nil)
        }
        let sorted = dates.map(\.daysSinceEpoch).sorted()
        var longest = 1, run = 1
        for i in sorted.indices.dropFirst() {
            run = sorted[i] == sorted[i - 1] + 1 ? run + 1 : 1
            longest = max(longest, run)
        }
        let nowDate = LocalDate.from(instant: Date(timeIntervalSince1970: Double(nowMillis) / 1000), in: userZone)
        let today = max(nowDate, last)
        var current = 0
        var cursor = dates.contains(today) ? today : today.adding(days: -1)
        while dates.contains(cursor) {
            current += 1
            cursor = cursor.adding(days: -1)
        }
        return StreakSummary(currentStreakDays: current, longestStreakDays: longest, lastWorkoutDate: last)
    }
}
