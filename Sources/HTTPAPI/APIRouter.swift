import Cache
import Hummingbird
import Store

/// The API's routes (see docs/openapi.yaml, kept in step by a test):
///
/// | route | auth | |
/// |---|---|---|
/// | `GET /healthz` | no | liveness, trivial |
/// | `GET /metrics` | token | Prometheus text; `PIPELINE_METRICS_TOKEN`, or no token on a loopback listener only |
/// | `GET /v1/me/stats` | yes | cached, ETag |
/// | `PATCH /v1/me/stats` | yes | the app's own figures |
/// | `GET /v1/me/plan` | yes | cached, ETag |
/// | `GET /v1/me/plan/weeks/{week}` | yes | cached, ETag; `3` or `2026-W14` |
/// | `GET /v1/me/sessions` | yes | paged (page or keyset cursor), newest first |
/// | `GET /v1/me/changes` | yes | delta sync: what changed since a cursor |
/// | `GET /v1/me/report` | yes | text/html training report; cached, ETag |
/// | `POST /v1/sessions/batch_upload` | yes | rate-limited; the inbox's code path |
/// | `POST /v1/me/files` | yes | a workout file (FIT, TCX, GPX, Health export); rate-limited like uploads |
/// | `POST /v1/me/recompute` | yes | rate-limited; joined per user |
/// | `DELETE /v1/me` | yes | GDPR hard delete, 204 |
public func buildRouter(services: APIServices) -> Router<APIRequestContext> {
    let router = Router(context: APIRequestContext.self)
    router.add(middleware: MetricsMiddleware(metrics: services.metrics))
    router.add(middleware: ErrorMiddleware())
    let allowed = AllowedMethods()
    router.add(middleware: MethodNotAllowedMiddleware(allowed: allowed))
    let routes = Routes(services: services)

    router.get("healthz", use: routes.health)
    router.get("metrics", use: routes.metrics)

    let v1 = router.group("v1").add(middleware: AuthMiddleware(services: services))
    v1.get("me/stats", use: routes.getStats)
    v1.patch("me/stats", use: routes.patchStats)
    v1.get("me/plan", use: routes.getPlan)
    v1.get("me/plan/weeks/:week", use: routes.getPlanWeek)
    v1.get("me/sessions", use: routes.listSessions)
    v1.get("me/changes", use: routes.listChanges)
    v1.get("me/report", use: routes.getReport)
    v1.post("sessions/batch_upload", use: routes.batchUpload)
    v1.post("me/files", use: routes.uploadFile)
    v1.post("me/recompute", use: routes.recompute)
    v1.delete("me", use: routes.deleteMe)
    allowed.load(router.routes.map { (path: $0.path.description, method: $0.method) })
    return router
}

/// The handlers, each a thin adapter from HTTP to `APIServices`.
struct Routes: Sendable {
    let services: APIServices

    static let healthBody = ByteBuffer(string: #"{"status":"ok"}"#)

    @Sendable func health(_ request: Request, context: APIRequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: Self.healthBody))
    }

    @Sendable func metrics(_ request: Request, context: APIRequestContext) throws -> Response {
        try services.authorizeMetrics(request)
        let caches: [(name: String, statistics: CacheStatistics)] = [
            (services.responseCache.cacheName, services.responseCache.statistics),
            (services.userCache.cacheName, services.userCache.statistics),
        ]
        let text = services.metrics.render(caches: caches, runningTasks: services.taskManager.runningTaskIDs.count)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
