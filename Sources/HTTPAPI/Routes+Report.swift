import Foundation
import Hummingbird
import Pipeline
import Store
import WorkoutMetrics

extension Routes {
    /// `GET /v1/me/report[?from=YYYY-MM-DD&to=YYYY-MM-DD]`: the signed-in user's training report
    /// (`ReportService`, the page `pipeline report` writes) as `text/html`, cached per user and window like the
    /// other reads (ETag, `Cache-Control: private`, gzip). 400 for a malformed date or window.
    @Sendable func getReport(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try services.checkRateLimit(caller.id, .historyRead)
        let parameters = request.uri.queryParameters
        func date(_ name: String) throws(APIError) -> String? {
            guard let text = parameters[Substring(name)].map(String.init) else { return nil }
            guard text.count == 10,
                text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                ),
                LocalDateCheck.valid(text)
            else { throw .badRequest("\(name) must be a date YYYY-MM-DD") }
            return text
        }
        var requestedFrom = try date("from")
        var to = try date("to")
        let zone = TimeZone(identifier: caller.user.timeZone) ?? TimeZone(identifier: "UTC")!
        let today = LocalDate.from(instant: Date(epochMillis: services.now()), in: zone)
        let report = ReportService(store: services.store, clock: services.clock)
        // The window is clamped to the days that can hold data (docs/openapi.yaml): `to` to 2000-01-01 … the later of
        // today and the plan's last day (read only for a `to` after today), so that no request costs more than the
        // largest real window.
        if let last = to.flatMap({ LocalDate(iso: $0) }) {
            var clamped = max(last, ReportService.earliestDay)
            if clamped > today { clamped = min(clamped, try await report.latestDay(caller.id, today: today)) }
            to = clamped.iso
        }
        // Any two valid dates give a page: the window is at most ten years ending on `to` (default: today in the
        // caller's zone), so an earlier `from` is moved up to it, and a `from` after `to` becomes `to` (docs/openapi.yaml).
        if let first = requestedFrom.flatMap({ LocalDate(iso: $0) }) {
            let last = to.flatMap { LocalDate(iso: $0) } ?? today
            requestedFrom = min(max(first, last.adding(days: -3_659), ReportService.earliestDay), last).iso
        }
        let from = requestedFrom, window = (from: requestedFrom, to: to)
        let resource = "report?from=\(from ?? "")&to=\(window.to ?? "")"
        let services = self.services
        var response = try await services.cachedJSON(request, user: caller.id, resource: resource) {
            do {
                return Array(try await report.html(caller.id, from: window.from, to: window.to).utf8)
            } catch let error as ReportService.ReportError {
                throw APIError.badRequest(error.description)
            }
        }
        if response.status == .ok { response.headers[.contentType] = "text/html; charset=utf-8" }
        return response
    }
}

/// A calendar date check for query parameters: month 1–12, day within the month (leap years by the Gregorian rule).
enum LocalDateCheck {
    static func valid(_ iso: String) -> Bool {
        let parts = iso.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]),
            let d = Int(parts[2]),
            (1...12).contains(m)
        else { return false }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return (1...days).contains(d)
    }
}
