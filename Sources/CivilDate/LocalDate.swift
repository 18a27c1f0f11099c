import Foundation

/// A calendar date in the proleptic Gregorian calendar, without a time or a time zone: the "local date" a user sees
/// (docs/metrics.md: dates a user sees are local calendar dates in the user's IANA time zone), and the date of
/// every plan day (a runner in Tokyo and one in Los Angeles get their runs on the same weekdays whatever the server's
/// zone is). The zone matters only when an *instant* becomes a date: `init(instant:timeZone:)`.
///
/// Arithmetic goes through `daysSinceEpoch` (days since 1970-01-01), with Howard Hinnant's `days_from_civil` /
/// `civil_from_days` algorithms ("chrono-Compatible Low-Level Date Algorithms"), so adding days across month ends,
/// year ends and leap days needs no `Calendar`.
///
/// Encoded in JSON as its ISO 8601 string, `"YYYY-MM-DD"`.
public struct LocalDate: Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The date with these components, taken as they are (trusted input: a constant, a date taken apart). Parse
    /// untrusted text with `init?(iso:)`, which refuses impossible dates.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` (four-digit year, two-digit month and day, ASCII digits); nil for anything else —
    /// an instant such as `2026-09-26T22:00:00Z`, or an impossible date such as `2023-02-29`.
    public init?(iso: some StringProtocol) {
        let b = Array(iso.utf8)
        guard b.count == 10 else { return nil }
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let c = b[i]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
            (1...12).contains(m), d >= 1, d <= LocalDate.daysInMonth(year: y, month: m)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `init?(iso:)`.
    public init?(_ text: some StringProtocol) { self.init(iso: text) }

    /// `YYYY-MM-DD`.
    public var iso: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public var description: String { iso }

    /// Days since 1970-01-01 (negative before it): `days_from_civil`.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `daysSinceEpoch` days after 1970-01-01: `civil_from_days`.
    public init(daysSinceEpoch: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// Calendar days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int {
        other.daysSinceEpoch - daysSinceEpoch
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (index 3 when Monday is 0).
        Weekday.allCases[((daysSinceEpoch + 3) % 7 + 7) % 7]
    }

    /// ISO weekday number: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int { weekday.isoNumber }

    /// The Monday on or before this date (start of its ISO week).
    public var startOfWeek: LocalDate { adding(days: -weekday.index) }

    /// The local calendar date of `instant` in `timeZone`, with the zone's UTC offset at that instant (daylight-saving
    /// time honoured).
    public init(instant: Date, timeZone: TimeZone) {
        let offset = Double(timeZone.secondsFromGMT(for: instant))
        let local = instant.timeIntervalSince1970 + offset
        self.init(daysSinceEpoch: Int((local / 86_400).rounded(.down)))
    }

    /// `init(instant:timeZone:)`.
    public static func from(instant: Date, in timeZone: TimeZone) -> LocalDate {
        LocalDate(instant: instant, timeZone: timeZone)
    }

    /// "Today" for someone in `timeZone`; the clock (`now`) is passed in, for tests.
    public static func today(in timeZone: TimeZone, now: Date) -> LocalDate {
        LocalDate(instant: now, timeZone: timeZone)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decode(
            parsing: { LocalDate(iso: $0) }, expected: "a local date YYYY-MM-DD")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}

/// A day of the week, spelled as the plan format and the user profile spell it (`mon` … `sun`).
public enum Weekday: String, Codable, CaseIterable, Sendable, Comparable {
    case mon, tue, wed, thu, fri, sat, sun

    /// 0 for Monday … 6 for Sunday.
    public var index: Int {
        switch self {
        case .mon: 0
        case .tue: 1
        case .wed: 2
        case .thu: 3
        case .fri: 4
        case .sat: 5
        case .sun: 6
        }
    }

    /// ISO 8601 weekday number: 1 for Monday … 7 for Sunday.
    public var isoNumber: Int { index + 1 }

    public func advanced(by n: Int) -> Weekday { Weekday.allCases[((index + n) % 7 + 7) % 7] }

    /// `Mon` … `Sun`.
    public var shortName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.index < b.index }
}
