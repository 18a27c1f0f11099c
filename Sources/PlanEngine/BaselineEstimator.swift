import Foundation

/// One completed workout as recorded by HealthKit/Garmin, reduced to what planning needs.
public struct CompletedRun: Codable, Sendable, Equatable {
    /// Local calendar date in the runner's zone.
    public var date: LocalDate
    public var distanceM: Double
    public var durationS: Double
    public var avgHr: Double?
    /// `run`, `treadmill` (both running volume), or a cross-training sport (`bike`, `row`, …).
    public var sport: String
    public var isRace: Bool?

    enum CodingKeys: String, CodingKey {
        case date, distanceM = "distance_m", durationS = "duration_s", avgHr = "avg_hr", sport, isRace = "is_race"
    }

    public init(
        date: LocalDate, distanceM: Double, durationS: Double, avgHr: Double? = nil, sport: String = "run",
        isRace: Bool? = nil
    ) {
        self.date = date; self.distanceM = distanceM; self.durationS = durationS; self.avgHr = avgHr
        self.sport = sport; self.isRace = isRace
    }

    /// A workout that started at `start` (an instant), dated in the runner's `timeZone`.
    public init(
        start: Date, timeZone: TimeZone, distanceM: Double, durationS: Double, avgHr: Double? = nil,
        sport: String = "run", isRace: Bool? = nil
    ) {
        self.init(
            date: LocalDate(instant: start, timeZone: timeZone), distanceM: distanceM, durationS: durationS,
            avgHr: avgHr, sport: sport, isRace: isRace)
    }

    /// Running volume: outdoor and treadmill running; cross-training never counts.
    public var isRunning: Bool {
        ["run", "running", "treadmill", "trail_run", "track"].contains(sport.lowercased())
    }

    /// Seconds per kilometre, nil when distance is missing.
    public var paceSPerKm: Double? { distanceM > 0 && durationS > 0 ? durationS / distanceM * 1000 : nil }
}

/// The runner's recent training, from workout records.
public struct TrainingBaseline: Codable, Sendable, Equatable {
    public var weeklyDistanceM: Double
    public var longestRunM: Double
    public var runsPerWeek: Double
    public var weeksAveraged: Int
    /// Running of each 7-day window, oldest first (the last window ends the day before `asOf`).
    public var weeksM: [Double]
    public var longestPerWeekM: [Double]
    /// Cross-training time per week (fitness and load, not running volume).
    public var crossTrainingSPerWeek: Double
    /// The last break: whole days without running before `asOf`, the running of the 7 days up to the last run and the
    /// longest run of the 14 days up to it; nil without any run.
    public var lastBreak: Break?

    public struct Break: Codable, Sendable, Equatable {
        public var days: Int
        public var weekBeforeM: Double
        public var longestBeforeM: Double
        enum CodingKeys: String, CodingKey {
            case days, weekBeforeM = "week_before_m", longestBeforeM = "longest_before_m"
        }
        public init(days: Int, weekBeforeM: Double, longestBeforeM: Double) {
            self.days = days; self.weekBeforeM = weekBeforeM; self.longestBeforeM = longestBeforeM
        }

        /// The break before `asOf` in `running` (runs only, any order).
        public static func before(_ asOf: LocalDate, in running: [CompletedRun]) -> Break? {
            let past = running.filter { $0.date < asOf }
            guard let last = past.map(\.date).max() else { return nil }
            return Break(
                days: max(0, last.days(to: asOf) - 1),
                weekBeforeM: past.filter { $0.date >= last.adding(days: -6) }.reduce(0) { $0 + $1.distanceM },
                longestBeforeM: past.filter { $0.date > last.adding(days: -14) }.map(\.distanceM).max() ?? 0)
        }
    }

    enum CodingKeys: String, CodingKey {
        case weeklyDistanceM = "weekly_distance_m", longestRunM = "longest_run_m", runsPerWeek = "runs_per_week"
        case weeksAveraged = "weeks_averaged", weeksM = "weeks_m", longestPerWeekM = "longest_per_week_m"
        case crossTrainingSPerWeek = "cross_training_s_per_week", lastBreak = "last_break"
    }

    public init(
        weeklyDistanceM: Double, longestRunM: Double, runsPerWeek: Double, weeksAveraged: Int,
        weeksM: [Double], longestPerWeekM: [Double], crossTrainingSPerWeek: Double, lastBreak: Break? = nil
    ) {
        self.weeklyDistanceM = weeklyDistanceM; self.longestRunM = longestRunM; self.runsPerWeek = runsPerWeek
        self.weeksAveraged = weeksAveraged; self.weeksM = weeksM; self.longestPerWeekM = longestPerWeekM
        self.crossTrainingSPerWeek = crossTrainingSPerWeek; self.lastBreak = lastBreak
    }

    /// The request's `runner.baseline`.
    public var requestBaseline: PlanRequest.Baseline {
        // The four real weeks before the plan go with it (`recent_weeks_m`): the first weeks ramp from what the
        // runner ran, as the rubric judges them, not from an average that a partial first week could inflate.
        var b = PlanRequest.Baseline(
            weeklyDistanceM: weeklyDistanceM, longestRunM: longestRunM, runsPerWeek: runsPerWeek,
            weeksAveraged: weeksAveraged, source: "workout_records",
            recentWeeksM: weeksM.count == 4 ? weeksM : nil,
            recentLongestM: longestPerWeekM.count == 4 ? longestPerWeekM : nil)
        // After a break of a week or more the four weeks' mean counts the days off as zeros: the break says where a
        // return starts (a base plan from the return table's share of the week before it).
        if let lastBreak, lastBreak.days >= 8 {
            b.daysSinceLastRun = lastBreak.days
            b.preBreakWeekM = lastBreak.weekBeforeM
            b.preBreakLongestM = lastBreak.longestBeforeM
        }
        return b
    }
}

/// How much to trust a VDOT estimate.
public enum VDOTConfidence: String, Codable, Sendable, Comparable {
    case low, medium, high
    public static func < (a: VDOTConfidence, b: VDOTConfidence) -> Bool {
        [VDOTConfidence.low, .medium, .high].firstIndex(of: a)! < [VDOTConfidence.low, .medium, .high].firstIndex(
            of: b)!
    }
}

public struct VDOTEstimate: Codable, Sendable, Equatable {
    public var vdot: Double
    public var confidence: VDOTConfidence
    /// `race` (a race or time trial) or `training_best_effort`.
    public var method: String
    public var explanation: String
}

public enum BaselineEstimator {
    /// Weekly running, longest run and runs per week over the `weeks` 7-day windows before `asOf`
    /// (4 by default; the longest run looks back 6 weeks). Treadmill counts; bike and row do not.
    public static func baseline(from runs: [CompletedRun], asOf: LocalDate, weeks: Int = 4) -> TrainingBaseline {
        let n = max(1, weeks)
        let running = runs.filter { $0.isRunning && $0.date < asOf }
        var weekly: [Double] = [], longest: [Double] = [], counts: [Int] = []
        for k in 0..<n {
            let from = asOf.adding(days: -7 * (n - k)), to = asOf.adding(days: -7 * (n - k - 1))
            let inWindow = running.filter { $0.date >= from && $0.date < to }
            weekly.append(inWindow.reduce(0) { $0 + $1.distanceM })
            longest.append(inWindow.map(\.distanceM).max() ?? 0)
            counts.append(inWindow.count)
        }
        // A runner whose records start inside the window is averaged over the weeks that have records.
        let firstDate = running.map(\.date).min()
        let covered = firstDate.map { max(1, min(n, ($0.days(to: asOf) + 6) / 7)) } ?? n
        let recent = Array(weekly.suffix(covered))
        let longest6 = running.filter { $0.date >= asOf.adding(days: -42) }.map(\.distanceM).max() ?? 0
        let cross = runs.filter { !$0.isRunning && $0.date < asOf && $0.date >= asOf.adding(days: -7 * n) }
        return TrainingBaseline(
            weeklyDistanceM: recent.reduce(0, +) / Double(recent.count),
            longestRunM: max(longest6, longest.max() ?? 0),
            runsPerWeek: Double(counts.suffix(covered).reduce(0, +)) / Double(covered),
            weeksAveraged: covered, weeksM: weekly, longestPerWeekM: longest,
            crossTrainingSPerWeek: cross.reduce(0) { $0 + $1.durationS } / Double(n),
            lastBreak: TrainingBaseline.Break.before(asOf, in: running))
    }

    /// VDOT from recent runs, with a confidence:
    /// - a race or time trial (`is_race`) in the last 16 weeks: the best one's VDOT; high within 8 weeks, else medium;
    /// - otherwise the best sustained effort (≥ 3 km and ≥ 12 min) of the last 6 weeks, treated as if raced.
    ///   Training runs are sub-maximal, so this is a lower bound: medium when two efforts agree within 1.5, else low.
    /// nil when nothing qualifies. Heart rate is not used.
    public static func estimateVDOT(from runs: [CompletedRun], asOf: LocalDate? = nil) -> (
        vdot: Double, confidence: VDOTConfidence
    )? {
        estimate(from: runs, asOf: asOf).map { ($0.vdot, $0.confidence) }
    }

    /// What a plan request states of a runner from their running before `asOf`: the weekly baseline and, when a run
    /// qualifies, the VDOT estimate as the runner's fitness (the engine plans at it to the tenth, docs/plan-engine.md).
    /// A first plan (`PlanService.request`) and a plan made again before it begins (`PlanAdapter`, rule A0) both ask
    /// this.
    public static func evidence(from runs: [CompletedRun], asOf: LocalDate) -> (
        baseline: PlanRequest.Baseline, fitness: PlanRequest.Fitness?
    ) {
        (
            baseline(from: runs, asOf: asOf).requestBaseline,
            // An estimate above the VDOTs a request may state (a runner faster than a 2:10 marathon) is planned at the
            // top of them, not refused: the runner stated nothing wrong.
            estimateVDOT(from: runs, asOf: asOf).map { PlanRequest.Fitness(vdot: Validation.vdotRange.clamp($0.vdot)) }
        )
    }

    public static func estimate(from runs: [CompletedRun], asOf: LocalDate? = nil) -> VDOTEstimate? {
        let today = asOf ?? (runs.map(\.date).max()?.adding(days: 1) ?? LocalDate(daysSinceEpoch: 0))
        func vdot(_ r: CompletedRun) -> Double? {
            guard r.isRunning, r.distanceM >= 1500, r.durationS >= 240,
                let v = Daniels.vdot(distanceM: r.distanceM, timeS: r.durationS), v >= 15, v <= 85
            else { return nil }
            return v
        }
        let races = runs.filter { $0.isRace == true && $0.date < today && $0.date >= today.adding(days: -112) }
            .compactMap { r in vdot(r).map { (r, $0) } }
        if let best = races.max(by: { $0.1 < $1.1 }) {
            let age = best.0.date.days(to: today)
            return VDOTEstimate(
                vdot: best.1, confidence: age <= 56 ? .high : .medium, method: "race",
                explanation:
                    "Race of \(Fmt.km(best.0.distanceM)) in \(Fmt.duration(best.0.durationS)) on \(best.0.date) (\(age) days ago)."
            )
        }
        let efforts = runs.filter {
            $0.date < today && $0.date >= today.adding(days: -42) && $0.distanceM >= 3000 && $0.durationS >= 720
        }
        .compactMap(vdot).sorted(by: >)
        guard let top = efforts.first else { return nil }
        let agree = efforts.count >= 2 && top - efforts[1] <= 1.5
        return VDOTEstimate(
            vdot: top, confidence: agree ? .medium : .low, method: "training_best_effort",
            explanation:
                "Best of \(efforts.count) runs of the last 6 weeks treated as a race: a lower bound, since training runs are not all-out."
        )
    }
}
