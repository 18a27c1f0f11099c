/// The same activity recorded by several sources is one activity (docs/workout-records.md): a ride recorded by a
/// Garmin, present again in the Apple Health export and uploaded as an FTMS session is counted once.
///
/// Pure: a user's activities in, groups out, each with one primary (the one that counts) and the others linked to it.
/// The rule (docs/workout-records.md, "The same activity from several sources"):
///
/// - **Same activity**: two recordings are the same activity when they are of the same sport family, their time spans
///   overlap by at least `minOverlapFraction` (50 %) of the shorter span, their durations agree within
///   `durationTolerance` (25 % of the longer) and, when both have a distance, their distances agree within
///   `distanceTolerance` (20 % of the longer) or `distanceSlackM` (250 m), whichever is larger.
/// - **Durations compared like with like**: the elapsed spans (`end − start`, pauses included) when both
///   recordings have one (`Candidate.elapsedS`), else `durationS` with `durationS`. A workout's `duration_s` is moving
///   time for some sources and elapsed time for others (a TCX whose laps lost the pause), so comparing it across
///   sources split one ride with a pause in two; the spans are elapsed for every source. A 10-minute warm-up inside a
///   one-hour recording still differs (10 min against 60 min of span).
/// - **Precedence** (the primary is the richest recording): a recording with power samples, then one with other
///   samples (heart rate, speed, distance…), then a summary; within each, one with a distance (> 0) before one
///   without (a real case: an indoor ride's Edge file, power and no distance, against Zwift's, power and distance — the
///   Edge was primary and the ride counted 0 km); then by source: an FTMS session, a FIT file (`garmin_fit`),
///   Garmin's API (`garmin`), TCX, GPX, Apple Health, manual; then by id. Never by the order of import, so the result
///   is the same whatever order the recordings arrived in.
/// - **Grouping**: recordings are taken in precedence order; each joins the first group (groups in the order of their
///   primaries) holding a member it is the same activity as, else starts a group of its own as its primary. So a
///   chain of three sources is one group even when its ends do not agree with each other directly, and a group's
///   primary always precedes all its members.
public enum ActivityOverlap {
    /// Which activities can be the same: sport families (a treadmill run and an outdoor run are both `run`). The one
    /// definition and its mappings are `CivilDate`'s (`ActivityType.family`, `MachineKind.family`).
    public typealias Family = ActivityFamily

    /// How rich a recording is: the first key of the precedence.
    public enum Recording: Int, Sendable, Codable, Comparable, CaseIterable {
        /// Only a summary (duration, distance, energy, average heart rate).
        case summary = 0
        /// Samples without power (heart rate, speed, distance, position…).
        case samples = 1
        /// Samples with power (an FTMS bike, rower or cross-trainer recording; a FIT file from a power meter).
        case power = 2
        public static func < (a: Recording, b: Recording) -> Bool { a.rawValue < b.rawValue }
    }

    /// The third key of the precedence (after the recording and whether it has a distance): an FTMS session (`ftms`),
    /// then the workout sources of docs/workout-records.md; a source not listed comes last.
    public static let sourceOrder = ["ftms", "garmin_fit", "garmin", "tcx", "gpx", "apple_health", "manual"]

    public static func sourceRank(_ source: String) -> Int { sourceOrder.firstIndex(of: source) ?? sourceOrder.count }

    /// One recording of an activity.
    public struct Candidate: Sendable, Hashable {
        /// Unique among the user's activities (e.g. `session:<id>`, `workout:<id>`): the last key of the precedence.
        public var id: String
        /// `ftms` for an uploaded session, else the workout record's `source`.
        public var source: String
        public var family: Family
        public var startMillis: Int64
        /// The end of the recording (elapsed, pauses included).
        public var endMillis: Int64
        /// A workout's `duration_s` (moving time for some sources, elapsed for others), a session's duration. Compared
        /// only when one of the two recordings has no span of its own (`elapsedS` nil).
        public var durationS: Double
        /// Nil or 0: the recording has no distance (not compared, and ranked after one with a distance).
        public var distanceM: Double?
        public var recording: Recording
        public init(
            id: String, source: String, family: Family, startMillis: Int64, endMillis: Int64, durationS: Double,
            distanceM: Double?, recording: Recording
        ) {
            self.id = id; self.source = source; self.family = family; self.startMillis = startMillis;
            self.endMillis = endMillis
            self.durationS = durationS; self.distanceM = distanceM; self.recording = recording
        }

        /// The elapsed time in seconds (`end − start`, pauses included), or nil when the recording has no span of
        /// its own (its end is less than a second after its start): the figure the duration test compares when both
        /// recordings have one.
        public var elapsedS: Double? {
            endMillis &- startMillis >= 1000 ? Double(endMillis &- startMillis) / 1000 : nil
        }

        /// Whether the recording has a distance (> 0): the second key of the precedence.
        public var hasDistance: Bool { (distanceM ?? 0) > 0 }

        /// The span used for overlaps: at least one second long (a recording whose end equals its start still
        /// overlaps the recording it lies inside).
        var spanEnd: Int64 { max(endMillis, startMillis &+ 1000) }
    }

    /// The thresholds of "same activity".
    public struct Thresholds: Sendable, Equatable {
        /// Overlap of the two spans, as a fraction of the shorter span.
        public var minOverlapFraction: Double
        /// Largest difference of durations, as a fraction of the longer.
        public var durationTolerance: Double
        /// Largest difference of distances, as a fraction of the longer …
        public var distanceTolerance: Double
        /// … or this many metres, whichever is larger (GPS against a wheel or a footpod on short activities).
        public var distanceSlackM: Double
        public init(
            minOverlapFraction: Double = 0.5, durationTolerance: Double = 0.25, distanceTolerance: Double = 0.2,
            distanceSlackM: Double = 250
        ) {
            self.minOverlapFraction = minOverlapFraction; self.durationTolerance = durationTolerance
            self.distanceTolerance = distanceTolerance; self.distanceSlackM = distanceSlackM
        }
        public static let standard = Thresholds()
    }

    /// One activity: its primary (counted) and the recordings linked to it (not counted), in precedence order.
    public struct Group: Sendable, Hashable {
        public var primary: Candidate
        public var linked: [Candidate]
        public init(primary: Candidate, linked: [Candidate]) { self.primary = primary; self.linked = linked }
        public var members: [Candidate] { [primary] + linked }
    }

    /// Whether `a` comes before `b` in the precedence (a total order over distinct ids).
    public static func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.recording != b.recording { return a.recording > b.recording }
        if a.hasDistance != b.hasDistance { return a.hasDistance }
        let ra = sourceRank(a.source), rb = sourceRank(b.source)
        if ra != rb { return ra < rb }
        if a.source != b.source { return a.source < b.source }
        return a.id < b.id
    }

    /// Milliseconds the two spans share (0 when they do not overlap).
    public static func overlapMillis(_ a: Candidate, _ b: Candidate) -> Int64 {
        max(0, min(a.spanEnd, b.spanEnd) - max(a.startMillis, b.startMillis))
    }

    /// Whether two recordings are the same activity (the rule above).
    public static func sameActivity(_ a: Candidate, _ b: Candidate, thresholds t: Thresholds = .standard) -> Bool {
        guard a.family == b.family else { return false }
        let overlap = overlapMillis(a, b)
        guard overlap > 0 else { return false }
        let shorter = min(a.spanEnd - a.startMillis, b.spanEnd - b.startMillis)
        guard Double(overlap) >= t.minOverlapFraction * Double(shorter) else { return false }
        let (da, db) = comparableDurations(a, b)
        guard abs(da - db) <= t.durationTolerance * max(da, db) else { return false }
        if let da = a.distanceM, let db = b.distanceM, da > 0, db > 0 {
            guard abs(da - db) <= max(t.distanceTolerance * max(da, db), t.distanceSlackM) else { return false }
        }
        return true
    }

    /// The two durations the duration test compares, like with like: both elapsed spans when both
    /// recordings have one, else both `durationS` (moving time where the source gives one). Never one recording's
    /// moving time against the other's elapsed time.
    public static func comparableDurations(_ a: Candidate, _ b: Candidate) -> (Double, Double) {
        if let ea = a.elapsedS, let eb = b.elapsedS { return (ea, eb) }
        return (a.durationS, b.durationS)
    }

    /// The user's activities grouped: every candidate in exactly one group (a group of one when nothing matches),
    /// groups ordered by their primary's start, then id. Ids must be unique. The same set gives the same groups in
    /// whatever order it is passed.
    public static func groups(_ candidates: [Candidate], thresholds: Thresholds = .standard) -> [Group] {
        var out: [Group] = []
        out.reserveCapacity(candidates.count)
        for cluster in clusters(candidates) {
            if cluster.count == 1 {
                out.append(Group(primary: cluster[0], linked: []))
            } else {
                out += group(cluster: cluster, thresholds: thresholds)
            }
        }
        return out.sorted { ($0.primary.startMillis, $0.primary.id) < ($1.primary.startMillis, $1.primary.id) }
    }

    /// The candidates cut into clusters of overlapping spans (directly or through others), by start: only recordings
    /// of one cluster can be the same activity, so the grouping compares only within a cluster — nearly always a
    /// single recording. Sorted by start (then id), a cluster ends where no span of it reaches the next start.
    public static func clusters(_ candidates: [Candidate]) -> [[Candidate]] {
        let sorted = candidates.sorted { ($0.startMillis, $0.id) < ($1.startMillis, $1.id) }
        var out: [[Candidate]] = []
        var cluster: [Candidate] = []
        var clusterEnd = Int64.min
        for c in sorted {
            if !cluster.isEmpty && c.startMillis >= clusterEnd {
                out.append(cluster)
                cluster = []
            }
            clusterEnd = cluster.isEmpty ? c.spanEnd : max(clusterEnd, c.spanEnd)
            cluster.append(c)
        }
        if !cluster.isEmpty { out.append(cluster) }
        return out
    }

    /// The grouping of one cluster: in precedence order, each joins the first group with a member it matches.
    static func group(cluster: [Candidate], thresholds: Thresholds) -> [Group] {
        var groups: [Group] = []
        for c in cluster.sorted(by: precedes) {
            if let i = groups.firstIndex(where: { g in
                g.members.contains { sameActivity(c, $0, thresholds: thresholds) }
            }) {
                groups[i].linked.append(c)
            } else {
                groups.append(Group(primary: c, linked: []))
            }
        }
        return groups
    }
}

extension ActivityFamily {
    /// The family of a workout record's `activity_type` (docs/workout-records.md); `ActivityType.family`.
    public init(activityType: String) { self = .workout(activityType: activityType) }

    /// The family of an FTMS session's machine as stored (`MachineKind`: `indoorBike`, `rower`, `treadmill`,
    /// `crossTrainer`, …); a session without a readable recording is a ride, as the plan engine counts it.
    public init(machine: String?) { self = .session(machine: machine) }
}
