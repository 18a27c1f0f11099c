import Foundation
import Store

/// Where the app's own figures (`PATCH /users/me/stats`; the app wins for display) differ from the pipeline's.
/// A drift means the app and the server counted different workouts: a session that never uploaded, a duplicate
/// on the phone, a time-zone disagreement about streak days.
public struct StatsDrift: Sendable, Codable, Equatable {
    public struct Field: Sendable, Codable, Equatable {
        public var name: String
        public var app: String
        public var pipeline: String
    }
    public var userID: String
    public var appReportedAt: String?
    public var fields: [Field]
    enum CodingKeys: String, CodingKey { case userID = "user_id", appReportedAt = "app_reported_at", fields }

    /// Tolerances: counts, streaks and dates must match exactly; energy within max(10 kcal, 1 %), distance within
    /// max(100 m, 1 %), duration within max(60 s, 1 %) (the app rounds its own sums).
    public static func compare(user: UserID, app: UserStats, pipeline: UserStats, appReportedAt: Int64?) -> StatsDrift?
    {
        var fields: [Field] = []
        /// A field that must match exactly, written by `text`.
        func exact<Value: Equatable>(
            _ name: String, _ value: (UserStats) -> Value, text: (Value) -> String = { "\($0)" }
        ) {
            let (a, p) = (value(app), value(pipeline))
            if a != p { fields.append(Field(name: name, app: text(a), pipeline: text(p))) }
        }
        /// A sum that must match within max(`absolute`, 1 %).
        func close(_ name: String, _ value: (UserStats) -> Double, absolute: Double) {
            let (a, p) = (value(app), value(pipeline))
            if !(abs(a - p) <= max(absolute, 0.01 * max(abs(a), abs(p)))) {
                fields.append(Field(name: name, app: "\(a)", pipeline: "\(p)"))
            }
        }
        exact("workout_total_count", \.workoutTotalCount)
        close("workout_total_energy", \.workoutTotalEnergy, absolute: 10)
        close("workout_total_distance", \.workoutTotalDistance, absolute: 100)
        close("workout_total_duration", \.workoutTotalDuration, absolute: 60)
        exact("workout_streak", \.workoutStreak)
        exact("last_workout_date", \.lastWorkoutDate) { $0?.iso ?? "null" }
        guard !fields.isEmpty else { return nil }
        return StatsDrift(
            userID: user.rawValue, appReportedAt: appReportedAt.map { RFC3339Text.format($0) }, fields: fields)
    }
}

extension StatsService {
    /// Users whose app-reported stats drift from the pipeline's stored figures.
    public func drifts() async throws -> [StatsDrift] {
        var out: [StatsDrift] = []
        for id in try await store.userIDs() {
            guard let record = try await store.userStats(id), let app = record.appReported else { continue }
            if let drift = StatsDrift.compare(
                user: id, app: app, pipeline: record.stats, appReportedAt: record.appReportedAt)
            {
                out.append(drift)
            }
        }
        return out
    }
}

enum RFC3339Text {
    static func format(_ millis: Int64) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: Date(epochMillis: millis))
    }
}
