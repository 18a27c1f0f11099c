import Foundation
import Hummingbird
import HummingbirdCore
import Ingest
import Store

/// `GET /v1/me/sessions?page=&size=`: newest first, `page` 1-based (default 1), `size` default
/// `defaultPageSize`, capped at `maxPageSize` (a larger size is answered with the cap, which
/// `meta.size` reports).
struct SessionsPage: Encodable {
    var sessions: [SessionSummary]
    var meta: PageMeta
}

/// The paging metadata the apps expect (Locify's shape).
struct PageMeta: Encodable, Equatable {
    var totalCount: Int
    var totalPages: Int
    var page: Int
    var size: Int
    enum CodingKeys: String, CodingKey { case totalCount = "total_count", totalPages = "total_pages", page, size }
}

/// A stored session without its raw recording, in the upload's names.
struct SessionSummary: Encodable {
    var sessionID: String
    var startedAt: String
    var endedAt: String
    var duration: Double
    var totalEnergy: Double
    var totalDistance: Double
    var detail: JSONValue
    var machine: String?
    var blobStatus: String
    var source: String
    var receivedAt: String

    init(_ s: StoredSession) {
        sessionID = s.sessionID.rawValue
        startedAt = s.startedAtText
        endedAt = s.endedAtText
        duration = s.durationS
        totalEnergy = s.totalEnergyKcal
        totalDistance = s.totalDistanceM
        detail = (try? JSONDecoder().decode(JSONValue.self, from: Data(s.detailJSON.utf8))) ?? .null
        machine = s.machine
        blobStatus = s.blobStatus.rawValue
        source = s.source
        receivedAt = RFC3339.format(millis: s.receivedAt)
    }

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id", startedAt = "started_at", endedAt = "ended_at", duration
        case totalEnergy = "total_energy", totalDistance = "total_distance", detail, machine
        case blobStatus = "blob_status", source, receivedAt = "received_at"
    }
}

struct PageRequest: Equatable {
    var page: Int
    var size: Int

    /// Reads `page` and `size`; 400 for anything but positive integers.
    init(query: URI, defaultSize: Int, maxSize: Int) throws(APIError) {
        let parameters = query.queryParameters
        func positive(_ name: String) throws(APIError) -> Int? {
            guard let text = parameters[Substring(name)] else { return nil }
            guard let value = Int(text), value >= 1 else { throw .badRequest("\(name) must be a positive integer") }
            return value
        }
        page = try positive("page") ?? 1
        let asked = try positive("size") ?? defaultSize
        // Within the documented range (docs/openapi.yaml: 1 … 1,000,000), a size over the server's page limit is capped.
        guard page <= 1_000_000, asked <= 1_000_000 else { throw .badRequest("page and size go up to 1000000") }
        size = min(asked, maxSize)
    }
}

extension APIServices {
    func sessionsPage(for user: UserID, request: PageRequest) async throws -> [UInt8] {
        let total = try await store.sessionCount(user: user)
        let offset = (request.page - 1) * request.size
        let sessions = offset < total
            ? try await store.sessionSummaries(user: user, offset: offset, limit: request.size) : []
        let page = SessionsPage(
            sessions: sessions.map(SessionSummary.init),
            meta: PageMeta(totalCount: total, totalPages: (total + request.size - 1) / request.size,
                           page: request.page, size: request.size))
        return Array(try JSONEncoder.api.encode(page))
    }
}
