import Foundation
import Logging
import PipelineVersion
import Store

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetching one URL; the production implementation is URLSession (libcurl on Linux), tests may inject another.
public protocol HTTPFetching: Sendable {
    func get(_ url: URL, headers: [String: String], timeout: Double) async throws -> (status: Int, body: Data)
}

public struct URLSessionFetcher: HTTPFetching {
    public init() {}
    public func get(_ url: URL, headers: [String: String], timeout: Double) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

/// Pulls workout records from an upstream HTTP API page by page (`page`, `size`; the answer
/// `{"data": [...], "meta": {"total_count", "total_pages", "page", "size"}}`, as in Locify), only what changed
/// since the stored watermark (`updated_since`), retrying failures with exponential backoff and jitter
/// (1 s doubling to 60 s, as the apps do). Every request sends `User-Agent: pipeline/<version> (<git revision>)`
/// (`PipelineVersion.userAgent`).
public struct UpstreamPuller: Sendable {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var pageSize = 100
        public var timeoutS = 15.0
        /// Attempts per page before the run gives up (the watermark then stays where it was).
        public var maxAttempts = 8
        public var initialBackoffS = 1.0
        public var maxBackoffS = 60.0
        /// Sent as `Authorization: Bearer …` when set (from configuration, e.g. $PIPELINE_UPSTREAM_TOKEN).
        public var bearerToken: String?
        /// Most pages one run follows: an answer announcing more (or a `total_pages` that is not a whole number ≥ 0)
        /// is refused as not a page, so that a broken or hostile upstream can neither trap the conversion nor keep the
        /// run paging forever.
        public var maxPages = 100_000
        public init(baseURL: URL) { self.baseURL = baseURL }
    }

    public enum PullError: Error, CustomStringConvertible {
        case gaveUp(url: String, attempts: Int, last: String)
        case badResponse(url: String, reason: String)
        case clientError(url: String, status: Int)
        public var description: String {
            switch self {
            case .gaveUp(let url, let n, let last): "upstream \(url) failed \(n) times; last: \(last)"
            case .badResponse(let url, let reason): "upstream \(url) answered something that is not a page: \(reason)"
            case .clientError(let url, let status): "upstream \(url) refused the request with HTTP \(status)"
            }
        }
    }

    public var configuration: Configuration
    public var fetcher: any HTTPFetching
    public var records: RecordProcessor
    public var store: any PipelineStore
    public var logger: Logger
    /// Waits between attempts; tests pass one that records the delays instead of sleeping.
    public var sleep: @Sendable (Double) async throws -> Void
    /// Uniform in [0, 1): the jitter source.
    public var random: @Sendable () -> Double
    /// The run time pulls are stamped with (`PipelineClock.now`).
    public var clock: PipelineClock
    var now: @Sendable () -> Int64 { clock.now }

    public init(
        configuration: Configuration, store: any PipelineStore, fetcher: any HTTPFetching = URLSessionFetcher(),
        limits: IngestLimits = .init(), logger: Logger = Logger(label: "ingest.upstream"),
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        clock: PipelineClock = .system
    ) {
        self.configuration = configuration; self.store = store; self.fetcher = fetcher; self.logger = logger
        self.records = RecordProcessor(store: store, limits: limits, clock: clock)
        self.sleep = sleep; self.random = random; self.clock = clock
    }

    /// The job name under which runs and their watermark are recorded.
    public var jobName: String { "upstream:\(configuration.baseURL.host ?? "")\(configuration.baseURL.path)" }

    /// The delay before retry number `attempt` (1-based): 1 s, 2 s, 4 s … capped at 60 s, each scaled by a
    /// random factor in [0.5, 1) ("equal jitter") so that many clients do not retry in step.
    public func backoff(attempt: Int) -> Double {
        let base = min(configuration.maxBackoffS, configuration.initialBackoffS * pow(2, Double(attempt - 1)))
        return base * (0.5 + 0.5 * random())
    }

    /// Fetches every page changed since the last successful run's watermark and ingests it.
    /// The watermark (largest `updated_at` seen) advances only when the whole run succeeded, so a failed or
    /// killed run is simply repeated; records already stored come back as duplicates.
    public func pull() async throws -> IngestReport {
        let runID = try await store.startJob(jobName, at: now())
        let previous = try await store.jobRuns(jobName, limit: 50).first {
            $0.status == .succeeded && $0.watermark != nil
        }?.watermark
        var report = IngestReport()
        var watermark = previous.flatMap(RFC3339.parseMillis)
        do {
            var page = 1
            var totalPages = 1
            while page <= totalPages {
                try Task.checkCancellation()
                let (body, url) = try await fetchPage(page, since: previous)
                let document: JSONValue
                do { document = try JSONDecoder().decode(JSONValue.self, from: body) } catch {
                    throw PullError.badResponse(url: url, reason: "not JSON")
                }
                guard let data = document["data"]?.arrayValue, let meta = document["meta"],
                    let pages = meta["total_pages"]?.doubleValue
                else {
                    throw PullError.badResponse(url: url, reason: "missing data or meta.total_pages")
                }
                guard pages.isFinite, pages >= 0, pages == pages.rounded(), pages <= Double(configuration.maxPages)
                else {
                    throw PullError.badResponse(
                        url: url,
                        reason:
                            "meta.total_pages is \(pages), not a whole number of pages from 0 to \(configuration.maxPages)"
                    )
                }
                totalPages = Int(pages)
                let items = data.enumerated().map {
                    (
                        key: "\(url)#\($0.offset)", value: Result<JSONValue, Rejection>.success($0.element),
                        payload: Array($0.element.canonicalText.utf8)
                    )
                }
                var pageReport = try await records.process(
                    kind: .workouts, records: items, source: "upstream",
                    receivedAt: now(), ledgerKey: nil, ledgerHash: nil)
                pageReport.batches = IngestCounts()
                report = report + pageReport
                for item in data {
                    if let text = item["updated_at"]?.stringValue, let t = RFC3339.parseMillis(text) {
                        watermark = max(watermark ?? t, t)
                    }
                }
                page += 1
            }
            let mark = watermark.map { RFC3339.format(millis: $0) }
            try await store.finishJob(
                id: runID, status: .succeeded, at: now(), countsJSON: BatchProcessor.json(report), watermark: mark)
            logger.info("upstream pull finished", metadata: ["pages": "\(totalPages)", "watermark": "\(mark ?? "-")"])
            return report
        } catch {
            try? await store.finishJob(
                id: runID, status: error is CancellationError ? .interrupted : .failed, at: now(),
                countsJSON: BatchProcessor.json(report), watermark: previous)
            throw error
        }
    }

    func fetchPage(_ page: Int, since: String?) async throws -> (Data, String) {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        var query = components.queryItems ?? []
        query.append(URLQueryItem(name: "page", value: "\(page)"))
        query.append(URLQueryItem(name: "size", value: "\(configuration.pageSize)"))
        if let since { query.append(URLQueryItem(name: "updated_since", value: since)) }
        components.queryItems = query
        let url = components.url!
        var headers = ["Accept": "application/json", "User-Agent": PipelineVersion.userAgent]
        if let token = configuration.bearerToken { headers["Authorization"] = "Bearer \(token)" }
        var last = ""
        for attempt in 1...configuration.maxAttempts {
            do {
                let (status, body) = try await fetcher.get(url, headers: headers, timeout: configuration.timeoutS)
                if status == 200 { return (body, url.absoluteString) }
                if (400..<500).contains(status) && status != 408 && status != 429 {
                    throw PullError.clientError(url: url.absoluteString, status: status)
                }
                last = "HTTP \(status)"
            } catch let error as PullError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                last = "\(error)"
            }
            guard attempt < configuration.maxAttempts else { break }
            let delay = backoff(attempt: attempt)
            logger.warning(
                "upstream page failed; retrying",
                metadata: [
                    "page": "\(page)", "attempt": "\(attempt)",
                    "error": "\(last)", "retry_in_s": "\(delay)",
                ])
            try await sleep(delay)
        }
        throw PullError.gaveUp(url: url.absoluteString, attempts: configuration.maxAttempts, last: last)
    }
}
