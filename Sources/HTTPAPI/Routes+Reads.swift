import Hummingbird
import Store

extension Routes {
    @Sendable func getStats(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try await services.cachedJSON(request, user: caller.id, resource: "stats") { [services] in
            try await services.statsBody(for: caller.user)
        }
    }

    @Sendable func getPlan(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try await services.cachedJSON(request, user: caller.id, resource: "plan") { [services] in
            try await services.planBody(for: caller.id)
        }
    }

    @Sendable func getPlanWeek(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let selector = try WeekSelector(context.parameters.get("week") ?? "")
        let resource =
            switch selector {
            case .index(let n): "plan/weeks/\(n)"
            case .isoWeek(let year, let week): "plan/weeks/\(year)-W\(week)"
            }
        return try await services.cachedJSON(request, user: caller.id, resource: resource) { [services] in
            try await services.planWeekBody(for: caller.id, selector: selector)
        }
    }

    @Sendable func listSessions(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .historyRead)
        let page = try PageRequest(
            query: request.uri, defaultSize: services.configuration.defaultPageSize,
            maxSize: services.configuration.maxPageSize, cursors: services.cursors, user: caller.id)
        return Self.json(try await services.sessionsPage(for: caller.id, request: page))
    }

    @Sendable func listChanges(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .historyRead)
        let changes = try ChangesRequest(
            query: request.uri, defaultSize: services.configuration.defaultPageSize,
            maxSize: services.configuration.maxPageSize, cursors: services.cursors, user: caller.id)
        return Self.json(try await services.changesPage(for: caller.user, request: changes))
    }
}
