import Hummingbird
import HummingbirdCore
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
        let (caller, page) = try historyRead(request, context, as: PageRequest.self)
        return Self.json(try await services.sessionsPage(for: caller.id, request: page))
    }

    @Sendable func listChanges(_ request: Request, context: APIRequestContext) async throws -> Response {
        let (caller, changes) = try historyRead(request, context, as: ChangesRequest.self)
        return Self.json(try await services.changesPage(for: caller.user, request: changes))
    }

    /// The caller of a read of their history, one page at a time (the session list, the changes feed), once the
    /// history-read rate limit lets them in, and the page asked for, read from the query with the configured sizes.
    func historyRead<Page: HistoryPageRequest>(
        _ request: Request, _ context: APIRequestContext, as _: Page.Type
    ) throws -> (Caller, Page) {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .historyRead)
        let page = try Page(
            query: request.uri, defaultSize: services.configuration.defaultPageSize,
            maxSize: services.configuration.maxPageSize, cursors: services.cursors, user: caller.id)
        return (caller, page)
    }
}

/// A page of a user's history as its query asks for it: the size (the default when absent, at most the maximum) and
/// where it starts (a cursor this server gave out to this user); 400 for anything else.
protocol HistoryPageRequest {
    init(query: URI, defaultSize: Int, maxSize: Int, cursors: OpaqueCursor, user: UserID) throws(APIError)
}

extension PageRequest: HistoryPageRequest {}
extension ChangesRequest: HistoryPageRequest {}
