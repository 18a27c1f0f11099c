import APITestKit
import Cache
import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import StoreSQLite
import Synchronization
import TestKit
import Testing

@testable import HTTPAPI

/// A wall clock that moves only when told to.
final class TestWallClock: Sendable {
    private let millis: Mutex<Int64>
    init(_ start: Int64) { millis = Mutex(start) }
    var now: Int64 { millis.withLock { $0 } }
    func advance(seconds: Double) { millis.withLock { $0 += Int64(seconds * 1000) } }
}

/// A fresh SQLite file, two users, an `APIServices` with manual clocks, and token minting.
final class APIHarness: Sendable {
    static let secret = try! JWTSecret(string: "api-tests-secret-0123456789-abcdefghijkl")
    static let alice = UserID("alice")
    static let bob = UserID("bob")
    /// 2025-12-24T12:00:00Z
    static let start: Int64 = 1_766_577_600_000

    let directory: URL
    let store: SQLiteStore
    let clock = TestWallClock(APIHarness.start)
    let cacheClock = ManualCacheClock()
    let services: APIServices
    let signer = TokenSigner(secret: APIHarness.secret)

    init(_ configure: (inout APIConfiguration) -> Void = { _ in }) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("db.sqlite").path)
        try await store.upsertUser(
            User(id: Self.alice, timeZone: "Europe/Berlin", boundDeviceID: "phone-a", createdAt: 0))
        try await store.upsertUser(User(id: Self.bob, timeZone: "America/Los_Angeles", createdAt: 0))
        var configuration = APIConfiguration(jwtSecret: Self.secret)
        configure(&configuration)
        let clock = self.clock
        services = APIServices(store: store, configuration: configuration, now: { clock.now }, cacheClock: cacheClock)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The device alice's account is bound to; her tokens name it unless a test says otherwise.
    static let aliceDevice = "phone-a"

    /// A token as the apps hold one: for a bound account (alice), issued to its device (`device`; pass `withoutDevice`
    /// for one that names none).
    func token(
        _ user: UserID = alice, expiresIn seconds: Double = 900, device: String? = nil, withoutDevice: Bool = false
    ) -> String {
        let claimed = withoutDevice ? nil : device ?? (user == Self.alice ? Self.aliceDevice : nil)
        return signer.sign(
            TokenClaims(subject: user.rawValue, expiresAt: Double(clock.now) / 1000 + seconds, device: claimed))
    }

    func auth(_ user: UserID = alice, device: String? = nil, withoutDevice: Bool = false) -> HTTPFields {
        [.authorization: "Bearer \(token(user, device: device, withoutDevice: withoutDevice))"]
    }

    var app: some ApplicationProtocol { Application(router: buildRouter(services: services)) }

    /// Runs `body` against the router (no sockets).
    func withRouter(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await app.test(.router, body)
    }
}

extension TestClientProtocol {
    func get(_ uri: String, _ headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields = [:], json: String) async throws
        -> TestResponse
    {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: json))
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }
    /// The integer members of `meta` (a page's counts, without its cursor).
    var pageMeta: [String: Int]? { (json["meta"] as? [String: Any])?.compactMapValues { $0 as? Int } }
    /// `meta.next_cursor`; nil when it is null or absent.
    var nextCursor: String? { (json["meta"] as? [String: Any])?["next_cursor"] as? String }
    /// The `error` code of a JSON error body.
    var errorCode: String? { json["error"] as? String }
}

// MARK: Upload bodies (the apps' shape)

func sessionJSON(
    id: String = "6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60", start: String = "2025-12-24T10:00:00Z",
    end: String = "2025-12-24T10:30:00Z", duration: Double = 1800, energy: Double = 250,
    distance: Double = 14000, detail: String = "{\"avg_hr\": 142, \"avg_power\": 180}"
) -> String {
    "{\"session_id\": \"\(id)\", \"started_at\": \"\(start)\", \"ended_at\": \"\(end)\", \"duration\": \(duration), "
        + "\"total_energy\": \(energy), \"total_distance\": \(distance), \"detail\": \(detail)}"
}

func batch(_ sessions: [String]) -> String { "{\"sessions\": [\(sessions.joined(separator: ","))]}" }

/// A session id whose last digits are `n`.
func sessionID(_ n: Int) -> String { String(format: "6f1c2a9e-3b7d-4c1e-9f0a-%012d", n) }

/// `count` valid sessions on consecutive mornings ending 2025-12-24 (newest = index count-1).
func dailySessions(_ count: Int, firstID: Int = 1) -> [String] {
    (0..<count).map { i in
        let day = 24 - (count - 1 - i)
        let date = String(format: "2025-12-%02d", day)
        return sessionJSON(id: sessionID(firstID + i), start: "\(date)T07:00:00Z", end: "\(date)T07:30:00Z")
    }
}

/// A small `marathon-plan/1` document with two Monday weeks: 2026-03-30 (ISO 2026-W14) and 2026-04-06.
let planDocument = """
    {"format":"marathon-plan/1","request":{"timezone":"Europe/Berlin","start_date":"2026-03-30","race":{"date":"2026-04-12"}},
     "plan":{"timezone":"Europe/Berlin","week_start":"mon","race_date":"2026-04-12",
      "paces":{"easy":{"min_s_per_km":330,"max_s_per_km":370}},"warnings":[],
      "weeks":[{"index":1,"start_date":"2026-03-30","phase":"taper","days":[{"date":"2026-03-30","workouts":[]}]},
               {"index":2,"start_date":"2026-04-06","phase":"race","days":[{"date":"2026-04-06","workouts":[]}]}]}}
    """
