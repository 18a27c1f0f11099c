import Foundation
import Testing

@testable import WorkoutMetrics

/// `MetricDescriptor.all` is the metric set: `SessionMetrics` holds one place per entry, and its JSON form, the
/// non-finite check and the calculator's assignments all go through the entries. These tests hold every entry to
/// that, and check from outside the list (the named properties against keys written from the docs, the JSON text,
/// docs/metrics.md) that no metric is left out or misnamed.
@Suite struct MetricFieldsTests {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    static func sortedJSON(_ m: SessionMetrics) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(m), as: UTF8.self)
    }

    /// Sets a sample value of the descriptor's form in its place; returns the value's JSON text, written here by
    /// hand.
    @discardableResult
    static func setSample(_ descriptor: MetricDescriptor, in m: inout SessionMetrics) -> String {
        switch descriptor.kind {
        case .count:
            m[descriptor.symbol] = .count(42)
            return "42"
        case .number:
            m[descriptor.symbol] = .number(12.5)
            return "12.5"
        case .counts:
            m[descriptor.symbol] = .counts([1, 0, 2])
            return "[1,0,2]"
        case .meanMaximal:
            m[descriptor.symbol] = .meanMaximal(
                MeanMaximalPower(values: MeanMaximalPower.durations.map { $0 == 5 ? 300 : nil }))
            let members = MeanMaximalPower.durations.map(String.init).sorted().map {
                #""\#($0)":\#($0 == "5" ? "300" : "null")"#
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func sample(_ descriptor: MetricDescriptor) -> (SessionMetrics, json: String) {
        var m = SessionMetrics()
        let json = setSample(descriptor, in: &m)
        return (m, json)
    }

    static func slot(_ descriptor: MetricDescriptor) throws -> Int {
        try #require(MetricDescriptor.all.firstIndex { $0.symbol == descriptor.symbol })
    }

    /// Every entry: a value of its form in its place is written under its symbol alone, in its JSON form, reads
    /// back the same, and `null` reads as absent.
    @Test(arguments: MetricDescriptor.all)
    func everyDescriptorRoundTrips(_ descriptor: MetricDescriptor) throws {
        let key = descriptor.symbol.rawValue
        let (m, json) = Self.sample(descriptor)
        let encoded = try Self.sortedJSON(m)
        #expect(encoded == #"{"\#(key)":\#(json)}"#)
        #expect(try JSONDecoder().decode(SessionMetrics.self, from: Data(encoded.utf8)) == m)
        #expect(
            try JSONDecoder().decode(SessionMetrics.self, from: Data(#"{"\#(key)":null}"#.utf8)) == SessionMetrics())
        #expect(m.present.map(\.descriptor.symbol) == [descriptor.symbol])
    }

    /// Every entry: a number that is not finite is dropped, whether it was read (`"inf"`) or computed (the
    /// calculator's store), and an infinite or NaN entry of MMP becomes null; whole numbers and zone seconds have no
    /// such values.
    @Test(arguments: MetricDescriptor.all)
    func everyDescriptorDropsNonFinite(_ descriptor: MetricDescriptor) throws {
        let key = descriptor.symbol.rawValue
        let slot = try Self.slot(descriptor)
        let inputs = MetricInputs(sport: .bike, athlete: Athlete(), stream: Stream1Hz(powerW: [200, 210]))
        switch descriptor.kind {
        case .number:
            let read = try Self.decoder.decode(SessionMetrics.self, from: Data(#"{"\#(key)":"inf"}"#.utf8))
            #expect(read[descriptor.symbol] == .number(.infinity))
            #expect(read.droppingNonFinite() == SessionMetrics())
            for value in [Double.infinity, -.infinity, .nan] {
                var m = SessionMetrics()
                MetricField.number({ _ in value }).store(in: &m, at: slot, from: inputs)
                #expect(m == SessionMetrics(), "\(key) kept \(value)")
            }
            var m = SessionMetrics()
            MetricField.number({ _ in 7.25 }).store(in: &m, at: slot, from: inputs)
            #expect(m[descriptor.symbol] == .number(7.25))
        case .meanMaximal:
            let values: [Double?] = MeanMaximalPower.durations.map { $0 == 1 ? 400 : $0 == 5 ? .infinity : nil }
            var m = SessionMetrics()
            m[descriptor.symbol] = .meanMaximal(MeanMaximalPower(values: values))
            guard case .meanMaximal(let dropped)? = m.droppingNonFinite()[descriptor.symbol] else {
                Issue.record("\(key): no MMP after dropping")
                return
            }
            #expect(dropped[seconds: 1] == 400)
            #expect(dropped.values.compactMap { $0 }.count == 1)
            var stored = SessionMetrics()
            MetricField.meanMaximal({ _ in MeanMaximalPower(values: values) }).store(
                in: &stored, at: slot, from: inputs)
            #expect(stored[descriptor.symbol] == .meanMaximal(dropped))
        case .count, .counts:
            // JSON cannot carry an infinite whole number: the key does not read "inf" at all.
            #expect(throws: DecodingError.self) {
                try Self.decoder.decode(SessionMetrics.self, from: Data(#"{"\#(key)":"inf"}"#.utf8))
            }
            let (m, _) = Self.sample(descriptor)
            #expect(m.droppingNonFinite() == m)
        }
    }

    /// One entry per key.
    @Test func oneDescriptorPerKey() throws {
        #expect(Set(MetricDescriptor.all.map(\.symbol)).count == MetricDescriptor.all.count)
    }

    /// The named properties, each with the JSON key docs/metrics.md gives it (this table is written from the docs,
    /// not from the code): setting one sets that key alone, and reads back through the property.
    @Test func everyNamedPropertyIsItsKey() throws {
        let counts: [(WritableKeyPath<SessionMetrics, Int?>, String)] = [
            (\.durationS, "duration_s"), (\.powerSeconds, "power_seconds"), (\.movingTimeS, "moving_time_s"),
        ]
        let numbers: [(WritableKeyPath<SessionMetrics, Double?>, String)] = [
            (\.avgPowerW, "avg_power_w"), (\.maxPowerW, "max_power_w"), (\.workKj, "work_kj"), (\.npW, "np_w"),
            (\.intensityFactor, "if"), (\.tss, "tss"), (\.vi, "vi"), (\.ef, "ef"),
            (\.aerobicDecouplingPct, "aerobic_decoupling_pct"), (\.wbalMinJ, "wbal_min_j"),
            (\.wbalIntegralMinJ, "wbal_integral_min_j"), (\.avgHrBpm, "avg_hr_bpm"), (\.maxHrBpm, "max_hr_bpm"),
            (\.trimpBanister, "trimp_banister"), (\.trimpEdwards, "trimp_edwards"), (\.hrss, "hrss"),
            (\.avgCadenceRpm, "avg_cadence_rpm"), (\.maxCadenceRpm, "max_cadence_rpm"), (\.distanceM, "distance_m"),
            (\.avgSpeedMps, "avg_speed_mps"), (\.maxSpeedMps, "max_speed_mps"),
            (\.avgSplitSPer500m, "avg_split_s_per_500m"), (\.wattsFromAvgSplitW, "watts_from_avg_split_w"),
            (\.avgStrokeRateSpm, "avg_stroke_rate_spm"),
            (\.concept2KcalPerHourAtAvgSplit, "concept2_kcal_per_hour_at_avg_split"),
            (\.avgPaceSPerKm, "avg_pace_s_per_km"), (\.gapPaceSPerKm, "gap_pace_s_per_km"), (\.kcalAcsm, "kcal_acsm"),
        ]
        let zones: [(WritableKeyPath<SessionMetrics, [Int]?>, String)] = [
            (\.timeInPowerZonesS, "time_in_power_zones_s"), (\.timeInHrZonesS, "time_in_hr_zones_s"),
        ]
        func check<Value: Equatable>(_ path: WritableKeyPath<SessionMetrics, Value?>, _ key: String, _ value: Value)
            throws
        {
            var m = SessionMetrics()
            m[keyPath: path] = value
            #expect(m.present.map(\.descriptor.symbol.rawValue) == [key])
            #expect(m[keyPath: path] == value)
            let decoded = try JSONDecoder().decode(SessionMetrics.self, from: JSONEncoder().encode(m))
            #expect(decoded[keyPath: path] == value, "\(key)")
        }
        for (path, key) in counts { try check(path, key, 42) }
        for (path, key) in numbers { try check(path, key, 12.5) }
        for (path, key) in zones { try check(path, key, [1, 2]) }
        let mmp = MeanMaximalPower(values: MeanMaximalPower.durations.map { $0 == 1 ? 500 : nil })
        try check(\.mmpW, "mmp_w", mmp)
        // Every metric is named today; a new one need not be.
        #expect(counts.count + numbers.count + zones.count + 1 == MetricDescriptor.all.count)
    }

    /// A metric set with every value encodes every symbol once, and reads back the same. (Foundation's
    /// `JSONEncoder` does not keep the order of the keys on Linux, so the order, that of `MetricDescriptor.all`, is
    /// not checked here; the stored documents sort their keys.)
    @Test func everySymbolIsEncodedOnce() throws {
        var m = SessionMetrics()
        for descriptor in MetricDescriptor.all { Self.setSample(descriptor, in: &m) }
        let data = try JSONEncoder().encode(m)
        #expect(try JSONDecoder().decode(SessionMetrics.self, from: data) == m)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object.map { Set($0.keys) } == Set(MetricDescriptor.all.map(\.symbol.rawValue)))
        #expect(object?.count == MetricDescriptor.all.count)
    }

    /// docs/metrics.md has a table row for every session metric (the key, in backquotes, in its first cell):
    /// forgetting the row fails here.
    @Test func everyMetricHasADocsRow() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/metrics.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var documented = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.dropFirst().prefix { $0 != "|" }
            let parts = firstCell.split(separator: "`", omittingEmptySubsequences: false)
            for (k, part) in parts.enumerated() where k % 2 == 1 { documented.insert(String(part)) }
        }
        for descriptor in MetricDescriptor.all {
            #expect(
                documented.contains(descriptor.symbol.rawValue),
                "docs/metrics.md has no row for `\(descriptor.symbol.rawValue)`")
        }
    }
}
