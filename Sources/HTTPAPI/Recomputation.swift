import Foundation
import Pipeline
import Store

/// What one recomputation of a user did.
struct RecomputeResult: Sendable {
    var sessionsAnalysed: Int
    var stats: UserStats
}

extension APIServices {
    /// Recomputes one user now: analyses the user's sessions that have no metrics yet (as the
    /// nightly job does for everyone), then recomputes and stores the stats and the training load. Honours
    /// cancellation between sessions (shutdown, deletion).
    ///
    /// Across processes it holds the user's lock (`WorkCoordination.withUserLock`, waiting for a nightly worker or
    /// `pipeline recompute` that has it); within this process the task manager already joins callers.
    func recompute(_ user: User) async throws -> RecomputeResult {
        guard let locking = store as? any WorkCoordination else { return try await recomputeUnlocked(user) }
        guard let result = try await locking.withUserLock(user.id, wait: true, { try await self.recomputeUnlocked(user) }) else {
            throw CancellationError() // waiting never skips; nil cannot come back
        }
        return result
    }

    func recomputeUnlocked(_ user: User) async throws -> RecomputeResult {
        let analyser = SessionAnalyzer()
        let analysed = Set(try await store.sessionMetrics(user: user.id).map(\.sessionID))
        let total = try await store.sessionCount(user: user.id)
        var done = 0
        var offset = 0
        while offset < total {
            let page = try await store.sessionSummaries(user: user.id, offset: offset, limit: 500)
            if page.isEmpty { break }
            offset += page.count
            for summary in page where !analysed.contains(summary.sessionID) {
                try Task.checkCancellation()
                guard let session = try await store.session(user: user.id, id: summary.sessionID) else { continue }
                try await store.putSessionMetrics(analyser.analyze(session, user: user, now: now()))
                done += 1
            }
        }
        try Task.checkCancellation()
        let stats = try await StatsService(store: store, now: now).recompute(user.id)
        try await LoadService(store: store).update(user.id, today: LoadService.today(for: user, at: now()), computedAt: now())
        return RecomputeResult(sessionsAnalysed: done, stats: stats)
    }
}
