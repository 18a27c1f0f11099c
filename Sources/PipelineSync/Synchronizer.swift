import Foundation
import OpenAPIRuntime
import PipelineClient

/// What an app uses to stay in step with the pipeline: upload what the device recorded, then bring the user's data
/// from every device into the app's ``SyncStore``.
///
/// ```swift
/// let sync = Synchronizer(
///     client: Client(serverURL: URL(string: "https://api.example.com")!, token: { try await auth.token() }),
///     store: myMirror)
/// try await sync.upload(sessionsRecordedToday)
/// try await sync.pull()
/// ```
///
/// ``pull(pageSize:)`` pages `GET /v1/me/changes` from the store's cursor until the server has nothing more, applying
/// each page's changes before it saves the page's cursor (see ``SyncStore``): after a failure (the network, the app
/// killed, the store throwing) the next `pull` asks again from the last saved cursor, so no change is skipped, and
/// the changes applied again are applied idempotently. A cursor the server refuses (`invalid_cursor`, after a
/// rotation of its secret) restarts the feed from the beginning once.
public struct Synchronizer: Sendable {
    /// The generated client the synchroniser calls (authenticated by its middleware).
    public let client: Client
    /// The app's mirror and cursor.
    public let store: any SyncStore

    /// A synchroniser over `client` and the app's `store`.
    public init(client: Client, store: any SyncStore) {
        self.client = client
        self.store = store
    }

    /// What a ``Synchronizer/pull(pageSize:)`` did.
    public struct PullReport: Sendable, Hashable {
        /// Pages of the feed read.
        public var pages = 0
        /// Changes applied to the store.
        public var applied = 0
        /// The cursor saved last.
        public var cursor: String?
        /// Whether the server refused the saved cursor and the feed was read again from its beginning.
        public var restartedFromBeginning = false
    }

    /// Reads the feed from the saved cursor until `has_more` is false, applying and saving page by page.
    ///
    /// - Parameter pageSize: changes per request (the server caps it at its `PIPELINE_API_MAX_PAGE_SIZE`, 100).
    /// - Throws: ``SyncError`` for an answer other than a page; whatever the store throws. Either way, the pages
    ///   saved before stay saved and the failed page is asked again by the next call.
    @discardableResult
    public func pull(pageSize: Int = 100) async throws -> PullReport {
        var report = PullReport()
        var cursor = try await store.cursor()
        while true {
            let page: Components.Schemas.ChangesPage
            do {
                page = try await changes(since: cursor, size: pageSize)
            } catch let error as SyncError where error.code.rawValue == "invalid_cursor" && cursor != nil {
                guard !report.restartedFromBeginning else { throw error }
                try await store.cursorRejected()
                report.restartedFromBeginning = true
                cursor = nil
                continue
            }
            for item in page.changes {
                guard let change = SyncChange(item) else {
                    throw SyncError(
                        code: .malformedChange, status: 200,
                        message: "a \(item.kind.rawValue) change without the fields of its kind")
                }
                try await store.apply(change)
                report.applied += 1
            }
            try await store.save(cursor: page.nextCursor)
            cursor = page.nextCursor
            report.cursor = cursor
            report.pages += 1
            if !page.hasMore { return report }
        }
    }

    /// One page of `GET /v1/me/changes`.
    public func changes(since cursor: String?, size: Int) async throws -> Components.Schemas.ChangesPage {
        switch try await client.listChanges(query: .init(since: cursor, size: size)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let answer): throw try SyncError(answer)
        case .unauthorized(let answer): throw try SyncError(answer)
        case .notFound(let answer): throw try SyncError(answer)
        case .tooManyRequests(let answer): throw try SyncError(answer)
        case .undocumented(let status, _): throw Self.unexpected(status)
        }
    }

    /// Uploads a batch of sessions the device recorded (`POST /v1/sessions/batch_upload`, at most 20).
    ///
    /// Sessions already stored count as duplicates, a success for the app, so a batch can be sent again after a
    /// failure; a session the server refuses is answered in `failed_sessions` with its reason code.
    public func upload(_ sessions: [Components.Schemas.Session]) async throws -> Components.Schemas.BatchAnswer {
        let body = Components.Schemas.BatchUpload(sessions: sessions.map { .init(value1: $0) })
        switch try await client.batchUpload(body: .json(body)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let answer): throw try SyncError(answer)
        case .unauthorized(let answer): throw try SyncError(answer)
        case .notFound(let answer): throw try SyncError(answer)
        case .contentTooLarge(let answer): throw try SyncError(answer)
        case .tooManyRequests(let answer): throw try SyncError(answer)
        case .serviceUnavailable(let answer):
            throw SyncError(
                try answer.body.json, status: 503, fallback: .unavailable, retryAfter: answer.headers.retryAfter)
        case .undocumented(let status, _): throw Self.unexpected(status)
        }
    }

    /// Uploads one workout file (FIT, TCX, GPX, an Apple Health export; `POST /v1/me/files`); `name` is a hint of its
    /// format by its extension, and its label.
    public func uploadFile(_ bytes: Data, name: String? = nil) async throws -> Components.Schemas.FileUploadAnswer {
        switch try await client.uploadFile(query: .init(name: name), body: .binary(HTTPBody(bytes))) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let answer): throw try SyncError(answer)
        case .unauthorized(let answer): throw try SyncError(answer)
        case .notFound(let answer): throw try SyncError(answer)
        case .contentTooLarge(let answer): throw try SyncError(answer)
        case .tooManyRequests(let answer): throw try SyncError(answer)
        case .undocumented(let status, _): throw Self.unexpected(status)
        }
    }

    static func unexpected(_ status: Int) -> SyncError {
        SyncError(code: .unexpectedStatus, status: status, message: "HTTP \(status), not declared by the API document")
    }
}
