import Foundation

/// What a file agrees on about its dates: where its header or laps and its samples disagree (a TCX lap
/// `StartTime` in year 52870 while every trackpoint is dated 2020), the majority of the timed samples wins and the
/// disagreement is flagged `dates_disagree` (docs/workout-files.md, "Where files disagree").
enum DateAgreement {
    /// A sample further than this from the median sample time is not part of the majority: one activity lasts at
    /// most days (the import's bound, `IngestLimits.maxWorkoutFileDurationS`, is 7 days).
    static let spanS: TimeInterval = 7 * 86_400
    /// A header or lap start agrees with the samples when it is at most this long before the first of them (a device
    /// may start its timer before its first sample) and not after the last.
    static let toleranceS: TimeInterval = 3_600

    /// The samples (in time order) that agree with the majority — within `spanS` of the median sample — and how many
    /// did not. All of them when they are not more than half (no majority: nothing to tell apart).
    /// The samples are copied only when some are left out (a FIT file may hold millions).
    static func majority(_ sorted: [Sample]) -> (agreed: [Sample], outliers: Int) {
        guard sorted.count > 2 else { return (sorted, 0) }
        let median = sorted[sorted.count / 2].time
        var outliers = 0
        sorted.withUnsafeBufferPointer { buffer in
            for s in buffer where abs(s.time.timeIntervalSince(median)) > spanS { outliers += 1 }
        }
        guard outliers > 0, (sorted.count - outliers) * 2 > sorted.count else { return (sorted, 0) }
        return (sorted.filter { abs($0.time.timeIntervalSince(median)) <= spanS }, outliers)
    }

    /// True when `date`, a start, lies from `toleranceS` before the first sample to `after` seconds after the last
    /// one (an activity's start: 0; a lap's: `toleranceS`, a last lap may be logged after the last sample), or there
    /// are no samples to disagree with.
    static func agrees(_ date: Date, with sorted: [Sample], after: TimeInterval = 0) -> Bool {
        guard let first = sorted.first, let last = sorted.last else { return true }
        return date >= first.time.addingTimeInterval(-toleranceS) && date <= last.time.addingTimeInterval(after)
    }
}
