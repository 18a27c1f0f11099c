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

    /// The series from the user's first session (or `from`) through `to` (default: their latest session date).
    public func series(_ userID: UserID, from: LocalDate?, to: LocalDate?) async throws -> Series {
        let metrics = try await store.sessionMetrics(user: userID)
        let loads = TrainingLoad.dailyLoads(metrics.compactMap { m in LocalDate(iso: m.localDate).map { (date: $0, load: m.tss) } })
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
