import Store

/// Whose a rejected JSON payload is, from what the JSON says rather than from a byte pattern: the `user_id` values of
/// the payload as a JSON reader reads them — a key spelled with escapes (`"\u0075ser_id"`), white space around the
/// colon, a value with escapes — found by a lexer that reads string tokens even where the document around them is
/// broken (a malformed file, a line cut in two). Used so that every quarantine row that names a person carries that
/// person's id, and deleting the person deletes the row.
public struct QuarantineAttribution: Sendable, Equatable {
    /// Every valid user id the payload gives as a `user_id` value, in order of first appearance.
    public var users: [UserID] = []
    /// The payload's last token is a `user_id` key and its colon: its value is in what follows (an NDJSON record cut
    /// across lines).
    public var endsWithUserIDKey = false
    /// The payload's first token, when it is a string followed by nothing but `,` `}` or the end: the value a previous
    /// piece's dangling `user_id` key is waiting for.
    public var leadingString: String?

    /// The one user the payload names, nil when it names none or several.
    public var user: UserID? { users.count == 1 ? users[0] : nil }

    public init(users: [UserID] = [], endsWithUserIDKey: Bool = false, leadingString: String? = nil) {
        self.users = users
        self.endsWithUserIDKey = endsWithUserIDKey
        self.leadingString = leadingString
    }

    /// Lexes `bytes` (JSON, possibly broken or cut).
    public init(json bytes: [UInt8]) {
        var tokens: [Token] = []
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "\""):
                let (text, end) = Self.string(bytes, from: i + 1)
                tokens.append(.string(text))
                i = end
                continue
            case UInt8(ascii: ":"): tokens.append(.colon)
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: tokens.append(.other)
            }
            i += 1
        }
        var found: [UserID] = []
        func add(_ text: String) {
            guard UserID.isValid(text) else { return }
            let id = UserID(text)
            if !found.contains(id) { found.append(id) }
        }
        for k in tokens.indices {
            guard case .string("user_id") = tokens[k], k + 1 < tokens.count, case .colon = tokens[k + 1] else {
                continue
            }
            if k + 2 < tokens.count {
                if case .string(let value) = tokens[k + 2] { add(value) }
            } else {
                endsWithUserIDKey = true
            }
        }
        users = found
        if case .string(let first)? = tokens.first,
            tokens.count == 1 || tokens[1] == .other
        {
            leadingString = first
        }
    }

    enum Token: Equatable {
        case string(String)
        case colon
        case other
    }

    /// A JSON string's text from `from` (after its opening quote) to its closing quote, escapes decoded; and the index
    /// after the quote (or the end). An invalid escape is kept as it is; a lone surrogate becomes U+FFFD.
    static func string(_ b: [UInt8], from: Int) -> (String, Int) {
        var out: [UInt8] = []
        var i = from
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { return (String(decoding: out, as: UTF8.self), i + 1) }
            if c == UInt8(ascii: "\\"), i + 1 < b.count {
                let e = b[i + 1]
                if let byte = jsonEscapedByte(e) {
                    out.append(byte)
                    i += 2
                    continue
                }
                switch e {
                case UInt8(ascii: "u"):
                    if let (scalar, next) = unicodeEscape(b, at: i) {
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                        i = next
                        continue
                    }
                    out.append(contentsOf: [c, e])
                default: out.append(e) // an unknown escape as the character itself
                }
                i += 2
                continue
            }
            out.append(c)
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), i)
    }

    /// `\uXXXX` at `at` (with a following low surrogate when it is a high one): the scalar and the index after it.
    static func unicodeEscape(_ b: [UInt8], at: Int) -> (Unicode.Scalar, Int)? {
        func hex(_ start: Int) -> UInt32? {
            guard start + 4 <= b.count else { return nil }
            return UInt32(String(decoding: b[start..<(start + 4)], as: UTF8.self), radix: 16)
        }
        guard let unit = hex(at + 2) else { return nil }
        if (0xD800..<0xDC00).contains(unit), at + 12 <= b.count, b[at + 6] == UInt8(ascii: "\\"),
            b[at + 7] == UInt8(ascii: "u"), let low = hex(at + 8), (0xDC00..<0xE000).contains(low)
        {
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).map { ($0, at + 12) }
        }
        return (Unicode.Scalar(unit) ?? "\u{FFFD}", at + 6)
    }

    /// The attribution of each of a file's records in order: a record cut across two lines (`{"user_id":` then
    /// `"u-3", …}`) gives both pieces the user the second begins with.
    public static func ofSequence(_ payloads: [[UInt8]]) -> [QuarantineAttribution] {
        var result = payloads.map { QuarantineAttribution(json: $0) }
        for k in result.indices.dropLast() where result[k].endsWithUserIDKey {
            guard let value = result[k + 1].leadingString, UserID.isValid(value) else { continue }
            let id = UserID(value)
            if !result[k].users.contains(id) { result[k].users.append(id) }
            if !result[k + 1].users.contains(id) { result[k + 1].users.append(id) }
        }
        return result
    }
}

extension QuarantineRecord {
    /// The record attributed to the user its payload names (`QuarantineAttribution`) when it has none; when the payload
    /// names several users, no one row can carry them all: the payload is not kept (its size and SHA-256 are), so that
    /// deleting any of them leaves nothing that names them.
    public func attributed(_ attribution: QuarantineAttribution) -> QuarantineRecord {
        guard userID == nil else { return self }
        var record = self
        if let user = attribution.user {
            record.userID = user
        } else if attribution.users.count > 1 {
            record.message +=
                " [payload not kept: it names \(attribution.users.count) users; \(payload.count) bytes, SHA-256 \(Hashing.sha256Hex(payload))]"
            record.payload = []
        }
        return record
    }
}
