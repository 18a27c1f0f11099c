import Store

/// A user's cross-process lock, taken the same way by every path that works on one user: the nightly, a shared-run
/// worker, `pipeline recompute`, `pipeline import --recompute` and `POST /v1/me/recompute`. The lock is the store's
/// `userLocks` (`PipelineStore.userLocks`: advisory locks on PostgreSQL, a lock file on SQLite; `NoUserLocks`, the
/// work run directly, for a store that serves a single process).
public enum UserLock {
    /// Runs `body` holding `user`'s lock, waiting as long as another holder has it.
    public static func waiting<T: Sendable>(
        _ store: any PipelineStore, _ user: UserID, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        guard let value = try await store.userLocks.withUserLock(user, wait: true, body) else {
            // Only a call that does not wait returns nil; a waiting one that got nothing was interrupted.
            throw CancellationError()
        }
        return value
    }

    /// Runs `body` holding `user`'s lock when nobody else holds it; nil at once when somebody does.
    public static func ifFree<T: Sendable>(
        _ store: any PipelineStore, _ user: UserID, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        try await store.userLocks.withUserLock(user, wait: false, body)
    }
}
