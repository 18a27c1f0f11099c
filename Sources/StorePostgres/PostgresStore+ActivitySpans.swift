import Foundation
import PostgresNIO
import Store

/// The overlap rule's read (`ActivitySpans.swift`), as `SQLiteStore` does it: only the columns it needs.
extension PostgresStore {
    public func activitySpans(user: UserID) async throws -> (sessions: [ActivitySpan], workouts: [ActivitySpan]) {
        try await snapshot("activitySpans") { db in
            let sessions = try await db.rows(
                """
                SELECT session_id, machine, started_at_ms, ended_at_ms, duration_s, total_energy_kcal, total_distance_m,
                    blob_status IN ('complete', 'truncated') AS has_recording
                FROM sessions WHERE user_id = \(user.rawValue) ORDER BY started_at_ms DESC, session_id
                """
            ).map {
                ActivitySpan(
                    kind: .session, id: try $0.get("session_id"), source: "ftms",
                    activityType: try $0.get("machine", as: String?.self),
                    startMillis: try $0.get("started_at_ms"), endMillis: try $0.get("ended_at_ms"),
                    durationS: try $0.get("duration_s"), distanceM: try $0.get("total_distance_m", as: Double?.self),
                    energyKcal: try $0.get("total_energy_kcal", as: Double?.self), timeZone: nil,
                    hasRecording: try $0.get("has_recording"))
            }
            let workouts = try await db.rows(
                """
                SELECT workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal, time_zone,
                    samples_json IS NOT NULL AS has_recording
                FROM workouts WHERE user_id = \(user.rawValue) AND NOT deleted ORDER BY start_ms, workout_id
                """
            ).map {
                ActivitySpan(
                    kind: .workout, id: try $0.get("workout_id"), source: try $0.get("source"),
                    activityType: try $0.get("activity_type", as: String?.self),
                    startMillis: try $0.get("start_ms"), endMillis: try $0.get("end_ms"),
                    durationS: try $0.get("duration_s"), distanceM: try $0.get("distance_m", as: Double?.self),
                    energyKcal: try $0.get("energy_kcal", as: Double?.self),
                    timeZone: try $0.get("time_zone", as: String?.self),
                    hasRecording: try $0.get("has_recording"))
            }
            return (sessions, workouts)
        }
    }
}
