import Foundation
import PropertyBased
import Testing

@testable import WorkoutMetrics

private typealias C = ActivityOverlap.Candidate

/// 2026-03-01T10:00:00Z, and minutes from it.
private let t0: Int64 = 1_772_359_200_000
private func at(_ minutes: Double) -> Int64 { t0 + Int64(minutes * 60_000) }

private func candidate(
    _ id: String, _ source: String, _ family: ActivityOverlap.Family, from: Double, to: Double,
    moving: Double? = nil, km: Double?, _ recording: ActivityOverlap.Recording
) -> C {
    C(
        id: id, source: source, family: family, startMillis: at(from), endMillis: at(to),
        durationS: moving ?? (to - from) * 60,
        distanceM: km.map { $0 * 1000 }, recording: recording)
}

/// The rule of `ActivityOverlap` (issue 15, item 3) on hand-made cases whose outcome is worked out in the comments.
@Suite struct ActivityOverlapTests {
    /// An FTMS ride with power, the Garmin's FIT of it and the Apple Health copy: a chain. Health agrees with the FIT
    /// (21.5 km against 26 km: 4.5 km ≤ 20 % of 26 = 5.2 km) but not with the FTMS session (8.5 km > 20 % of 30 = 6 km),
    /// and still belongs to the one activity, through the FIT.
    @Test func aChainOfThreeSourcesIsOneActivity() {
        let ftms = candidate("session:s1", "ftms", .ride, from: 0, to: 60, km: 30, .power)
        let fit = candidate("workout:gf-1", "garmin_fit", .ride, from: -1, to: 61, moving: 3550, km: 26, .power)
        let health = candidate(
            "workout:hk-1", "apple_health", .ride, from: 0.5, to: 60.5, moving: 3500, km: 21.5, .summary)
        #expect(!ActivityOverlap.sameActivity(ftms, health))
        #expect(ActivityOverlap.sameActivity(fit, health) && ActivityOverlap.sameActivity(ftms, fit))
        for order in [[ftms, fit, health], [health, fit, ftms], [fit, health, ftms]] {
            let groups = ActivityOverlap.groups(order)
            #expect(groups == [ActivityOverlap.Group(primary: ftms, linked: [fit, health])])
        }
        // The primary deleted: the FIT, richest of the rest, counts.
        #expect(ActivityOverlap.groups([health, fit]) == [ActivityOverlap.Group(primary: fit, linked: [health])])
        // Then the FIT deleted too: Health alone.
        #expect(ActivityOverlap.groups([health]) == [ActivityOverlap.Group(primary: health, linked: [])])
    }

    /// Precedence: power samples, then other samples, then a summary; within each, with a distance before without;
    /// then by source; then by id.
    @Test func theRichestRecordingIsThePrimary() {
        let healthWithHR = candidate("workout:hk-1", "apple_health", .run, from: 0, to: 45, km: 10, .samples)
        let tcx = candidate("workout:tcx-1", "tcx", .run, from: 0, to: 45, km: 10.1, .samples)
        let fitSummary = candidate("workout:gf-1", "garmin_fit", .run, from: 0, to: 45, km: 10, .summary)
        let stryd = candidate("workout:gpx-1", "gpx", .run, from: 0, to: 45, km: 9.9, .power)
        let all = [healthWithHR, tcx, fitSummary, stryd]
        #expect(
            ActivityOverlap.groups(all) == [
                ActivityOverlap.Group(primary: stryd, linked: [tcx, healthWithHR, fitSummary])
            ])
        // Same recording, same source: the smaller id, whichever came first.
        let a = candidate("workout:hk-a", "apple_health", .run, from: 0, to: 45, km: 10, .summary)
        let b = candidate("workout:hk-b", "apple_health", .run, from: 0.2, to: 45.2, km: 10, .summary)
        #expect(ActivityOverlap.groups([b, a]) == [ActivityOverlap.Group(primary: a, linked: [b])])
        // An unknown source ranks after every listed one.
        #expect(ActivityOverlap.sourceRank("strava") == ActivityOverlap.sourceOrder.count)
        #expect(ActivityOverlap.sourceRank("ftms") == 0 && ActivityOverlap.sourceRank("manual") == 6)
    }

    /// Issue 40: an indoor ride recorded by a Garmin Edge (power, no distance: no speed sensor) and by Zwift (power and
    /// a distance), both FIT files. Same recording, same source: the one with a distance is the primary, although the
    /// Edge's id sorts first (before issue 40 the id decided, and the ride counted 0 km). A distance of 0 is none.
    @Test func withPowerOnBothTheOneWithADistanceIsThePrimary() {
        let edge = candidate("workout:garmin_fit-0a", "garmin_fit", .ride, from: 0, to: 60, km: nil, .power)
        let zwift = candidate("workout:garmin_fit-ff", "garmin_fit", .ride, from: 0, to: 60, km: 30, .power)
        let edgeZero = candidate("workout:garmin_fit-00", "garmin_fit", .ride, from: 0, to: 60, km: 0, .power)
        #expect(!edge.hasDistance && !edgeZero.hasDistance && zwift.hasDistance)
        for order in [[edge, zwift], [zwift, edge]] {
            #expect(ActivityOverlap.groups(order) == [ActivityOverlap.Group(primary: zwift, linked: [edge])])
        }
        #expect(
            ActivityOverlap.groups([edgeZero, edge, zwift]) == [
                ActivityOverlap.Group(primary: zwift, linked: [edgeZero, edge])
            ])
        // The distance ranks after the recording: power without a distance still precedes samples or a summary with
        // one (the Apple Health copy of the ride), and before the source: a GPX with power and a distance precedes
        // the Edge's FIT.
        let health = candidate("workout:apple_health-1", "apple_health", .ride, from: 0, to: 60, km: 29, .summary)
        let tcx = candidate("workout:tcx-1", "tcx", .ride, from: 0, to: 60, km: 29.5, .samples)
        #expect(
            ActivityOverlap.groups([health, tcx, edge]) == [
                ActivityOverlap.Group(primary: edge, linked: [tcx, health])
            ])
        let gpx = candidate("workout:gpx-1", "gpx", .ride, from: 0, to: 60, km: 29.8, .power)
        #expect(ActivityOverlap.precedes(gpx, edge) && ActivityOverlap.precedes(zwift, gpx))
    }

    /// Two different rides back to back are two activities, also when the clocks make them overlap by 3 minutes (3 of
    /// 60 min is 5 % of the shorter, not 50 %); so are a 10-minute warm-up run inside a 60-minute recording (10 min
    /// against 60 min of duration) and a run and a ride at the same time.
    @Test func differentWorkoutsDoNotMerge() {
        let ride1 = candidate("workout:gf-1", "garmin_fit", .ride, from: 0, to: 60, km: 30, .power)
        let ride2 = candidate("workout:gf-2", "garmin_fit", .ride, from: 60, to: 120, km: 30, .power)
        #expect(ActivityOverlap.groups([ride2, ride1]).map(\.linked) == [[], []])
        let skewed = candidate("workout:hk-2", "apple_health", .ride, from: 57, to: 120, km: 30, .summary)
        #expect(ActivityOverlap.groups([ride1, skewed]).count == 2)
        // A Health summary spanning both rides matches neither (120 min against 60: 50 % apart).
        let both = candidate("workout:hk-3", "apple_health", .ride, from: 0, to: 120, km: 60, .summary)
        #expect(ActivityOverlap.groups([ride1, ride2, both]).count == 3)
        let warmUp = candidate("workout:hk-4", "apple_health", .run, from: 10, to: 20, km: 2, .summary)
        let longRun = candidate("workout:gf-5", "garmin_fit", .run, from: 0, to: 60, km: 12, .samples)
        #expect(ActivityOverlap.groups([warmUp, longRun]).count == 2)
        let runNow = candidate("workout:gf-6", "garmin_fit", .run, from: 0, to: 60, km: 12, .samples)
        #expect(ActivityOverlap.groups([ride1, runNow]).count == 2)
    }

    /// The thresholds at their edges: an overlap of exactly half the shorter span merges, a millisecond less does not;
    /// durations 25 % apart merge, more do not; distances 250 m apart merge on a short run (more than 20 %), 251 m not.
    @Test func thresholdEdges() {
        let a = C(
            id: "a", source: "gpx", family: .walk, startMillis: 0, endMillis: 600_000, durationS: 600, distanceM: nil,
            recording: .summary)
        var b = C(
            id: "b", source: "tcx", family: .walk, startMillis: 300_000, endMillis: 900_000, durationS: 600,
            distanceM: nil,
            recording: .summary)
        #expect(ActivityOverlap.sameActivity(a, b))
        b.startMillis += 1; b.endMillis += 1
        #expect(!ActivityOverlap.sameActivity(a, b))
        // Durations: both have spans, so the spans are compared (issue 40) — 600 s against 800 s is 200 of 800 = 25 %.
        b.startMillis = 0; b.endMillis = 800_000
        #expect(ActivityOverlap.sameActivity(a, b))
        b.endMillis = 800_001
        #expect(!ActivityOverlap.sameActivity(a, b))
        // Equal spans: `durationS` (moving for one, elapsed for the other) is not what is compared.
        b.endMillis = 600_000; b.durationS = 801
        #expect(ActivityOverlap.sameActivity(a, b))
        b.durationS = 600
        var a2 = a
        a2.distanceM = 1000; b.distanceM = 1250
        #expect(ActivityOverlap.sameActivity(a2, b))
        b.distanceM = 1251
        #expect(!ActivityOverlap.sameActivity(a2, b))
        b.distanceM = 0 // no distance: not compared
        #expect(ActivityOverlap.sameActivity(a2, b))
        // A recording whose end is its start counts as one second long: inside the other, it overlaps all of it.
        let instant = C(
            id: "c", source: "manual", family: .walk, startMillis: 100_000, endMillis: 100_000, durationS: 500,
            distanceM: nil, recording: .summary)
        #expect(ActivityOverlap.overlapMillis(a, instant) == 1000)
        #expect(ActivityOverlap.sameActivity(a, instant))
        // It has no span of its own, so `durationS` is compared with `durationS`: 500 against 600 s (100 ≤ 150) merges,
        // 450 against 600 (150 ≤ 150) too, 449 (151 > 150) not.
        #expect(instant.elapsedS == nil && a.elapsedS == 600)
        var shorter = instant
        shorter.durationS = 450
        #expect(ActivityOverlap.sameActivity(a, shorter))
        shorter.durationS = 449
        #expect(!ActivityOverlap.sameActivity(a, shorter))
    }

    /// Issue 40: ride 5039744860 as FIT (93.7 s moving), TCX (126 s: its laps lost the pause) and GPX, the three over
    /// the same 126 s of clock. Compared on `duration_s`, the FIT and the TCX were 32.3 s apart, more than 25 % of 126 s
    /// (31.5 s), and the ride counted twice. Compared on their spans (126 s each), they are one activity, whatever the
    /// order.
    @Test func aPauseDoesNotSplitOneRideAcrossSources() {
        let start = at(0), end = at(0) + 126_000
        let fit = C(
            id: "workout:garmin_fit-1", source: "garmin_fit", family: .ride, startMillis: start, endMillis: end,
            durationS: 93.7, distanceM: 620, recording: .samples)
        let tcx = C(
            id: "workout:tcx-1", source: "tcx", family: .ride, startMillis: start, endMillis: end, durationS: 126,
            distanceM: 615, recording: .samples)
        let gpx = C(
            id: "workout:gpx-1", source: "gpx", family: .ride, startMillis: start, endMillis: end, durationS: 110,
            distanceM: 640, recording: .samples)
        // The old comparison, by hand: |93.7 − 126| = 32.3 > 0.25 · 126 = 31.5.
        #expect(abs(93.7 - 126.0) > 31.5)
        #expect(ActivityOverlap.comparableDurations(fit, tcx) == (126, 126))
        #expect(ActivityOverlap.sameActivity(fit, tcx) && ActivityOverlap.sameActivity(fit, gpx))
        for order in [[fit, tcx, gpx], [gpx, tcx, fit], [tcx, gpx, fit], [tcx, fit, gpx]] {
            #expect(ActivityOverlap.groups(order) == [ActivityOverlap.Group(primary: fit, linked: [tcx, gpx])])
        }
        // A longer pause: a FIT of 90 min of clock with 60 min moving and the Health copy giving 90 min (elapsed) as
        // its duration — 30 of 90 min apart on `duration_s` (33 %), equal spans: one activity.
        let cafeFIT = candidate("workout:gf-2", "garmin_fit", .ride, from: 0, to: 90, moving: 3600, km: 40, .power)
        let cafeHealth = candidate("workout:hk-2", "apple_health", .ride, from: 0, to: 90, km: 39, .summary)
        let cafeGroups = ActivityOverlap.groups([cafeHealth, cafeFIT])
        #expect(cafeGroups == [ActivityOverlap.Group(primary: cafeFIT, linked: [cafeHealth])])
    }

    /// Issue 40: comparing spans keeps a 10-minute warm-up inside a one-hour recording apart, also when the hour's
    /// moving time (50 min, a pause) and the warm-up's are compared nowhere: spans 600 s against 3,600 s.
    @Test func aWarmUpInsideALongRecordingStaysSeparate() {
        let warmUp = candidate("workout:hk-4", "apple_health", .run, from: 10, to: 20, km: 2, .summary)
        let longRun = candidate("workout:gf-5", "garmin_fit", .run, from: 0, to: 60, moving: 3000, km: 10, .samples)
        #expect(ActivityOverlap.comparableDurations(warmUp, longRun) == (600, 3600))
        #expect(!ActivityOverlap.sameActivity(warmUp, longRun))
        let groups = ActivityOverlap.groups([warmUp, longRun])
        #expect(groups.count == 2 && groups.allSatisfy { $0.linked.isEmpty })
    }

    @Test func familiesOfTypesAndMachines() {
        #expect(ActivityOverlap.Family(activityType: "treadmill_running") == .run)
        #expect(ActivityOverlap.Family(activityType: "trail_running") == .run)
        #expect(ActivityOverlap.Family(activityType: "indoor_cycling") == .ride)
        #expect(ActivityOverlap.Family(activityType: "hiking") == .walk)
        #expect(ActivityOverlap.Family(activityType: "indoor_rowing") == .row)
        #expect(ActivityOverlap.Family(activityType: "yoga") == .other)
        #expect(ActivityOverlap.Family(machine: "treadmill") == .run)
        #expect(ActivityOverlap.Family(machine: "rower") == .row)
        #expect(ActivityOverlap.Family(machine: "indoorBike") == .ride)
        #expect(ActivityOverlap.Family(machine: nil) == .ride)
        #expect(ActivityOverlap.Family(machine: "crossTrainer") == .elliptical)
    }
}

// MARK: - Properties

/// One generated activity and 0–2 other recordings of it (other sources, clocks a little off, distance a little off).
struct ActivitySpec: Sendable, CustomStringConvertible {
    var startMin = 0, lengthMin = 1, family = 0, source = 0, recording = 0, movingPct = 100, distanceM = -1, copies = 0

    static let families: [ActivityOverlap.Family] = [.run, .ride, .walk]
    static let sources = ActivityOverlap.sourceOrder + ["strava"]

    var description: String {
        "Spec(start \(startMin), len \(lengthMin), fam \(family), src \(source), rec \(recording), moving \(movingPct) %, dist \(distanceM), copies \(copies))"
    }

    /// The recordings: the activity, then its copies, ids `<prefix>-<k>`.
    func candidates(_ prefix: String) -> [ActivityOverlap.Candidate] {
        (0...copies).map { k in
            let shift = Int64(k) * Int64(max(1, lengthMin / 20)) * 60_000 * (k % 2 == 0 ? 1 : -1)
            let start = t0 + Int64(startMin) * 60_000 + shift
            let end = start + Int64(lengthMin) * 60_000 - Int64(k) * 30_000
            let moving = Double(lengthMin * 60 * movingPct) / 100 * (1 - 0.04 * Double(k))
            let distance: Double? = distanceM < 0 ? nil : Double(distanceM) * (1 + 0.05 * Double(k))
            return ActivityOverlap.Candidate(
                id: "\(prefix)-\(k)", source: Self.sources[(source + 3 * k) % Self.sources.count],
                family: Self.families[family], startMillis: start, endMillis: max(start, end),
                durationS: max(1, moving),
                distanceM: distance, recording: ActivityOverlap.Recording(rawValue: (recording + k) % 3)!)
        }
    }

    static var generator: Generator<ActivitySpec, AnySequence<Any>> {
        zip(
            Gen.int(in: 0...720), Gen.int(in: 1...150), Gen.int(in: 0...2), Gen.int(in: 0...(sources.count - 1)),
            Gen.int(in: 0...2), Gen.int(in: 55...100), Gen.int(in: -1...40_000), Gen.int(in: 0...2)
        )
        .map { s, l, f, src, r, m, d, c in
            ActivitySpec(
                startMin: s, lengthMin: l, family: f, source: src, recording: r, movingPct: m, distanceM: d, copies: c)
        }
        .eraseToAny()
    }
}

/// The rule written again, independently of `ActivityOverlap` (integer milliseconds, the thresholds as fractions
/// multiplied out), to check the groups against.
enum Reference {
    static func sameActivity(_ a: ActivityOverlap.Candidate, _ b: ActivityOverlap.Candidate) -> Bool {
        if a.family != b.family { return false }
        let endA = a.endMillis > a.startMillis + 1000 ? a.endMillis : a.startMillis + 1000
        let endB = b.endMillis > b.startMillis + 1000 ? b.endMillis : b.startMillis + 1000
        let overlap = Swift.min(endA, endB) - Swift.max(a.startMillis, b.startMillis)
        let shorter = Swift.min(endA - a.startMillis, endB - b.startMillis)
        if overlap <= 0 || 2 * overlap < shorter { return false }
        // Like with like (issue 40): the spans in whole milliseconds when both are at least a second long, else the
        // durations as given.
        let spanA = a.endMillis - a.startMillis, spanB = b.endMillis - b.startMillis
        if spanA >= 1000 && spanB >= 1000 {
            if 4 * abs(spanA - spanB) > Swift.max(spanA, spanB) { return false }
        } else if 4 * abs(a.durationS - b.durationS) > Swift.max(a.durationS, b.durationS) {
            return false
        }
        if let da = a.distanceM, let db = b.distanceM, da > 0, db > 0,
            abs(da - db) > Swift.max(Swift.max(da, db) / 5, 250)
        {
            return false
        }
        return true
    }

    /// The precedence as a sort key: richer first, then with a distance (> 0) before without (issue 40), then the
    /// source's place in the documented list, then the id.
    static func key(_ c: ActivityOverlap.Candidate) -> (Int, Int, Int, String, String) {
        let rank =
            ["ftms", "garmin_fit", "garmin", "tcx", "gpx", "apple_health", "manual"].firstIndex(of: c.source) ?? 7
        let withoutDistance = c.distanceM.map { $0 > 0 ? 0 : 1 } ?? 1
        return (-c.recording.rawValue, withoutDistance, rank, c.source, c.id)
    }
    static func precedes(_ a: ActivityOverlap.Candidate, _ b: ActivityOverlap.Candidate) -> Bool { key(a) < key(b) }
}

@Suite(.shrinking) struct ActivityOverlapPropertyTests {
    static var count: Int { ProcessInfo.processInfo.environment["OVERLAP_PROPERTY_COUNT"].flatMap(Int.init) ?? 400 }

    static func flatten(_ specs: [ActivitySpec]) -> [ActivityOverlap.Candidate] {
        specs.enumerated().flatMap { i, s in s.candidates("a\(i)") }
    }

    /// Order independence, a partition, counts that add up, every link justified by the rule, primaries first by
    /// precedence, and no group that should have taken a later primary.
    @Test func groupsOfAnyActivitySet() async {
        var linkedTotal = 0
        await propertyCheck(
            count: Self.count, input: ActivitySpec.generator.array(of: 0...12), Gen.int(in: 0...1_000_000)
        ) { specs, seed in
            let all = Self.flatten(specs)
            let groups = ActivityOverlap.groups(all)
            // The same set in any order: the same groups.
            var rng = SplitMix64(seed: UInt64(seed))
            #expect(ActivityOverlap.groups(all.shuffled(using: &rng)) == groups)
            #expect(ActivityOverlap.groups(all.reversed()) == groups)
            // Each activity in exactly one group; the counts add up.
            let members = groups.flatMap(\.members).map(\.id)
            #expect(members.sorted() == all.map(\.id).sorted())
            #expect(groups.count + groups.map(\.linked.count).reduce(0, +) == all.count)
            linkedTotal += groups.map(\.linked.count).reduce(0, +)
            for (gi, g) in groups.enumerated() {
                for (i, m) in g.linked.enumerated() {
                    // Linked to a recording of its group that precedes it and is the same activity (so never without
                    // an overlap).
                    let earlier = [g.primary] + g.linked[..<i]
                    #expect(
                        earlier.contains { Reference.sameActivity(m, $0) }, "\(m.id) linked without a match in \(g)")
                    #expect(Reference.precedes(g.primary, m))
                }
                let inPrecedenceOrder = zip(g.linked, g.linked.dropFirst()).allSatisfy { Reference.precedes($0, $1) }
                #expect(inPrecedenceOrder)
                // A primary matches no recording of another group that precedes it (it would have joined that group).
                for (hi, h) in groups.enumerated() where hi != gi {
                    for m in h.members where Reference.precedes(m, g.primary) {
                        #expect(
                            !Reference.sameActivity(g.primary, m), "\(g.primary.id) should have joined \(h.primary.id)")
                    }
                }
            }
            // By start of their primary.
            let byStart = zip(groups, groups.dropFirst()).allSatisfy {
                ($0.primary.startMillis, $0.primary.id) <= ($1.primary.startMillis, $1.primary.id)
            }
            #expect(byStart)
        }
        // The generator makes duplicates often enough for the checks above to mean something.
        #expect(linkedTotal > Self.count / 2)
    }

    /// Recordings that do not overlap in time are never merged, however alike: back-to-back copies of one activity.
    @Test func noMergeWithoutOverlap() async {
        await propertyCheck(count: Self.count, input: ActivitySpec.generator.array(of: 1...12)) { specs in
            var next = t0
            var all: [ActivityOverlap.Candidate] = []
            for (i, s) in specs.enumerated() {
                var c = s.candidates("b\(i)")[0]
                let length = c.endMillis - c.startMillis
                c.startMillis = next
                c.endMillis = next + length
                // back to back, or a gap
                next = Swift.max(c.endMillis, c.startMillis + 1000) + Int64(s.movingPct % 3) * 60_000
                all.append(c)
            }
            let groups = ActivityOverlap.groups(all)
            #expect(groups.count == all.count)
            let unlinked = groups.filter { !$0.linked.isEmpty }.count
            #expect(unlinked == 0)
        }
    }
}
