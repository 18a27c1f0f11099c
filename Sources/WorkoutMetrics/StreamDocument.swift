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
    public static func parse(_ data: Data) throws(StreamDocumentError) -> (Sport, Athlete, Stream1Hz) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw StreamDocumentError(.malformedJSON, "not valid JSON")
        }
        guard let object = root as? [String: Any] else {
            throw StreamDocumentError(.malformedJSON, "top level is not an object")
        }

        guard let sportValue = object["sport"], !(sportValue is NSNull) else {
            throw StreamDocumentError(.missingField, "sport")
        }
        guard let sportName = sportValue as? String else {
            throw StreamDocumentError(.invalidValue, "sport is not a string")
        }
        guard let sport = Sport(rawValue: sportName) else {
            throw StreamDocumentError(
                .unknownSport, "\"\(sportName.prefix(40))\" (expected bike, row, run or treadmill)")
        }

        let athlete = try parseAthlete(object["athlete"])

        guard let streamValue = object["stream_1hz"], !(streamValue is NSNull) else {
            throw StreamDocumentError(.missingField, "stream_1hz")
        }
        guard let channels = streamValue as? [String: Any] else {
            throw StreamDocumentError(.invalidValue, "stream_1hz is not an object")
        }
        for key in channels.keys where !Stream1Hz.channelNames.contains(key) {
            throw StreamDocumentError(
                .unknownChannel, "\"\(key.prefix(40))\" (known: \(Stream1Hz.channelNames.joined(separator: ", ")))")
        }

        var parsed: [String: [Double]] = [:]
        for name in Stream1Hz.channelNames {
            guard let value = channels[name], !(value is NSNull) else { continue }
            parsed[name] = try parseChannel(name, value)
        }
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
        return (sport, athlete, stream)
    }

    static func parseChannel(_ name: String, _ value: Any) throws(StreamDocumentError) -> [Double] {
        guard let array = value as? [Any] else {
            throw StreamDocumentError(.invalidValue, "\(name) is not an array")
        }
        var out = [Double]()
        out.reserveCapacity(array.count)
        for (i, element) in array.enumerated() {
            if element is NSNull {
                out.append(.nan)
            } else if let x = number(element) {
                out.append(x)
            } else {
                throw StreamDocumentError(.invalidValue, "\(name)[\(i)] is not a number or null")
            }
        }
        return out
    }

    static func parseAthlete(_ value: Any?) throws(StreamDocumentError) -> Athlete {
        guard let value, !(value is NSNull) else { return Athlete() }
        guard let object = value as? [String: Any] else {
            throw StreamDocumentError(.invalidValue, "athlete is not an object")
        }
        func field(_ key: String) throws(StreamDocumentError) -> Double? {
            guard let v = object[key], !(v is NSNull) else { return nil }
            guard let x = number(v) else { throw StreamDocumentError(.invalidValue, "athlete.\(key) is not a number") }
            return x
        }
        var sex: Athlete.Sex?
        if let v = object["sex"], !(v is NSNull) {
            guard let s = v as? String, let parsed = Athlete.Sex(rawValue: s) else {
                throw StreamDocumentError(.invalidValue, "athlete.sex is not \"male\" or \"female\"")
            }
            sex = parsed
        }
        return Athlete(
            ftpW: try field("ftp_w"), cpW: try field("cp_w"), wprimeJ: try field("wprime_j"), sex: sex,
            hrRest: try field("hr_rest"), hrMax: try field("hr_max"), lthr: try field("lthr"),
            massKg: try field("mass_kg"))
    }

    /// A JSON number (not a boolean, which Foundation also bridges to NSNumber).
    static func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber else { return nil }
        // Booleans arrive as a distinct NSNumber subclass whose objCType is "c".
        if String(describing: type(of: n)).contains("Boolean") { return nil }
        return n.doubleValue
    }
}

extension SessionMetricsCalculator {
    /// Parses a stream document (see `StreamDocument`).
    public static func parseStreamDocument(_ data: Data) throws(StreamDocumentError) -> (Sport, Athlete, Stream1Hz) {
        try StreamDocument.parse(data)
    }
}
