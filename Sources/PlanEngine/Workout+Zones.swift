import Foundation

extension Workout {
    /// Running distance per zone, following docs/plan-format.md: segment distance × repeats to the segment's
    /// zone, recovery jogs to easy, and what the segments do not cover to easy (or to the base zone when
    /// there are no segments). Time-based parts are converted at the zone's mid pace.
    public func zoneDistances(paces: Paces) -> [Zone: Double] {
        var out: [Zone: Double] = [:]
        guard isRun else { return out }
        let total = totalDistance(paces: paces)
        let segs = segments ?? []
        var covered = 0.0
        for s in segs {
            let one = s.distanceM ?? (s.durationS.map { $0 / (s.pace ?? paces[s.zone]).mid * 1000 } ?? 0)
            out[s.zone, default: 0] += one * Double(s.repeats)
            covered += one * Double(s.repeats)
            let recoveries = Double(max(0, s.repeats - 1))
            if let rd = s.recoveryDistanceM {
                out[.easy, default: 0] += rd * recoveries; covered += rd * recoveries
            } else if let rs = s.recoveryS {
                let d = rs / paces.easy.mid * 1000 * recoveries
                out[.easy, default: 0] += d; covered += d
            }
        }
        let rest = total - covered
        if rest > 0.5 {
            out[segs.isEmpty ? (pace?.zone ?? .easy) : .easy, default: 0] += rest
        }
        return out
    }

    /// Distance in metres; for time-based runs estimated at the base zone's mid pace.
    public func totalDistance(paces: Paces) -> Double {
        guard isRun else { return 0 }
        if let d = distanceM { return d }
        if let t = durationS { return t / paces[pace?.zone ?? .easy].mid * 1000 }
        return 0
    }

    /// Estimated duration (s): each part's distance at the mid pace of its range, unless `duration_s` is given.
    public func estimatedDuration(paces: Paces) -> Double {
        if let t = durationS { return t }
        return zoneDistances(paces: paces).reduce(0) { $0 + $1.value / 1000 * paces[$1.key].mid }
    }

    /// A quality session per docs/plan-format.md: a quality type, or ≥ 1.5 km at T/I/R, or ≥ 5 km at M.
    /// Hard cross-training also counts as a quality day.
    public func isQuality(paces: Paces) -> Bool {
        if !isRun { return intensity == .hard }
        if type.isQualityType { return true }
        let z = zoneDistances(paces: paces)
        let tir = (z[.threshold] ?? 0) + (z[.interval] ?? 0) + (z[.repetition] ?? 0)
        return tir >= 1500 || (z[.marathon] ?? 0) >= 5000
    }
}

extension Week {
    /// Running volume of the week (treadmill included, cross-training excluded); the race itself is left out.
    public func runningVolume(paces: Paces, includingRace: Bool = false) -> Double {
        days.reduce(0) { acc, day in
            acc
                + day.workouts.filter { $0.isRun && (includingRace || $0.type != .race) }
                .reduce(0) { $0 + $1.totalDistance(paces: paces) }
        }
    }

    /// Longest non-race run of the week.
    public func longestRun(paces: Paces) -> Double {
        days.flatMap(\.workouts).filter { $0.isRun && $0.type != .race }.map { $0.totalDistance(paces: paces) }.max()
            ?? 0
    }
}

extension Day {
    /// A long day (docs/plan-engine.md, "Long days, quality days…"): ≥ 20 km or ≥ 90 min of running at the planned
    /// paces, whatever the workouts' types.
    public func isLongDay(paces: Paces) -> Bool {
        let runs = workouts.filter(\.isRun)
        return runs.reduce(0) { $0 + $1.totalDistance(paces: paces) } >= Coaching.longDayM
            || runs.reduce(0) { $0 + $1.estimatedDuration(paces: paces) } >= Coaching.longDayS
    }
}
