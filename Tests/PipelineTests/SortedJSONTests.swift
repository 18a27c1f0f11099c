import FTMSDecode
import Foundation
import Ingest
import PlanEngine
import SessionAssembly
import Store
import SyntheticData
import TestKit
import Testing
import WorkoutMetrics

@testable import Pipeline

/// `SortedJSON` writes what `JSONSerialization` (sorted keys) writes — the stored metric documents' layout — checked
/// against Foundation itself: random trees, every metric set of a generated data set, and the analyzer's whole
/// document against the previous implementation, which built it through `JSONSerialization`.
@Suite struct SortedJSONTests {
    static func foundation(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A random tree and the same tree as Foundation objects.
    static func randomTree(_ rng: inout SplitMix64, depth: Int) -> (SortedJSON, Any) {
        // Real keys and random ones over the keys' alphabet (ASCII letters, digits, `_`).
        var keys = [
            "a", "b", "A", "_x", "a_b", "ab", "a9", "a10", "1", "5", "10", "30", "120", "1200", "3600", "z1", "Z",
            "mmp_w", "mmp", "tss", "if", "vi", "time_in", "time_in_hr_zones_s", "concept2_kcal_per_hour_at_avg_split",
            "wbal_min_j", "x007", "x7", "007", "0", "_", "__", "_1", "a_", "aB_2",
        ]
        let alphabet = Array("aAbZz_0129")
        for _ in 0..<12 {
            keys.append(
                String((0..<(1 + rng.next() % 5)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }))
        }
        let doubles: [Double] = [
            0, -0.0, 1, -1, 4212, 96.8, 0.1, 1.0 / 3, 1e-5, 1.5e-7, 1e15, 1e16, 1.2345e17, 1e21, 1e22,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5, 1e300, 123456789.125, 9_007_199_254_740_992,
        ]
        let strings = [
            "", "plain", "a/b", "q\"uote", "back\\slash", "line\nfeed", "tab\tcr\r", "\u{1}\u{8}\u{c}\u{1f}\u{7f}",
            "é漢字😇", "\u{2028}",
        ]
        switch depth > 0 ? rng.next() % 8 : rng.next() % 6 {
        case 0: return (.null, NSNull())
        case 1: let b = rng.next() % 2 == 0; return (.bool(b), b)
        case 2: let i = Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64); return (.int(i), Int(i))
        case 3: let d = doubles[Int(rng.next() % UInt64(doubles.count))]; return (.double(d), d)
        case 4:
            let d = Double(bitPattern: rng.next())
            return d.isFinite ? (.double(d), d) : (.double(0.5), 0.5)
        case 5: let s = strings[Int(rng.next() % UInt64(strings.count))]; return (.string(s), s)
        case 6:
            var mine: [SortedJSON] = [], theirs: [Any] = []
            for _ in 0..<(rng.next() % 5) {
                let (m, t) = randomTree(&rng, depth: depth - 1)
                mine.append(m); theirs.append(t)
            }
            return (.array(mine), theirs)
        default:
            var mine: [String: SortedJSON] = [:], theirs: [String: Any] = [:]
            for _ in 0..<(rng.next() % 9) {
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                let (m, t) = randomTree(&rng, depth: depth - 1)
                mine[key] = m; theirs[key] = t
            }
            return (.object(mine), theirs)
        }
    }

    /// A run ended by an error records `{"error":"<status>"}` through `SortedJSON` (issue 41: one JSON writer); the
    /// bytes are the ones the hand-built string wrote.
    @Test(arguments: JobStatus.allCases) func jobRunErrorCountsAreTheBytesTheyWere(status: JobStatus) {
        #expect(JobRunEnd.countsJSON(status) == "{\"error\":\"\(status.rawValue)\"}")
    }

    @Test func randomTreesAreWrittenAsFoundationWritesThem() throws {
        var rng = SplitMix64(seed: 20_261_124)
        for _ in 0..<20000 {
            var mine: [String: SortedJSON] = [:], theirs: [String: Any] = [:]
            for _ in 0..<(1 + rng.next() % 4) {
                let (m, t) = Self.randomTree(&rng, depth: 3)
                let key = "k\(rng.next() % 40)"
                mine[key] = m; theirs[key] = t
            }
            let written = SortedJSON.object(mine).text, expected = try Self.foundation(theirs)
            #expect(written == expected, "\(written)\n\(expected)")
        }
    }

    /// The old path for a metric set: `JSONEncoder` (sorted keys), read back by `JSONSerialization`, written again.
    static func viaFoundation(_ metrics: SessionMetrics) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let object = (try? JSONSerialization.jsonObject(with: encoder.encode(metrics))) ?? [:]
        return try foundation(object)
    }

    @Test func metricSetsEncodeAsTheyReadBackFromJSONEncoder() throws {
        var rng = SplitMix64(seed: 7)
        func maybe(_ d: Double) -> Double? { rng.next() % 4 == 0 ? nil : d }
        let pool: [Double] = [0, -0.0, 1, 250.5, 1e-5, 1e16, 96.8, 1.0 / 3, 151.02428868841082, -3.25]
        for _ in 0..<500 {
            func pick() -> Double? { maybe(pool[Int(rng.next() % UInt64(pool.count))]) }
            var m = SessionMetrics()
            m.durationS = rng.next() % 3 == 0 ? nil : Int(rng.next() % 10_000)
            m.powerSeconds = rng.next() % 3 == 0 ? nil : 0
            m.avgPowerW = pick(); m.maxPowerW = pick(); m.npW = pick(); m.intensityFactor = pick(); m.tss = pick()
            m.avgHrBpm = pick(); m.hrss = pick(); m.trimpEdwards = pick(); m.avgPaceSPerKm = pick()
            m.concept2KcalPerHourAtAvgSplit = pick(); m.gapPaceSPerKm = pick()
            m.timeInHrZonesS = rng.next() % 2 == 0 ? nil : [1, 0, 300, 7, 1200]
            m.mmpW =
                rng.next() % 2 == 0 ? nil : MeanMaximalPower(values: MeanMaximalPower.durations.map { _ in pick() })
            let mine = (try? SortedJSONEncoder.encode(m)) ?? .object([:])
            #expect(mine.text == (try Self.viaFoundation(m)))
        }
        // A non-finite value makes the whole set unencodable, as with JSONEncoder.
        var bad = SessionMetrics()
        bad.tss = .nan
        #expect(throws: SortedJSONEncoder.NonFinite.self) { try SortedJSONEncoder.encode(bad) }
        #expect(try Self.viaFoundation(bad) == "{}")
    }

    /// The analyzer's document as the previous implementation built it (`[String: Any]` through `JSONSerialization`,
    /// from `BlobReader.read` and `SessionAssembler.assemble(_:)`), kept here as the definition of the stored layout.
    static func previousDocument(_ session: StoredSession, user: User) throws -> String {
        var flags: [String] = []
        var document: [String: Any] = [:]
        var sport = SessionAnalyzer.sport(machine: nil, detail: session.detailJSON)
        var metrics = SessionMetrics()
        let tolerances = SessionAnalyzer.Tolerances()
        if let raw = session.raw, let blob = try? BlobReader.read(raw) {
            let series = SessionAssembler.assemble(blob)
            sport = SessionAnalyzer.sport(machine: blob.header.machine, detail: session.detailJSON)
            metrics = SessionMetricsCalculator.compute(
                sport: sport, athlete: SessionAnalyzer.athlete(user),
                stream: SessionAnalyzer.stream(from: series))
            let pipelineDistance =
                series.machineTotals.totalDistanceM.map(Double.init)
                ?? (series.derivedTotals.distanceM > 0 ? series.derivedTotals.distanceM : nil)
            let pipelineEnergy =
                series.machineTotals.totalEnergyKcal.map(Double.init)
                ?? (series.derivedTotals.energyKcal > 0 ? series.derivedTotals.energyKcal : nil)
            document["blob"] =
                [
                    "status": session.blobStatus.rawValue, "records": series.recordCount,
                    "decode_errors": series.decodeErrors,
                    "unknown_records": series.unknownRecords, "seconds": series.seconds,
                    "paused_seconds": series.derivedTotals.pausedSeconds,
                ] as [String: Any]
            document["machine_totals"] = [
                "total_distance_m": series.machineTotals.totalDistanceM as Any,
                "total_energy_kcal": series.machineTotals.totalEnergyKcal as Any,
                "elapsed_s": series.machineTotals.elapsedS as Any,
                "stroke_count": series.machineTotals.strokeCount as Any,
            ].compactMapValues { $0 is NSNull ? nil : $0 }
            document["derived_totals"] = [
                "distance_m": series.derivedTotals.distanceM, "energy_kcal": series.derivedTotals.energyKcal,
                "strokes": series.derivedTotals.strokes, "seconds_with_data": series.derivedTotals.secondsWithData,
            ]
            if let d = pipelineDistance,
                abs(d - session.totalDistanceM)
                    > max(tolerances.distanceM, tolerances.distanceFraction * session.totalDistanceM)
            {
                flags.append("distance_mismatch")
            }
            if let e = pipelineEnergy,
                abs(e - session.totalEnergyKcal)
                    > max(tolerances.energyKcal, tolerances.energyFraction * session.totalEnergyKcal)
            {
                flags.append("energy_mismatch")
            }
            if session.blobStatus == .complete, abs(Double(series.seconds) - session.durationS) > tolerances.durationS {
                flags.append("duration_mismatch")
            }
            if series.heartRateBpm.isEmpty || series.heartRateBpm.allSatisfy({ $0.isNaN }) {
                flags.append("no_heart_rate")
            }
        } else {
            flags.append(session.raw == nil ? "no_recording" : "recording_unreadable")
        }
        if session.blobStatus == .truncated { flags.append("truncated_blob") }
        if session.blobStatus == .corrupted { flags.append("corrupted_blob") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        document["sport"] = sport.rawValue
        document["metrics"] = (try? JSONSerialization.jsonObject(with: encoder.encode(metrics))) ?? [:]
        document["flags"] = flags
        return try foundation(document)
    }

    @Test func everyGeneratedSessionGetsThePreviousDocumentByteForByte() async throws {
        // Faults on: truncated, corrupted and unreadable recordings; bikes, rowers and treadmills.
        let h = try PipelineHarness(.init(users: 8, days: 14, seed: 99, endDate: "2026-03-28", faultRate: 0.3))
        let now = h.now
        _ = try await InboxIngestor(store: h.store, clock: PipelineClock(now: { now })).ingest(
            inbox: h.root.appendingPathComponent("inbox"))
        var compared = 0
        var sports = Set<String>(), statuses = Set<String>()
        for userID in try await h.store.userIDs() {
            let user = try #require(try await h.store.user(userID))
            for summary in try await h.store.sessionSummaries(user: userID, offset: 0, limit: 10_000) {
                let session = try #require(try await h.store.session(user: userID, id: summary.sessionID))
                let record = SessionAnalyzer().analyze(session, user: user, now: 0)
                #expect(record.metricsJSON == (try Self.previousDocument(session, user: user)))
                sports.insert(record.sport)
                statuses.insert(session.blobStatus.rawValue)
                compared += 1
            }
        }
        #expect(compared > 30)
        #expect(sports.count >= 2)
        #expect(statuses.count >= 2)
    }

    /// The workout analyzer's document as the previous implementation built it (through `JSONSerialization`).
    static func previousWorkoutDocument(_ workout: WorkoutRecord, user: User) throws -> String {
        let athlete = SessionAnalyzer.athlete(user)
        let sport = WorkoutAnalyzer.sport(activityType: workout.activityType)
        var document: [String: Any] = [
            "activity_type": workout.activityType,
            "sport": sport.map { $0.rawValue as Any } ?? NSNull(),
        ]
        var flags: [String] = []
        var metrics: SessionMetrics
        var basis = WorkoutMetricsBasis.summary
        var energy = workout.energyKcal
        let samples = workout.samplesJSON.flatMap(WorkoutSamples.parse(json:))
        if workout.samplesJSON != nil && samples == nil { flags.append("samples_unreadable") }
        if let samples, samples.gridCount >= 1, !samples.channels.isEmpty {
            basis = .samples
            metrics = SessionMetricsCalculator.compute(
                sport: sport ?? .bike, athlete: athlete,
                stream: samples.stream(totalDistanceForRowing: sport == .row))
            if metrics.avgHrBpm == nil, let avg = workout.avgHR {
                WorkoutAnalyzer.addSummaryHeartRate(
                    &metrics, avgHR: avg, maxHR: workout.maxHR, durationS: workout.durationS, athlete: athlete)
            }
            energy = workout.energyKcal ?? metrics.kcalAcsm
            document["samples"] =
                [
                    "count": samples.samples.count, "seconds": samples.gridCount,
                    "channels": samples.channels.map(\.rawValue).sorted(),
                ] as [String: Any]
        } else {
            metrics = WorkoutAnalyzer.summaryMetrics(workout, sport: sport, athlete: athlete)
        }
        if metrics.avgHrBpm == nil { flags.append("no_heart_rate") }
        if metrics.trainingLoad == nil { flags.append("no_load") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        document["basis"] = basis.rawValue
        document["metrics"] = (try? JSONSerialization.jsonObject(with: encoder.encode(metrics))) ?? [:]
        document["energy_kcal"] = energy.map { $0 as Any } ?? NSNull()
        document["flags"] = flags
        return try foundation(document)
    }

    @Test func everyGeneratedWorkoutGetsThePreviousDocumentByteForByte() async throws {
        let h = try PipelineHarness(.init(users: 8, days: 14, seed: 98, endDate: "2026-03-28", faultRate: 0.3))
        let now = h.now
        _ = try await InboxIngestor(store: h.store, clock: PipelineClock(now: { now })).ingest(
            inbox: h.root.appendingPathComponent("inbox"))
        var compared = 0, withSamples = 0
        for userID in try await h.store.userIDs() {
            let user = try #require(try await h.store.user(userID))
            for var workout in try await h.store.workouts(user: userID, includeDeleted: false) {
                let record = WorkoutAnalyzer().analyze(workout, user: user, now: 0)
                #expect(record.metricsJSON == (try Self.previousWorkoutDocument(workout, user: user)))
                if record.basis == .samples { withSamples += 1 }
                // With samples (every channel, every few seconds), with unreadable ones, and with an activity type a
                // user typed, with characters that need escaping.
                var samples: [String] = []
                var distance = 0.0
                for t in stride(from: 0, through: Int(workout.durationS), by: 1 + compared % 7) {
                    distance += 3.1 * Double(1 + compared % 7)
                    samples.append(
                        "{\"t\": \(t), \"hr_bpm\": \(120 + t % 40), \"power_w\": \(t % 13 == 0 ? "null" : String(150 + t % 90)), "
                            + "\"cadence_rpm\": \(80 + t % 9), \"speed_mps\": \(2.5 + Double(t % 10) / 10), \"distance_m\": \(distance), "
                            + "\"altitude_m\": \(30 + Double(t % 50) / 4), \"grade\": \(Double(t % 7 - 3) / 100)}")
                }
                for variant in ["[" + samples.joined(separator: ",") + "]", "{\"x\": 1}"] {
                    workout.samplesJSON = variant
                    let record = WorkoutAnalyzer().analyze(workout, user: user, now: 0)
                    if record.basis == .samples { withSamples += 1 }
                    #expect(record.metricsJSON == (try Self.previousWorkoutDocument(workout, user: user)))
                }
                workout.activityType = "caf\u{e9}/\"run\"\n\u{1}"
                #expect(
                    WorkoutAnalyzer().analyze(workout, user: user, now: 0).metricsJSON
                        == (try Self.previousWorkoutDocument(workout, user: user)))
                compared += 1
            }
        }
        #expect(compared > 10)
        #expect(withSamples == compared)
    }

    // MARK: - Plan documents: JSONEncoder's pretty layout

    static func foundationPretty(_ value: some Encodable) throws -> String {
        try foundationEncoded(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// `JSONEncoder`'s text with `formatting` and its default strategies.
    static func foundationEncoded(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting) throws -> String
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A value of every shape a document can have: nested objects and arrays (empty ones too), optionals absent and
    /// explicitly null, dictionaries with keys that sort differently by bytes and by collation, and the numbers and
    /// strings where writers differ.
    struct Shape: Encodable {
        var text: String
        var number: Double
        var count: Int
        var maybe: Double?
        var flag: Bool
        var null: Bool
        var table: [String: Double]
        var list: [String]
        var empty: [Int]
        var emptyTable: [String: Int]
        var children: [Shape]

        enum CodingKeys: String, CodingKey {
            case text, number, count, maybe, flag, null, table, list, empty, children
            case emptyTable = "empty_table"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(number, forKey: .number)
            try c.encode(count, forKey: .count)
            try c.encodeIfPresent(maybe, forKey: .maybe)
            try c.encode(flag, forKey: .flag)
            if null { try c.encodeNil(forKey: .null) }
            try c.encode(table, forKey: .table)
            try c.encode(list, forKey: .list)
            try c.encode(empty, forKey: .empty)
            try c.encode(emptyTable, forKey: .emptyTable)
            if !children.isEmpty { try c.encode(children, forKey: .children) }
        }

        static func random(_ rng: inout SplitMix64, depth: Int) -> Shape {
            let doubles: [Double] = [
                0, -0.0, 1, -1, 4212, 96.8, 0.1, 1.0 / 3, 1e-5, 1.5e-7, 1e15, 1e16, 1.2345e17, 1e21, 1e22, -2.5,
                .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123456789.125, 9_007_199_254_740_992, 5.25, 300,
            ]
            let strings = [
                "", "plain", "a/b", "q\"uote", "back\\slash", "line\nfeed", "tab\tcr\r", "\u{1}\u{8}\u{c}\u{1f}\u{7f}",
                "é漢字😇", "\u{2028}", "2026-11-27", "Zone 2 (easy)",
            ]
            let keys = ["a", "B", "b", "_x", "Z", "a10", "a9", "é", "z", "1", "10", "9", "a_b", "aB", "😇", "/", "A b"]
            func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
            func double() -> Double {
                rng.next() % 3 == 0 ? Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) : pick(doubles)
            }
            var table: [String: Double] = [:]
            for _ in 0..<(rng.next() % 6) { table[pick(keys)] = double() }
            let children = depth > 0 ? (0..<(rng.next() % 3)).map { _ in random(&rng, depth: depth - 1) } : []
            return Shape(
                text: pick(strings), number: double(), count: Int(Int64(bitPattern: rng.next()) >> (rng.next() % 64)),
                maybe: rng.next() % 2 == 0 ? nil : double(), flag: rng.next() % 2 == 0, null: rng.next() % 2 == 0,
                table: table, list: (0..<(rng.next() % 4)).map { _ in pick(strings) }, empty: [], emptyTable: [:],
                children: children)
        }
    }

    @Test func randomValuesArePrettyPrintedAsJSONEncoderPrintsThem() throws {
        var rng = SplitMix64(seed: 20_261_127)
        for _ in 0..<3000 {
            let value = Shape.random(&rng, depth: 3)
            let tree = try SortedJSONEncoder.encode(value, numbers: .asEncoded)
            let mine = tree.prettyText
            let theirs = try Self.foundationPretty(value)
            #expect(mine == theirs, "\(mine)\n\(theirs)")
            // The other layouts the package writes in place of a `JSONEncoder`: compact, with and without `\/`, and
            // pretty with `\/` (the synthetic manifest).
            #expect(tree.encoderText == (try Self.foundationEncoded(value, [.sortedKeys])))
            #expect(
                tree.encoderText(escapingSlashes: false)
                    == (try Self.foundationEncoded(value, [.sortedKeys, .withoutEscapingSlashes])))
            #expect(
                tree.prettyText(escapingSlashes: true)
                    == (try Self.foundationEncoded(value, [.sortedKeys, .prettyPrinted])))
        }
        // Top-level arrays and scalars, and what JSONEncoder writes its own way (left to it).
        #expect(
            try SortedJSONEncoder.encode([[Int]](), numbers: .asEncoded).prettyText
                == (try Self.foundationPretty([[Int]]())))
        #expect(
            try SortedJSONEncoder.encode([-0.0, 2.5], numbers: .asEncoded).prettyText
                == (try Self.foundationPretty([-0.0, 2.5])))
        // Dates, data and URLs as `JSONEncoder`'s default strategies write them (`.deferredToDate`, `.base64`, the
        // absolute string); a `Decimal`, which it writes by its own text, is refused.
        struct Stamped: Encodable {
            var at: Date
            var at2: Date?
            var bytes: Data
            var link: URL
        }
        for stamped in [
            Stamped(
                at: Date(timeIntervalSince1970: 0), at2: Date(timeIntervalSince1970: 1_790_000_000.125),
                bytes: Data([0, 1, 2, 250, 251]), link: URL(string: "https://example.org/a/b?c=d")!),
            Stamped(at: Date(timeIntervalSinceReferenceDate: 0), at2: nil, bytes: Data(), link: URL(string: "x")!),
        ] {
            let tree = try SortedJSONEncoder.encode(stamped, numbers: .asEncoded)
            #expect(tree.encoderText == (try Self.foundationEncoded(stamped, [.sortedKeys])))
            #expect(tree.prettyText == (try Self.foundationPretty(stamped)))
        }
        #expect(throws: SortedJSONEncoder.Unsupported.self) {
            try SortedJSONEncoder.encode(["at": Decimal(string: "1.25")!], numbers: .asEncoded)
        }
        #expect(throws: SortedJSONEncoder.NonFinite.self) {
            try SortedJSONEncoder.encode([Double.nan], numbers: .asEncoded)
        }
    }

    /// Every plan the nightly stores for a generated data set — generated, and adapted a week later — is
    /// `PlanDocument.jsonData()`'s text byte for byte, and took the fast path.
    @Test func everyStoredPlanIsWhatJSONEncoderWrites() async throws {
        let h = try PipelineHarness(.init(users: 12, days: 21, seed: 97, endDate: "2026-03-28", faultRate: 0.1))
        _ = try await h.nightly()
        let later = h.now + 8 * 86_400_000
        let planner = PlanService(store: h.store, now: { later })
        var compared = 0, withWeeks = 0
        for user in try await h.store.userIDs() {
            _ = try await planner.refresh(user)
            for plan in try await h.store.planVersions(user: user) {
                let document = try PlanDocument.decode(Data(plan.documentJSON.utf8))
                let tree = try SortedJSONEncoder.encode(document, numbers: .asEncoded)
                #expect(tree.prettyText == plan.documentJSON)
                #expect(plan.documentJSON == (try Self.foundationPretty(document)))
                #expect(plan.documentJSON == (try document.jsonText()))
                if !(document.plan?.weeks.isEmpty ?? true) { withWeeks += 1 }
                compared += 1
            }
        }
        #expect(compared > 12)
        #expect(withWeeks >= 6)
    }

    /// A metric set with a number JSON cannot carry (an overflow `droppingNonFinite` does not know of) kept every other
    /// member: before, the encoder threw and the whole set was stored as `{}` (issue 41).
    @Test func aNonFiniteMetricEmptiesItsOwnMemberOnly() throws {
        var metrics = SessionMetrics()
        metrics.avgPowerW = 212.5
        metrics.npW = .infinity
        metrics.tss = .nan
        guard case .object(let members) = SessionAnalyzer.metricsJSON(metrics) else {
            Issue.record("not an object")
            return
        }
        #expect(members["avg_power_w"] == .double(212.5))
        #expect(members["np_w"] == .null)
        #expect(members["tss"] == .null)
        // The other modes still refuse it, as `JSONEncoder` does.
        #expect(throws: SortedJSONEncoder.NonFinite.self) { try SortedJSONEncoder.encode(metrics) }
        #expect(throws: (any Error).self) { try JSONEncoder().encode(metrics) }
    }
}
