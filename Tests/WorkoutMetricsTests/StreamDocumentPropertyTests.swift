import Foundation
import PropertyBased
import Testing

@testable import WorkoutMetrics

/// Any stream document a writer could send (`StreamDocument`, docs/metrics.md, "The stream document"): each channel
/// absent, null or present, every element null or a number at a corner (zero, −0, any finite double from its bits,
/// whole and two-decimal numbers, the largest double, the smallest subnormal), athlete fields absent, null or set, keys
/// in any order, with or without white space, and keys the document ignores (holding a number beyond a double's range).
/// What `parse` gives is checked against the values the text was written from, bit for bit; a single element that is
/// not a number or null must be named by its channel and index.
@Suite struct StreamDocumentPropertyTests {
    static let count = 300
    static let maxLength = 24
    nonisolated(unsafe) static let channels: [(String, KeyPath<Stream1Hz, [Double]>)] = [
        ("power_w", \.powerW), ("hr_bpm", \.hrBpm), ("cadence_rpm", \.cadenceRpm), ("speed_mps", \.speedMps),
        ("grade", \.grade), ("pace_s_per_500m", \.paceSPer500m), ("total_distance_m", \.totalDistanceM),
        ("stroke_rate_spm", \.strokeRateSpm),
    ]
    nonisolated(unsafe) static let athleteFields: [(String, KeyPath<Athlete, Double?>)] = [
        ("ftp_w", \.ftpW), ("cp_w", \.cpW), ("wprime_j", \.wprimeJ), ("hr_rest", \.hrRest), ("hr_max", \.hrMax),
        ("lthr", \.lthr), ("mass_kg", \.massKg),
    ]

    /// A number at corner `corner` (0 is null).
    static func number(_ corner: Int, _ bits: UInt64, _ whole: Int) -> Double? {
        switch corner {
        case 0: return nil
        case 1: return 0
        case 2: return -0.0
        case 3:
            // Any double but ±∞ and NaN: an exponent of all ones loses its lowest bit.
            let d = Double(bitPattern: bits)
            return d.isFinite ? d : Double(bitPattern: bits & ~(UInt64(1) << 52))
        case 4: return Double(whole)
        case 5: return Double(whole) / 100
        case 6: return .greatestFiniteMagnitude
        default: return .leastNonzeroMagnitude
        }
    }

    /// The choices a document is written from.
    struct Choices {
        var sport: Sport
        /// Per channel: 0 absent, 1 null, 2 an array.
        var channelStates: [Int]
        var length: Int
        /// `channels.count × maxLength` elements; channel k uses its first `length`.
        var elements: [Double?]
        /// Per athlete field: 0 absent, 1 null, 2 a number. Then sex: 0 absent, 1 null, 2 male, 3 female.
        var athleteStates: [Int]
        var athleteValues: [Double?]
        var sexState: Int
        /// 0 no athlete key, 1 `"athlete": null`, 2 an object.
        var athleteKey: Int
        var rotation: Int
        var spaced: Bool
        var ignoredKeys: Bool
    }

    static var choices: Generator<Choices, AnySequence<Any>> {
        let element = zip(Gen.int(in: 0...7), Gen.uint64(), Gen.int(in: -1_000_000...1_000_000)).map {
            number($0, $1, $2)
        }
        return zip(
            zip(
                Gen.element(of: Sport.allCases).map { $0 ?? .bike }, Gen.int(in: 0...2).array(of: channels.count),
                Gen.int(in: 0...maxLength), element.array(of: channels.count * maxLength)),
            zip(
                Gen.int(in: 0...2).array(of: athleteFields.count), element.array(of: athleteFields.count),
                Gen.int(in: 0...3), Gen.int(in: 0...2)),
            zip(Gen.int(in: 0...20), Gen.bool, Gen.bool)
        )
        .map { first, second, third in
            Choices(
                sport: first.0, channelStates: first.1, length: first.2, elements: first.3, athleteStates: second.0,
                athleteValues: second.1, sexState: second.2, athleteKey: second.3, rotation: third.0,
                spaced: third.1, ignoredKeys: third.2)
        }
        .eraseToAny()
    }

    static func json(_ x: Double?) -> String { x.map { "\($0)" } ?? "null" }

    /// An object's text from its members, in an order turned by `rotation`.
    static func object(_ members: [(String, String)], _ c: Choices) -> String {
        let shift = members.isEmpty ? 0 : c.rotation % members.count
        let turned = Array(members[shift...]) + Array(members[..<shift])
        let (colon, comma) = c.spaced ? (": ", ",\n ") : (":", ",")
        return "{" + turned.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: comma) + "}"
    }

    /// The document's text; `corrupt` replaces channel `k`'s element `i` with `text`.
    static func document(_ c: Choices, corrupt: (k: Int, i: Int, text: String)? = nil) -> String {
        var stream: [(String, String)] = []
        for (k, (name, _)) in channels.enumerated() {
            switch c.channelStates[k] {
            case 0: continue
            case 1: stream.append((name, "null"))
            default:
                var texts = (0..<c.length).map { json(c.elements[k * maxLength + $0]) }
                if let corrupt, corrupt.k == k { texts[corrupt.i] = corrupt.text }
                stream.append((name, "[" + texts.joined(separator: c.spaced ? ", " : ",") + "]"))
            }
        }
        var athlete: [(String, String)] = []
        for (k, (name, _)) in athleteFields.enumerated() where c.athleteStates[k] > 0 {
            athlete.append((name, c.athleteStates[k] == 1 ? "null" : json(c.athleteValues[k] ?? 1)))
        }
        if c.sexState > 0 { athlete.append(("sex", ["null", "\"male\"", "\"female\""][c.sexState - 1])) }
        var top: [(String, String)] = [("sport", "\"\(c.sport.rawValue)\""), ("stream_1hz", object(stream, c))]
        if c.athleteKey == 1 { top.append(("athlete", "null")) }
        if c.athleteKey == 2 { top.append(("athlete", object(athlete, c))) }
        if c.ignoredKeys { top.append(("note", #"[1e400, "x", {"a": [null, true]}, -0.0]"#)) }
        return object(top, c)
    }

    @Test func everyDocumentReadsAsWritten() async {
        await propertyCheck(count: Self.count, input: Self.choices) { c in
            let text = Self.document(c)
            guard let (sport, athlete, stream) = try? StreamDocument.parse(Data(text.utf8)) else {
                Issue.record("refused: \(text)")
                return
            }
            #expect(sport == c.sport)
            for (k, (name, path)) in Self.channels.enumerated() {
                let expected: [Double?] =
                    c.channelStates[k] == 2 ? (0..<c.length).map { c.elements[k * Self.maxLength + $0] } : []
                let got = stream[keyPath: path]
                #expect(got.count == expected.count, "\(name)")
                for (g, e) in zip(got, expected) {
                    if let e {
                        #expect(g.bitPattern == e.bitPattern, "\(name): \(g) for \(e)")
                    } else {
                        #expect(g.isNaN)
                    }
                }
            }
            let athleteGiven = c.athleteKey == 2
            for (k, (name, path)) in Self.athleteFields.enumerated() {
                let expected = athleteGiven && c.athleteStates[k] == 2 ? (c.athleteValues[k] ?? 1) : nil
                #expect(athlete[keyPath: path]?.bitPattern == expected?.bitPattern, "athlete.\(name)")
            }
            let sex: Athlete.Sex? = athleteGiven ? [nil, nil, .male, .female][c.sexState] : nil
            #expect(athlete.sex == sex)
        }
    }

    /// One element of one present, non-empty channel replaced by a string, a boolean, an object or an array: the error
    /// names that channel and index.
    @Test func aBadElementIsNamed() async {
        let input = zip(
            Self.choices, Gen.int(in: 0..<Self.channels.count), Gen.int(in: 0..<Self.maxLength), Gen.int(in: 0...3))
        await propertyCheck(count: Self.count, input: input) { c, channel, index, kind in
            var c = c
            c.channelStates[channel] = 2
            c.length = max(c.length, index + 1)
            let bad = [#""7""#, "true", #"{"v": 1}"#, "[1]"][kind]
            let text = Self.document(c, corrupt: (channel, index, bad))
            do throws(StreamDocumentError) {
                _ = try StreamDocument.parse(Data(text.utf8))
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.code == .invalidValue)
                #expect(error.detail == "\(Self.channels[channel].0)[\(index)] is not a number or null")
            }
        }
    }
}
