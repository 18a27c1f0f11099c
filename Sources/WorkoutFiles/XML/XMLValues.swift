import Foundation

extension String {
    /// The text without surrounding whitespace.
    var trimmedXML: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The text as a finite number, else nil.
    var xmlNumber: Double? {
        guard let v = Double(trimmedXML), v.isFinite else { return nil }
        return v
    }
}
