import Foundation

/// An identifier that is a string of a kind: a type of its own (a `UserID` is never passed where a `SessionID` is
/// expected), with one implementation of what every identifier does. Encoded as its plain string (the standard
/// library's `Codable` for string-backed `RawRepresentable`), ordered and printed by that string.
public protocol StringIdentifier: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension StringIdentifier {
    public init(_ value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A user of the apps. Opaque text chosen by the account service (at most 128 characters).
public struct UserID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Whether the text is acceptable as a user id: 1–128 characters of `A–Z a–z 0–9 - _ . @ +`, not starting with
    /// `.`. User ids name directories of the inbox (`sessions/<user_id>/`) and appear in logs, so nothing that is a
    /// path (`/`, `\`, `.`, `..`), a control character or white space.
    public static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 128, text.utf8.first != UInt8(ascii: ".") else { return false }
        return text.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: "@")
                || c == UInt8(ascii: "+")
        }
    }
}

/// A session as named by the app: a UUID it generated, stored in canonical lower-case form.
public struct SessionID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Parses and canonicalises a UUID string; nil when it is not a UUID. Only the 36 characters of the textual form
    /// (`8-4-4-4-12` hex digits, either case) are accepted: Foundation's parser stops at a NUL byte, so without this
    /// check `"<uuid>\u{0}anything"` would be taken for the bare UUID.
    public init?(uuidString: String) {
        let bytes = Array(uuidString.utf8)
        guard bytes.count == 36 else { return nil }
        for (k, c) in bytes.enumerated() {
            let hyphen = k == 8 || k == 13 || k == 18 || k == 23
            let hex = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
            guard hyphen ? c == UInt8(ascii: "-") : hex else { return nil }
        }
        guard let uuid = UUID(uuidString: uuidString) else { return nil }
        self.rawValue = uuid.uuidString.lowercased()
    }
}

/// One user's session, workout or other item: how items are keyed wherever those of several users are matched up
/// (a batch read, a batch insert, the nightly's skipped sessions). The app's ids are unique only within a user.
public struct UserScopedKey<ID: StringIdentifier>: Hashable, Sendable {
    public let user: UserID
    public let id: ID
    public init(_ user: UserID, _ id: ID) {
        self.user = user
        self.id = id
    }
}

public typealias SessionKey = UserScopedKey<SessionID>

extension String {
    /// Whether the text holds a control character (C0, DEL or C1: U+0000–U+001F, U+007F–U+009F), which no
    /// identifier, zone name or label of the pipeline may contain.
    public var containsControlCharacter: Bool {
        unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) }
    }
}

/// A workout record from HealthKit or Garmin, named by its source.
public struct WorkoutID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A day read from the store (a `local_date` column) that is not a date `YYYY-MM-DD`: the row is refused with this
/// error, never read as another day or skipped.
public struct InvalidStoredDate: Error, Equatable, Sendable, CustomStringConvertible {
    /// The column (table and name) the text was read from.
    public let column: String
    public let text: String
    public init(column: String, text: String) { self.column = column; self.text = text }
    public var description: String { "\(column) holds \"\(text)\", not a date YYYY-MM-DD" }
}

extension LocalDate {
    /// The day a store's `local_date` column holds (text `YYYY-MM-DD` on both backends, written from `iso`);
    /// `InvalidStoredDate` for anything else. A record's day is a `LocalDate`: the text is made and read only here and
    /// where a statement binds `iso`.
    public init(stored text: String, column: String) throws(InvalidStoredDate) {
        guard let date = LocalDate(iso: text) else { throw InvalidStoredDate(column: column, text: text) }
        self = date
    }
}

/// Milliseconds since the Unix epoch (UTC), the store's representation of instants.
public typealias EpochMillis = Int64

extension Date {
    public var epochMillis: EpochMillis { EpochMillis((timeIntervalSince1970 * 1000).rounded()) }
    public init(epochMillis: EpochMillis) { self.init(timeIntervalSince1970: Double(epochMillis) / 1000) }
}
