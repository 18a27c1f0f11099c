import Foundation
import OpenAPIRuntime
import PipelineClient

/// One change of the feed (`GET /v1/me/changes`), as the item is on the server now.
///
/// An item that changed several times since the cursor comes once, in its latest state; a later page can bring it
/// again when it changes again. Workout records can be deleted: their change is then a tombstone
/// (``workoutDeleted(id:)``), and the mirror drops the record.
public enum SyncChange: Sendable, Hashable {
    /// A session stored or measured by the nightly (`metrics` is nil until then).
    case session(SyncedSession)
    /// A workout record stored or updated.
    case workout(Components.Schemas.WorkoutRecord)
    /// A workout record deleted (a tombstone): the mirror removes it.
    case workoutDeleted(id: String)
    /// The user's stats view, when its figures changed.
    case stats(Components.Schemas.StatsView)
    /// A new plan version, with the reasons of an adaptation (the document itself is `GET /v1/me/plan`).
    case plan(Components.Schemas.Change.PlanPayload)

    /// The change of one item of the feed; nil when the item lacks what its kind needs (`SyncError.malformedChange`).
    init?(_ change: Components.Schemas.Change) {
        switch change.kind {
        case .session:
            guard let id = change.id, let session = change.session else { return nil }
            self = .session(SyncedSession(id: id, summary: session.value1, metrics: session.value2.metrics))
        case .workout:
            guard let id = change.id else { return nil }
            if change.deleted == true {
                self = .workoutDeleted(id: id)
            } else {
                guard let workout = change.workout else { return nil }
                self = .workout(workout)
            }
        case .stats:
            guard let stats = change.stats else { return nil }
            self = .stats(stats)
        case .plan:
            guard let plan = change.plan else { return nil }
            self = .plan(plan)
        }
    }
}

/// A session as the feed brings it: its summary (without the raw recording) and the nightly's metrics.
public struct SyncedSession: Sendable, Hashable {
    /// The session's id (`session_id`).
    public var id: String
    /// The session as `GET /v1/me/sessions` lists it.
    public var summary: Components.Schemas.SessionSummary
    /// The metrics the nightly measured; nil until it ran.
    public var metrics: OpenAPIObjectContainer?

    /// A session of the feed.
    public init(id: String, summary: Components.Schemas.SessionSummary, metrics: OpenAPIObjectContainer?) {
        self.id = id
        self.summary = summary
        self.metrics = metrics
    }
}
