import Foundation
import Store
import StoreSQLite
import Testing

@testable import Ingest

/// An upstream that pages its records, sorted by `updated_at`, honouring `updated_since`.
final class FakeUpstream: @unchecked Sendable {
    let lock = NSLock()
    var records: [(updated: String, json: String)] = []
    /// Failures to serve before answering properly, keyed by page: status 500, or a stall past the client's timeout.
    var failures: [Int: [LocalHTTPServer.Response]] = [:]

    func set(_ records: [(String, String)]) { lock.lock(); self.records = records; lock.unlock() }

    func answer(_ target: String) -> LocalHTTPServer.Response {
        lock.lock(); defer { lock.unlock() }
        let query = URLComponents(string: "http://x\(target)")?.queryItems ?? []
        let page = Int(query.first { $0.name == "page" }?.value ?? "1") ?? 1
        let size = Int(query.first { $0.name == "size" }?.value ?? "20") ?? 20
        let since = query.first { $0.name == "updated_since" }?.value
        if var queue = failures[page], !queue.isEmpty {
            let r = queue.removeFirst()
            failures[page] = queue
            return r
        }
        let matching = records.filter {
            since == nil || RFC3339.parseMillis($0.updated)! > RFC3339.parseMillis(since!)!
        }
        let pages = max(1, (matching.count + size - 1) / size)
        let slice = matching.dropFirst((page - 1) * size).prefix(size)
        return .init(
            status: 200,
            body:
                "{\"data\": [\(slice.map(\.json).joined(separator: ","))], \"meta\": {\"total_count\": \(matching.count), \"total_pages\": \(pages), \"page\": \(page), \"size\": \(size)}}"
        )
    }
}

func upstreamWorkout(_ id: String, updated: String, distance: Int = 5000) -> (String, String) {
    (
        updated,
        "{\"id\": \"\(id)\", \"user_id\": \"rider-1\", \"source\": \"garmin\", \"activity_type\": \"running\", "
            + "\"start\": \"2025-12-20T07:00:00Z\", \"end\": \"2025-12-20T07:30:00Z\", \"duration_s\": 1800, "
            + "\"distance_m\": \(distance), \"updated_at\": \"\(updated)\"}"
    )
}

final class DelayLog: @unchecked Sendable {
    let lock = NSLock()
    var delays: [Double] = []
    func add(_ d: Double) { lock.lock(); delays.append(d); lock.unlock() }
}

@Suite(.serialized) struct UpstreamPullerTests {
    func puller(_ h: IngestHarness, port: UInt16, log: DelayLog, timeout: Double = 5) -> UpstreamPuller {
        var config = UpstreamPuller.Configuration(baseURL: URL(string: "http://127.0.0.1:\(port)/v2/workouts")!)
        config.pageSize = 2
        config.timeoutS = timeout
        config.maxAttempts = 4
        return UpstreamPuller(
            configuration: config, store: h.store, sleep: { log.add($0) }, random: { 0.5 },
            clock: PipelineClock(now: { IngestHarness.received }))
    }

    @Test func backoffDoublesFromOneSecondToSixtyWithJitter() async throws {
        let h = try await IngestHarness()
        var config = UpstreamPuller.Configuration(baseURL: URL(string: "http://127.0.0.1:1/")!)
        config.maxAttempts = 10
        let low = UpstreamPuller(configuration: config, store: h.store, random: { 0 })
        let high = UpstreamPuller(configuration: config, store: h.store, random: { 0.999999 })
        #expect((1...8).map { low.backoff(attempt: $0) } == [0.5, 1, 2, 4, 8, 16, 30, 30])
        #expect(abs(high.backoff(attempt: 1) - 1) < 1e-5)
        #expect(abs(high.backoff(attempt: 7) - 60) < 1e-3)
    }

    @Test func pagesRetriesAndResumesFromTheWatermark() async throws {
        let h = try await IngestHarness()
        let upstream = FakeUpstream()
        upstream.set([
            upstreamWorkout("gm-1", updated: "2025-12-20T08:00:00Z"),
            upstreamWorkout("gm-2", updated: "2025-12-20T09:00:00Z"),
            upstreamWorkout("gm-3", updated: "2025-12-20T10:00:00Z"),
        ])
        upstream.failures[2] = [.init(status: 500, body: "{}"), .init(status: 503, body: "{}")]
        let server = try LocalHTTPServer { upstream.answer($0) }
        defer { server.stop() }
        let log = DelayLog()
        let report = try await puller(h, port: server.port, log: log).pull()
        #expect(report.workouts.stored == 3)
        #expect(report.addsUp)
        #expect(log.delays == [0.75, 1.5]) // two retries of page 2: 1 s and 2 s, scaled by the jitter factor 0.75
        #expect(try await h.store.lastJobRun("upstream:127.0.0.1/v2/workouts")?.watermark == "2025-12-20T10:00:00.000Z")

        // The upstream changes between runs: one record updated, one new. Only those are fetched.
        upstream.set([
            upstreamWorkout("gm-1", updated: "2025-12-20T08:00:00Z"),
            upstreamWorkout("gm-2", updated: "2025-12-21T09:00:00Z", distance: 5100),
            upstreamWorkout("gm-3", updated: "2025-12-20T10:00:00Z"),
            upstreamWorkout("gm-4", updated: "2025-12-21T10:00:00Z"),
        ])
        let second = try await puller(h, port: server.port, log: log).pull()
        #expect(second.workouts.received == 2)
        #expect(second.workouts.stored == 2)
        #expect(server.requests.last?.contains("updated_since=2025-12-20T10:00:00.000Z") == true)
        let distances = try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).map {
            ($0.workoutID.rawValue, $0.distanceM ?? 0)
        }
        #expect(distances.map(\.0).sorted() == ["gm-1", "gm-2", "gm-3", "gm-4"])
        #expect(distances.first { $0.0 == "gm-2" }?.1 == 5100)
    }

    @Test func aStallingUpstreamTimesOutAndTheWatermarkStays() async throws {
        let h = try await IngestHarness()
        let upstream = FakeUpstream()
        upstream.set([upstreamWorkout("gm-1", updated: "2025-12-20T08:00:00Z")])
        let stall = LocalHTTPServer.Response(status: 200, body: "{}", delayS: 2.5)
        upstream.failures[1] = [stall, stall, stall, stall]
        let server = try LocalHTTPServer { upstream.answer($0) }
        defer { server.stop() }
        let log = DelayLog()
        await #expect(throws: UpstreamPuller.PullError.self) {
            _ = try await puller(h, port: server.port, log: log, timeout: 1).pull()
        }
        #expect(log.delays.count == 3)
        #expect(try await h.store.lastJobRun("upstream:127.0.0.1/v2/workouts")?.status == .failed)
        #expect(try await h.store.workouts(user: IngestHarness.user, includeDeleted: false).isEmpty)
        // Next run: the upstream is healthy again and everything arrives.
        let report = try await puller(h, port: server.port, log: log, timeout: 5).pull()
        #expect(report.workouts.stored == 1)
    }

    @Test func aClientErrorIsNotRetried() async throws {
        let h = try await IngestHarness()
        let server = try LocalHTTPServer { _ in .init(status: 401, body: "{\"error\": \"unauthorized\"}") }
        defer { server.stop() }
        let log = DelayLog()
        await #expect(throws: UpstreamPuller.PullError.self) {
            _ = try await puller(h, port: server.port, log: log).pull()
        }
        #expect(log.delays.isEmpty)
        #expect(server.requests.count == 1)
    }

    /// A page announcing an absurd number of pages (too many for an `Int`, negative, fractional, past the limit) is
    /// refused with a specific error and the run recorded failed: nothing traps, nothing pages forever.
    @Test(arguments: ["1e30", "-1", "2.5", "100001", "1.7976931348623157e308"])
    func anAbsurdPageCountIsRefusedNotTrapped(_ pages: String) async throws {
        let h = try await IngestHarness()
        let server = try LocalHTTPServer { _ in
            .init(
                status: 200,
                body:
                    "{\"data\": [], \"meta\": {\"total_count\": 0, \"total_pages\": \(pages), \"page\": 1, \"size\": 2}}"
            )
        }
        defer { server.stop() }
        let log = DelayLog()
        let error = await #expect(throws: UpstreamPuller.PullError.self) {
            _ = try await puller(h, port: server.port, log: log).pull()
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("total_pages"))
        #expect(server.requests.count == 1)
        #expect(try await h.store.lastJobRun("upstream:127.0.0.1/v2/workouts")?.status == .failed)
    }
}
