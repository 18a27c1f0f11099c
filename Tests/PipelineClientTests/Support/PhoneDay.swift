import APITestKit
import Foundation
import HTTPAPI
import Ingest
import OpenAPIRuntime
import Pipeline
import PipelineClient
import Store
import StoreSQLite
import SyntheticData

/// A generated store (two users over two weeks, through the nightly as in production), the server's fixed clock,
/// tokens, and the writes that do not go through the API (the nightly's inbox).
final class PhoneDay: Sendable {
    static let secret = try! JWTSecret(string: "phone-day-secret-0123456789-abcdefghijklmn")
    /// The generated data set's last day; "now" is the next day at 12:00 UTC.
    static let endDate = "2026-11-20"
    /// user-0001: a runner in Berlin with a goal race (so a plan); user-0002: a cyclist in Los Angeles.
    static let runner = "user-0001"
    static let cyclist = "user-0002"

    let root: URL
    let store: SQLiteStore
    let manifest: GenerationManifest
    let now: Int64

    init() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("phone-day-\(UUID().uuidString)")
        manifest = try Generator(.init(users: 2, days: 14, seed: 4242, endDate: Self.endDate, faultRate: 0))
            .generate(into: root.appendingPathComponent("inbox"))
        store = try SQLiteStore(path: root.appendingPathComponent("db.sqlite").path)
        now = RFC3339.parseMillis(Self.endDate + "T00:00:00Z")! + 36 * 3_600_000
        _ = try await nightly(inbox: root.appendingPathComponent("inbox"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The nightly run, in-process, over the same store the server reads.
    func nightly(inbox: URL?) async throws -> NightlySummary {
        let now = self.now
        return try await NightlyJob(store: store, now: { now }, concurrency: 1).run(inbox: inbox)
    }

    /// An inbox holding one `workouts/` file of NDJSON lines.
    func inbox(named name: String, workouts lines: [String]) throws -> URL {
        let inbox = root.appendingPathComponent(name)
        let folder = inbox.appendingPathComponent("workouts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(lines.joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("\(name).ndjson"))
        return inbox
    }

    /// The services of `pipeline serve` over the store, on the server's fixed clock, for a listener on port 0.
    func services() throws -> APIServices {
        let now = self.now
        return APIServices(
            store: store, configuration: APIConfiguration(host: "127.0.0.1", port: 0, jwtSecret: Self.secret),
            now: { now })
    }

    /// A token as the app holds one: the user's, issued to the device the generated account is bound to.
    func token(_ user: String) -> String {
        TokenSigner(secret: Self.secret).sign(
            TokenClaims(subject: user, expiresAt: Double(now) / 1000 + 3600, device: "device-\(user)"))
    }

    /// A session the app recorded at `hour`:00 UTC on the day of the test, `minutes` long.
    func session(_ n: Int, hour: Int, minutes: Double) throws -> Components.Schemas.Session {
        let start = Date(timeIntervalSince1970: Double(now) / 1000 - 12 * 3600 + Double(hour) * 3600)
        return Components.Schemas.Session(
            sessionId: String(format: "7a2d9c41-5e0b-4f3a-8c6d-%012d", n),
            startedAt: start, endedAt: start.addingTimeInterval(minutes * 60), duration: minutes * 60,
            totalEnergy: minutes * 9, totalDistance: minutes * 420,
            detail: try OpenAPIObjectContainer(unvalidatedValue: ["avg_hr": 141, "avg_power": 185]))
    }
}

extension Client {
    /// Every session of the caller, by keyset paging through `GET /v1/me/sessions`.
    func allSessions() async throws -> [String: Components.Schemas.SessionSummary] {
        var all: [String: Components.Schemas.SessionSummary] = [:]
        var cursor: String?
        repeat {
            let page = try await listSessions(query: .init(cursor: cursor, size: 100)).ok.body.json
            for session in page.sessions { all[session.sessionId ?? ""] = session }
            cursor = page.meta.nextCursor
        } while cursor != nil
        return all
    }
}
