import Foundation
import HTTPTypes
import OpenAPIRuntime
import PipelineClient
import PipelineSync
import PipelineVersion
import Synchronization
import Testing

/// The synchroniser's paging, saving and resuming over a feed held in memory (the live server's feed is in
/// `PhoneDayTests`): which cursor is saved when, what a failure in the middle of a page leaves, and the restart after
/// an `invalid_cursor`.
@Suite struct SynchronizerTests {
    /// Seven changes: two sessions, a workout stored then deleted (the tombstone later in the feed), another
    /// workout, the stats, a plan.
    static let feed: [String] = [
        #"{"kind":"session","id":"s1","session":{"session_id":"s1","duration":1800,"metrics":null}}"#,
        #"{"kind":"workout","id":"w1","deleted":false,"workout":{"id":"w1","source":"garmin","duration_s":600}}"#,
        #"{"kind":"session","id":"s2","session":{"session_id":"s2","duration":900,"metrics":{"tss":41.5}}}"#,
        #"{"kind":"workout","id":"w2","deleted":false,"workout":{"id":"w2","source":"manual","duration_s":1200}}"#,
        #"{"kind":"workout","id":"w1","deleted":true}"#,
        #"{"kind":"stats","stats":{"workout_total_count":3,"workout_total_energy":10,"workout_total_distance":20,"workout_total_duration":3300,"workout_streak":1,"display_source":"pipeline","pipeline_stats":{"workout_total_count":3,"workout_total_energy":10,"workout_total_distance":20,"workout_total_duration":3300,"workout_streak":1},"computed_at":"2026-11-21T12:00:00.000Z"}}"#,
        #"{"kind":"plan","id":"2","plan":{"version":2,"generated_at":"2026-11-21T03:00:00.000Z","state":"ready","reasons":[]}}"#,
    ]

    @Test func pagesAreAppliedThenSavedAndAFailureResumesFromTheLastSavedPage() async throws {
        let server = FeedTransport(feed: Self.feed)
        let store = MemoryStore()
        store.failOnApply = 5 // the second change of the second page (size 3): w2 is applied, the tombstone throws
        let sync = Synchronizer(client: server.client, store: store)

        await #expect(throws: MemoryStore.Failure.self) { try await sync.pull(pageSize: 3) }
        // The first page is saved; the second was read, partly applied, and its cursor not saved.
        #expect(store.savedCursors == ["c3"])
        #expect(store.snapshot.workouts.keys.sorted() == ["w1", "w2"])

        let report = try await sync.pull(pageSize: 3)
        #expect(server.requestedSince == [nil, "c3", "c3", "c6"])
        #expect(report.pages == 2 && report.applied == 4 && report.cursor == "c7")
        #expect(store.savedCursors == ["c3", "c6", "c7"])
        let mirror = store.snapshot
        #expect(mirror.sessions.keys.sorted() == ["s1", "s2"])
        #expect(mirror.sessions["s2"]?.metrics?.value["tss"] as? Double == 41.5)
        #expect(mirror.workouts.keys.sorted() == ["w2"]) // w1's tombstone removed it
        #expect(mirror.stats?.value1.workoutTotalCount == 3)
        #expect(mirror.planVersions == [2])
        // w2 came twice (before the failure and again after it), and the mirror holds it once.
        #expect(store.applications["workout:w2"] == 2)
        #expect(store.applications["session:s1"] == 1)

        // Nothing new: one request from the saved cursor, an empty page, the same cursor saved again.
        let again = try await sync.pull(pageSize: 3)
        #expect(again.applied == 0 && again.cursor == "c7")
    }

    @Test func aRefusedCursorRestartsTheFeedFromTheBeginningOnce() async throws {
        let server = FeedTransport(feed: Self.feed)
        let store = MemoryStore()
        try await store.save(cursor: "stale")
        let sync = Synchronizer(client: server.client, store: store)
        let report = try await sync.pull(pageSize: 100)
        #expect(report.restartedFromBeginning)
        #expect(store.rejections == 1)
        #expect(server.requestedSince == ["stale", nil])
        #expect(report.applied == 7 && report.cursor == "c7")
        #expect(store.snapshot.workouts.keys.sorted() == ["w2"])
    }

    @Test func everyRequestCarriesTheTokenOfTheMomentAndTheUserAgent() async throws {
        let server = FeedTransport(feed: Self.feed)
        let tokens = Mutex(0)
        let client = Client(
            serverURL: URL(string: "http://feed.test")!, transport: server, userAgent: "Rowing/3.2",
            token: { "token-\(tokens.withLock { $0 += 1; return $0 })" })
        try await Synchronizer(client: client, store: MemoryStore()).pull(pageSize: 4)
        let requests = server.requests
        #expect(requests.map { $0[.authorization] } == ["Bearer token-1", "Bearer token-2"])
        #expect(
            requests.allSatisfy {
                $0[.userAgent] == "Rowing/3.2 pipeline-client/\(PipelineVersion.version) (\(PipelineVersion.revision))"
            })
        #expect(!PipelineVersion.revision.isEmpty)
    }

    @Test func anErrorAnswerIsASyncErrorWithTheServersCode() async throws {
        let server = FeedTransport(feed: Self.feed, status: 429)
        let sync = Synchronizer(client: server.client, store: MemoryStore())
        let error = await #expect(throws: SyncError.self) { try await sync.pull() }
        #expect(error?.code == .rateLimited)
        #expect(error?.status == 429)
        #expect(error?.retryAfterSeconds == 7)
    }

    /// A refusal whose body names no code is the status's own code; each operation maps the shared refusals alike.
    @Test(arguments: [
        (400, SyncError.Code.badRequest), (401, .unauthorized), (404, .notFound), (413, .tooLarge), (429, .rateLimited),
    ])
    func aRefusalWithoutACodeIsTheStatussCode(status: Int, code: SyncError.Code) async throws {
        let sync = Synchronizer(client: RefusingTransport(status: status).client, store: MemoryStore())
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await sync.upload([]) }, { _ = try await sync.uploadFile(Data("x".utf8), name: "a.fit") },
        ]
        for call in calls {
            let error = await #expect(throws: SyncError.self) { try await call() }
            #expect(error?.code == code)
            #expect(error?.status == status)
            #expect(error?.message == "refused")
            #expect(error?.retryAfterSeconds == (status == 429 ? 3 : nil))
        }
    }
}

/// Answers every request with `status`, an error body without a code and, on a 429, `Retry-After: 3`.
struct RefusingTransport: ClientTransport {
    let status: Int

    var client: Client {
        Client(serverURL: URL(string: "http://refusing.test")!, configuration: .pipeline, transport: self)
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if status == 429 { headers[.retryAfter] = "3" }
        return (
            HTTPResponse(status: .init(code: status), headerFields: headers),
            HTTPBody(#"{"error":"","message":"refused"}"#)
        )
    }
}

/// `GET /v1/me/changes` over a fixed feed: `since` is `c<n>` (the changes after the n-th), `next_cursor` the position
/// after the page; any other `since` is an `invalid_cursor`; `status` other than 200 answers every request with it.
final class FeedTransport: ClientTransport, Sendable {
    let feed: [String]
    let status: Int
    private let asked = Mutex<[String?]>([])
    private let fields = Mutex<[HTTPFields]>([])
    var requestedSince: [String?] { asked.withLock { $0 } }
    /// The header fields of every request, in order.
    var requests: [HTTPFields] { fields.withLock { $0 } }

    init(feed: [String], status: Int = 200) {
        self.feed = feed
        self.status = status
    }

    var client: Client {
        Client(serverURL: URL(string: "http://feed.test")!, configuration: .pipeline, transport: self)
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        let components = URLComponents(string: request.path ?? "")
        let query = Dictionary(
            (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        asked.withLock { $0.append(query["since"]) }
        fields.withLock { $0.append(request.headerFields) }
        var headers: HTTPFields = [.contentType: "application/json"]
        if status != 200 {
            headers[.retryAfter] = "7"
            return (
                HTTPResponse(status: .init(code: status), headerFields: headers),
                HTTPBody(#"{"error":"rate_limited","message":"slow down"}"#)
            )
        }
        var start = 0
        if let since = query["since"] {
            guard since.hasPrefix("c"), let n = Int(since.dropFirst()), n <= feed.count else {
                return (
                    HTTPResponse(status: .badRequest, headerFields: headers),
                    HTTPBody(#"{"error":"invalid_cursor","message":"not a cursor of this user"}"#)
                )
            }
            start = n
        }
        let size = Int(query["size"] ?? "20") ?? 20
        let end = min(feed.count, start + size)
        let page = feed[start..<end].joined(separator: ",")
        let json = #"{"changes":[\#(page)],"next_cursor":"c\#(end)","has_more":\#(end < feed.count)}"#
        return (HTTPResponse(status: .ok, headerFields: headers), HTTPBody(json))
    }
}
