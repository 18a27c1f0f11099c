import Foundation
import Pipeline
import Store

extension APIServices {
    /// Recomputes one user now through `UserPipeline.run`, as a shared-run worker does: measures the user's sessions and
    /// workout records that have no metrics yet (not a from-scratch reanalysis, which is `pipeline recompute --user`'s:
    /// the request stays cheap), then recomputes and stores the stats and updates the training-load series (always:
    /// `force`). It does not refresh the plan (the nightly generates plans, the weekly plan job adapts them) and so
    /// leaves the user's pending-recompute mark for the nightly. Honours cancellation between sessions and records
    /// (shutdown, deletion).
    ///
    /// Across processes it holds the user's lock (`UserLock`, waiting for a nightly worker or
    /// `pipeline recompute` that has it); within this process the task manager already joins callers. Throws
    /// `APIError.notFound` when the user no longer exists (deleted meanwhile).
    func recompute(_ user: User) async throws -> UserPipeline.Outcome {
        let pipeline = UserPipeline(store: store, clock: clock, logger: logger)
        let outcome = try await UserLock.waiting(store, user.id) {
            try await pipeline.run(user.id, force: true, marked: false, refreshPlan: false)
        }
        guard let outcome else { throw APIError.notFound }
        return outcome
    }
}
