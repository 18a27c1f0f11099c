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
        func close(_ a: Double, _ b: Double, absolute: Double) -> Bool {
            abs(a - b) <= max(absolute, 0.01 * max(abs(a), abs(b)))
        }
        if app.workoutTotalCount != pipeline.workoutTotalCount {
            fields.append(
                Field(
                    name: "workout_total_count", app: "\(app.workoutTotalCount)",
                    pipeline: "\(pipeline.workoutTotalCount)"))
        }
        if !close(app.workoutTotalEnergy, pipeline.workoutTotalEnergy, absolute: 10) {
            fields.append(
                Field(
                    name: "workout_total_energy", app: "\(app.workoutTotalEnergy)",
                    pipeline: "\(pipeline.workoutTotalEnergy)"))
        }
        if !close(app.workoutTotalDistance, pipeline.workoutTotalDistance, absolute: 100) {
            fields.append(
                Field(
                    name: "workout_total_distance", app: "\(app.workoutTotalDistance)",
                    pipeline: "\(pipeline.workoutTotalDistance)"))
        }
        if !close(app.workoutTotalDuration, pipeline.workoutTotalDuration, absolute: 60) {
            fields.append(
                Field(
                    name: "workout_total_duration", app: "\(app.workoutTotalDuration)",
                    pipeline: "\(pipeline.workoutTotalDuration)"))
        }
        if app.workoutStreak != pipeline.workoutStreak {
            fields.append(
                Field(name: "workout_streak", app: "\(app.workoutStreak)", pipeline: "\(pipeline.workoutStreak)"))
        }
        if app.lastWorkoutDate != pipeline.lastWorkoutDate {
            fields.append(
                Field(
                    name: "last_workout_date", app: app.lastWorkoutDate?.iso ?? "null",
                    pipeline: pipeline.lastWorkoutDate?.iso ?? "null"))
        }
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
