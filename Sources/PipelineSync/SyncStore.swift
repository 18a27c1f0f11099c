import PipelineClient

/// The app's side of the sync: where the mirror of the user's data and the feed's cursor are kept (Core Data,
/// SQLite, files: the app decides).
///
/// ``Synchronizer`` calls it in this order for each page of `GET /v1/me/changes`: ``apply(_:)`` for every change of
/// the page, oldest first, then ``save(cursor:)`` with the page's `next_cursor`. A failure anywhere in between leaves
/// the saved cursor where it was, so the next sync asks for the same page again and applies its changes again:
/// ``apply(_:)`` must therefore be idempotent (an upsert by id, a removal that does nothing when the item is gone),
/// and then no change is lost and none counts twice.
public protocol SyncStore: Sendable {
    /// The cursor of the last ``save(cursor:)``; nil before the first sync (the feed then starts from the beginning).
    func cursor() async throws -> String?

    /// Makes the mirror hold `change` as the server holds the item now: insert or replace it by its id, or remove it
    /// for a tombstone. Idempotent: applying the same change twice leaves the mirror as applying it once.
    func apply(_ change: SyncChange) async throws

    /// Persists the cursor; called only after every change of the page it ends was applied.
    func save(cursor: String) async throws

    /// The server refused the saved cursor (`invalid_cursor`: the server's secret was rotated, or the cursor is not
    /// this user's). The sync starts again from the beginning of the feed right after this call; a store may clear
    /// its mirror here, since every item that exists comes again. Nothing by default.
    func cursorRejected() async throws
}

extension SyncStore {
    public func cursorRejected() async throws {}
}
