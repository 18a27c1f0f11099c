import Foundation
import GRDB
import Store

extension SQLiteStore {
    public func upsertUser(_ user: User) async throws {
        try await writer.write { db in try Self.upsertUser(user, db) }
    }

    /// `StoreSQL`'s upsert of a user with SQLite's parameters.
    static let upsertUserSQL =
        StoreSQL.insertUser + "\nVALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)\n"
        + StoreSQL.userConflictUpdate

    static func upsertUser(_ user: User, _ db: Database) throws {
        let goal = try user.profile.goalRace.map { try Self.json($0) }
        try db.cachedStatement(
            sql: Self.upsertUserSQL
        ).execute(
            arguments: [
                user.id.rawValue, user.timeZone, user.profile.sex?.rawValue, user.profile.birthYear, user.profile.maxHR,
                user.profile.restingHR, user.profile.ftpW, user.profile.thresholdPaceSPerKm, goal,
                user.profile.availableDays.map(\.rawValue).joined(separator: ","), user.profile.maxRunDays,
                user.profile.longRunDay?.rawValue, user.profile.experience?.rawValue, user.boundDeviceID,
                user.createdAt,
                user.profile.lthr,
            ])
    }

    public func user(_ id: UserID) async throws -> User? {
        try await writer.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM users WHERE user_id = ?")
            return try Row.fetchOne(statement, arguments: [id.rawValue]).map(Self.user(from:))
        }
    }

    static func user(from row: Row) throws -> User {
        let days = (row["available_days"] as String? ?? "").split(separator: ",").compactMap {
            Weekday(rawValue: String($0))
        }
        let goal = try (row["goal_race_json"] as String?).map {
            try JSONDecoder().decode(GoalRace.self, from: Data($0.utf8))
        }
        let profile = TrainingProfile(
            sex: (row["sex"] as String?).flatMap(Sex.init(rawValue:)), birthYear: row["birth_year"],
            maxHR: row["max_hr"],
            restingHR: row["resting_hr"], ftpW: row["ftp_w"], thresholdPaceSPerKm: row["threshold_pace_s_per_km"],
            goalRace: goal, availableDays: days, maxRunDays: row["max_run_days"],
            longRunDay: (row["long_run_day"] as String?).flatMap(Weekday.init(rawValue:)),
            experience: (row["experience"] as String?).flatMap(Experience.init(rawValue:)), lthr: row["lthr"])
        return User(
            id: UserID(row["user_id"] as String), timeZone: row["time_zone"], profile: profile,
            boundDeviceID: row["bound_device_id"], createdAt: row["created_at_ms"])
    }

    public func userIDs() async throws -> [UserID] {
        try await writer.read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT user_id FROM users ORDER BY user_id")).map {
                UserID($0)
            }
        }
    }
}
