import Foundation
import Ingest
import Store

/// GDPR hard deletion for operators (the API's `DELETE /v1/me` does the same for the user themself): every row
/// of the user in one transaction, and an audit row that keeps only the keyed hash of the user id (`IdentifierHasher`).
public struct UserDeletion: ClockedService {
    public var store: any PipelineStore
    /// The run time it dates what it writes by (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }
    public init(store: any PipelineStore, clock: PipelineClock = .system) {
        self.store = store; self.clock = clock
    }

    /// The id as the deletion audit keeps it: its keyed hash (`IdentifierHasher`, the operator's key or the store's).
    public static func userHash(_ id: UserID, store: any PipelineStore) async throws -> String {
        try await IdentifierHasher.resolve(store: store).hash(id)
    }

    /// Deletes the user; throws `StoreError(.notFound)` for an unknown user (the audit then says failed).
    /// `requestedAt`: when the deletion was asked for, if earlier than now (the API's `DELETE /v1/me` first stops the
    /// user's running recomputation).
    public func delete(_ id: UserID, requestedAt: Int64? = nil) async throws -> DeletionAudit {
        try await store.deleteUser(
            id, userHash: Self.userHash(id, store: store), requestedAt: requestedAt ?? now(), completedAt: now())
    }

    /// Deletes every row that names `id`, whether or not the user row still exists (an operator's purge of what a
    /// deletion left behind, or of data stored under an id that never had an account).
    public func purge(_ id: UserID) async throws -> DeletionAudit {
        try await store.purgeUser(id, userHash: Self.userHash(id, store: store), requestedAt: now(), completedAt: now())
    }
}
