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
        var out = ""
        appendJSON(to: &out)
        return out
    }

    func appendJSON(to out: inout String) {
        switch self {
        case .int(let value): out += String(value)
        case .double(let value): out += jsonNumber(value)
        case .bool(let value): out += value ? "true" : "false"
        case .string(let value): appendJSONString(value, to: &out)
        case .list(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.appendJSON(to: &out)
            }
            out += "]"
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

func jsonNumber(_ value: Double) -> String {
    value.isFinite ? value.description : "null"
}

/// Appends `value` as a JSON string literal (RFC 8259 §7): quotes, backslash and control
/// characters escaped, everything else passed through as UTF-8.
func appendJSONString(_ value: String, to out: inout String) {
    let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    out += "\""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            out += "\\u00"
            out.append(hex[Int(scalar.value >> 4)])
            out.append(hex[Int(scalar.value & 0xF)])
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
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
        var out = ""
        appendJSON(to: &out)
        return out
    }

    func appendJSON(to out: inout String) {
        out += "{"
        for (index, field) in storage.enumerated() {
            if index > 0 { out += "," }
            appendJSONString(field.name, to: &out)
            out += ":"
            field.value.appendJSON(to: &out)
        }
        out += "}"
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
        var out = "{\"t_ms\":\(timeMillis),\"uuid\":\"\(uuidString)\",\"characteristic\":"
        appendJSONString(characteristic, to: &out)
        out += ",\"kind\":"
        appendJSONString(kindName, to: &out)
        if ok {
            out += ",\"ok\":true,\"fields\":"
            fields.appendJSON(to: &out)
        } else {
            out += ",\"ok\":false,\"error\":"
            appendJSONString(error ?? "undecodable", to: &out)
        }
        out += "}"
        return out
    }
}
