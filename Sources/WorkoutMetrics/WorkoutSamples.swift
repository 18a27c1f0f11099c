import Foundation

/// The samples of a workout record (HealthKit, Garmin; `docs/workout-records.md`, "Samples") and their
/// resampling onto the 1 Hz grid the metric definitions work on (docs/metrics.md, "Resampling").
///
/// Format: a JSON array of objects, each with `t` (seconds since the workout's start, a number ≥ 0) and any of
/// the channels `hr_bpm`, `power_w`, `cadence_rpm`, `speed_mps`, `distance_m` (cumulative), `altitude_m`,
/// `grade` (a fraction); `null` or an absent key is no value. Sources sample at their own rates (HealthKit HR
/// every few seconds, Garmin every second or "smart" recording), hence the resampling.
public struct WorkoutSamples: Sendable, Equatable {
    public enum Channel: String, Sendable, CaseIterable {
        case hrBpm = "hr_bpm", powerW = "power_w", cadenceRpm = "cadence_rpm", speedMps = "speed_mps"
        case distanceM = "distance_m", altitudeM = "altitude_m", grade
    }

    /// One sample: its time (s since start) and the channels it carries.
    public struct Sample: Sendable, Equatable {
        public var t: Double
        public var values: [Channel: Double]
        public init(t: Double, values: [Channel: Double]) { self.t = t; self.values = values }
    }

    /// Samples sorted by time (stable for equal times).
    public var samples: [Sample]

    public init(samples: [Sample]) {
        self.samples = samples.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(
            \.element)
    }

    /// The latest sample time read: 7 days, as long as a workout file may last (`IngestLimits.maxWorkoutFileDurationS`,
    /// for ultra events, brevets, 24-hour races). A later `t` is not this format.
    public static let maxSampleTimeS = 7.0 * 86_400
    /// Gaps longer than this stay gaps (docs/metrics.md, "Resampling": 10 s).
    public static let maxGapS = 10.0
    /// Altitude-derived grade is taken over this many seconds, and only over at least `gradeMinDistanceM`.
    public static let gradeWindowS = 10
    public static let gradeMinDistanceM = 10.0

    /// Parses the samples text of a record; nil when it is not this format (not an array of objects with a
    /// finite `t` ≥ 0, or a channel value that is not a finite number or null), or has no sample. Read with
    /// `JSONDecoder`, which gives each number's nearest double (Foundation's `JSONSerialization` on Linux misses it by
    /// an ulp for about four decimals in ten).
    public static func parse(json: String) -> WorkoutSamples? {
        guard let rows = try? JSONDecoder().decode([Row].self, from: Data(json.utf8)), !rows.isEmpty else {
            return nil
        }
        var samples: [Sample] = []
        samples.reserveCapacity(rows.count)
        for row in rows {
            // JSONDecoder refuses a number that is not finite (its default strategy), so only the range is left.
            guard row.t >= 0, row.t <= maxSampleTimeS else { return nil }
            samples.append(Sample(t: row.t, values: row.values))
        }
        return WorkoutSamples(samples: samples)
    }

    /// One object of the samples text: `t` a number, each channel a number, null or absent; other keys ignored. A
    /// boolean or a string where a number belongs is a decoding error.
    private struct Row: Decodable {
        var t: Double
        var values: [Channel: Double] = [:]

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: JSONKey.self)
            t = try object.decode(Double.self, forKey: JSONKey(stringValue: "t"))
            for channel in Channel.allCases {
                let key = JSONKey(stringValue: channel.rawValue)
                if let value = try object.decodeIfPresent(Double.self, forKey: key) { values[channel] = value }
            }
        }
    }

    /// Which channels have at least one value.
    public var channels: Set<Channel> {
        var out = Set<Channel>()
        for s in samples { out.formUnion(s.values.keys) }
        return out
    }

    /// Number of seconds of the grid: from the first to the last sample time, step 1 s.
    public var gridCount: Int {
        guard let first = samples.first?.t, let last = samples.last?.t else { return 0 }
        return Int((last - first).rounded(.down)) + 1
    }

    /// One channel on the grid by holding the last sample at or before each second (docs/metrics.md, "Resampling"):
    /// second `k` is time `t₀ + k`; it takes the value of the channel's latest sample at or before that time,
    /// unless the interval from that sample to the channel's next one (or, after its last sample, to the
    /// grid's end) is longer than `maxGapS`: then it is a gap (NaN), except at the sample's own second.
    /// A channel without any value is `[]`.
    public func held(_ channel: Channel, maxGapS: Double = WorkoutSamples.maxGapS) -> [Double] {
        let points = samples.compactMap { s in s.values[channel].map { (s.t, $0) } }
        guard !points.isEmpty, let t0 = samples.first?.t, let tEnd = samples.last?.t else { return [] }
        let n = gridCount
        var out = [Double](repeating: .nan, count: n)
        var j = -1 // index of the latest point at or before the current second
        for k in 0..<n {
            let time = t0 + Double(k)
            while j + 1 < points.count && points[j + 1].0 <= time { j += 1 }
            guard j >= 0 else { continue }
            let (tj, v) = points[j]
            let next = j + 1 < points.count ? points[j + 1].0 : tEnd
            if next - tj <= maxGapS || time - tj < 1 { out[k] = v }
        }
        return out
    }

    /// A cumulative channel (distance, altitude) on the grid by linear interpolation between its samples
    /// (docs/metrics.md allows linear resampling), NaN outside its first and last sample and inside gaps longer than
    /// `maxGapS`.
    public func interpolated(_ channel: Channel, maxGapS: Double = WorkoutSamples.maxGapS) -> [Double] {
        let points = samples.compactMap { s in s.values[channel].map { (s.t, $0) } }
        guard !points.isEmpty, let t0 = samples.first?.t else { return [] }
        let n = gridCount
        var out = [Double](repeating: .nan, count: n)
        var j = 0
        for k in 0..<n {
            let time = t0 + Double(k)
            while j + 1 < points.count && points[j + 1].0 <= time { j += 1 }
            let (ta, va) = points[j]
            if time < ta { continue }
            if time == ta { out[k] = va; continue }
            guard j + 1 < points.count else { continue }
            let (tb, vb) = points[j + 1]
            guard tb - ta <= maxGapS else { continue }
            out[k] = va + (vb - va) * (time - ta) / (tb - ta)
        }
        return out
    }

    /// The record's channels as a `Stream1Hz` for `SessionMetricsCalculator`:
    /// - HR, power, cadence, speed and grade held (see `held`);
    /// - without a speed channel, speed from the cumulative distance, second `k` = D(k) − D(k−1) on the linearly
    ///   interpolated distance (so Σ speed is the distance covered; second 0 is a gap);
    /// - without a grade channel, grade from altitude over distance: (A(k) − A(k−10)) / (D(k) − D(k−10)) when the
    ///   10 s covered at least 10 m, else a gap (level for grade-adjusted pace);
    /// - for rowing (`totalDistanceForRowing`), the cumulative distance as the rower's total-distance channel.
    public func stream(totalDistanceForRowing: Bool = false) -> Stream1Hz {
        let n = gridCount
        var speed = held(.speedMps)
        let distance = interpolated(.distanceM)
        var cumulative = distance
        if speed.isEmpty, !distance.isEmpty {
            speed = [Double](repeating: .nan, count: n)
            for k in 1..<max(n, 1) where !distance[k].isNaN && !distance[k - 1].isNaN {
                speed[k] = max(0, distance[k] - distance[k - 1])
            }
        }
        if cumulative.isEmpty, !speed.isEmpty {
            // Distance from speed (for the altitude grade): Σ speed over the seconds before.
            cumulative = [Double](repeating: .nan, count: n)
            var sum = 0.0
            for k in 0..<n {
                if !speed[k].isNaN { sum += speed[k] }
                cumulative[k] = sum
            }
        }
        var grade = held(.grade)
        let altitude = interpolated(.altitudeM)
        if grade.isEmpty, !altitude.isEmpty, !cumulative.isEmpty {
            grade = [Double](repeating: .nan, count: n)
            let w = Self.gradeWindowS
            for k in w..<max(n, w) {
                let dA = altitude[k] - altitude[k - w], dD = cumulative[k] - cumulative[k - w]
                if dA.isFinite, dD.isFinite, dD >= Self.gradeMinDistanceM { grade[k] = dA / dD }
            }
        }
        return Stream1Hz(
            powerW: held(.powerW), hrBpm: held(.hrBpm), cadenceRpm: held(.cadenceRpm),
            speedMps: totalDistanceForRowing ? [] : speed, grade: totalDistanceForRowing ? [] : grade,
            totalDistanceM: totalDistanceForRowing ? distance : [])
    }
}
