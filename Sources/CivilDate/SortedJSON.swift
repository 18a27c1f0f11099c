import Foundation

/// The package's one JSON writer: a JSON value written with sorted keys, byte for byte as `JSONSerialization.data(withJSONObject:options:
/// .sortedKeys)` writes the same value on this platform — the layout of the stored metric documents
/// (`session_metrics.metrics_json`), which was defined through `JSONSerialization` and is kept — without its cost (a
/// `[String: Any]` tree, dynamic casts and an `NSString` comparison per key pair were a sixth of a nightly run).
///
/// What `JSONSerialization` does, and this writer with it (checked against it in `SortedJSONTests`):
/// - keys in the order of `NSString.compare` with case-insensitive numeric search (`"5"` before `"10"`, `"_x"` before
///   `"a"`);
/// - a `Double` as its shortest round-trip text (Swift's `description`) without a trailing `.0` (`4212`, `96.8`,
///   `1e-05`, `1e+16`, `-0`); integers in decimal;
/// - strings with `"`, `\`, `/` and control characters escaped (`\b \f \n \r \t`, else `\u00XX`), everything else as
///   UTF-8;
/// - `null` for an absent optional that was put into the tree (`Optional.none as Any`).
///
/// The other layouts the package writes use the same pieces: `prettyText` (the plan documents, as `JSONEncoder`
/// pretty-prints), `encoderText` (`JSONEncoder` with sorted keys: the ingest report), and `writeString` /
/// `writeNumber` with their options for writers that keep their own member order (`pipeline decode`'s lines).
public enum SortedJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([SortedJSON])
    case object([String: SortedJSON])

    /// The UTF-8 text.
    public var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public func write(into out: inout [UInt8]) { write(into: &out, keysByUTF8: false) }

    /// The UTF-8 text as `JSONEncoder` writes the value with `.sortedKeys` (compact): as `text`, with the keys in the
    /// order of their UTF-8 bytes. For trees of `SortedJSONEncoder.encode(_:numbers: .asEncoded)`.
    public var encoderText: String { encoderText(escapingSlashes: true) }

    /// `encoderText`, with `/` left as it is unless `escapingSlashes`: the layout of `JSONEncoder` with `[.sortedKeys,
    /// .withoutEscapingSlashes]` (the API's answers, the CLI's JSON lines).
    public func encoderText(escapingSlashes: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, keysByUTF8: true, escapingSlashes: escapingSlashes)
        return String(decoding: out, as: UTF8.self)
    }

    func write(into out: inout [UInt8], keysByUTF8: Bool, escapingSlashes: Bool = true) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .uint(let u): out.append(contentsOf: String(u).utf8)
        case .double(let d): Self.writeNumber(d, into: &out)
        case .string(let s): Self.writeString(s, escapingSlashes: escapingSlashes, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out, keysByUTF8: keysByUTF8, escapingSlashes: escapingSlashes)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // The members sorted as pairs: no second hash lookup per key.
            let sorted =
                keysByUTF8
                ? members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
                : members.sorted(by: { Self.keyPrecedes($0.key, $1.key) })
            for (i, member) in sorted.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, escapingSlashes: escapingSlashes, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out, keysByUTF8: keysByUTF8, escapingSlashes: escapingSlashes)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The UTF-8 text as `JSONEncoder` writes the value with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`
    /// on this platform (swift-foundation's `JSONWriter`; the plan documents' layout, `PlanDocument.jsonData`): two
    /// spaces an indent, `"key" : value`, keys in the order of their UTF-8 bytes, numbers as `write` writes them, `/`
    /// unescaped, an empty object or array as its brackets around an empty line. For trees of
    /// `SortedJSONEncoder.encode(_:numbers: .asEncoded)`; checked against `JSONEncoder` in `SortedJSONTests`.
    public var prettyText: String { prettyText(escapingSlashes: false) }

    /// `prettyText`, with `/` written `\/` when `escapingSlashes`: the layout of `JSONEncoder` with `[.prettyPrinted,
    /// .sortedKeys]` (the synthetic data set's manifest).
    public func prettyText(escapingSlashes: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        writePretty(into: &out, level: 0, escapingSlashes: escapingSlashes)
        return String(decoding: out, as: UTF8.self)
    }

    func writePretty(into out: inout [UInt8], level: Int, escapingSlashes: Bool) {
        func indent(_ n: Int) { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * n)) }
        switch self {
        case .string(let s): Self.writeString(s, escapingSlashes: escapingSlashes, into: &out)
        case .array(let items):
            out.append(contentsOf: "[\n".utf8)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(contentsOf: ",\n".utf8) }
                indent(level + 1)
                item.writePretty(into: &out, level: level + 1, escapingSlashes: escapingSlashes)
            }
            out.append(UInt8(ascii: "\n"))
            indent(level)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(contentsOf: "{\n".utf8)
            for (i, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                if i > 0 { out.append(contentsOf: ",\n".utf8) }
                indent(level + 1)
                Self.writeString(member.key, escapingSlashes: escapingSlashes, into: &out)
                out.append(contentsOf: " : ".utf8)
                member.value.writePretty(into: &out, level: level + 1, escapingSlashes: escapingSlashes)
            }
            out.append(UInt8(ascii: "\n"))
            indent(level)
            out.append(UInt8(ascii: "}"))
        default: write(into: &out)
        }
    }

    /// A number as its shortest round-trip text (Swift's `description`), without a trailing `.0` unless
    /// `keepingPointZero` (`25.0`: the layout of `pipeline decode`'s lines, docs/ftms-fields.md). The caller handles
    /// non-finite values.
    public static func writeNumber(_ d: Double, keepingPointZero: Bool = false, into out: inout [UInt8]) {
        var text = d.description
        if !keepingPointZero && text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    /// A string literal: `"` and `\` escaped, `/` too when `escapingSlashes`, control characters as `\b \f \n \r
    /// \t` (`\b` and `\f` as `\u0008`, `\u000c` without `shortControlEscapes`) or `\u00XX`; everything else as
    /// UTF-8.
    public static func writeString(
        _ s: String, escapingSlashes: Bool = true, shortControlEscapes: Bool = true, into out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "\""))
        // Most strings (keys, codes) need no escape: copied whole.
        if let plain = s.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            guard
                !bytes.contains(where: {
                    $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
                        || ($0 == UInt8(ascii: "/") && escapingSlashes)
                })
            else { return false }
            out.append(contentsOf: bytes)
            return true
        }), plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "/") where escapingSlashes: out.append(contentsOf: #"\/"#.utf8)
            case 0x08 where shortControlEscapes: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C where shortControlEscapes: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The key order of `JSONSerialization`'s sorted output (a case-insensitive, numeric comparison in the collation's
    /// order: punctuation before digits before letters) for keys of ASCII letters, digits and `_` — the alphabet of the
    /// documents' keys, which are the types' coding keys and the mean-maximal-power durations, never user input: runs
    /// of digits compare by value, letters without case; keys equal that way are ordered lower case first.
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        // A native string's UTF-8 is read in place (the sort of a document's keys compares each pair; copying both
        // keys into arrays at every comparison was most of its cost).
        if let result = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y in keyPrecedes(x, y) }
        }), let result {
            return result
        }
        return Array(a.utf8).withUnsafeBufferPointer { x in Array(b.utf8).withUnsafeBufferPointer { keyPrecedes(x, $0) }
        }
    }

    static func keyPrecedes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        /// Letters fold to lower case and sort after digits; everything else (`_`) before them.
        func fold(_ c: UInt8) -> UInt16 {
            if c >= 0x41 && c <= 0x5A { return 0x200 + UInt16(c + 0x20) }
            if c >= 0x61 && c <= 0x7A { return 0x200 + UInt16(c) }
            if isDigit(c) { return 0x100 + UInt16(c) }
            return UInt16(c)
        }
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var ie = i, je = j
                while ie < x.count && isDigit(x[ie]) { ie += 1 }
                while je < y.count && isDigit(y[je]) { je += 1 }
                // Compare the runs by value: without leading zeros, the longer is larger, else digit by digit.
                var si = i, sj = j
                while si < ie - 1 && x[si] == 0x30 { si += 1 }
                while sj < je - 1 && y[sj] == 0x30 { sj += 1 }
                if ie - si != je - sj { return ie - si < je - sj }
                for k in 0..<(ie - si) where x[si + k] != y[sj + k] { return x[si + k] < y[sj + k] }
                i = ie; j = je
                continue
            }
            let c = fold(x[i]), d = fold(y[j])
            if c != d { return c < d }
            i += 1; j += 1
        }
        if (x.count - i) != (y.count - j) { return x.count - i < y.count - j }
        // Equal without case and by numeric value: fewer leading zeros first, then lower case first.
        if x.count != y.count { return x.count < y.count }
        for (c, d) in zip(x, y) where c != d { return c > d }
        return false
    }
}

/// Encodes a `Codable` value into a `SortedJSON` tree exactly as `JSONSerialization.jsonObject(with:
/// JSONEncoder().encode(value))` would read it back: keys as the type encodes them, `encodeNil` as `null`, absent
/// optionals absent; a `Double` that is zero as the integer `0` (the text `-0` reads back as an integer), a `Float` by
/// its own shortest text. Non-finite numbers throw, as `JSONEncoder` does by default.
///
/// With `Numbers.asEncoded`, the tree is the value as `JSONEncoder` itself writes it with its default strategies
/// (`prettyText`, `encoderText`): every `Double` as a double, `-0` included; a `Date` as its
/// `timeIntervalSinceReferenceDate` (`.deferredToDate`), `Data` as its Base64 text (`.base64`), a `URL` as its
/// `absoluteString`; a `Decimal` or a `Float`, which `JSONEncoder` writes by its own text, throws `Unsupported`.
public struct SortedJSONEncoder {
    public struct NonFinite: Error {}
    public struct Unsupported: Error {}

    public enum Numbers: Sendable {
        /// As `JSONSerialization` reads `JSONEncoder`'s text back (a zero is the integer 0).
        case asReadBack
        /// As `asReadBack`, with a non-finite number written as `null` instead of throwing: one value JSON cannot
        /// carry leaves its own member empty, not the whole document (a session's metric set).
        case asReadBackNonFiniteAsNull
        /// As `JSONEncoder` writes them.
        case asEncoded
    }

    public static func encode(_ value: some Encodable, numbers: Numbers = .asReadBack) throws -> SortedJSON {
        let root = Box(numbers)
        try value.encode(to: Node(box: root, codingPath: []))
        return root.resolved
    }

    /// Where a container writes its value.
    final class Box {
        let numbers: Numbers
        init(_ numbers: Numbers) { self.numbers = numbers }
        var value: SortedJSON = .object([:])
        var members: [String: Entry] = [:]
        var items: [Entry] = []
        enum Kind { case single, keyed, unkeyed }
        var kind = Kind.single

        var resolved: SortedJSON {
            switch kind {
            case .single: return value
            case .keyed: return .object(members.mapValues(\.resolved))
            case .unkeyed: return .array(items.map(\.resolved))
            }
        }
    }

    /// A container's member: a value already known (a number, a string: no box), or the box a nested value writes.
    enum Entry {
        case value(SortedJSON)
        case box(Box)

        var resolved: SortedJSON {
            switch self {
            case .value(let v): return v
            case .box(let b): return b.resolved
            }
        }
    }

    struct Node: Encoder {
        let box: Box
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            box.kind = .keyed
            return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            box.kind = .unkeyed
            return Unkeyed(box: box, codingPath: codingPath)
        }
        func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, codingPath: codingPath) }
    }

    static func number(_ d: Double, _ numbers: Numbers) throws -> SortedJSON {
        guard d.isFinite else {
            if numbers == .asReadBackNonFiniteAsNull { return .null }
            throw NonFinite()
        }
        return d == 0 && numbers != .asEncoded ? .int(0) : .double(d)
    }

    /// A member's value: the standard library's numbers, strings and booleans as themselves, anything else in a box of
    /// its own. The static type is compared first (a metadata comparison): the `as` casts below, each a runtime
    /// conformance search, were most of the cost of encoding a plan document's nested values, none of them a number.
    static func leaf<T: Encodable>(_ value: T, codingPath: [any CodingKey], _ numbers: Numbers) throws -> Entry {
        if T.self == Double.self { return .value(try number(unsafeBitCast(value, to: Double.self), numbers)) }
        if T.self == String.self { return .value(.string(unsafeBitCast(value, to: String.self))) }
        if T.self == Int.self { return .value(.int(Int64(unsafeBitCast(value, to: Int.self)))) }
        if T.self == Bool.self { return .value(.bool(unsafeBitCast(value, to: Bool.self))) }
        // A concrete type, neither a number, a string nor a boolean.
        if type(of: value) == T.self, !isPrimitive(T.self) { return try boxed(value, codingPath: codingPath, numbers) }
        return try dynamicLeaf(value, codingPath: codingPath, numbers)
    }

    /// A value that encodes itself, in a box of its own.
    static func boxed(_ value: some Encodable, codingPath: [any CodingKey], _ numbers: Numbers) throws -> Entry {
        if numbers == .asEncoded {
            let type: Any.Type = Swift.type(of: value)
            if type == Date.self { return .value(try number((value as! Date).timeIntervalSinceReferenceDate, numbers)) }
            if type == Data.self { return .value(.string((value as! Data).base64EncodedString())) }
            if type == URL.self { return .value(.string((value as! URL).absoluteString)) }
            if type == Decimal.self { throw Unsupported() }
        }
        let box = Box(numbers)
        try value.encode(to: Node(box: box, codingPath: codingPath))
        return .box(box)
    }

    static func isPrimitive(_ type: Any.Type) -> Bool {
        type == Float.self || type == Int64.self || type == Int32.self || type == Int16.self || type == Int8.self
            || type == UInt.self || type == UInt64.self || type == UInt32.self || type == UInt16.self
            || type == UInt8.self
    }

    /// A value by its dynamic type (an existential, a class, the rarer integer types).
    static func dynamicLeaf(_ value: some Encodable, codingPath: [any CodingKey], _ numbers: Numbers) throws -> Entry {
        switch value {
        case let v as Double: return .value(try number(v, numbers))
        case let v as Float:
            guard v.isFinite else { return .value(try number(Double(v), numbers)) }
            guard numbers != .asEncoded else { throw Unsupported() }
            return .value(v == 0 ? .int(0) : .double(Double(v.description)!))
        case let v as String: return .value(.string(v))
        case let v as Bool: return .value(.bool(v))
        case let v as Int: return .value(.int(Int64(v)))
        case let v as Int64: return .value(.int(v))
        case let v as Int32: return .value(.int(Int64(v)))
        case let v as Int16: return .value(.int(Int64(v)))
        case let v as Int8: return .value(.int(Int64(v)))
        case let v as UInt: return .value(.uint(UInt64(v)))
        case let v as UInt64: return .value(.uint(v))
        case let v as UInt32: return .value(.uint(UInt64(v)))
        case let v as UInt16: return .value(.uint(UInt64(v)))
        case let v as UInt8: return .value(.uint(UInt64(v)))
        default: return try boxed(value, codingPath: codingPath, numbers)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        var codingPath: [any CodingKey]
        mutating func encodeNil(forKey key: Key) throws { box.members[key.stringValue] = .value(.null) }
        // The metric sets' own types, without the generic path's casts.
        mutating func encode(_ value: Double, forKey key: Key) throws {
            box.members[key.stringValue] = .value(try SortedJSONEncoder.number(value, box.numbers))
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            box.members[key.stringValue] = .value(.int(Int64(value)))
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            box.members[key.stringValue] = .value(.string(value))
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            box.members[key.stringValue] = .value(.bool(value))
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box.members[key.stringValue] = try SortedJSONEncoder.leaf(
                value, codingPath: codingPath + [key], box.numbers)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = Box(box.numbers)
            box.members[key.stringValue] = .box(child)
            return Node(box: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Box(box.numbers)
            box.members[key.stringValue] = .box(child)
            return Node(box: child, codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Box(box.numbers)
            box.members[key.stringValue] = .box(child)
            return Node(box: child, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]
        var count: Int { box.items.count }
        mutating func encodeNil() throws { box.items.append(.value(.null)) }
        mutating func encode(_ value: Double) throws {
            box.items.append(.value(try SortedJSONEncoder.number(value, box.numbers)))
        }
        mutating func encode(_ value: Int) throws { box.items.append(.value(.int(Int64(value)))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            box.items.append(try SortedJSONEncoder.leaf(value, codingPath: codingPath, box.numbers))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let child = Box(box.numbers)
            box.items.append(.box(child))
            return Node(box: child, codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Box(box.numbers)
            box.items.append(.box(child))
            return Node(box: child, codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let child = Box(box.numbers)
            box.items.append(.box(child))
            return Node(box: child, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]
        mutating func encodeNil() throws { box.kind = .single; box.value = .null }
        mutating func encode<T: Encodable>(_ value: T) throws {
            switch try SortedJSONEncoder.leaf(value, codingPath: codingPath, box.numbers) {
            case .value(let v): box.kind = .single; box.value = v
            case .box(let leaf):
                box.kind = leaf.kind; box.value = leaf.value; box.members = leaf.members; box.items = leaf.items
            }
        }
    }
}
