import Foundation
import PipelineVersion
import Store
import Testing

@testable import Ingest

/// Records the headers of every request and answers one empty page.
final class HeaderRecordingFetcher: HTTPFetching, @unchecked Sendable {
    let lock = NSLock()
    var seen: [[String: String]] = []

    func get(_ url: URL, headers: [String: String], timeout: Double) async throws -> (status: Int, body: Data) {
        lock.withLock { seen.append(headers) }
        let page = #"{"data": [], "meta": {"total_count": 0, "total_pages": 1, "page": 1, "size": 100}}"#
        return (200, Data(page.utf8))
    }
}

@Suite struct UserAgentTests {
    @Test func versionLineAndUserAgentCarryTheVersionAndTheBuildsRevision() {
        #expect(PipelineVersion.description == "pipeline \(PipelineVersion.version) (\(PipelineVersion.revision))")
        #expect(PipelineVersion.userAgent == "pipeline/\(PipelineVersion.version) (\(PipelineVersion.revision))")
        // A semantic version, and a revision that is a (possibly dirty) short hash, an override's safe text or
        // `unknown`: never empty, never anything a header could not carry.
        #expect(PipelineVersion.version.split(separator: ".").count == 3)
        #expect(PipelineVersion.version.split(separator: ".").allSatisfy { Int($0) != nil })
        #expect(!PipelineVersion.revision.isEmpty)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        #expect(PipelineVersion.revision.allSatisfy { allowed.contains($0) })
    }

    @Test func theUpstreamClientSendsTheUserAgent() async throws {
        let h = try await IngestHarness()
        let fetcher = HeaderRecordingFetcher()
        let puller = UpstreamPuller(
            configuration: .init(baseURL: URL(string: "http://upstream.invalid/v2/workouts")!), store: h.store,
            fetcher: fetcher, clock: PipelineClock(now: { IngestHarness.received }))
        _ = try await puller.pull()
        let seen = fetcher.lock.withLock { fetcher.seen }
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { $0["User-Agent"] == PipelineVersion.userAgent })
    }
}
