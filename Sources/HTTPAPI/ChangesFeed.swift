import Foundation
import Hummingbird
import HummingbirdCore
import Ingest
import Pipeline
import Store

/// `GET /v1/me/changes?since=&size=`: the apps' delta sync (the seed's flow: download what changed since the last
/// sync, upsert it, keep the new cursor). What changed for the caller after `since` (from the start without it), oldest
/// change first: sessions (stored or newly measured, with their metrics), workout records (updated, or deleted as a
/// tombstone), stats (when the figures changed), plan versions (with the reasons of an adaptation). An item changed
/// several times appears once, as it is now. `next_cursor` goes on after the page (the same cursor when nothing
/// changed, so a client always stores what it got); `has_more` says whether to ask again at once.
///
/// Nothing is missed between two reads, whatever the writers do at the same time: the store hands out positions in
/// commit order (see migration 0012).
struct ChangesPage: Encodable {
    var changes: [JSONValue]
    var nextCursor: String
    var hasMore: Bool
    enum CodingKeys: String, CodingKey { case changes, nextCursor = "next_cursor", hasMore = "has_more" }
}

struct ChangesRequest {
    var since: ChangeCursor?
    var size: Int

    init(query: URI, defaultSize: Int, maxSize: Int, cursors: OpaqueCursor, user: UserID) throws(APIError) {
        let parameters = query.queryParameters
        since = try parameters[Substring("since")].map { text throws(APIError) in
            try cursors.changeCursor(text, user: user)
        }
        var asked = defaultSize
        if let text = parameters[Substring("size")] {
            guard let value = Int(text), value >= 1, value <= 1_000_000 else {
                throw .badRequest("size must be a positive integer up to 1000000")
            }
            asked = value
        }
        size = min(asked, maxSize)
    }
}

extension APIServices {
    func changesPage(for user: User, request: ChangesRequest) async throws -> [UInt8] {
        // One more than asked says whether there is more.
        let changes = try await store.changes(user: user.id, after: request.since, limit: request.size + 1)
        let page = changes.prefix(request.size)
        // Links between recordings of one activity as they are at this read (`duplicate_of`).
        let recordings = page.contains {
            switch $0.item {
            case .session, .workout: true
            case .stats, .plan: false
            }
        }
        let duplicates =
            recordings ? try await ActivityDuplicates.resolve(store: store, user: user.id) : ActivityDuplicates.none
        var items: [JSONValue] = []
        for change in page { items.append(try await changeItem(change, user: user, duplicates: duplicates)) }
        let next = page.last?.cursor ?? request.since ?? ChangeCursor(transaction: 0, sequence: 0)
        return try APIJSON.encode(
            ChangesPage(
                changes: items, nextCursor: cursors.changes(next, user: user.id),
                hasMore: changes.count > request.size))
    }

    private func changeItem(_ change: Change, user: User, duplicates: ActivityDuplicates) async throws -> JSONValue {
        var object: [String: JSONValue] = ["kind": .string(change.kind.rawValue)]
        switch change.item {
        case .session(let session, let metrics):
            object["id"] = .string(session.sessionID.rawValue)
            var body = try JSONValue.from(SessionSummary(session, duplicates: duplicates)).objectValue ?? [:]
            body["metrics"] =
                metrics.map {
                    storedDocument($0.metricsJSON, kind: "session_metrics", id: session.sessionID.rawValue)
                } ?? .null
            object["session"] = .object(body)
        case .workout(let workout):
            object["id"] = .string(workout.workoutID.rawValue)
            object["deleted"] = .bool(workout.deleted)
            if !workout.deleted { object["workout"] = Self.workoutBody(workout, duplicates: duplicates) }
        case .stats:
            object["stats"] = try JSONValue.from(try await statsView(for: user))
        case .plan(let plan):
            object["id"] = .string(String(plan.version))
            var body: [String: JSONValue] = [
                "version": .number(Double(plan.version)),
                "generated_at": .string(RFC3339.format(millis: plan.generatedAt)),
                "state": .string(plan.state.rawValue),
            ]
            // The adaptation's reasons (docs/plan-format.md: `adaptation.reasons`), empty for a first plan.
            let document = storedDocument(plan.documentJSON, kind: "plan", id: String(plan.version))
            body["reasons"] = document["adaptation"]?["reasons"] ?? .array([])
            object["plan"] = .object(body)
        }
        return .object(object)
    }

    /// A stored JSON column as the feed passes it on. One that does not read back (the pipeline wrote it, so it is a
    /// damaged row) is `null` in the feed, logged with its kind and id and counted
    /// (`api_unreadable_documents_total{kind}`): never silently, and never failing the user's whole page.
    func storedDocument(_ json: String, kind: String, id: String) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        } catch {
            logger.error(
                "stored document does not read back", metadata: ["document.kind": "\(kind)", "document.id": "\(id)"])
            metrics.count("unreadable_documents", "kind", kind)
            return .null
        }
    }

    /// A workout record in its own names (docs/workout-records.md), without `user_id` and `samples`, with
    /// `duplicate_of`: the primary recording of the same activity when this one is linked to it (`ActivityDuplicates`),
    /// null when it counts itself.
    static func workoutBody(_ w: WorkoutRecord, duplicates: ActivityDuplicates) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        return .object([
            "id": .string(w.workoutID.rawValue), "source": .string(w.source.rawValue),
            "updated_at": .string(RFC3339.format(millis: w.updatedAt)), "deleted": .bool(w.deleted),
            "activity_type": .string(w.activityType), "start": .string(RFC3339.format(millis: w.startAt)),
            "end": .string(RFC3339.format(millis: w.endAt)), "duration_s": .number(w.durationS),
            "distance_m": number(w.distanceM), "energy_kcal": number(w.energyKcal), "avg_hr": number(w.avgHR),
            "max_hr": number(w.maxHR), "elevation_gain_m": number(w.elevationGainM),
            "time_zone": w.timeZone.map { .string($0) } ?? .null,
            "duplicate_of": duplicates.primary(of: .workout(w.workoutID)).map { .string($0.description) } ?? .null,
        ])
    }
}

extension JSONValue {
    /// The JSON value of an `Encodable`, in the API's encoding (`APIJSON`): the value the API's text of it reads back
    /// as, taken from the package's JSON writer's tree without writing and parsing the text.
    static func from(_ value: some Encodable) throws -> JSONValue {
        JSONValue(try SortedJSONEncoder.encode(value, numbers: .asEncoded))
    }

    init(_ tree: SortedJSON) {
        switch tree {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .number(Double(i))
        case .uint(let u): self = .number(Double(u))
        case .double(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.mapValues(JSONValue.init))
        }
    }
}
