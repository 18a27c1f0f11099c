/// What the rule "the same activity from several sources is one activity" (`ActivityOverlap`, docs/workout-records.md)
/// and the stats read of one session or workout record: its figures (`ActivityFigures`) with its id, source, type,
/// end and whether it carries a recording — without the detail, the blob or the samples.
public struct ActivitySpan: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case session, workout }
    public var kind: Kind
    /// The session id or the workout id.
    public var id: String
    /// A workout record's `source`; `ftms` for an uploaded session.
    public var source: String
    /// A workout record's `activity_type`; a session's machine as stored (nil without a readable recording).
    public var activityType: String?
    public var startMillis: EpochMillis
    public var endMillis: EpochMillis
    public var durationS: Double
    public var distanceM: Double?
    public var energyKcal: Double?
    /// A workout's own zone (nil for sessions, which count in the user's).
    public var timeZone: String?
    /// A session whose blob was read (complete or truncated); a workout record with samples.
    public var hasRecording: Bool
    public init(
        kind: Kind, id: String, source: String, activityType: String?, startMillis: EpochMillis, endMillis: EpochMillis,
        durationS: Double, distanceM: Double?, energyKcal: Double?, timeZone: String?, hasRecording: Bool
    ) {
        self.kind = kind; self.id = id; self.source = source; self.activityType = activityType;
        self.startMillis = startMillis
        self.endMillis = endMillis; self.durationS = durationS; self.distanceM = distanceM; self.energyKcal = energyKcal
        self.timeZone = timeZone; self.hasRecording = hasRecording
    }

    /// The figures the stats sum (`StatsService`): a workout's missing energy or distance counts 0.
    public var figures: ActivityFigures {
        ActivityFigures(
            startMillis: startMillis, timeZone: timeZone, durationS: durationS, energyKcal: energyKcal ?? 0,
            distanceM: distanceM ?? 0)
    }
}

extension StoredSession {
    public var span: ActivitySpan {
        ActivitySpan(
            kind: .session, id: sessionID.rawValue, source: "ftms", activityType: machine, startMillis: startedAt,
            endMillis: endedAt, durationS: durationS, distanceM: totalDistanceM, energyKcal: totalEnergyKcal,
            timeZone: nil,
            hasRecording: blobStatus == .complete || blobStatus == .truncated)
    }
}

extension WorkoutRecord {
    public var span: ActivitySpan {
        ActivitySpan(
            kind: .workout, id: workoutID.rawValue, source: source.rawValue, activityType: activityType,
            startMillis: startAt,
            endMillis: endAt, durationS: durationS, distanceM: distanceM, energyKcal: energyKcal, timeZone: timeZone,
            hasRecording: samplesJSON != nil)
    }
}

extension PipelineStore {
    /// The user's sessions newest first (then by id), then their workout records that are not deleted by start (then
    /// by id): the order of `activityFigures`, which the stats sum in.
    public func activitySpans(user: UserID) async throws -> (sessions: [ActivitySpan], workouts: [ActivitySpan]) {
        var sessions: [ActivitySpan] = []
        let count = try await sessionCount(user: user)
        while sessions.count < count {
            let page = try await sessionSummaries(user: user, offset: sessions.count, limit: 1000)
            if page.isEmpty { break }
            sessions += page.map(\.span)
        }
        return (sessions, try await workouts(user: user, includeDeleted: false).map(\.span))
    }
}
