import Foundation

extension String {
    /// The text without surrounding whitespace.
    var trimmedXML: String {
        // Nothing to trim when the text starts and ends with an ASCII character that is not white space (the usual
        // case: no Foundation call); otherwise Foundation's Unicode trimming as before.
        let utf8 = self.utf8
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80, !Self.isASCIISpace(first),
            !Self.isASCIISpace(last)
        {
            return self
        }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ASCII members of `CharacterSet.whitespacesAndNewlines`: tab, line feed, vertical tab, form feed,
    /// carriage return, space.
    @inline(__always)
    private static func isASCIISpace(_ c: UInt8) -> Bool { (c >= 0x09 && c <= 0x0D) || c == 0x20 }

    /// The text as a finite number, else nil.
    var xmlNumber: Double? {
        guard let v = Double(trimmedXML), v.isFinite else { return nil }
        return v
    }
}
