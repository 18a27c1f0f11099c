import Foundation
import PropertyBased
import Testing

@testable import WorkoutMetrics

/// Any metric set, as `SessionMetrics` holds it (one place per entry of `MetricDescriptor.all`): every metric absent
/// or present, in its form, with the corners of each (0, negative, huge, ±∞, NaN; an MMP with holes and non-finite
/// entries). What the set must do is checked against a model kept here, a dictionary from key to the JSON value
/// expected, built from the generated choices without going through the set.
@Suite struct MetricSetPropertyTests {
    static let count = 300

    /// Per metric: which corner (0 absent, 1 zero, 2 a value, 3 a negative value, 4 +∞, 5 −∞, 6 NaN, 7 1e308), and a
    /// value.
    static var choices: Generator<[(Int, Double)], AnySequence<Any>> {
        zip(
            Gen.int(in: 0...7).array(of: MetricDescriptor.all.count),
            Gen.double(in: 0...100_000).array(of: MetricDescriptor.all.count)
        )
        .map { corners, values in Array(zip(corners, values)) }
        .eraseToAny()
    }

    static func number(_ corner: Int, _ value: Double) -> Double? {
        switch corner {
        case 0: nil
        case 1: 0
        case 2: value
        case 3: -value
        case 4: .infinity
        case 5: -.infinity
        case 6: .nan
        default: 1e308
        }
    }

    /// The set made from the choices, and the model: each key present after `droppingNonFinite`, with its JSON value
    /// (numbers as `Double`, whole numbers as `Int`, zones as `[Int]`, MMP as `[String: Double?]`).
    static func make(_ choices: [(Int, Double)]) -> (SessionMetrics, [String: Any], [MetricSymbol]) {
        var m = SessionMetrics()
        var model: [String: Any] = [:]
        var set: [MetricSymbol] = []
        for (descriptor, (corner, value)) in zip(MetricDescriptor.all, choices) where corner != 0 {
            let key = descriptor.symbol.rawValue
            set.append(descriptor.symbol)
            switch descriptor.kind {
            case .count:
                let n = corner == 7 ? Int.max : Int(value) * (corner == 3 ? -1 : 1)
                m[descriptor.symbol] = .count(n)
                model[key] = n
            case .number:
                let v = number(corner, value)!
                m[descriptor.symbol] = .number(v)
                if v.isFinite { model[key] = v }
            case .counts:
                let zones = (0..<corner).map { Int(value) / ($0 + 1) }
                m[descriptor.symbol] = .counts(zones)
                model[key] = zones
            case .meanMaximal:
                // Entry k: the corner of metric k's choice, so that holes and non-finite entries fall anywhere.
                let entries: [Double?] = MeanMaximalPower.durations.indices.map { k in
                    number(choices[k % choices.count].0, value)
                }
                m[descriptor.symbol] = .meanMaximal(MeanMaximalPower(values: entries))
                model[key] = Dictionary(
                    uniqueKeysWithValues: zip(MeanMaximalPower.durations, entries).map { d, v in
                        (String(d), v.flatMap { $0.isFinite ? $0 : nil })
                    })
            }
        }
        return (m, model, set)
    }

    @Test func anyMetricSet() async {
        await propertyCheck(count: Self.count, input: Self.choices) { choices in
            let (m, model, set) = Self.make(choices)
            // The metrics present are those set, in the entries' order.
            #expect(m.present.map(\.descriptor.symbol) == set)
            let dropped = m.droppingNonFinite()
            #expect(dropped.droppingNonFinite() == dropped)
            // The JSON of the set without its non-finite numbers: the model's keys and values, and it reads back.
            do {
                let data = try JSONEncoder().encode(dropped)
                // Read as plain JSON values (`JSONSerialization` on Linux misreads some decimals, e.g.
                // 1.0000000000000002e-06 as …04e-06: `JSONDecoder` reads the text exactly).
                let object = try JSONDecoder().decode([String: PlainJSON].self, from: data)
                #expect(Set(object.keys) == Set(model.keys))
                for (key, expected) in model {
                    switch (expected, object[key]) {
                    case (let v as Double, .number(let read)?): #expect(read == v, "\(key)")
                    case (let n as Int, .number(let read)?): #expect(read == Double(n), "\(key)")
                    case (let zones as [Int], .array(let read)?):
                        #expect(read == zones.map { .number(Double($0)) }, "\(key)")
                    case (let mmp as [String: Double?], .object(let read)?):
                        #expect(read == mmp.mapValues { $0.map(PlainJSON.number) ?? .null }, "\(key)")
                    default: Issue.record("\(key): expected \(expected), read \(String(describing: object[key]))")
                    }
                }
                #expect(try JSONDecoder().decode(SessionMetrics.self, from: data) == dropped)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// The stored document's tree (`sortedJSON`, built from the values) is the tree the generic encoder makes of the
    /// set's `Codable` form, non-finite numbers (written `null`) and zeros (the integer 0) included; and the model's
    /// values are its members.
    @Test func sortedJSONIsTheEncodersTree() async {
        await propertyCheck(count: Self.count, input: Self.choices) { choices in
            let (m, model, set) = Self.make(choices)
            #expect(m.sortedJSON == (try? SortedJSONEncoder.encode(m, numbers: .asReadBackNonFiniteAsNull)))
            guard case .object(let members) = m.sortedJSON else {
                Issue.record("not an object")
                return
            }
            #expect(Set(members.keys) == Set(set.map(\.rawValue)))
            for (key, expected) in model {
                switch (expected, members[key]) {
                case (let v as Double, .double(let read)?): #expect(read == v, "\(key)")
                case (let v as Double, .int(0)?): #expect(v == 0, "\(key)")
                case (let n as Int, .int(let read)?): #expect(read == Int64(n), "\(key)")
                case (let zones as [Int], .array(let read)?): #expect(read == zones.map { .int(Int64($0)) }, "\(key)")
                case (let mmp as [String: Double?], .object(let read)?):
                    #expect(read == mmp.mapValues { $0.map { $0 == 0 ? .int(0) : .double($0) } ?? .null }, "\(key)")
                default: Issue.record("\(key): expected \(expected), read \(String(describing: members[key]))")
                }
            }
            // A number the model leaves out (not finite) is null in its own member.
            for key in Set(members.keys).subtracting(model.keys) { #expect(members[key] == .null, "\(key)") }
        }
    }

    /// Negative zero reads back as the integer 0, as `JSONEncoder`'s text `-0` does through `JSONSerialization`.
    @Test func negativeZeroIsTheIntegerZero() throws {
        var m = SessionMetrics()
        m.avgPowerW = -0.0
        m.mmpW = MeanMaximalPower(values: [-0.0] + Array(repeating: nil, count: MeanMaximalPower.durations.count - 1))
        #expect(m.sortedJSON == (try SortedJSONEncoder.encode(m, numbers: .asReadBackNonFiniteAsNull)))
        let members = try #require(
            { if case .object(let members) = m.sortedJSON { members } else { nil } }() as [String: SortedJSON]?)
        #expect(members["avg_power_w"] == .int(0))
    }
}

/// A JSON value as the text has it, read by `JSONDecoder` (whole numbers compared as `Double`: every count here is
/// within 2⁵³ but `Int.max`, which is checked through `Double` too).
enum PlainJSON: Decodable, Equatable {
    case number(Double)
    case array([PlainJSON])
    case object([String: PlainJSON])
    case null

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let v = try? c.decode(Double.self) {
            self = .number(v)
        } else if let a = try? c.decode([PlainJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: PlainJSON].self))
        }
    }
}
