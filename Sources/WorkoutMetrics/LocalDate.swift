import Foundation

/// A calendar date in the proleptic Gregorian calendar, without a time or a time zone:
/// the "local date" users see (metrics.md: dates a user sees are local calendar dates in
/// the user's IANA time zone).
///
/// Arithmetic goes through `daysSinceEpoch` (days since 1970-01-01), using Howard
/// Hinnant's `days_from_civil` / `civil_from_days` algorithms, so adding days across
/// month ends, year ends and leap days needs no `Calendar`.
///
/// Encoded in JSON as its ISO 8601 string, `"YYYY-MM-DD"`.
public struct LocalDate: Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The date with these components. Components are not validated beyond normalisation:
    /// use `init?(iso:)` for untrusted input.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (four-digit year, two-digit month and day); nil for anything
    /// else, including impossible dates such as `2023-02-29`.
    public init?(iso: String) {
        let utf8 = Array(iso.utf8)
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let c = utf8[i]
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

    /// `YYYY-MM-DD`.
    public var iso: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public var description: String { iso }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
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

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (4).
        let r = (daysSinceEpoch + 3) % 7
        return (r < 0 ? r + 7 : r) + 1
    }

    /// The Monday on or before this date (start of its ISO week).
    public var startOfWeek: LocalDate { adding(days: 1 - weekday) }

    /// The local calendar date of `instant` in `timeZone`, using the zone's UTC offset at
    /// that instant (so daylight-saving time is honoured).
    public static func from(instant: Date, in timeZone: TimeZone) -> LocalDate {
        let offset = Double(timeZone.secondsFromGMT(for: instant))
        let local = instant.timeIntervalSince1970 + offset
        return LocalDate(daysSinceEpoch: Int((local / 86_400).rounded(.down)))
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
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let date = LocalDate(iso: string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected YYYY-MM-DD, found \(string)")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}
