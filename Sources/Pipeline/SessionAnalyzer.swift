import FTMSDecode
import Foundation
import SessionAssembly
import Store
import WorkoutMetrics

/// Turns a stored session into the pipeline's own figures: decodes the raw recording into 1 Hz series, computes
/// the metric set (`docs/metrics.md`) and compares the machine's totals with the app's summary.
public struct SessionAnalyzer: Sendable {
    /// Disagreements beyond these between the app's summary and the recording are flagged (the app's figures stay
    /// what the user saw; the flag tells an operator to look).
    public struct Tolerances: Sendable {
        public var distanceM = 50.0, distanceFraction = 0.03
        public var energyKcal = 10.0, energyFraction = 0.05
        public var durationS = 60.0
        public init() {}
    }

    public var tolerances = Tolerances()
    public init() {}

    /// The metric sport of a session: its machine's (`MachineKind.sport`), else (a machine that names no sport, or
    /// no readable recording) the app's detail when it says rower or treadmill, else a bike.
    public static func sport(machine: MachineType?, detail: String) -> Sport {
        if let machine, let sport = MachineKind(machine).sport { return sport }
        if detail.contains("\"machine_type\":\"rower\"") { return .row }
        if detail.contains("\"machine_type\":\"treadmill\"") { return .treadmill }
        return .bike
    }

    public static func athlete(_ user: User) -> Athlete {
        Athlete(
            ftpW: user.profile.ftpW.map(Double.init),
            sex: user.profile.sex.map { $0 == .female ? .female : .male },
            hrRest: user.profile.restingHR.map(Double.init), hrMax: user.profile.maxHR.map(Double.init),
            lthr: user.profile.lthr.map(Double.init))
    }

    /// The local calendar date of an instant in an IANA zone (UTC if the zone is unknown).
    public static func localDate(_ millis: Int64, zone: String) -> LocalDate {
        LocalDate.from(
            instant: Date(epochMillis: millis), in: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!)
    }

    public func analyze(_ session: StoredSession, user: User, now: Int64) -> SessionMetricsRecord {
        var flags: [SessionFlag] = []
        var document: [String: SortedJSON] = [:]
        var metrics = SessionMetrics()
        var pipelineDistance: Double?
        var pipelineEnergy: Double?
        // Straight from the blob's bytes into the 1 Hz series (no array of owned records in between).
        let series = session.raw.flatMap { try? SessionAssembler.assemble(bytes: $0) }
        // The blob's machine, or the app's detail when the blob does not name one (searched only then).
        let sport = Self.sport(machine: series?.machine, detail: session.detailJSON)
        if let series {
            let stream = Self.stream(from: series)
            metrics = SessionMetricsCalculator.compute(sport: sport, athlete: Self.athlete(user), stream: stream)
            pipelineDistance =
                series.machineTotals.totalDistanceM.map(Double.init)
                ?? (series.derivedTotals.distanceM > 0 ? series.derivedTotals.distanceM : nil)
            pipelineEnergy =
                series.machineTotals.totalEnergyKcal.map(Double.init)
                ?? (series.derivedTotals.energyKcal > 0 ? series.derivedTotals.energyKcal : nil)
            func int(_ value: Int?) -> SortedJSON { value.map { .int(Int64($0)) } ?? .null }
            document["blob"] = .object([
                "status": .string(session.blobStatus.rawValue), "records": int(series.recordCount),
                "decode_errors": int(series.decodeErrors), "unknown_records": int(series.unknownRecords),
                "seconds": int(series.seconds), "paused_seconds": int(series.derivedTotals.pausedSeconds),
            ])
            // Absent machine totals are `null` (the keys are always there).
            document["machine_totals"] = .object([
                "total_distance_m": int(series.machineTotals.totalDistanceM),
                "total_energy_kcal": int(series.machineTotals.totalEnergyKcal),
                "elapsed_s": int(series.machineTotals.elapsedS), "stroke_count": int(series.machineTotals.strokeCount),
            ])
            document["derived_totals"] = .object([
                "distance_m": .double(series.derivedTotals.distanceM),
                "energy_kcal": .double(series.derivedTotals.energyKcal),
                "strokes": .double(series.derivedTotals.strokes),
                "seconds_with_data": int(series.derivedTotals.secondsWithData),
            ])
            if let d = pipelineDistance,
                abs(d - session.totalDistanceM)
                    > max(tolerances.distanceM, tolerances.distanceFraction * session.totalDistanceM)
            {
                flags.append(.distanceMismatch)
            }
            if let e = pipelineEnergy,
                abs(e - session.totalEnergyKcal)
                    > max(tolerances.energyKcal, tolerances.energyFraction * session.totalEnergyKcal)
            {
                flags.append(.energyMismatch)
            }
            if session.blobStatus == .complete, abs(Double(series.seconds) - session.durationS) > tolerances.durationS {
                flags.append(.durationMismatch)
            }
            if series.heartRateBpm.isEmpty || series.heartRateBpm.allSatisfy({ $0.isNaN }) {
                flags.append(.noHeartRate)
            }
        } else {
            flags.append(session.raw == nil ? .noRecording : .recordingUnreadable)
        }
        if session.blobStatus == .truncated { flags.append(.truncatedBlob) }
        if session.blobStatus == .corrupted { flags.append(.corruptedBlob) }

        document["sport"] = .string(sport.rawValue)
        // The metric set as its `Codable` form reads back from JSON. A number JSON cannot carry (`droppingNonFinite`
        // nils the known ones) is written `null` in its own member: it never blanks the others.
        document["metrics"] = Self.metricsJSON(metrics)
        document["flags"] = .array(flags.map { .string($0.rawValue) })
        let json = SortedJSON.object(document).text
        return SessionMetricsRecord(
            userID: session.userID, sessionID: session.sessionID,
            localDate: Self.localDate(session.startedAt, zone: user.timeZone),
            sport: sport.rawValue, durationS: session.durationS, distanceM: pipelineDistance,
            energyKcal: pipelineEnergy,
            avgPowerW: metrics.avgPowerW, avgHRBpm: metrics.avgHrBpm, tss: metrics.trainingLoad, metricsJSON: json,
            flags: flags.map(\.rawValue),
            computedAt: now)
    }

    /// A metric set as its `Codable` form reads back from JSON, a non-finite number as `null`: the one encoding of
    /// the stored `metrics` of sessions and workout records alike (`SessionMetrics.sortedJSON`, the tree
    /// `SortedJSONEncoder` makes of the set, built without the encoder). Nothing in it can fail, so the flag
    /// `metrics_unencodable` (the encoder's failure) is no longer written; it stays in the stored vocabulary.
    static func metricsJSON(_ metrics: SessionMetrics) -> SortedJSON { metrics.sortedJSON }

    /// The metrics module's input from the decoder's series (same grid, NaN = gap).
    public static func stream(from s: SessionSeries) -> Stream1Hz {
        var totalDistance: [Double] = []
        if !s.distanceM.isEmpty {
            totalDistance.reserveCapacity(s.distanceM.count)
            var sum = 0.0
            for d in s.distanceM {
                if d.isNaN { totalDistance.append(.nan) } else { sum += d; totalDistance.append(sum) }
            }
        }
        return Stream1Hz(
            powerW: s.powerW, hrBpm: s.heartRateBpm, cadenceRpm: s.cadenceRpm,
            speedMps: s.speedKmh.map { $0 / 3.6 }, grade: s.inclinationPct.map { $0 / 100 },
            paceSPer500m: s.paceSPer500m, totalDistanceM: s.machine == .rower ? totalDistance : [],
            strokeRateSpm: s.strokeRateSpm)
    }
}

extension MachineKind {
    /// The kind of a blob header's machine (the name the store keeps: `MachineType`'s case name).
    public init(_ machine: MachineType) {
        switch machine {
        case .unknown: self = .unknown
        case .indoorBike: self = .indoorBike
        case .rower: self = .rower
        case .treadmill: self = .treadmill
        case .crossTrainer: self = .crossTrainer
        case .stepClimber: self = .stepClimber
        case .stairClimber: self = .stairClimber
        }
    }
}

/// A flag of a stored session's or workout record's metric document (`flags`, docs/metrics.md): what the analysers
/// noticed. The one list of them; the raw values are the stored strings.
public enum SessionFlag: String, CaseIterable, Sendable, Codable {
    /// The app's distance and the recording's differ beyond `Tolerances`.
    case distanceMismatch = "distance_mismatch"
    /// The app's energy and the recording's differ beyond `Tolerances`.
    case energyMismatch = "energy_mismatch"
    /// A complete recording's length and the app's duration differ beyond `Tolerances`.
    case durationMismatch = "duration_mismatch"
    /// No heart rate in the recording (a session) or in the metrics (a workout record).
    case noHeartRate = "no_heart_rate"
    /// A session uploaded without a recording.
    case noRecording = "no_recording"
    /// A session whose stored recording cannot be assembled.
    case recordingUnreadable = "recording_unreadable"
    case truncatedBlob = "truncated_blob"
    case corruptedBlob = "corrupted_blob"
    /// A workout record's samples are not in the documented format.
    case samplesUnreadable = "samples_unreadable"
    /// A workout record without a training load (no power with FTP, no HR-based load).
    case noLoad = "no_load"
    /// The metric set could not be encoded (`metrics` is null). Written by no build since the set's tree is built
    /// directly (`SessionAnalyzer.metricsJSON`); kept so that a stored flag still reads.
    case metricsUnencodable = "metrics_unencodable"
}
