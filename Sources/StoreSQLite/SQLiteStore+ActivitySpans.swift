import Foundation
import GRDB
import Store

/// The overlap rule's read (`ActivitySpans.swift`): only the columns it needs, never the blobs or the samples.
extension SQLiteStore {
    public func activitySpans(user: UserID) async throws -> (sessions: [ActivitySpan], workouts: [ActivitySpan]) {
        try await writer.read { db in
            let sessions = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT session_id, machine, started_at_ms, ended_at_ms, duration_s, total_energy_kcal, total_distance_m,
                            blob_status IN ('complete', 'truncated') AS has_recording
                        FROM sessions WHERE user_id = ? ORDER BY started_at_ms DESC, session_id
                        """), arguments: [user.rawValue]
            ).map {
                ActivitySpan(
                    kind: .session, id: $0["session_id"], source: "ftms", activityType: $0["machine"],
                    startMillis: $0["started_at_ms"], endMillis: $0["ended_at_ms"], durationS: $0["duration_s"],
                    distanceM: $0["total_distance_m"], energyKcal: $0["total_energy_kcal"], timeZone: nil,
                    hasRecording: $0["has_recording"])
            }
            let workouts = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT workout_id, source, activity_type, start_ms, end_ms, duration_s, distance_m, energy_kcal, time_zone,
                            samples_json IS NOT NULL AS has_recording
                        FROM workouts WHERE user_id = ? AND deleted = 0 ORDER BY start_ms, workout_id
                        """), arguments: [user.rawValue]
            ).map {
                ActivitySpan(
                    kind: .workout, id: $0["workout_id"], source: $0["source"], activityType: $0["activity_type"],
                    startMillis: $0["start_ms"], endMillis: $0["end_ms"], durationS: $0["duration_s"],
                    distanceM: $0["distance_m"], energyKcal: $0["energy_kcal"], timeZone: $0["time_zone"],
                    hasRecording: $0["has_recording"])
            }
            return (sessions, workouts)
        }
    }
}
