import Foundation

/// Why a `pipeline metrics --stream` document was rejected. The detail names the field and
/// the evidence (lengths, the unknown value) but never the recorded values themselves.
public struct StreamDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// Not JSON, or not a JSON object at the top level.
        case malformedJSON
        /// A required field (`sport`, `stream_1hz`) is missing.
        case missingField
        /// `sport` is not one of bike, row, run, treadmill.
        case unknownSport
        /// `stream_1hz` has a key that is not a known channel name.
        case unknownChannel
        /// A field has the wrong JSON type (a channel that is not an array of numbers and
        /// nulls, an athlete value that is not a number, a `sex` other than male/female).
        case invalidValue
        /// Present channels have different lengths.
        case unequalChannelLengths
    }

    public var code: Code
    public var detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "stream document: \(code.rawValue): \(detail)" }
}

/// The JSON document of `pipeline metrics --stream FILE` (docs/metrics.md, "Computing metrics
/// for any stream"):
///
/// ```json
/// {"sport": "bike",
///  "athlete": {"ftp_w": 250, "cp_w": 260, "wprime_j": 20000, "sex": "male",
///              "hr_rest": 50, "hr_max": 190, "lthr": 170, "mass_kg": 72},
///  "stream_1hz": {"power_w": [..], "hr_bpm": [..], ...}}
/// ```
///
/// Channels are optional, equal-length arrays indexed by second; `null` is a gap.
/// `athlete` is optional (no parameters). Unknown top-level and athlete keys are ignored;
/// unknown channel names are rejected so that a misspelt channel is not silently dropped.
public enum StreamDocument {
    /// Read with `JSONDecoder`, which gives each number's nearest double (Foundation's `JSONSerialization` on Linux
    /// misses it by an ulp for about four decimals in ten). The checks run in the order of the document's description:
    /// sport, athlete, the channels' names, each channel, their lengths.
    public static func parse(_ data: Data) throws(StreamDocumentError) -> (Sport, Athlete, Stream1Hz) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as StreamDocumentError {
            throw error
        } catch {
            throw StreamDocumentError(.malformedJSON, "not valid JSON, or nested deeper than 512 levels")
        }
        let parsed = document.channels
        let lengths = parsed.mapValues(\.count)
        if Set(lengths.values).count > 1 {
            let listing = Stream1Hz.channelNames.compactMap { name in lengths[name].map { "\(name)=\($0)" } }
            throw StreamDocumentError(.unequalChannelLengths, listing.joined(separator: ", "))
        }
        let stream = Stream1Hz(
            powerW: parsed["power_w"] ?? [], hrBpm: parsed["hr_bpm"] ?? [],
            cadenceRpm: parsed["cadence_rpm"] ?? [], speedMps: parsed["speed_mps"] ?? [],
            grade: parsed["grade"] ?? [], paceSPer500m: parsed["pace_s_per_500m"] ?? [],
            totalDistanceM: parsed["total_distance_m"] ?? [], strokeRateSpm: parsed["stroke_rate_spm"] ?? [])
        return (document.sport, document.athlete, stream)
    }

    /// The document as decoded; its `init(from:)` throws `StreamDocumentError` for a document that is JSON but not
    /// this one (a syntax error is the decoder's, found before it runs).
    private struct Document: Decodable {
        var sport: Sport
        var athlete: Athlete
        var channels: [String: [Double]] = [:]

        init(from decoder: any Decoder) throws {
            guard let object = try? decoder.container(keyedBy: JSONKey.self) else {
                throw StreamDocumentError(.malformedJSON, "top level is not an object")
            }
            let sportKey = JSONKey(stringValue: "sport")
            guard object.holdsValue(sportKey) else { throw StreamDocumentError(.missingField, "sport") }
            guard let sportName = try? object.decode(String.self, forKey: sportKey) else {
                throw StreamDocumentError(.invalidValue, "sport is not a string")
            }
            guard let sport = Sport(rawValue: sportName) else {
                throw StreamDocumentError(
                    .unknownSport, "\"\(sportName.prefix(40))\" (expected bike, row, run or treadmill)")
            }
            self.sport = sport
            athlete = try Self.athlete(in: object)

            let streamKey = JSONKey(stringValue: "stream_1hz")
            guard object.holdsValue(streamKey) else { throw StreamDocumentError(.missingField, "stream_1hz") }
            guard let stream = try? object.nestedContainer(keyedBy: JSONKey.self, forKey: streamKey) else {
                throw StreamDocumentError(.invalidValue, "stream_1hz is not an object")
            }
            for key in stream.allKeys where !Stream1Hz.channelNames.contains(key.stringValue) {
                throw StreamDocumentError(
                    .unknownChannel,
                    "\"\(key.stringValue.prefix(40))\" (known: \(Stream1Hz.channelNames.joined(separator: ", ")))")
            }
            for name in Stream1Hz.channelNames {
                let key = JSONKey(stringValue: name)
                guard stream.holdsValue(key) else { continue }
                channels[name] = try Self.channel(name, in: stream, key)
            }
        }

        /// A channel: numbers, and nulls for gaps (NaN). Decoded whole when it is that; otherwise walked again to name
        /// the first element that is not.
        static func channel(
            _ name: String, in stream: KeyedDecodingContainer<JSONKey>, _ key: JSONKey
        ) throws(StreamDocumentError) -> [Double] {
            if let values = try? stream.decode([Double?].self, forKey: key) { return values.map { $0 ?? .nan } }
            guard var elements = try? stream.nestedUnkeyedContainer(forKey: key) else {
                throw StreamDocumentError(.invalidValue, "\(name) is not an array")
            }
            while !elements.isAtEnd {
                let index = elements.currentIndex
                if (try? elements.decodeNil()) == true { continue }
                guard (try? elements.decode(Double.self)) != nil else {
                    throw StreamDocumentError(.invalidValue, "\(name)[\(index)] is not a number or null")
                }
            }
            throw StreamDocumentError(.invalidValue, "\(name) is not an array of numbers and nulls")
        }

        static func athlete(in object: KeyedDecodingContainer<JSONKey>) throws(StreamDocumentError) -> Athlete {
            let athleteKey = JSONKey(stringValue: "athlete")
            guard object.holdsValue(athleteKey) else { return Athlete() }
            guard let fields = try? object.nestedContainer(keyedBy: JSONKey.self, forKey: athleteKey) else {
                throw StreamDocumentError(.invalidValue, "athlete is not an object")
            }
            func field(_ name: String) throws(StreamDocumentError) -> Double? {
                let key = JSONKey(stringValue: name)
                guard fields.holdsValue(key) else { return nil }
                guard let x = try? fields.decode(Double.self, forKey: key) else {
                    throw StreamDocumentError(.invalidValue, "athlete.\(name) is not a number")
                }
                return x
            }
            var sex: Athlete.Sex?
            let sexKey = JSONKey(stringValue: "sex")
            if fields.holdsValue(sexKey) {
                guard let s = try? fields.decode(String.self, forKey: sexKey), let parsed = Athlete.Sex(rawValue: s)
                else {
                    throw StreamDocumentError(.invalidValue, "athlete.sex is not \"male\" or \"female\"")
                }
                sex = parsed
            }
            return Athlete(
                ftpW: try field("ftp_w"), cpW: try field("cp_w"), wprimeJ: try field("wprime_j"), sex: sex,
                hrRest: try field("hr_rest"), hrMax: try field("hr_max"), lthr: try field("lthr"),
                massKg: try field("mass_kg"))
        }
    }
}

extension SessionMetricsCalculator {
    /// Parses a stream document (see `StreamDocument`).
    public static func parseStreamDocument(_ data: Data) throws(StreamDocumentError) -> (Sport, Athlete, Stream1Hz) {
        try StreamDocument.parse(data)
    }
}

extension KeyedDecodingContainer<JSONKey> {
    /// `key` is there with a value other than null: absent and null are the same for every optional field here.
    func holdsValue(_ key: JSONKey) -> Bool { contains(key) && (try? decodeNil(forKey: key)) == false }
}
