import Cache
import CoreMetrics
import Hummingbird
import Prometheus
import Synchronization
import TaskManager

/// The API's metrics: a Prometheus registry that `/metrics` renders, and the swift-metrics
/// factory the API records through. Both are passed in explicitly, so that tests need no
/// global `MetricsSystem.bootstrap` (which may run once per process).
public final class APIMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    public let factory: any MetricsFactory

    /// Defaults to a fresh registry with a `PrometheusMetricsFactory` over it.
    public init(
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), factory: (any MetricsFactory)? = nil
    ) {
        self.registry = registry
        self.factory = factory ?? PrometheusMetricsFactory(registry: registry)
    }

    struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    struct RouteKey: Hashable {
        var route: String
        var method: String
    }

    private let requestCounters = Mutex<[RequestKey: CoreMetrics.Counter]>([:])
    private let requestTimers = Mutex<[RouteKey: CoreMetrics.Timer]>([:])
    private let named = Mutex<[String: CoreMetrics.Counter]>([:])
    private let cacheTotals = Mutex<[String: Int]>([:])

    func recordRequest(route: String, method: String, status: Int, nanoseconds: Int64) {
        let key = RequestKey(route: route, method: method, status: status)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "http_requests_total",
                dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
        let routeKey = RouteKey(route: route, method: method)
        let timer = requestTimers.withLock { timers in
            if let timer = timers[routeKey] { return timer }
            let timer = CoreMetrics.Timer(
                label: "http_request_duration_seconds", dimensions: [("route", route), ("method", method)],
                factory: factory)
            timers[routeKey] = timer
            return timer
        }
        timer.recordNanoseconds(nanoseconds)
    }

    /// Counts an event of the API (`api_<name>_total{label=value}`).
    func count(_ name: String, _ label: String, _ value: String, by amount: Int = 1) {
        let id = "\(name)|\(label)|\(value)"
        let counter = named.withLock { named in
            if let counter = named[id] { return counter }
            let counter = CoreMetrics.Counter(
                label: "api_\(name)_total", dimensions: [(label, value)], factory: factory)
            named[id] = counter
            return counter
        }
        counter.increment(by: amount)
    }

    /// Copies the caches' and the task manager's current figures into the registry, then renders
    /// the Prometheus text format.
    func render(caches: [(name: String, statistics: CacheStatistics)], runningTasks: Int) -> [UInt8] {
        func gauge(_ name: String, _ help: String, _ labels: [(String, String)]) -> Prometheus.Gauge {
            registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels)
        }
        for (name, statistics) in caches {
            let labels = [("cache", name)]
            gauge("api_cache_entries", "Entries held by the cache.", labels).set(Double(statistics.entryCount))
            gauge("api_cache_bytes", "Bytes held by the cache (as its weigher counts them).", labels).set(
                Double(statistics.byteCount))
            let totals: [(String, String, Int)] = [
                ("api_cache_hits_total", "Reads that found a live entry.", statistics.hits),
                ("api_cache_misses_total", "Reads that found none.", statistics.misses),
                ("api_cache_evictions_total", "Entries dropped to stay within bounds.", statistics.evictions),
                ("api_cache_expirations_total", "Entries removed after their TTL.", statistics.expirations),
                (
                    "api_cache_invalidations_total",
                    "Entries removed by events (new sessions, recomputations, deletions).",
                    statistics.invalidations
                ),
                ("api_cache_loads_total", "Loads run on misses.", statistics.loadCount),
                (
                    "api_cache_coalesced_loads_total", "Misses that joined a load already running.",
                    statistics.coalescedLoads
                ),
            ]
            for (metric, help, value) in totals {
                // Counters only grow: add what the snapshot gained since the last scrape.
                let delta = cacheTotals.withLock { seen -> Int in
                    let id = metric + "|" + name
                    let gained = max(0, value - (seen[id] ?? 0))
                    seen[id] = max(value, seen[id] ?? 0)
                    return gained
                }
                let counter = registry.makeCounter(descriptor: Self.descriptor(metric, help), labels: labels)
                if delta > 0 { counter.increment(by: Int64(delta)) }
            }
            let seconds =
                Double(statistics.totalLoadTime.components.seconds)
                + Double(statistics.totalLoadTime.components.attoseconds) / 1e18
            gauge("api_cache_load_seconds_sum", "Total time spent in cache loads.", labels).set(seconds)
        }
        registry.makeGauge(descriptor: Self.descriptor("api_tasks_running", "Operations running in the task manager."))
            .set(Double(runningTasks))
        return registry.emitToBuffer()
    }

    static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

/// Counts every request by route, method and status, and times it. Outermost middleware, so
/// that it sees the status errors were turned into.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let metrics: APIMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = start.duration(to: .now)
        let (seconds, attoseconds) = elapsed.components
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: response.status.code,
            nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return response
    }
}
