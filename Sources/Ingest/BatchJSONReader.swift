import Foundation

/// Reads a session batch body (`{"sessions": [session, …]}`) straight from its bytes, without Foundation's
/// `JSONDecoder` and without building a `String` for each session's `raw` recording: a plain `raw` string (no
/// escapes, ASCII) is handed on as its byte range in the body.
///
/// It accepts a strict subset of what `JSONDecoder` accepts and gives the same values for it. Whatever it does
/// not accept — invalid JSON, but also valid corners it leaves alone (a byte-order mark, duplicate keys, a
/// number out of `Double`'s range, a top-level scalar, a lone surrogate escape) — makes it answer nil, and the
/// caller asks Foundation, so what is malformed and what a document means do not change.
struct BatchJSONReader {
    /// One session of the batch. `value` is the session as Foundation would decode it, except that a plain `raw`
    /// string is left out of it and given as `rawRange` (its text, without the quotes, in the body).
    struct Session {
        var value: JSONValue
        var rawRange: Range<Int>?
    }

    enum Result {
        /// The body is an object with a `sessions` array.
        case sessions([Session])
        /// Valid JSON, but not an object with a `sessions` array.
        case otherShape
    }

    struct Failure: Error {}

    /// nil: not in the subset this reader handles, or nested deeper than `maxDepth` (the caller decides with
    /// `JSONValue.nestingDepth` and Foundation). Arrays and objects count as `JSONValue.nestingDepth` counts them,
    /// so a document read here is within the limit exactly when `nestingDepth` says so.
    static func read(_ body: UnsafeRawBufferPointer, maxDepth: Int) -> Result? {
        guard let base = body.baseAddress, body.count > 0 else { return nil }
        var reader = BatchJSONReader(
            base: base.assumingMemoryBound(to: UInt8.self), count: body.count, maxDepth: maxDepth)
        do {
            let result = try reader.readBatch()
            reader.skipWhitespace()
            return reader.i == reader.count ? result : nil
        } catch {
            return nil
        }
    }

    /// Parses a whole document (an object or an array) into a `JSONValue`: record files and NDJSON lines
    /// (`InboxIngestor.parse`); nil as for `read`.
    static func parse(_ body: UnsafeRawBufferPointer, maxDepth: Int = 64) -> JSONValue? {
        guard let base = body.baseAddress, body.count > 0 else { return nil }
        var reader = BatchJSONReader(
            base: base.assumingMemoryBound(to: UInt8.self), count: body.count, maxDepth: maxDepth)
        do {
            reader.skipWhitespace()
            guard reader.i < reader.count,
                reader.p[reader.i] == UInt8(ascii: "{") || reader.p[reader.i] == UInt8(ascii: "[")
            else { return nil }
            let value = try reader.parseValue()
            reader.skipWhitespace()
            return reader.i == reader.count ? value : nil
        } catch {
            return nil
        }
    }

    let p: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    var i = 0
    /// Arrays and objects open around the current position.
    var depth = 0

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        p = base; self.count = count; self.maxDepth = maxDepth
    }

    /// Entering an array or object (the reader recurses, so the limit also bounds its stack).
    mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= maxDepth else { throw Failure() }
    }

    // MARK: The batch

    mutating func readBatch() throws(Failure) -> Result {
        skipWhitespace()
        guard i < count else { throw Failure() }
        guard p[i] == UInt8(ascii: "{") else {
            guard p[i] == UInt8(ascii: "[") else { throw Failure() } // top-level scalars: Foundation decides
            _ = try parseValue()
            return .otherShape
        }
        i += 1
        try enter()
        var keys = Set<String>()
        var sessions: [Session]?
        var sessionsIsArray = false
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { i += 1; return .otherShape }
        while true {
            skipWhitespace()
            let key = try parseString()
            guard keys.insert(key).inserted else { throw Failure() }
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if key == "sessions", try peek() == UInt8(ascii: "[") {
                sessions = try parseSessions()
                sessionsIsArray = true
            } else {
                _ = try parseValue()
            }
            skipWhitespace()
            let c = try next()
            if c == UInt8(ascii: "}") { break }
            guard c == UInt8(ascii: ",") else { throw Failure() }
        }
        guard sessionsIsArray, let sessions else { return .otherShape }
        return .sessions(sessions)
    }

    mutating func parseSessions() throws(Failure) -> [Session] {
        i += 1 // "["
        try enter()
        defer { depth -= 1 }
        var sessions: [Session] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { i += 1; return sessions }
        while true {
            skipWhitespace()
            if try peek() == UInt8(ascii: "{") {
                sessions.append(try parseSessionObject())
            } else {
                sessions.append(Session(value: try parseValue(), rawRange: nil))
            }
            skipWhitespace()
            let c = try next()
            if c == UInt8(ascii: "]") { return sessions }
            guard c == UInt8(ascii: ",") else { throw Failure() }
        }
    }

    /// A session object; its `raw` is left as a byte range when it is a plain string.
    mutating func parseSessionObject() throws(Failure) -> Session {
        i += 1 // "{"
        try enter()
        defer { depth -= 1 }
        var object: [String: JSONValue] = [:]
        var rawRange: Range<Int>?
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { i += 1; return Session(value: .object(object), rawRange: nil) }
        while true {
            skipWhitespace()
            let key = try parseString()
            guard object[key] == nil, !(rawRange != nil && key == "raw") else { throw Failure() }
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if key == "raw", try peek() == UInt8(ascii: "\""), let range = scanPlainString() {
                rawRange = range
            } else {
                object[key] = try parseValue()
            }
            skipWhitespace()
            let c = try next()
            if c == UInt8(ascii: "}") { return Session(value: .object(object), rawRange: rawRange) }
            guard c == UInt8(ascii: ",") else { throw Failure() }
        }
    }

    /// At an opening quote: the range of a string's text when it is printable ASCII without escapes (then the
    /// reader moves past it); nil leaves the reader where it was. Eight bytes at a time: a word is looked at
    /// byte by byte only when it holds a quote, a backslash, a control character or a byte ≥ 0x80.
    mutating func scanPlainString() -> Range<Int>? {
        let start = i + 1
        var j = start
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(p)
        while count - j >= 8 {
            let w = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
            let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
            // A byte is zero in `quote`/`backslash`, below 0x20 in `w`, or has its high bit: the classic
            // "has zero byte" and "has byte less than n" tests, and the high bits themselves.
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w) | w
            if special & highs != 0 { break }
            j += 8
        }
        while j < count {
            let c = p[j]
            if c == UInt8(ascii: "\"") {
                i = j + 1
                return start..<j
            }
            if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\\") { return nil }
            j += 1
        }
        return nil
    }

    // MARK: Values

    mutating func parseValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: "{"):
            i += 1
            try enter()
            defer { depth -= 1 }
            var object: [String: JSONValue] = [:]
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") { i += 1; return .object(object) }
            while true {
                skipWhitespace()
                let key = try parseString()
                guard object[key] == nil else { throw Failure() } // duplicate keys: Foundation decides
                try expect(UInt8(ascii: ":"))
                object[key] = try parseValue()
                skipWhitespace()
                let c = try next()
                if c == UInt8(ascii: "}") { return .object(object) }
                guard c == UInt8(ascii: ",") else { throw Failure() }
            }
        case UInt8(ascii: "["):
            i += 1
            try enter()
            defer { depth -= 1 }
            var array: [JSONValue] = []
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") { i += 1; return .array(array) }
            while true {
                array.append(try parseValue())
                skipWhitespace()
                let c = try next()
                if c == UInt8(ascii: "]") { return .array(array) }
                guard c == UInt8(ascii: ",") else { throw Failure() }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return .number(try parseNumber())
        }
    }

    mutating func parseString() throws(Failure) -> String {
        guard i < count, p[i] == UInt8(ascii: "\"") else { throw Failure() }
        i += 1
        let start = i
        // Common case: no escapes — one validated copy of the bytes.
        while i < count {
            let c = p[i]
            if c == UInt8(ascii: "\"") {
                defer { i += 1 }
                guard let s = String(validating: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
                else {
                    throw Failure()
                }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw Failure() }
            i += 1
        }
        guard i < count else { throw Failure() }
        // With escapes: collect the bytes, then validate once.
        var bytes = Array(UnsafeBufferPointer(start: p + start, count: i - start))
        while true {
            let c = try next()
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: bytes, as: UTF8.self) else { throw Failure() }
                return s
            case UInt8(ascii: "\\"):
                let e = try next()
                if let byte = jsonEscapedByte(e) {
                    bytes.append(byte)
                    continue
                }
                switch e {
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") else { throw Failure() }
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Failure() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw Failure() } // a lone low surrogate
                    bytes.append(contentsOf: UTF8.encode(u)!)
                default: throw Failure()
                }
            default:
                guard c >= 0x20 else { throw Failure() }
                bytes.append(c)
            }
        }
    }

    mutating func hex4() throws(Failure) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = try next()
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw Failure()
            }
            v = v << 4 | d
        }
        return v
    }

    /// RFC 8259 number grammar; the value through the standard library's correctly rounded conversion. Left to
    /// Foundation: infinite results, results that underflow to zero, and zeros with an exponent (Foundation
    /// refuses some of them, `0e5` and `-0.0e1`, and accepts others).
    mutating func parseNumber() throws(Failure) -> Double {
        let start = i
        var nonZeroDigit = false
        var exponent = false
        func digit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        if i < count, p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < count, digit(p[i]) else { throw Failure() }
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < count, digit(p[i]) { nonZeroDigit = true; i += 1 }
        }
        if i < count, p[i] == UInt8(ascii: ".") {
            i += 1
            guard i < count, digit(p[i]) else { throw Failure() }
            while i < count, digit(p[i]) { if p[i] != UInt8(ascii: "0") { nonZeroDigit = true }; i += 1 }
        }
        if i < count, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            i += 1
            exponent = true
            if i < count, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
            guard i < count, digit(p[i]) else { throw Failure() }
            while i < count, digit(p[i]) { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
        guard let d = Double(text), d.isFinite, d != 0 || !(nonZeroDigit || exponent) else { throw Failure() }
        return d
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard count - i >= n, memcmp(p + i, word.utf8Start, n) == 0 else { throw Failure() }
        i += n
    }

    // MARK: Bytes

    mutating func skipWhitespace() {
        while i < count {
            switch p[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    func peek() throws(Failure) -> UInt8 {
        guard i < count else { throw Failure() }
        return p[i]
    }

    mutating func next() throws(Failure) -> UInt8 {
        guard i < count else { throw Failure() }
        defer { i += 1 }
        return p[i]
    }

    mutating func expect(_ c: UInt8) throws(Failure) {
        skipWhitespace()
        guard try next() == c else { throw Failure() }
    }
}

/// The byte a one-character JSON escape `\e` stands for: `\b \f \n \r \t` their control characters, `\" \\ \/` the
/// character itself; nil for `u` (a `\uXXXX` escape) and anything else. The one table of both JSON readers
/// (`BatchJSONReader`, `QuarantineAttribution`).
@inline(__always)
func jsonEscapedByte(_ e: UInt8) -> UInt8? {
    switch e {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): e
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
}
