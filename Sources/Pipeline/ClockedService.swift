import Foundation
import Store

/// A service over the store that dates what it does by an injected `PipelineClock`: `PlanService`, `StatsService`,
/// `UserDeletion`, `LoadService`, `ReportService`. The two `init(store:now:)` forms, for callers and tests that hold a
/// closure of the run time rather than a clock, are written here once.
public protocol ClockedService: Sendable {
    init(store: any PipelineStore, clock: PipelineClock)
    var clock: PipelineClock { get }
}

extension ClockedService {
    /// Run time read from `now` (epoch milliseconds), wall time the system's.
    public init(store: any PipelineStore, now: @escaping @Sendable () -> Int64) {
        self.init(store: store, clock: PipelineClock(now: now))
    }

    /// Run time read from `now`, wall time the system's.
    public init(store: any PipelineStore, now: @escaping @Sendable () -> Date) {
        self.init(store: store, clock: PipelineClock(now: { now().epochMillis }))
    }
}
