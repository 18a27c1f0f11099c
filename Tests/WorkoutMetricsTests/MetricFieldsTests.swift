import Foundation
import Testing

@testable import WorkoutMetrics

/// `MetricDescriptor.all` is the metric set: `SessionMetrics`' JSON form, the non-finite check and the calculator's
/// assignments all go through its entries. These tests hold every entry to that, and check from outside the list
/// (the struct's stored properties as `Mirror` sees them, the JSON text, docs/metrics.md) that no metric is left out:
/// a stored property without an entry would be neither computed nor encoded, and a number forgotten by a hand-kept
/// list used to keep an overflow (∞, NaN) that JSON cannot carry.
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

    /// The stored properties of a metric set that hold a value (`Mirror`: the struct as declared).
    static func propertiesSet(_ m: SessionMetrics) -> [String] {
        Mirror(reflecting: m).children.compactMap { child in
            guard let label = child.label else { return nil }
            return Mirror(reflecting: child.value).children.isEmpty ? nil : label // an Optional's child: .some
        }
    }

    /// Sets a sample value of the descriptor's form in its property; returns the value's JSON text, written here by
    /// hand.
    @discardableResult
    static func setSample(_ descriptor: MetricDescriptor, in m: inout SessionMetrics) -> String {
        switch descriptor.field {
        case .count(let access, _):
            access(&m) { $0 = 42 }
            return "42"
        case .number(let access, _):
            access(&m) { $0 = 12.5 }
            return "12.5"
        case .counts(let access, _):
            access(&m) { $0 = [1, 0, 2] }
            return "[1,0,2]"
        case .meanMaximal(let access, _):
            access(&m) { $0 = MeanMaximalPower(values: MeanMaximalPower.durations.map { $0 == 5 ? 300 : nil }) }
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

    /// Every entry: a value of its form in its property is written under its symbol alone, in its JSON form, reads
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
        #expect(Self.propertiesSet(m).count == 1)
    }

    /// Every entry: a number that is not finite is dropped, whether it was read (`"inf"`) or computed (the
    /// calculator's store), and an infinite or NaN entry of MMP becomes null; whole numbers and zone seconds have no
    /// such values.
    @Test(arguments: MetricDescriptor.all)
    func everyDescriptorDropsNonFinite(_ descriptor: MetricDescriptor) throws {
        let key = descriptor.symbol.rawValue
        let inputs = MetricInputs(sport: .bike, athlete: Athlete(), stream: Stream1Hz(powerW: [200, 210]))
        switch descriptor.field {
        case .number(let access, _):
            var read = try Self.decoder.decode(SessionMetrics.self, from: Data(#"{"\#(key)":"inf"}"#.utf8))
            #expect(SessionMetrics.read(access, &read) == .infinity)
            #expect(read.droppingNonFinite() == SessionMetrics())
            for value in [Double.infinity, -.infinity, .nan] {
                var m = SessionMetrics()
                MetricField.number(access, { _ in value }).store(in: &m, from: inputs)
                #expect(m == SessionMetrics(), "\(key) kept \(value)")
            }
            var m = SessionMetrics()
            MetricField.number(access, { _ in 7.25 }).store(in: &m, from: inputs)
            #expect(SessionMetrics.read(access, &m) == 7.25)
        case .meanMaximal(let access, _):
            let values: [Double?] = MeanMaximalPower.durations.map { $0 == 1 ? 400 : $0 == 5 ? .infinity : nil }
            var m = SessionMetrics()
            access(&m) { $0 = MeanMaximalPower(values: values) }
            var droppedSet = m.droppingNonFinite()
            let dropped = SessionMetrics.read(access, &droppedSet)
            #expect(dropped?[seconds: 1] == 400)
            #expect(dropped?.values.compactMap { $0 }.count == 1)
            var stored = SessionMetrics()
            MetricField.meanMaximal(access, { _ in MeanMaximalPower(values: values) }).store(in: &stored, from: inputs)
            #expect(SessionMetrics.read(access, &stored) == dropped)
        case .count, .counts:
            // JSON cannot carry an infinite whole number: the key does not read "inf" at all.
            #expect(throws: DecodingError.self) {
                try Self.decoder.decode(SessionMetrics.self, from: Data(#"{"\#(key)":"inf"}"#.utf8))
            }
            let (m, _) = Self.sample(descriptor)
            #expect(m.droppingNonFinite() == m)
        }
    }

    /// One entry per stored property of `SessionMetrics` (as declared, seen through `Mirror`) and one per key: a
    /// property added without its entry, or two entries naming one property or one symbol, fail here.
    @Test func oneDescriptorPerPropertyAndKey() throws {
        let properties = Mirror(reflecting: SessionMetrics()).children.compactMap(\.label)
        let held = MetricDescriptor.all.flatMap { Self.propertiesSet(Self.sample($0).0) }
        #expect(held.sorted() == properties.sorted())
        #expect(Set(MetricDescriptor.all.map(\.symbol)).count == MetricDescriptor.all.count)
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
