/// Which representation of a cached body a request gets, from its `Accept-Encoding`
/// (RFC 9110 §12.5.3) — the server offers two: `identity` (no coding) and `gzip`.
///
/// The field is a list of content codings, each with an optional weight `;q=` (RFC 9110 §12.4.2:
/// `0` to `1` with at most three decimals; `q=0` means "not acceptable"). Codings are
/// case-insensitive (§8.4.1); `x-gzip` is the same as `gzip` (§8.4.1.3); `*` stands for every
/// coding not listed; `identity` means "no coding". Several `Accept-Encoding` lines are one list
/// (RFC 9110 §5.3).
///
/// Decisions where the RFC leaves a choice:
/// - **No field: identity.** The RFC allows any coding then (§12.5.3, rule 1), but a client that
///   says nothing may not be able to decode one (the same paragraph warns of it).
/// - **gzip is sent when it is acceptable (weight > 0) and weighted at least as much as
///   identity.** Identity's weight is its own entry's, else that of `*`, else it ranks below every
///   listed coding: it stays acceptable (rule 2) but a client that lists `gzip` prefers it.
///   A tie goes to gzip (fewer bytes, same content).
/// - **Nothing acceptable** (`gzip;q=0, identity;q=0`): identity, i.e. the server disregards
///   the field instead of answering 406, as RFC 9110 §12.1 allows.
/// - An element with a malformed weight (`gzip;q=2`, `gzip;q=abc`) is ignored, as if absent.
enum ContentCoding: Equatable, Sendable {
    case identity
    case gzip

    /// The coding to send for these `Accept-Encoding` field lines (empty: no field).
    static func negotiate<S: Sequence<String>>(_ fieldLines: S) -> ContentCoding {
        var gzip: Int? // weights in thousandths; nil = not listed
        var identity: Int?
        var any: Int?
        var sawField = false
        for line in fieldLines {
            sawField = true
            for element in line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                guard let (coding, weight) = parseElement(element) else { continue }
                switch coding {
                case .gzip: gzip = max(gzip ?? 0, weight)
                case .identity: identity = max(identity ?? 0, weight)
                case .any: any = max(any ?? 0, weight)
                case .other: break
                }
            }
        }
        guard sawField else { return .identity }
        let gzipWeight = gzip ?? any ?? 0
        guard gzipWeight > 0 else { return .identity }
        let identityWeight = identity ?? any ?? -1
        return gzipWeight >= identityWeight ? .gzip : .identity
    }

    private enum Listed { case gzip, identity, any, other }

    /// One list element: `token *( OWS ";" OWS parameter )`, its weight in thousandths (1000 when
    /// it has none); nil when it is empty or its weight is malformed.
    private static func parseElement(_ element: Substring.UTF8View) -> (Listed, Int)? {
        var parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).makeIterator()
        guard let name = parts.next().map(trimmed), !name.isEmpty else { return nil }
        let coding: Listed
        if asciiCaseInsensitiveEquals(name, "gzip") || asciiCaseInsensitiveEquals(name, "x-gzip") {
            coding = .gzip
        } else if asciiCaseInsensitiveEquals(name, "identity") {
            coding = .identity
        } else if name.elementsEqual("*".utf8) {
            coding = .any
        } else {
            coding = .other
        }
        var weight = 1000
        while let parameter = parts.next().map(trimmed) {
            // Only `q` is defined for Accept-Encoding; its name is case-insensitive (RFC 9110 §5.6.6).
            guard parameter.count >= 2, parameter.first! | 0x20 == UInt8(ascii: "q"),
                parameter.dropFirst().first == UInt8(ascii: "=")
            else { continue }
            guard let q = qvalue(parameter.dropFirst(2)) else { return nil }
            weight = q
        }
        return (coding, weight)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2), in thousandths.
    static func qvalue<C: Collection<UInt8>>(_ text: C) -> Int? {
        var bytes = text.makeIterator()
        guard let first = bytes.next(), first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard let dot = bytes.next() else { return value }
        guard dot == UInt8(ascii: ".") else { return nil }
        var scale = 100
        var digits = 0
        while let digit = bytes.next() {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"), digits < 3 else { return nil }
            if first == UInt8(ascii: "1"), digit != UInt8(ascii: "0") { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
            digits += 1
        }
        return value
    }

    /// Drops optional whitespace (spaces and tabs, RFC 9110 §5.6.3) at both ends.
    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }

    private static func asciiCaseInsensitiveEquals(_ bytes: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        guard bytes.count == expected.count else { return false }
        return zip(bytes, expected).allSatisfy { byte, e in
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            return folded == e
        }
    }
}
