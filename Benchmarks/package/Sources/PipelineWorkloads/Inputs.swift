import Foundation
import Ingest
import PlanEngine
import SessionAssembly
import Store
import StoreSQLite
import SyntheticData
import WorkoutMetrics

/// The benchmarks' inputs, made once before any measurement, from fixed seeds and a committed fixture: the same bytes
/// in every run.
public struct Inputs: Sendable {
    /// A one-hour bike session as `pipeline generate` records it (Indoor Bike Data and a heart-rate strap at 1 Hz).
    public var recording: [UInt8]
    /// That session's 1 Hz stream, the metric set's input.
    public var stream: Stream1Hz
    public var athlete: Athlete
    /// Tests/WorkoutFilesTests/Fixtures/real/Edge810-Vector-2013-08-16-15-35-10.fit
    public var fit: [UInt8]
    /// A generated export.xml of about 2 MB.
    public var healthXML: [UInt8]
    public var ingest: IngestInput
    public var plan: PlanRequest

    public static func make() -> Inputs {
        let recording = recording()
        return Inputs(
            recording: recording, stream: stream(recording: recording), athlete: athlete, fit: fit(),
            healthXML: SyntheticHealth.export(bytes: healthBytes),
            ingest: IngestInput(recording: recording, start: recordingStart), plan: planRequest)
    }

    public static let recordingStart: Int64 = 1_766_570_400_000
    public static let athlete = Athlete(ftpW: 250, sex: .male, hrRest: 52, hrMax: 188, lthr: 170, massKg: 75)
    public static let healthBytes = 2_000_000

    /// A one-hour bike session with intervals, seed 1.
    public static func recording() -> [UInt8] {
        var rng = SeededRandom(seed: 1)
        let body = Physiology(ftpW: 250, restingHR: 52, maxHR: 188, massKg: 75, thresholdSpeedKmh: 14)
        let simulated = BodySimulator.simulate(
            sport: .bike, shape: .intervals, seconds: 3600, body: body, pause: nil, rng: &rng)
        return SessionRecorder.record(simulated, startMillis: recordingStart, options: .init(), rng: &rng)
    }

    public static func fit() -> [UInt8] {
        let url = repositoryRoot.appendingPathComponent(
            "Tests/WorkoutFilesTests/Fixtures/real/Edge810-Vector-2013-08-16-15-35-10.fit")
        guard let data = try? Data(contentsOf: url) else { fatalError("cannot read \(url.path)") }
        return [UInt8](data)
    }

    /// The repository this package sits in (Benchmarks/package/Sources/PipelineWorkloads/ below it).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The metric set's input from the assembler's series, as the nightly's `SessionAnalyzer.stream(from:)` makes it
    /// (a bike: no rowing distance).
    public static func stream(recording: [UInt8]) -> Stream1Hz {
        guard let s = try? SessionAssembler.assemble(bytes: recording) else {
            fatalError("the generated recording does not assemble")
        }
        return Stream1Hz(
            powerW: s.powerW, hrBpm: s.heartRateBpm, cadenceRpm: s.cadenceRpm, speedMps: s.speedKmh.map { $0 / 3.6 },
            grade: s.inclinationPct.map { $0 / 100 }, paceSPer500m: s.paceSPer500m, strokeRateSpm: s.strokeRateSpm)
    }

    /// The plan engine's own example: a half marathon in 18 weeks, five run days.
    public static let planRequest = PlanRequest(
        timezone: "Europe/Berlin", startDate: LocalDate("2026-05-25")!,
        race: .init(date: LocalDate("2026-09-27")!, goalTimeS: 13200),
        runner: .init(
            availableDays: [.mon, .tue, .wed, .thu, .sat, .sun], maxRunDays: 5, longRunDay: .sun,
            baseline: .init(weeklyDistanceM: 40000, longestRunM: 16000),
            fitness: .init(race: .init(distanceM: 21097.5, timeS: 6300, date: LocalDate("2026-04-26")!))))
}

/// A batch of 20 one-hour sessions as a device uploads it (the same recording under 20 session ids, a day apart), and
/// a processor over an empty SQLite store that `prepare` never asks.
public struct IngestInput: Sendable {
    public var body: [UInt8]
    public var context: BatchContext
    public var user: User
    public var processor: BatchProcessor

    public init(recording: [UInt8], start: Int64) {
        let raw = Data(recording).base64EncodedString()
        var items: [String] = []
        for n in 0..<20 {
            let s = start + Int64(n) * 86_400_000
            items.append(
                String(format: "{\"session_id\":\"00000000-0000-4000-8000-%012d\",", n)
                    + "\"started_at\":\"\(RFC3339.format(millis: s))\","
                    + "\"ended_at\":\"\(RFC3339.format(millis: s + 3_600_000))\","
                    + "\"duration\":3600,\"total_energy\":700,\"total_distance\":30000,"
                    + "\"detail\":{\"avg_hr\":140,\"avg_power\":200},\"raw\":\"\(raw)\"}")
        }
        body = Array("{\"sessions\":[\(items.joined(separator: ","))]}".utf8)
        let receivedAt: Int64 = 4_102_444_800_000 // long after the last session: none is "in the future"
        context = BatchContext(
            userID: UserID("bench"), source: "inbox", sourceKey: "bench.json", receivedAt: receivedAt)
        user = User(id: UserID("bench"), timeZone: "UTC", createdAt: 0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-benchmarks.sqlite").path
        try? FileManager.default.removeItem(atPath: path)
        guard let store = try? SQLiteStore(path: path) else { fatalError("cannot open a SQLite store at \(path)") }
        processor = BatchProcessor(store: store, clock: PipelineClock(now: { receivedAt }))
    }
}

/// An Apple Health export.xml like a phone's (the generator of `pipeline-bench files`, in memory): heart rate with
/// and without a motion-context entry, step counts, active energy, walking distance, and a 45-minute run every
/// 6,000 records.
public enum SyntheticHealth {
    public static func export(bytes target: Int) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 13 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            ]>
            <HealthData locale="en_GB">
             <ExportDate value="2024-03-05 10:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """
        var seed: UInt64 = 42
        func next(_ n: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % n
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var t = Date(timeIntervalSince1970: 1_609_459_200) // 2021-01-01
        func stamp(_ date: Date) -> String { formatter.string(from: date) + " +0100" }
        let watch =
            "sourceName=\"Anna&#8217;s Apple Watch\" sourceVersion=\"10.3\" device=\"&lt;&lt;HKDevice: 0x283bc5090&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;\""
        let phone =
            "sourceName=\"Anna&#8217;s iPhone\" sourceVersion=\"17.3\" device=\"&lt;&lt;HKDevice: 0x283bc5180&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.3&gt;\""
        var sinceWorkout = 0
        while text.utf8.count < target {
            t = t.addingTimeInterval(Double(5 + next(60)))
            let s = stamp(t)
            let dates = "creationDate=\"\(s)\" startDate=\"\(s)\" endDate=\"\(s)\""
            switch next(10) {
            case 0..<6:
                let value = 60 + next(120)
                let record =
                    " <Record type=\"HKQuantityTypeIdentifierHeartRate\" \(watch) unit=\"count/min\" \(dates) value=\"\(value)\""
                if next(3) == 0 {
                    text +=
                        "\(record)>\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(next(3))\"/>\n </Record>\n"
                } else {
                    text += "\(record)/>\n"
                }
            case 6, 7:
                text +=
                    " <Record type=\"HKQuantityTypeIdentifierStepCount\" \(phone) unit=\"count\" \(dates) value=\"\(next(200))\"/>\n"
            case 8:
                text +=
                    " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" \(watch) unit=\"kcal\" \(dates) value=\"0.\(next(1000))\"/>\n"
            default:
                text +=
                    " <Record type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" \(phone) unit=\"km\" \(dates) value=\"0.0\(next(1000))\"/>\n"
            }
            sinceWorkout += 1
            if sinceWorkout >= 6000 {
                sinceWorkout = 0
                let start = stamp(t.addingTimeInterval(-2700)), end = stamp(t)
                text += """
                     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="45" durationUnit="min" \(watch) creationDate="\(end)" startDate="\(start)" endDate="\(end)">
                      <MetadataEntry key="HKIndoorWorkout" value="0"/>
                      <MetadataEntry key="HKElevationAscended" value="4200 cm"/>
                      <WorkoutEvent type="HKWorkoutEventTypeSegment" date="\(start)" duration="10" durationUnit="min"/>
                      <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="\(start)" endDate="\(end)" average="141" minimum="90" maximum="172" unit="count/min"/>
                      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="\(start)" endDate="\(end)" sum="8.1" unit="km"/>
                      <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(start)" endDate="\(end)" sum="512" unit="kcal"/>
                     </Workout>

                    """
            }
        }
        text += "</HealthData>\n"
        return Array(text.utf8)
    }
}
