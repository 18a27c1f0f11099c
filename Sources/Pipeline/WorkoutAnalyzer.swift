import CivilDate
import Foundation
import Store
import WorkoutMetrics

/// Measures a workout record (HealthKit, Garmin; `docs/workout-records.md`) like a session:
///
/// - **with samples** in the documented format: resampled to 1 Hz (`WorkoutSamples`, docs/metrics.md "Resampling") and
///   measured by `SessionMetricsCalculator` as the sport its activity type maps to: HR metrics, TRIMP, HRSS, power
///   metrics and TSS where there is power, distance, pace and grade-adjusted pace for runs;
/// - **summary only** (no samples, or samples in another format): duration, distance, energy, average and maximum
///   HR as the source sent them, average speed and pace, and an HR-based load: Banister's TRIMP over the average HR
///   (`HeartRateMetrics.banisterTRIMP(averageHR:durationS:athlete:)`) scaled to HRSS.
///
/// The workout's load (`tss` of the record) is TSS where power and FTP give one, otherwise HRSS (needs the user's
/// sex, resting and maximum HR and LTHR), else none. Its date is the local date of its start in its own zone, else
/// the user's (docs/metrics.md, "Streaks").
public struct WorkoutAnalyzer: Sendable {
    public init() {}

    /// The metric sport of an activity type (`ActivityType.sport`): runs (outdoor and trail, walks, hikes), treadmill,
    /// bike, row; nil for the others (elliptical, swimming, strength, other, or a type not in the list), which get the
    /// sport-neutral metrics only.
    public static func sport(activityType: String) -> Sport? {
        ActivityType(rawValue: activityType)?.sport
    }

    public func analyze(_ workout: WorkoutRecord, user: User, now: Int64) -> WorkoutMetricsRecord {
        let athlete = SessionAnalyzer.athlete(user)
        let sport = Self.sport(activityType: workout.activityType)
        var document: [String: SortedJSON] = [
            "activity_type": .string(workout.activityType),
            "sport": sport.map { .string($0.rawValue) } ?? .null,
        ]
        var flags: [SessionFlag] = []
        var metrics: SessionMetrics
        var basis = WorkoutMetricsBasis.summary
        var distance = workout.distanceM
        var energy = workout.energyKcal
        let samples = workout.samples.flatMap(WorkoutSamples.parse(stored:))
        if workout.samples != nil && samples == nil { flags.append(.samplesUnreadable) }
        if let samples, samples.gridCount >= 1, !samples.channels.isEmpty {
            basis = .samples
            // Sports without their own definitions are measured with the bike's sport-neutral scope (power, HR,
            // cadence, distance and speed; no pace or rowing keys).
            let stream = samples.stream(totalDistanceForRowing: sport == .row)
            metrics = SessionMetricsCalculator.compute(sport: sport ?? .bike, athlete: athlete, stream: stream)
            if metrics.avgHrBpm == nil, let avg = workout.avgHR {
                // Samples without HR: the summary's average HR still gives the HR-based load.
                Self.addSummaryHeartRate(
                    &metrics, avgHR: avg, maxHR: workout.maxHR, durationS: workout.durationS, athlete: athlete)
            }
            distance = metrics.distanceM ?? workout.distanceM
            energy = workout.energyKcal ?? metrics.kcalAcsm
            document["samples"] = .object([
                "count": .int(Int64(samples.samples.count)), "seconds": .int(Int64(samples.gridCount)),
                "channels": .array(samples.channels.map(\.rawValue).sorted().map(SortedJSON.string)),
            ])
        } else {
            metrics = Self.summaryMetrics(workout, sport: sport, athlete: athlete)
        }
        if metrics.avgHrBpm == nil { flags.append(.noHeartRate) }
        if metrics.trainingLoad == nil { flags.append(.noLoad) }
        document["basis"] = .string(basis.rawValue)
        // The metric set as a session's is stored (a number JSON cannot carry is `null` in its own member; it used to
        // blank the whole set here).
        document["metrics"] = SessionAnalyzer.metricsJSON(metrics)
        document["energy_kcal"] = energy.map(SortedJSON.double) ?? .null
        document["flags"] = .array(flags.map { .string($0.rawValue) })
        let json = SortedJSON.object(document).text
        return WorkoutMetricsRecord(
            userID: workout.userID, workoutID: workout.workoutID, workoutUpdatedAt: workout.updatedAt,
            localDate: SessionAnalyzer.localDate(workout.startAt, zone: workout.timeZone ?? user.timeZone),
            activityType: workout.activityType, basis: basis, durationS: workout.durationS, distanceM: distance,
            energyKcal: energy, avgHRBpm: metrics.avgHrBpm, tss: metrics.trainingLoad, metricsJSON: json,
            computedAt: now)
    }

    /// A summary-only record's metrics: its own duration (moving time), distance and HR, the average speed and pace
    /// they imply, and TRIMP / HRSS over the average HR.
    static func summaryMetrics(_ w: WorkoutRecord, sport: Sport?, athlete: Athlete) -> SessionMetrics {
        var m = SessionMetrics()
        let seconds = Int(w.durationS.rounded())
        m.durationS = seconds
        m.movingTimeS = seconds
        if let d = w.distanceM, d > 0 {
            m.distanceM = d
            if w.durationS > 0 {
                m.avgSpeedMps = d / w.durationS
                if sport == .run || sport == .treadmill { m.avgPaceSPerKm = 1000 * w.durationS / d }
            }
        }
        if let avg = w.avgHR {
            addSummaryHeartRate(&m, avgHR: avg, maxHR: w.maxHR, durationS: w.durationS, athlete: athlete)
        }
        return m.droppingNonFiniteValues()
    }

    static func addSummaryHeartRate(
        _ m: inout SessionMetrics, avgHR: Double, maxHR: Double?, durationS: Double, athlete: Athlete
    ) {
        m.avgHrBpm = avgHR
        m.maxHrBpm = maxHR
        let trimp = HeartRateMetrics.banisterTRIMP(averageHR: avgHR, durationS: durationS, athlete: athlete)
        m.trimpBanister = trimp
        m.hrss = HeartRateMetrics.hrss(trimp: trimp, athlete: athlete)
    }
}

extension SessionMetrics {
    /// Non-finite values as nil (what `SessionMetricsCalculator` does to its own results).
    func droppingNonFiniteValues() -> SessionMetrics {
        var m = self
        for key in [\SessionMetrics.distanceM, \.avgSpeedMps, \.avgPaceSPerKm, \.trimpBanister, \.hrss] {
            if let v = m[keyPath: key], !v.isFinite { m[keyPath: key] = nil }
        }
        return m
    }
}
