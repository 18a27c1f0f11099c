import Crypto
import Foundation
import Store

/// GDPR hard deletion for operators (the API's `DELETE /v1/me` does the same for the user themself): every row
/// of the user in one transaction, and an audit row that keeps only SHA-256 of the user id.
public struct UserDeletion: Sendable {
    public var store: any PipelineStore
    public var now: @Sendable () -> Int64
    public init(store: any PipelineStore, now: @escaping @Sendable () -> Int64 = { Date().epochMillis }) {
        self.store = store; self.now = now
    }

    /// Lower-case hex SHA-256 of the user id's UTF-8 bytes.
    public static func userHash(_ id: UserID) -> String {
        lowercaseHex(SHA256.hash(data: Array(id.rawValue.utf8)))
    }

    /// Deletes the user; throws `StoreError(.notFound)` for an unknown user (the audit then says failed).
    public func delete(_ id: UserID) async throws -> DeletionAudit {
        try await store.deleteUser(id, userHash: Self.userHash(id), requestedAt: now(), completedAt: now())
    }
}
