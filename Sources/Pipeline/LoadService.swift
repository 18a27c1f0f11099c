import Foundation
import Store
import WorkoutMetrics

/// A user's daily training load series (CTL/ATL/TSB, ramp, ACWR) from their sessions' loads
/// (TSS where power exists, otherwise HRSS), on local calendar dates, every day a step.
public struct LoadService: Sendable {
    public var store: any PipelineStore
    public init(store: any PipelineStore) { self.store = store }

    public struct Series: Sendable, Codable {
        public var userID: String
        public var convention: String
        public var days: [DayLoad]
        enum CodingKeys: String, CodingKey { case userID = "user_id", convention, days }
    }

    /// Each analysed session's load on its local date (sessions without a finite load are left out).
    func dailyLoads(_ userID: UserID) async throws -> (loads: [LocalDate: Double], sessions: Int) {
        let sessions = try await store.sessionMetrics(user: userID).compactMap { m -> (date: LocalDate, load: Double?)? in
            guard let load = m.tss, load.isFinite, let date = LocalDate(iso: m.localDate) else { return nil }
            return (date, load)
        }
        return (TrainingLoad.dailyLoads(sessions), sessions.count)
    }

    /// Today's values (or those of the latest session date, if that is later), and how many sessions carried a load;
    /// nil without any load.
    public func latest(_ userID: UserID, today: LocalDate) async throws -> (day: DayLoad, sessionsWithLoad: Int)? {
        let (loads, sessions) = try await dailyLoads(userID)
        guard let first = loads.keys.min(), let last = loads.keys.max() else { return nil }
        guard let day = TrainingLoad.series(dailyLoads: loads, from: first, to: max(today, last)).last else { return nil }
        return (day, sessions)
    }

    /// The series from the user's first session (or `from`) through `to` (default: their latest session date).
    public func series(_ userID: UserID, from: LocalDate?, to: LocalDate?) async throws -> Series {
        let loads = try await dailyLoads(userID).loads
        guard let first = loads.keys.min(), let last = loads.keys.max() else {
            return Series(userID: userID.rawValue, convention: TrainingLoad.Convention.exp.rawValue, days: [])
        }
        // Always start the recursion at the first load so CTL/ATL carry the whole history, then cut to the window.
        let end = to ?? last
        let all = end >= first ? TrainingLoad.series(dailyLoads: loads, from: first, to: end) : []
        let window = all.filter { from == nil || $0.date >= from! }
        return Series(userID: userID.rawValue, convention: TrainingLoad.Convention.exp.rawValue, days: window)
    }
}
