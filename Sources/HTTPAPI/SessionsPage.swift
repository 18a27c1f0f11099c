import Foundation
import Hummingbird
import HummingbirdCore
import Ingest
import Pipeline
import Store

/// `GET /v1/me/sessions?page=&size=` or `?cursor=&size=`: newest first (then session id), `size` default
/// `defaultPageSize`, capped at `maxPageSize` (a larger size is answered with the cap, which `meta.size` reports).
///
/// Two ways through the list: `page` (1-based, default 1: offset paging, Locify's shape), or `cursor`, the opaque
/// `meta.next_cursor` of the page before (keyset paging: a page goes on after the last session the client saw, so
/// sessions that arrive meanwhile neither shift nor repeat the pages). Every page carries `next_cursor`, null after the
/// last, so a client may start with `page` and go on with cursors.
struct SessionsPage: Encodable {
    var sessions: [SessionSummary]
    var meta: PageMeta
}

/// The paging metadata the apps expect (Locify's shape), with the keyset cursor; `page` is absent on a cursor's page.
struct PageMeta: Encodable, Equatable {
    var totalCount: Int
    var totalPages: Int
    var page: Int?
    var size: Int
    /// null after the last page.
    @NullWhenAbsent var nextCursor: String?
    enum CodingKeys: String, CodingKey {
        case totalCount = "total_count", totalPages = "total_pages", page, size, nextCursor = "next_cursor"
    }
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
    /// `session:<id>` or `workout:<id>`: the primary recording of the same activity when this one is linked to it and
    /// not counted (`ActivityDuplicates`, docs/workout-files.md); null when it counts itself.
    @NullWhenAbsent var duplicateOf: String?

    init(_ s: StoredSession, duplicates: ActivityDuplicates) {
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
        duplicateOf = duplicates.primary(of: .session(s.sessionID))?.description
    }

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id", startedAt = "started_at", endedAt = "ended_at", duration
        case totalEnergy = "total_energy", totalDistance = "total_distance", detail, machine
        case blobStatus = "blob_status", source, receivedAt = "received_at", duplicateOf = "duplicate_of"
    }
}

struct PageRequest: Equatable {
    var page: Int
    var size: Int
    /// Where a keyset page goes on (`cursor`); `page` is then 1 and not reported.
    var after: SessionPageKey?

    /// Reads `page`, `size` and `cursor`; 400 for anything but positive integers or a cursor this server did not give
    /// out.
    init(query: URI, defaultSize: Int, maxSize: Int, cursors: OpaqueCursor, user: UserID) throws(APIError) {
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
        // With a cursor, `page` is not used (the document cannot say "one or the other" of two query parameters).
        if let cursor = parameters[Substring("cursor")] {
            after = try cursors.sessionKey(cursor, user: user)
            page = 1
        }
    }
}

extension APIServices {
    func sessionsPage(for user: UserID, request: PageRequest) async throws -> [UInt8] {
        let total = try await store.sessionCount(user: user)
        let sessions: [StoredSession]
        if let after = request.after {
            sessions = try await store.sessionSummaries(user: user, after: after, limit: request.size)
        } else {
            let offset = (request.page - 1) * request.size
            sessions =
                offset < total ? try await store.sessionSummaries(user: user, offset: offset, limit: request.size) : []
        }
        // A full page may have a successor; a short one is the last.
        let next =
            sessions.count == request.size
            ? sessions.last.map {
                cursors.sessions(SessionPageKey(startedAt: $0.startedAt, sessionID: $0.sessionID), user: user)
            } : nil
        // Links are derived from what is stored at this read (a deleted primary hands over to the next recording).
        let duplicates =
            sessions.isEmpty ? ActivityDuplicates.none : try await ActivityDuplicates.resolve(store: store, user: user)
        let page = SessionsPage(
            sessions: sessions.map { SessionSummary($0, duplicates: duplicates) },
            meta: PageMeta(
                totalCount: total, totalPages: (total + request.size - 1) / request.size,
                page: request.after == nil ? request.page : nil, size: request.size, nextCursor: next))
        return try APIJSON.encode(page)
    }
}
