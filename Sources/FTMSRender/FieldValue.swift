import CivilDate
import FTMSDecode

/// A decoded field value as `pipeline decode` prints it (`docs/ftms-fields.md`).
public enum FieldValue: Sendable, Equatable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case list([FieldValue])

    /// The value as JSON text: integers plainly, doubles in Swift's shortest round-trip
    /// form (`25.0`, `0.0001`, `1e-05`; NaN and infinities as `null`), strings escaped.
    public func jsonFragment() -> String {
        var out: [UInt8] = []
        appendJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value): appendJSONNumber(value, to: &out)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .string(let value): appendJSONString(value, to: &out)
        case .list(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Numeric value (ints and doubles), nil otherwise.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}

/// A number in Swift's shortest round-trip form, `.0` kept (`25.0`); NaN and infinities as `null`. Written by the
/// package's JSON writer (`SortedJSON`).
func appendJSONNumber(_ value: Double, to out: inout [UInt8]) {
    if value.isFinite {
        SortedJSON.writeNumber(value, keepingPointZero: true, into: &out)
    } else {
        out.append(contentsOf: "null".utf8)
    }
}

/// Appends `value` as a JSON string literal (RFC 8259 §7) by the package's JSON writer (`SortedJSON`): quotes,
/// backslash and control characters escaped (`\n \r \t`, else `\u00XX`), `/` and everything else passed through as
/// UTF-8.
func appendJSONString(_ value: String, to out: inout [UInt8]) {
    SortedJSON.writeString(value, escapingSlashes: false, shortControlEscapes: false, into: &out)
}

/// One named field of a decoded value.
public struct DecodedField: Sendable, Equatable {
    public var name: String
    public var value: FieldValue

    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// The fields of a decoded value in wire order (an ordered, small dictionary).
public struct DecodedFields: Sendable, Equatable, RandomAccessCollection {
    public private(set) var storage: [DecodedField]

    public init() { storage = [] }

    public init(_ fields: [(String, FieldValue)]) {
        storage = fields.map { DecodedField($0.0, $0.1) }
    }

    public var startIndex: Int { storage.startIndex }
    public var endIndex: Int { storage.endIndex }
    public subscript(position: Int) -> DecodedField { storage[position] }

    /// The value of the field named `name`, nil when absent.
    public subscript(name: String) -> FieldValue? {
        storage.first { $0.name == name }?.value
    }

    public var names: [String] { storage.map(\.name) }

    public mutating func append(_ name: String, _ value: FieldValue) {
        storage.append(DecodedField(name, value))
    }

    mutating func reserve(_ count: Int) { storage.reserveCapacity(count) }

    /// `{"name":value,...}`
    public func jsonObject() -> String {
        var out: [UInt8] = []
        appendJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func appendJSON(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (index, field) in storage.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(field.name, to: &out)
            out.append(UInt8(ascii: ":"))
            field.value.appendJSON(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// One decoded characteristic value: what `pipeline decode` prints per record.
public struct DecodedValue: Sendable, Equatable {
    public var uuid: UInt16
    /// Contract name, e.g. `"indoor_bike_data"`; `"unknown"` for UUIDs outside the spec.
    public var characteristic: String
    /// False when the payload could not be parsed (`error` says why).
    public var ok: Bool
    public var fields: DecodedFields
    public var error: String?

    public init(uuid: UInt16, characteristic: String, ok: Bool, fields: DecodedFields, error: String? = nil) {
        self.uuid = uuid
        self.characteristic = characteristic
        self.ok = ok
        self.fields = fields
        self.error = error
    }

    /// `"0x2AD2"`.
    public var uuidString: String {
        "0x" + hexString([UInt8(truncatingIfNeeded: uuid >> 8), UInt8(truncatingIfNeeded: uuid)])
    }

    /// One JSON object as `pipeline decode` prints it:
    /// `{"t_ms":1500,"uuid":"0x2AD2","characteristic":"indoor_bike_data","kind":"notification","ok":true,"fields":{...}}`
    /// or, when `ok` is false, `..."ok":false,"error":"..."}`. An unknown kind prints as `"unknown"`.
    public func jsonObject(timeMillis: UInt32, kind: RecordKind?) -> String {
        jsonObject(timeMillis: timeMillis, kindName: kind?.name ?? "unknown")
    }

    /// Same, with the raw kind byte (values the spec does not list print as `"unknown_<n>"`).
    public func jsonObject(timeMillis: UInt32, kindRaw: UInt8) -> String {
        jsonObject(timeMillis: timeMillis, kindName: RecordKind(rawValue: kindRaw)?.name ?? "unknown_\(kindRaw)")
    }

    private func jsonObject(timeMillis: UInt32, kindName: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: "{\"t_ms\":\(timeMillis),\"uuid\":\"\(uuidString)\",\"characteristic\":".utf8)
        appendJSONString(characteristic, to: &out)
        out.append(contentsOf: ",\"kind\":".utf8)
        appendJSONString(kindName, to: &out)
        if ok {
            out.append(contentsOf: ",\"ok\":true,\"fields\":".utf8)
            fields.appendJSON(to: &out)
        } else {
            out.append(contentsOf: ",\"ok\":false,\"error\":".utf8)
            appendJSONString(error ?? "undecodable", to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}
