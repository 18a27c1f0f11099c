import Foundation

/// A calendar date in the runner's own time zone (`YYYY-MM-DD`), never an instant.
///
/// All plan arithmetic is done on these civil dates, so a plan for a runner in Tokyo and one
/// in Los Angeles land on the same weekdays whatever the server's zone is. The zone only
/// matters when an *instant* (a workout's start, "now") is turned into a local date:
/// `LocalDate(instant:timeZone:)`.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A validated date; nil for impossible dates (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysInMonth(year, month) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; instants such as `2026-09-26T22:00:00Z` are rejected.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The local calendar date of `instant` in `timeZone`.
    public init(instant: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        self.year = c.year!; self.month = c.month!; self.day = c.day!
    }

    /// "Today" for a runner in `timeZone`; pass the clock in (`now`) for tests.
    public static func today(in timeZone: TimeZone, now: Date) -> LocalDate {
        LocalDate(instant: now, timeZone: timeZone)
    }

    /// Days since 1970-01-01 (proleptic Gregorian; H. Hinnant's civil algorithm).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0); self.month = m; self.day = d
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (index 3 when Monday is 0).
        Weekday.allCases[((daysSinceEpoch + 3) % 7 + 7) % 7]
    }

    public var description: String {
        (year < 1000 ? String(repeating: "0", count: year < 10 ? 3 : year < 100 ? 2 : 1) : "") + "\(year)-"
            + Fmt.pad2(month) + "-" + Fmt.pad2(day)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let d = LocalDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "expected a local date YYYY-MM-DD, got \(text)")
        }
        self = d
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Weekdays as the plan format spells them.
public enum Weekday: String, Codable, CaseIterable, Sendable, Comparable {
    case mon, tue, wed, thu, fri, sat, sun

    /// 0 for Monday … 6 for Sunday.
    public var index: Int { Weekday.allCases.firstIndex(of: self)! }

    public func advanced(by n: Int) -> Weekday { Weekday.allCases[((index + n) % 7 + 7) % 7] }

    public var shortName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.index < b.index }
}
