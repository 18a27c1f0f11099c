import Foundation
import Testing

@testable import WorkoutMetrics

/// A metric forgotten in a hand-kept list of `Double` fields used to keep an overflow (∞, NaN) that JSON cannot
/// carry, and the stored document's metrics went blank. Every key that holds a number is found here from the JSON
/// form alone (the keys are the descriptors' symbols; which of them read a number is the decoder's answer): each must
/// come out of `droppingNonFinite` as nil when it was infinite.
@Suite struct MetricFieldsTests {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    static let symbols = MetricDescriptor.all.map(\.symbol.rawValue)

    @Test(arguments: symbols)
    func nonFiniteNumbersAreDropped(_ key: String) throws {
        // Only the keys that hold a Double read "inf" (an Int, an array or MMP's object do not).
        guard let m = try? Self.decoder.decode(SessionMetrics.self, from: Data(#"{"\#(key)": "inf"}"#.utf8))
        else { return }
        #expect(m != SessionMetrics(), "\(key) did not read")
        #expect(m.droppingNonFinite() == SessionMetrics(), "\(key) kept a non-finite value")
    }

    /// Every descriptor: a value of its form written under its symbol reads back the same, under that key alone, and
    /// a non-finite number (or MMP entry) in it is dropped. The values and the JSON text are written here by hand.
    @Test(arguments: MetricDescriptor.all)
    func everyDescriptorRoundTripsAndDropsNonFinite(_ descriptor: MetricDescriptor) throws {
        let key = descriptor.symbol.rawValue
        let (value, json, nonFinite, finite): (MetricValue, String, MetricValue, MetricValue?)
        switch descriptor.kind {
        case .count: (value, json, nonFinite, finite) = (.count(42), "42", .count(42), .count(42))
        case .number: (value, json, nonFinite, finite) = (.number(12.5), "12.5", .number(.infinity), nil)
        case .counts: (value, json, nonFinite, finite) = (.counts([1, 2]), "[1,2]", .counts([1, 2]), .counts([1, 2]))
        case .meanMaximal:
            let values: [Double?] = MeanMaximalPower.durations.indices.map { $0 == 0 ? 300 : nil }
            let nan: [Double?] = MeanMaximalPower.durations.indices.map { $0 == 0 ? 300 : $0 == 1 ? .nan : nil }
            (value, json, nonFinite, finite) = (
                .meanMaximal(MeanMaximalPower(values: values)),
                "{"
                    + MeanMaximalPower.durations.map(String.init).sorted().map {
                        #""\#($0)":\#($0 == "1" ? "300" : "null")"#
                    }.joined(separator: ",") + "}",
                .meanMaximal(MeanMaximalPower(values: nan)), .meanMaximal(MeanMaximalPower(values: values))
            )
        }
        var m = SessionMetrics()
        m[descriptor.symbol] = value
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded = String(decoding: try encoder.encode(m), as: UTF8.self)
        #expect(encoded == #"{"\#(key)":\#(json)}"#)
        #expect(try JSONDecoder().decode(SessionMetrics.self, from: Data(encoded.utf8)) == m)
        #expect(
            try JSONDecoder().decode(SessionMetrics.self, from: Data(#"{"\#(key)":null}"#.utf8)) == SessionMetrics())

        var bad = SessionMetrics()
        bad[descriptor.symbol] = nonFinite
        #expect(bad.droppingNonFinite()[descriptor.symbol] == finite)
    }

    /// Every key has one descriptor: a metric set with every value encodes one key per descriptor, its symbol.
    @Test func oneDescriptorPerKey() throws {
        #expect(Set(MetricDescriptor.all.map(\.symbol)).count == MetricDescriptor.all.count)
        var m = SessionMetrics()
        for d in MetricDescriptor.all {
            switch d.kind {
            case .count: m[d.symbol] = .count(1)
            case .number: m[d.symbol] = .number(1.5)
            case .counts: m[d.symbol] = .counts([1])
            case .meanMaximal:
                m[d.symbol] = .meanMaximal(MeanMaximalPower(values: MeanMaximalPower.durations.map { _ in 1 }))
            }
        }
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(m)) as? [String: Any]
        #expect(object.map { Set($0.keys) } == Set(Self.symbols))
    }

    /// docs/metrics.md names every session metric (as `key`, in a table row or the text): forgetting its line fails
    /// here.
    @Test func everyMetricIsDocumented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/metrics.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for symbol in Self.symbols {
            #expect(text.contains("`\(symbol)`"), "docs/metrics.md does not name `\(symbol)`")
        }
    }

    /// The typed properties read and write the values under their descriptors' symbols.
    @Test func namedPropertiesAreTheDescriptorsValues() {
        var m = SessionMetrics()
        m.durationS = 3600
        m.avgPowerW = 200
        m.intensityFactor = 0.8
        m.timeInHrZonesS = [1, 2, 3, 4, 5]
        m.concept2KcalPerHourAtAvgSplit = 900
        m.kcalAcsm = 650
        #expect(m["duration_s"] == .count(3600))
        #expect(m["avg_power_w"] == .number(200))
        #expect(m["if"] == .number(0.8))
        #expect(m["time_in_hr_zones_s"] == .counts([1, 2, 3, 4, 5]))
        #expect(m["concept2_kcal_per_hour_at_avg_split"] == .number(900))
        #expect(m["kcal_acsm"] == .number(650))
        m.avgPowerW = nil
        #expect(m["avg_power_w"] == nil)
        #expect(m.values.count == 5)
    }
}
