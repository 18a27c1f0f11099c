import Foundation
import Store

/// A JSON value as received, so that each record can be checked field by field and kept exactly.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let b = try? container.decode(Bool.self) { self = .bool(b); return }
        if let d = try? container.decode(Double.self) { self = .number(d); return }
        if let s = try? container.decode(String.self) { self = .string(s); return }
        if let a = try? container.decode([JSONValue].self) { self = .array(a); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var doubleValue: Double? { if case .number(let d) = self { return d }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// Canonical text: keys sorted, no white space, numbers in a fixed form. Equal values give equal bytes,
    /// which is what content hashes and duplicate detection need.
    public var canonicalText: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += Self.format(d)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                o[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    static func format(_ d: Double) -> String { CanonicalNumber.format(d) }

    /// The canonical text of this object with one more member, `key`, whose value is the canonical text `raw` (an
    /// imported file's samples, written from their columns: `SampleColumns.writeCanonicalJSON`), as UTF-8: the same
    /// bytes as `canonicalText` of the object holding that value, without building the value.
    public func canonicalBytes(adding key: String, raw: [UInt8]) -> [UInt8] {
        guard let o = objectValue, o[key] == nil else { return Array(canonicalText.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + 64 * (o.count + 1))
        writeCanonical(adding: key, into: &out) { $0 += raw }
        return out
    }

    /// `canonicalBytes(adding:raw:)` appended to `out`, `raw` writing the added member's value there (it may hand
    /// pieces of `out` on and empty it: `SampleColumns.writeCanonicalJSON(into:chunk:flush:)`). Not an object, or one
    /// holding `key` already: its own canonical text, `raw` not called.
    public func writeCanonical(adding key: String, into out: inout [UInt8], raw: (inout [UInt8]) -> Void) {
        guard let o = objectValue, o[key] == nil else {
            out += canonicalText.utf8
            return
        }
        out.append(UInt8(ascii: "{"))
        for (i, k) in (Array(o.keys) + [key]).sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            var member = ""
            Self.writeString(k, into: &member)
            member += ":"
            if k == key {
                out += member.utf8
                raw(&out)
            } else {
                o[k]!.write(into: &member)
                out += member.utf8
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Whether `s` has a byte JSON escapes (a control character, `"` or `\`). Over the contiguous UTF-8 of a native
    /// string, a loop without an early exit that the compiler vectorises: the strings are mostly Base64 recordings of
    /// 100 KB and more, with nothing to escape.
    static func needsEscaping(_ s: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var found: UInt8 = 0
            for b in bytes {
                found |= (b < 0x20 ? 1 : 0) | (b == UInt8(ascii: "\"") ? 1 : 0) | (b == UInt8(ascii: "\\") ? 1 : 0)
            }
            return found != 0
        }
        if let result = s.utf8.withContiguousStorageIfAvailable(scan) { return result }
        var copy = s
        return copy.withUTF8(scan)
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Fast path: nothing to escape (Base64 recordings, ids, timestamps) — append the whole string at once.
        if !needsEscaping(s) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// The deepest nesting of arrays and objects in `bytes`, scanning without parsing (strings skipped).
    /// Used to refuse hostile, deeply nested documents before a recursive parser sees them.
    /// Nesting depth of the value: 0 for a scalar, 1 for an object or array of scalars, and so on.
    public var depth: Int {
        switch self {
        case .object(let members): 1 + (members.values.map(\.depth).max() ?? 0)
        case .array(let items): 1 + (items.map(\.depth).max() ?? 0)
        default: 0
        }
    }

    public static func nestingDepth(of bytes: some Collection<UInt8>) -> Int {
        var depth = 0, maxDepth = 0
        var inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                maxDepth = max(maxDepth, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return maxDepth
    }
}
