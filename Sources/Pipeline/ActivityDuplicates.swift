import Foundation
import Store
import WorkoutMetrics

/// One of a user's activities: a session or a workout record. JSON and text: `session:<id>`, `workout:<id>`.
public struct ActivityKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var kind: ActivitySpan.Kind
    public var id: String
    public init(kind: ActivitySpan.Kind, id: String) { self.kind = kind; self.id = id }
    public static func session(_ id: SessionID) -> ActivityKey { ActivityKey(kind: .session, id: id.rawValue) }
    public static func workout(_ id: WorkoutID) -> ActivityKey { ActivityKey(kind: .workout, id: id.rawValue) }
    public var description: String { "\(kind.rawValue):\(id)" }
    /// Parses `session:<id>` / `workout:<id>`.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let kind = ActivitySpan.Kind(rawValue: String(text[..<colon]))
        else { return nil }
        self.init(kind: kind, id: String(text[text.index(after: colon)...]))
    }
    public static func < (a: ActivityKey, b: ActivityKey) -> Bool { a.description < b.description }
}

/// The rule "the same activity from several sources is one activity" (`ActivityOverlap`) applied to one user's stored
/// sessions and workout records that are not deleted: which recordings are linked to another (not counted) and to
/// which primary. Computed from what is stored whenever the figures are read — the stats, the daily training load,
/// the weekly volume and the plan baseline — so a deleted primary hands over to the next recording of its group at the
/// next read, and the same records give the same figures whatever order they arrived in. A primary without a distance
/// counts the distance of the first recording of its group that has one (`distanceM(of:own:)`), so the activity's
/// distance is not lost.
public struct ActivityDuplicates: Sendable, Equatable {
    /// The groups of two or more recordings, by their primary's start.
    public var groups: [ActivityOverlap.Group]
    /// Every linked recording's primary.
    public var primaryOf: [ActivityKey: ActivityKey]
    /// The distance of each primary that has none (nil or 0) while a recording linked to it has one: the first such
    /// recording's in precedence order (docs/workout-records.md, "The same activity from several sources"). An indoor
    /// ride's Edge file with power and no distance stays the primary over the Apple Health copy without power, and the
    /// ride counts Health's distance, not 0 km.
    public var groupDistanceM: [ActivityKey: Double]

    public init(groups: [ActivityOverlap.Group]) {
        self.groups = groups.filter { !$0.linked.isEmpty }
        var primaryOf: [ActivityKey: ActivityKey] = [:]
        var groupDistanceM: [ActivityKey: Double] = [:]
        for g in self.groups {
            guard let primary = ActivityKey(g.primary.id) else { continue }
            for m in g.linked { if let key = ActivityKey(m.id) { primaryOf[key] = primary } }
            if !g.primary.hasDistance, let d = g.linked.first(where: \.hasDistance)?.distanceM {
                groupDistanceM[primary] = d
            }
        }
        self.primaryOf = primaryOf
        self.groupDistanceM = groupDistanceM
    }

    public static let none = ActivityDuplicates(groups: [])

    public var isEmpty: Bool { primaryOf.isEmpty }
    public func isLinked(_ key: ActivityKey) -> Bool { primaryOf[key] != nil }
    public func isLinked(session: SessionID) -> Bool { primaryOf.isEmpty ? false : isLinked(.session(session)) }
    public func isLinked(workout: WorkoutID) -> Bool { primaryOf.isEmpty ? false : isLinked(.workout(workout)) }
    /// The primary a recording is linked to (nil: it counts itself).
    public func primary(of key: ActivityKey) -> ActivityKey? { primaryOf[key] }

    /// The distance a counted recording contributes to the figures (stats, weekly volume, plan baseline): its own when
    /// it has one (> 0), else its group's (`groupDistanceM`), else its own (nil or 0).
    public func distanceM(of key: ActivityKey, own: Double?) -> Double? {
        if let own, own > 0 { return own }
        return groupDistanceM.isEmpty ? own : groupDistanceM[key] ?? own
    }

    /// The user's groups, from the store: the spans (`activitySpans`), and the samples of the workout records that
    /// overlap another recording (only those: the precedence needs to know whether they carry power).
    public static func resolve(store: any PipelineStore, user: UserID) async throws -> ActivityDuplicates {
        try await Activities.read(store: store, user: user).duplicates
    }

    /// As `resolve(store:user:)`, over spans already read.
    public static func resolve(store: any PipelineStore, user: UserID, spans: [ActivitySpan]) async throws
        -> ActivityDuplicates
    {
        var candidates = spans.map(candidate(_:))
        // Clusters of overlapping spans; the workout records with samples in a cluster of two or more are read to
        // find out whether their samples carry power.
        var toRead: [WorkoutID] = []
        var index: [String: Int] = [:]
        for (i, c) in candidates.enumerated() { index[c.id] = i }
        for cluster in ActivityOverlap.clusters(candidates) where cluster.count > 1 {
            for c in cluster where c.recording == .samples {
                if let key = ActivityKey(c.id), key.kind == .workout { toRead.append(WorkoutID(key.id)) }
            }
        }
        if !toRead.isEmpty {
            for w in try await store.workouts(user: user, ids: toRead) {
                if let i = index[ActivityKey.workout(w.workoutID).description] {
                    candidates[i].recording = recording(samples: w.samples)
                }
            }
        }
        return ActivityDuplicates(groups: ActivityOverlap.groups(candidates))
    }

    /// A span as the rule sees it. A session with a readable recording of a machine that measures power (bike, rower,
    /// cross-trainer) ranks as `power`, of another machine as `samples`; a workout record with samples as `samples`
    /// until they are read (`recording(samplesJSON:)`); anything else as `summary`.
    public static func candidate(_ span: ActivitySpan) -> ActivityOverlap.Candidate {
        let family: ActivityOverlap.Family
        let recording: ActivityOverlap.Recording
        switch span.kind {
        case .session:
            family = ActivityOverlap.Family(machine: span.activityType)
            recording =
                !span.hasRecording
                ? .summary
                : span.activityType.flatMap(MachineKind.init(rawValue:))?.recordsPower == true ? .power : .samples
        case .workout:
            family = ActivityOverlap.Family(activityType: span.activityType ?? "other")
            recording = span.hasRecording ? .samples : .summary
        }
        return ActivityOverlap.Candidate(
            id: ActivityKey(kind: span.kind, id: span.id).description, source: span.source, family: family,
            startMillis: span.startMillis, endMillis: span.endMillis, durationS: span.durationS,
            distanceM: span.distanceM,
            recording: recording)
    }

    /// How rich a workout record's samples are: `power` with at least one power value, `samples` with any other channel
    /// value, `summary` when they are absent or unreadable (docs/workout-records.md, "Samples").
    public static func recording(samplesJSON: String?) -> ActivityOverlap.Recording {
        recording(samples: samplesJSON.map(StoredSamples.Value.json))
    }

    /// `recording(samplesJSON:)` of samples in either stored form (`StoredSamples`).
    public static func recording(samples stored: StoredSamples.Value?) -> ActivityOverlap.Recording {
        guard let stored, let samples = WorkoutSamples.parse(stored: stored) else { return .summary }
        let channels = samples.channels
        if channels.contains(.powerW) { return .power }
        return channels.isEmpty ? .summary : .samples
    }
}
