import Foundation
import PostgresNIO
import Store

extension PostgresStore {
    public func upsertUser(_ user: User) async throws {
        try await write("upsertUser") { db in try await Self.upsertUser(user, db) }
    }

    static func upsertUser(_ user: User, _ db: Connection) async throws {
        // Sorted keys: the same goal is the same text (and digest) in every run. A plain JSONEncoder orders keys
        // differently from one encoding to the next.
        let goal = try user.profile.goalRace.map { try json($0) }
        let p = user.profile
        try await db.execute(
            """
            \(unescaped: StoreSQL.insertUser)
            VALUES (\(user.id.rawValue), \(user.timeZone), \(p.sex?.rawValue), \(p.birthYear), \(p.maxHR), \(p.restingHR),
                    \(p.ftpW), \(p.thresholdPaceSPerKm), \(goal), \(p.availableDays.map(\.rawValue).joined(separator: ",")),
                    \(p.maxRunDays), \(p.longRunDay?.rawValue), \(p.experience?.rawValue), \(user.boundDeviceID), \(user.createdAt),
                    \(p.lthr))
            \(unescaped: StoreSQL.userConflictUpdate)
            """)
    }

    public func user(_ id: UserID) async throws -> User? {
        try await read("user") { db in
            try await db.row("SELECT * FROM users WHERE user_id = \(id.rawValue)").map(Self.user(from:))
        }
    }

    static func user(from row: PostgresRandomAccessRow) throws -> User {
        let days = (try row.get("available_days", as: String.self)).split(separator: ",").compactMap {
            Weekday(rawValue: String($0))
        }
        let goal = try row.get("goal_race_json", as: String?.self).map {
            try JSONDecoder().decode(GoalRace.self, from: Data($0.utf8))
        }
        let profile = TrainingProfile(
            sex: try row.get("sex", as: String?.self).flatMap(Sex.init(rawValue:)),
            birthYear: try row.get("birth_year"),
            maxHR: try row.get("max_hr"), restingHR: try row.get("resting_hr"), ftpW: try row.get("ftp_w"),
            thresholdPaceSPerKm: try row.get("threshold_pace_s_per_km"), goalRace: goal, availableDays: days,
            maxRunDays: try row.get("max_run_days"),
            longRunDay: try row.get("long_run_day", as: String?.self).flatMap(Weekday.init(rawValue:)),
            experience: try row.get("experience", as: String?.self).flatMap(Experience.init(rawValue:)),
            lthr: try row.get("lthr"))
        return User(
            id: UserID(try row.get("user_id", as: String.self)), timeZone: try row.get("time_zone"), profile: profile,
            boundDeviceID: try row.get("bound_device_id"), createdAt: try row.get("created_at_ms"))
    }

    public func userIDs() async throws -> [UserID] {
        try await read("userIDs") { db in
            try await db.rows("SELECT user_id FROM users ORDER BY user_id").map {
                UserID(try $0.get("user_id", as: String.self))
            }
        }
    }
}
