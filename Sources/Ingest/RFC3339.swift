/// Strict RFC 3339 timestamps (`2025-12-24T10:00:00Z`, `2025-12-24T11:00:00.250+01:00`), parsed without
/// locale or formatter state. Returns milliseconds since the Unix epoch.
public enum RFC3339 {
    public static func parseMillis(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for i in start..<(start + count) {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let day = digits(8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"),
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var i = 19
        var millis = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 100
            var any = false
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                millis += Int(b[i] - 48) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        guard i < b.count else { return nil }
        var offsetSeconds = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = digits(i + 4, 2),
                oh < 24, om < 60
            else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offsetSeconds)
        return seconds * 1000 + Int64(millis)
    }

    /// `2025-12-24T10:00:00.000Z` for epoch milliseconds.
    public static func format(millis: Int64) -> String {
        let totalSeconds = Int64((Double(millis) / 1000).rounded(.down))
        let ms = Int(millis - totalSeconds * 1000)
        let days = Int((Double(totalSeconds) / 86400).rounded(.down))
        let secondOfDay = Int(totalSeconds - Int64(days) * 86400)
        let (y, m, d) = civilFromDays(days)
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(ms, 3))Z"
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    static func daysInMonth(year: Int, month: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
