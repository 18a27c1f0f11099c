import Foundation
import Store

enum Fixtures {
    static let alice = UserID("alice")
    static func user(_ id: UserID = alice, zone: String = "Europe/Berlin") -> User {
        User(
            id: id, timeZone: zone,
            profile: TrainingProfile(
                sex: .female, birthYear: 1990, maxHR: 188, restingHR: 52, ftpW: 230,
                thresholdPaceSPerKm: 270, goalRace: GoalRace(date: LocalDate(iso: "2027-04-11")!, goalTimeS: 12600),
                availableDays: [.mon, .wed, .fri, .sun], maxRunDays: 4, longRunDay: .sun,
                experience: .intermediate, lthr: 172),
            boundDeviceID: "phone-1", createdAt: 1_700_000_000_000)
    }

    static func session(
        _ id: String = "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a10", user: UserID = alice, start: Int64 = 1_766_570_400_000,
        duration: Double = 1800, energy: Double = 300, hash: String? = nil, raw: [UInt8]? = [1, 2, 3]
    ) -> StoredSession {
        StoredSession(
            userID: user, sessionID: SessionID(uuidString: id)!, startedAtText: "2025-12-24T10:00:00Z",
            endedAtText: "2025-12-24T10:30:00Z", startedAt: start, endedAt: start + Int64(duration * 1000),
            durationS: duration, totalEnergyKcal: energy, totalDistanceM: 15000, detailJSON: "{\"avg_hr\":140}",
            raw: raw, machine: "indoorBike", blobStatus: .complete, blobNote: nil,
            contentHash: hash ?? String(repeating: "a", count: 64), source: "test", receivedAt: start + 3_600_000)
    }

    static func quarantine(
        key: String = "file#0", reason: String = "conflict", payload: String = "{}", user: UserID? = alice
    ) -> QuarantineRecord {
        QuarantineRecord(
            userID: user, source: "test", sourceKey: key, recordID: nil, reasonCode: QuarantineReason(rawValue: reason),
            message: "m",
            payload: Array(payload.utf8), receivedAt: 1, quarantinedAt: 2)
    }

    static func workout(
        _ id: String = "hk-1", version: Int64, deleted: Bool = false, distance: Double = 10000,
        user: UserID = alice
    ) -> WorkoutRecord {
        WorkoutRecord(
            userID: user, workoutID: WorkoutID(id), source: .appleHealth, activityType: "running",
            startAt: 1_766_570_400_000, endAt: 1_766_574_000_000, durationS: 3600, distanceM: distance,
            energyKcal: 700, avgHR: 150, maxHR: 172, elevationGainM: 40, timeZone: "Europe/Berlin",
            samplesJSON: nil, updatedAt: version, deleted: deleted,
            contentHash: "\(version)-\(deleted)-\(distance)")
    }
}
