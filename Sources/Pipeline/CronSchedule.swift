import Foundation

/// A crontab schedule (`minute hour day-of-month month day-of-week`, as in crontab(5)) as a typed value, with the
/// next run computed in a given IANA time zone — so a job can run at 18:00 on Sunday *in each user's zone*.
///
/// Fields accept `*`, numbers, ranges `a-b`, steps `*/n` and `a-b/n`, lists `a,b`, and names (`jan`…`dec`,
/// `sun`…`sat`; 7 is Sunday too). When both day fields are restricted, a day matches if either does (crontab(5)).
/// Local times that a daylight-saving change skips run at the first minute after the gap; times that happen twice
/// run once, at the first occurrence.
public struct CronSchedule: Sendable, Equatable, CustomStringConvertible {
    public let minutes: Set<Int>, hours: Set<Int>, daysOfMonth: Set<Int>, months: Set<Int>, daysOfWeek: Set<Int>
    let dayOfMonthRestricted: Bool, dayOfWeekRestricted: Bool
    public let description: String

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public init(_ text: String) throws(ParseError) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw ParseError(message: "a schedule has 5 fields, found \(fields.count): \(text)")
        }
        let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        minutes = try Self.field(fields[0], 0...59, names: [:], what: "minute")
        hours = try Self.field(fields[1], 0...23, names: [:], what: "hour")
        daysOfMonth = try Self.field(fields[2], 1...31, names: [:], what: "day of month")
        months = try Self.field(
            fields[3], 1...12, names: Dictionary(uniqueKeysWithValues: monthNames.enumerated().map { ($1, $0 + 1) }),
            what: "month")
        let dow = try Self.field(
            fields[4], 0...7, names: Dictionary(uniqueKeysWithValues: dayNames.enumerated().map { ($1, $0) }),
            what: "day of week")
        daysOfWeek = Set(dow.map { $0 % 7 })
        dayOfMonthRestricted = fields[2] != "*"
        dayOfWeekRestricted = fields[4] != "*"
        description = fields.joined(separator: " ")
    }

    static func field(_ text: String, _ range: ClosedRange<Int>, names: [String: Int], what: String) throws(ParseError)
        -> Set<Int>
    {
        var out = Set<Int>()
        func value(_ s: Substring) throws(ParseError) -> Int {
            if let n = Int(s), range.contains(n) { return n }
            if let n = names[s.lowercased()] { return n }
            throw ParseError(message: "\(what): \(s) is not in \(range.lowerBound)–\(range.upperBound)")
        }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2, !pieces[0].isEmpty else {
                throw ParseError(message: "\(what): cannot read \(part)")
            }
            var step = 1
            if pieces.count == 2 {
                guard let s = Int(pieces[1]), s > 0 else { throw ParseError(message: "\(what): bad step in \(part)") }
                step = s
            }
            let lo: Int, hi: Int
            if pieces[0] == "*" {
                (lo, hi) = (range.lowerBound, range.upperBound)
            } else if let dash = pieces[0].firstIndex(of: "-") {
                lo = try value(pieces[0][..<dash])
                hi = try value(pieces[0][pieces[0].index(after: dash)...])
                guard lo <= hi else { throw ParseError(message: "\(what): range \(part) runs backwards") }
            } else {
                lo = try value(pieces[0])
                hi = pieces.count == 2 ? range.upperBound : lo
            }
            out.formUnion(stride(from: lo, through: hi, by: step))
        }
        return out
    }

    func dayMatches(day: Int, weekday: Int) -> Bool {
        let dom = daysOfMonth.contains(day), dow = daysOfWeek.contains(weekday)
        if dayOfMonthRestricted && dayOfWeekRestricted { return dom || dow }
        return dom && dow
    }

    /// The first run strictly after `date`, in `zone`; nil when none within the next eight years (e.g. `0 0 30 2 *`).
    public func next(after date: Date, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = date.addingTimeInterval(60 - date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60))
        var day = calendar.startOfDay(for: date)
        for _ in 0..<(366 * 8) {
            let c = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            if months.contains(c.month!), dayMatches(day: c.day!, weekday: c.weekday! - 1) {
                for hour in hours.sorted() {
                    for minute in minutes.sorted() {
                        let wanted = DateComponents(
                            year: c.year, month: c.month, day: c.day, hour: hour, minute: minute)
                        // A skipped local time maps forward past the gap; an ambiguous one to its first occurrence.
                        guard let candidate = calendar.date(from: wanted),
                            calendar.component(.day, from: candidate) == c.day || hour >= 23
                        else { continue }
                        if candidate >= start { return candidate }
                    }
                }
            }
            guard let nextDay = calendar.date(byAdding: .day, value: 1, to: day) else { return nil }
            day = nextDay
        }
        return nil
    }
}
