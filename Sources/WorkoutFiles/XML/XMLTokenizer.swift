#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An attribute of a start tag: local name (namespace prefix dropped) and value (entities replaced).
struct XMLAttribute {
    var name: String
    var value: String
}

/// What the tokenizer reports. Names are local names (`gpxtpx:hr` → `hr`).
protocol XMLHandler {
    /// Which attributes `start` needs for an element of this (local) name: nil for all, else the local names wanted.
    /// The others are checked for well-formedness but not decoded (the Health export's passes skip most this way).
    func attributeFilter(for name: String) -> [[UInt8]]?
    mutating func start(_ name: String, _ attributes: [XMLAttribute])
    mutating func end(_ name: String)
    mutating func text(_ text: String)
}

extension XMLHandler {
    func attributeFilter(for name: String) -> [[UInt8]]? { nil }
}

enum XMLTokenError: Error {
    /// The bytes are not well-formed XML (offset of the token in the whole input).
    case notWellFormed(String, offset: Int)
    /// The input ended inside the document.
    case truncated(String, offset: Int)
    /// One token (text run, tag, comment, …) is longer than the tokenizer's `maxTokenBytes`.
    case tooLong(String, offset: Int)
}

/// A push tokenizer for the XML the workout formats use: feed it chunks of any size, then `finish`. It keeps only
/// the unfinished token between chunks, so memory does not grow with the input. It checks well-formedness as far as
/// the readers depend on it (tags nest and match, one root, quoted attributes, known entities, nothing but markup
/// and whitespace outside the root) and tells a document that stops half way (`truncated`) from one that is broken.
/// Its work is linear in the input however it is cut into chunks (an unfinished token is scanned on from where the
/// last chunk stopped), and a token longer than `maxTokenBytes` is refused (`tooLong`), which bounds what it keeps:
/// "the unfinished token" is at most that long. DOCTYPE internal subsets (the Health export's DTD) are skipped, not interpreted. Input is taken as UTF-8.
struct XMLTokenizer {
    private var buffer: [UInt8] = []
    /// Offset in the whole input of `buffer[0]`.
    private var base = 0
    private var stack: [String] = []
    private var sawRoot = false
    private var rootClosed = false
    private var started = false
    /// Element names met so far, as `String`s (full and local), so that a start or end tag of a name already seen
    /// makes no string: a direct-mapped cache of 256 entries by length and first and last byte (bounded whatever the
    /// input).
    private var names = [NameEntry?](repeating: nil, count: 256)
    /// Where the run loop found the closing quote of each value of the current tag (offsets in the buffer).
    private var valueEnds: [Int] = []
    /// The scan state of the token left unfinished at the end of the last chunk (it is then at `buffer[0]`): the next
    /// chunk's scan resumes there, so no byte is scanned again however the input is cut.
    private var pending: Pending? = nil
    /// The longest token (text run, tag, comment, CDATA section, processing instruction, DOCTYPE) accepted: longer
    /// ones are refused (`tooLong`), so the bytes kept between chunks stay under this bound whatever the input.
    let maxTokenBytes: Int
    /// Bytes examined by the scans so far (a measure of the work done, for the tests: at most a small multiple of the
    /// input, however it is cut into chunks).
    private(set) var bytesExamined = 0

    /// The default `maxTokenBytes`: far above any token of the formats read (the Health export's DTD is a few KiB, a
    /// `Record` tag well under 1 KiB).
    static let defaultMaxTokenBytes = 1 << 20

    init(maxTokenBytes: Int = XMLTokenizer.defaultMaxTokenBytes) {
        self.maxTokenBytes = max(16, maxTokenBytes)
    }

    private struct Pending {
        enum Kind { case text, comment, cdata, instruction, doctype, tag }
        var kind: Kind
        /// Bytes of the token already scanned (from its start).
        var scanned: Int
        /// A tag or DOCTYPE: inside a value quoted with this byte (0: not in a value).
        var quote: UInt8 = 0
        /// A DOCTYPE: brackets of the internal subset open.
        var bracket = 0
        /// A tag: where its values' closing quotes were found (from the tag's start).
        var valueEnds: [Int] = []
    }

    private struct NameEntry {
        var bytes: [UInt8]
        var name: String
        var local: String
    }

    var depth: Int { stack.count }

    /// The name (and local name) of these bytes, from the cache or made and cached.
    @inline(__always)
    private mutating func name(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, local: String) {
        let count = bytes.count
        guard count > 0 else { return ("", "") }
        let slot = (count &* 31 &+ Int(bytes[0]) &* 7 &+ Int(bytes[count - 1])) & 255
        if let entry = names[slot], entry.bytes.count == count,
            entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0 })
        {
            return (entry.name, entry.local)
        }
        let name = String(decoding: bytes, as: UTF8.self)
        let local = Self.local(name)
        names[slot] = NameEntry(bytes: Array(bytes), name: name, local: local)
        return (name, local)
    }

    /// The offset of the first `byte` in `b[from..<to]`, or nil (memchr).
    @inline(__always)
    static func find(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = b.baseAddress else { return nil }
        guard let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    mutating func feed<H: XMLHandler>(_ chunk: UnsafeRawBufferPointer, _ handler: inout H) throws(XMLTokenError) {
        buffer.append(contentsOf: chunk)
        try run(&handler, final: false)
    }

    mutating func finish<H: XMLHandler>(_ handler: inout H) throws(XMLTokenError) {
        try run(&handler, final: true)
        if !stack.isEmpty {
            throw .truncated("input ends inside <\(stack.last!)>", offset: base + buffer.count)
        }
        if !sawRoot { throw .truncated("no root element", offset: base + buffer.count) }
    }

    private static let lt: UInt8 = 0x3C, gt: UInt8 = 0x3E, slash: UInt8 = 0x2F, bang: UInt8 = 0x21,
        question: UInt8 = 0x3F
    private static let commentOpen: [UInt8] = Array("<!--".utf8)
    private static let cdataOpen: [UInt8] = Array("<![CDATA[".utf8)
    private static let commentClose: [UInt8] = Array("-->".utf8)
    private static let cdataClose: [UInt8] = Array("]]>".utf8)
    private static let doctypeOpen: [UInt8] = Array("<!DOCTYPE".utf8)
    private static let piClose: [UInt8] = Array("?>".utf8)
    private static let amp: UInt8 = 0x26, quote: UInt8 = 0x22, apos: UInt8 = 0x27, eq: UInt8 = 0x3D

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x3A || c >= 0x80
    }

    private static func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
    }

    private mutating func run<H: XMLHandler>(_ handler: inout H, final: Bool) throws(XMLTokenError) {
        var i = 0
        if !started {
            if buffer.count < 3 && !final { return }
            started = true
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { i = 3 }
        }
        let bytes = buffer
        let limit = maxTokenBytes
        // The scan state of the unfinished token at buffer[0] (taken by the first token of this call, which is it).
        var resume = pending
        pending = nil
        var examined = 0
        defer { bytesExamined += examined }
        let consumed: Int = try bytes.withUnsafeBufferPointer { (b) throws(XMLTokenError) -> Int in
            let n = b.count
            func find(_ pattern: [UInt8], from start: Int) -> Int? {
                guard pattern.count <= n else { return nil }
                var j = start
                while j + pattern.count <= n {
                    if b[j] == pattern[0] {
                        var k = 1
                        while k < pattern.count && b[j + k] == pattern[k] { k += 1 }
                        if k == pattern.count { return j }
                    }
                    j += 1
                }
                return nil
            }
            func hasPrefix(_ pattern: [UInt8], at start: Int) -> Bool? {
                // nil: not enough bytes to tell.
                for k in 0..<pattern.count {
                    if start + k >= n { return nil }
                    if b[start + k] != pattern[k] { return false }
                }
                return true
            }
            /// Where the scan of the token at `i` resumes (nil: from its start): only for the token left unfinished
            /// by the previous chunk, of the same kind.
            func resumed(_ kind: Pending.Kind) -> Pending? {
                defer { resume = nil }
                guard let r = resume, r.kind == kind, i == 0 else { return nil }
                return r
            }
            /// A token of `length` bytes so far: refused past the bound (`tooLong`), whether it is complete or not.
            func bound(_ length: Int, _ what: String) throws(XMLTokenError) {
                if length > limit {
                    throw .tooLong("\(what) longer than \(limit) bytes", offset: base + i)
                }
            }
            /// A comment, CDATA section or processing instruction ending in `close`: its end, or nil (the token is
            /// left pending, its scan resuming where the closing pattern could still begin).
            func delimited(
                _ kind: Pending.Kind, from open: Int, close: [UInt8], what: String
            ) throws(XMLTokenError) -> Int? {
                let from = resumed(kind).map { i + $0.scanned } ?? open
                guard let e = find(close, from: from) else {
                    examined += max(0, n - from)
                    if final { throw .truncated("input ends in \(what)", offset: base + i) }
                    try bound(n - i, what)
                    pending = Pending(kind: kind, scanned: max(open, n - close.count + 1) - i)
                    return nil
                }
                examined += e + close.count - from
                try bound(e + close.count - i, what)
                return e
            }
            while i < n {
                if b[i] != Self.lt {
                    let from = resumed(.text).map { i + $0.scanned } ?? i
                    let j = Self.find(Self.lt, in: b, from: from, to: n) ?? n
                    examined += j - from
                    if stack.isEmpty {
                        // Only whitespace may stand outside the root: checked as it arrives, so that a long run of
                        // anything else is refused at once instead of being kept until its end.
                        if !UnsafeBufferPointer(rebasing: b[from..<j]).allSatisfy(Self.isSpace) {
                            throw .notWellFormed(
                                sawRoot ? "text after the root element" : "text before the root element",
                                offset: base + i)
                        }
                    }
                    if j == n && !final {
                        // The text may go on in the next chunk: kept, and scanned from here next time.
                        try bound(n - i, "a text run")
                        pending = Pending(kind: .text, scanned: n - i)
                        break
                    }
                    try bound(j - i, "a text run")
                    let slice = UnsafeBufferPointer(rebasing: b[i..<j])
                    if !stack.isEmpty, !slice.allSatisfy(Self.isSpace) {
                        // Whitespace between elements carries nothing the readers use.
                        examined += j - i
                        handler.text(try Self.decode(slice, offset: base + i))
                    }
                    i = j
                    continue
                }
                // Markup.
                guard i + 1 < n else {
                    if final { throw .truncated("input ends in markup", offset: base + i) }
                    break
                }
                let c = b[i + 1]
                if c == Self.bang {
                    switch (hasPrefix(Self.commentOpen, at: i), hasPrefix(Self.cdataOpen, at: i)) {
                    case (true, _):
                        guard let e = try delimited(.comment, from: i + 4, close: Self.commentClose, what: "a comment")
                        else { return i }
                        i = e + 3
                    case (_, true):
                        guard let e = try delimited(.cdata, from: i + 9, close: Self.cdataClose, what: "CDATA") else {
                            return i
                        }
                        if stack.isEmpty { throw .notWellFormed("CDATA outside the root element", offset: base + i) }
                        handler.text(String(decoding: UnsafeBufferPointer(rebasing: b[(i + 9)..<e]), as: UTF8.self))
                        i = e + 3
                    case (nil, _), (_, nil):
                        if final { throw .truncated("input ends in markup", offset: base + i) }
                        return i
                    default:
                        // <!DOCTYPE …>: skip, honouring quotes and the internal subset's brackets.
                        let doctype = hasPrefix(Self.doctypeOpen, at: i)
                        if doctype == nil {
                            if final { throw .truncated("input ends in markup", offset: base + i) }
                            return i
                        }
                        guard doctype == true, !sawRoot else {
                            throw .notWellFormed("unexpected '<!' declaration", offset: base + i)
                        }
                        var j = i + 9
                        var quote: UInt8 = 0
                        var bracket = 0
                        if let r = resumed(.doctype) {
                            j = i + r.scanned
                            quote = r.quote
                            bracket = r.bracket
                        }
                        let from = j
                        var closed = false
                        while j < n {
                            let d = b[j]
                            if quote != 0 {
                                if d == quote { quote = 0 }
                            } else if d == Self.quote || d == Self.apos {
                                quote = d
                            } else if d == 0x5B {
                                bracket += 1
                            } else if d == 0x5D {
                                bracket -= 1
                            } else if d == Self.gt && bracket <= 0 {
                                closed = true
                                break
                            }
                            j += 1
                        }
                        examined += j - from
                        guard closed else {
                            if final { throw .truncated("input ends in the DOCTYPE", offset: base + i) }
                            try bound(n - i, "the DOCTYPE")
                            pending = Pending(kind: .doctype, scanned: n - i, quote: quote, bracket: bracket)
                            return i
                        }
                        try bound(j + 1 - i, "the DOCTYPE")
                        i = j + 1
                    }
                    continue
                }
                if c == Self.question {
                    guard
                        let e = try delimited(
                            .instruction, from: i + 2, close: Self.piClose, what: "a processing instruction")
                    else { return i }
                    i = e + 2
                    continue
                }
                // A start or end tag: find its '>' outside quotes. Outside quotes byte by byte (names, spaces, '='),
                // a quoted value by memchr for its closing quote (noted for `startTag`); then one memchr for a '<'
                // anywhere before the '>': there is none in a well-formed tag, and if there is one, the byte-by-byte
                // scan finds the first and says which error it is. A tag cut by the end of the chunk resumes where
                // its scan stopped (inside a quoted value or not), so no byte of it is scanned twice.
                var j = i + 1
                var ltFrom = i + 1
                var openQuote: UInt8 = 0
                valueEnds.removeAll(keepingCapacity: true)
                if let r = resumed(.tag) {
                    j = i + r.scanned
                    ltFrom = j
                    openQuote = r.quote
                    valueEnds.append(contentsOf: r.valueEnds.map { $0 + i })
                }
                let scanFrom = j
                if openQuote != 0 {
                    if let close = Self.find(openQuote, in: b, from: j, to: n) {
                        valueEnds.append(close)
                        j = close + 1
                        openQuote = 0
                    } else {
                        j = n
                    }
                }
                let special: UInt64 = 1 << 0x22 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
                while j < n {
                    let d = b[j]
                    if d >= 64 || (special >> UInt64(d)) & 1 == 0 {
                        j += 1
                        continue
                    }
                    if d == Self.gt || d == Self.lt { break }
                    if let close = Self.find(d, in: b, from: j + 1, to: n) {
                        valueEnds.append(close)
                        j = close + 1
                    } else {
                        openQuote = d
                        j = n
                    }
                }
                let ltTo = j < n && b[j] == Self.lt ? j + 1 : j
                examined += (j - scanFrom) + max(0, ltTo - ltFrom)
                if Self.find(Self.lt, in: b, from: ltFrom, to: ltTo) != nil {
                    try Self.tagError(b, from: i + 1, base: base)
                }
                if j == n {
                    if final { throw .truncated("input ends inside a tag", offset: base + i) }
                    try bound(n - i, "a tag")
                    pending = Pending(
                        kind: .tag, scanned: n - i, quote: openQuote, valueEnds: valueEnds.map { $0 - i })
                    return i
                }
                try bound(j + 1 - i, "a tag")
                let tag = UnsafeBufferPointer(rebasing: b[(i + 1)..<j])
                if c == Self.slash {
                    var e = tag.count
                    while e > 1 && Self.isSpace(tag[e - 1]) { e -= 1 }
                    let (name, local) = self.name(UnsafeBufferPointer(rebasing: tag[1..<e]))
                    guard let open = stack.last else {
                        throw .notWellFormed("end tag </\(name)> without a start tag", offset: base + i)
                    }
                    guard open == name else {
                        throw .notWellFormed("end tag </\(name)> does not match <\(open)>", offset: base + i)
                    }
                    stack.removeLast()
                    handler.end(local)
                    if stack.isEmpty { rootClosed = true }
                } else {
                    try startTag(tag, at: i + 1, offset: base + i, &handler)
                }
                i = j + 1
            }
            return i
        }
        if consumed > 0 {
            buffer.removeFirst(consumed)
            base += consumed
        }
    }

    /// Throws the error of a tag starting at `from` that has a '<' before its '>' (the byte-by-byte scan: the first
    /// '<', outside or inside a quoted value).
    private static func tagError(_ b: UnsafeBufferPointer<UInt8>, from: Int, base: Int) throws(XMLTokenError) {
        var j = from
        var quote: UInt8 = 0
        while j < b.count {
            let d = b[j]
            if quote != 0 {
                if d == quote {
                    quote = 0
                } else if d == lt {
                    throw .notWellFormed("'<' in an attribute value", offset: base + j)
                }
            } else if d == Self.quote || d == apos {
                quote = d
            } else if d == gt {
                return
            } else if d == lt {
                throw .notWellFormed("'<' inside a tag", offset: base + j)
            }
            j += 1
        }
    }

    /// `tag` is `buffer[at…]`; `valueEnds` holds where the run loop found each quoted value's closing quote.
    private mutating func startTag<H: XMLHandler>(
        _ tag: UnsafeBufferPointer<UInt8>, at tagStart: Int, offset: Int, _ handler: inout H
    ) throws(XMLTokenError) {
        if rootClosed { throw .notWellFormed("a second root element", offset: offset) }
        var end = tag.count
        var selfClosing = false
        if end > 0 && tag[end - 1] == Self.slash {
            selfClosing = true
            end -= 1
        }
        guard end > 0, Self.isNameStart(tag[0]) else { throw .notWellFormed("bad element name", offset: offset) }
        var p = 1
        while p < end && Self.isNameChar(tag[p]) { p += 1 }
        let (name, local) = self.name(UnsafeBufferPointer(rebasing: tag[0..<p]))
        let filter = handler.attributeFilter(for: local)
        var attributes: [XMLAttribute] = []
        var valueIndex = 0
        // The next '&' in the tag (values before it have no reference to check or replace).
        var nextAmp = Self.find(Self.amp, in: tag, from: 0, to: end) ?? end
        while true {
            let before = p
            while p < end && Self.isSpace(tag[p]) { p += 1 }
            if p == end { break }
            guard p > before, Self.isNameStart(tag[p]) else {
                throw .notWellFormed("bad attribute in <\(name)>", offset: offset)
            }
            let nameStart = p
            while p < end && Self.isNameChar(tag[p]) { p += 1 }
            let attributeName = UnsafeBufferPointer(rebasing: tag[nameStart..<p])
            while p < end && Self.isSpace(tag[p]) { p += 1 }
            guard p < end, tag[p] == Self.eq else {
                throw .notWellFormed("attribute without '=' in <\(name)>", offset: offset)
            }
            p += 1
            while p < end && Self.isSpace(tag[p]) { p += 1 }
            guard p < end, tag[p] == Self.quote || tag[p] == Self.apos else {
                throw .notWellFormed("unquoted attribute value in <\(name)>", offset: offset)
            }
            let q = tag[p]
            p += 1
            let valueStart = p
            // The closing quote the run loop found for this value (the same search); searched again if not.
            if valueIndex < valueEnds.count, case let close = valueEnds[valueIndex] - tagStart, close >= valueStart,
                close < end, tag[close] == q, valueStart == 0 || tag[valueStart - 1] == q
            {
                p = close
                valueIndex += 1
            } else {
                p = Self.find(q, in: tag, from: p, to: end) ?? end
                valueIndex = Int.max
            }
            guard p < end else { throw .notWellFormed("unterminated attribute value in <\(name)>", offset: offset) }
            while nextAmp < valueStart { nextAmp = Self.find(Self.amp, in: tag, from: nextAmp + 1, to: end) ?? end }
            let hasAmp = nextAmp < p
            if hasAmp { nextAmp = Self.find(Self.amp, in: tag, from: p, to: end) ?? end }
            if filter.map({ Self.matches(attributeName, $0) }) ?? true {
                let bytes = UnsafeBufferPointer(rebasing: tag[valueStart..<p])
                let value = hasAmp ? try Self.decode(bytes, offset: offset) : String(decoding: bytes, as: UTF8.self)
                // The local name from the bytes after the last ':' (ASCII: never inside a UTF-8 sequence, so the
                // same string as the whole name decoded and cut).
                var localStart = 0
                for k in 0..<attributeName.count where attributeName[k] == 0x3A { localStart = k + 1 }
                attributes.append(
                    XMLAttribute(
                        name: String(
                            decoding: UnsafeBufferPointer(rebasing: attributeName[localStart...]), as: UTF8.self),
                        value: value))
            } else if hasAmp {
                try Self.checkReferences(UnsafeBufferPointer(rebasing: tag[valueStart..<p]), offset: offset)
            }
            p += 1
        }
        sawRoot = true
        handler.start(local, attributes)
        if selfClosing {
            handler.end(local)
            if stack.isEmpty { rootClosed = true }
        } else {
            stack.append(name)
        }
    }

    static func local(_ name: String) -> String {
        guard let colon = name.utf8.lastIndex(of: 0x3A) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }

    /// Whether a (possibly prefixed) attribute name's local part is one of `names`.
    static func matches(_ name: UnsafeBufferPointer<UInt8>, _ names: [[UInt8]]) -> Bool {
        if names.isEmpty { return false }
        var start = 0
        for i in 0..<name.count where name[i] == 0x3A { start = i + 1 }
        let count = name.count - start
        for candidate in names where candidate.count == count {
            let equal = candidate.withUnsafeBufferPointer { c in
                var k = 0
                while k < count && c[k] == name[start + k] { k += 1 }
                return k == count
            }
            if equal { return true }
        }
        return false
    }

    /// Checks the entity and character references of a value without building it.
    static func checkReferences(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws(XMLTokenError) {
        var i = 0
        while i < bytes.count {
            guard let at = find(amp, in: bytes, from: i, to: bytes.count) else { return }
            i = at
            var j = i + 1
            while j < bytes.count && bytes[j] != 0x3B && j - i < 12 { j += 1 }
            guard j < bytes.count, bytes[j] == 0x3B else {
                throw .notWellFormed("'&' without an entity", offset: offset)
            }
            let entity = UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j])
            if !isPredefined(entity) && !isValidCharacterReference(entity) {
                // character reference or error
                _ = try decode(UnsafeBufferPointer(rebasing: bytes[i...j]), offset: offset)
            }
            i = j + 1
        }
    }

    /// Whether an entity name (between '&' and ';') is one of the five predefined ones (lt, gt, amp, quot, apos).
    @inline(__always)
    static func isPredefined(_ e: UnsafeBufferPointer<UInt8>) -> Bool {
        switch e.count {
        case 2: return (e[0] == 0x6C || e[0] == 0x67) && e[1] == 0x74 // lt, gt
        case 3: return e[0] == 0x61 && e[1] == 0x6D && e[2] == 0x70 // amp
        case 4:
            return e[0] == 0x71 && e[1] == 0x75 && e[2] == 0x6F && e[3] == 0x74 // quot
                || e[0] == 0x61 && e[1] == 0x70 && e[2] == 0x6F && e[3] == 0x73 // apos
        default: return false
        }
    }

    /// True only for a character reference `decode` accepts: `#` and 1–7 decimal digits, or `#x` and 1–6 hex
    /// digits, naming a Unicode scalar. False means "ask `decode`" (which throws, or accepts a rarer spelling), so a
    /// false here never changes a result.
    static func isValidCharacterReference(_ e: UnsafeBufferPointer<UInt8>) -> Bool {
        guard e.count >= 2, e[0] == 0x23 else { return false }
        var value: UInt32 = 0
        if e[1] == 0x78 {
            guard e.count >= 3, e.count <= 8 else { return false }
            for k in 2..<e.count {
                let c = e[k]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
                case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
                default: return false
                }
                value = value * 16 + digit
            }
        } else {
            guard e.count <= 8 else { return false }
            for k in 1..<e.count {
                let c = e[k]
                guard c >= 0x30 && c <= 0x39 else { return false }
                value = value * 10 + UInt32(c - 0x30)
            }
        }
        return Unicode.Scalar(value) != nil
    }

    /// Text with the five predefined entities and character references replaced.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws(XMLTokenError) -> String {
        guard find(amp, in: bytes, from: 0, to: bytes.count) != nil else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            guard c == amp else { out.append(c); i += 1; continue }
            var j = i + 1
            while j < bytes.count && bytes[j] != 0x3B && j - i < 12 { j += 1 }
            guard j < bytes.count, bytes[j] == 0x3B else {
                throw .notWellFormed("'&' without an entity", offset: offset)
            }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j]), as: UTF8.self)
            switch entity {
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "amp": out.append(0x26)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                var scalar: UInt32? = nil
                if entity.hasPrefix("#x") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10)
                }
                guard let value = scalar, let u = Unicode.Scalar(value) else {
                    throw .notWellFormed("unknown entity &\(entity);", offset: offset)
                }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            }
            i = j + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
