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

/// Values of an activity left out because their text is not a finite number (an invalid character in it, a stray
/// letter, `1e999`), counted by element for the activity's `partial_import` flag: a value dropped is part of the
/// recording missing, and the user is told (docs/workout-files.md, "Reason codes"). Empty text is a value not given,
/// not counted.
struct UnreadableValues: Equatable {
    private(set) var counts: [String: Int] = [:]

    /// The text as a number (`xmlNumber`); when it is not one, counted under `element`.
    mutating func number(_ text: String, _ element: String) -> Double? {
        if let v = text.xmlNumber { return v }
        if !text.trimmedXML.isEmpty { counts[element, default: 0] += 1 }
        return nil
    }

    mutating func add(_ other: UnreadableValues) {
        counts.merge(other.counts, uniquingKeysWith: +)
    }

    /// The activity's `partial_import` note, nil when every value was read.
    var flag: ReadIssue? {
        guard !counts.isEmpty else { return nil }
        let total = counts.values.reduce(0, +)
        let each = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return ReadIssue(
            code: .partialImport,
            detail: "\(total) value\(total == 1 ? "" : "s") not a number (an invalid character, …), left out: \(each)")
    }
}
