import CivilDate
import Foundation

/// Parses the timestamps of the XML formats without Foundation's formatters (fast, and keeps the offset):
/// ISO 8601 / RFC 3339 (`2024-03-01T07:05:09Z`, `…09.250+01:00`, `…09+0100`) and the Health export's
/// `2024-03-01 07:05:09 +0100`. A time without zone is read as UTC.
enum XMLTime {
    struct Parsed {
        var date: Date
        /// The offset the text states (nil for `Z` or none).
        var utcOffsetSeconds: Int?
    }

    static func parse(_ text: String) -> Parsed? {
        var text = text
        // The text's UTF-8 in place (a native string's own storage; no array per call).
        return text.withUTF8 { all in
            var start = 0, end = all.count
            while start < end, all[start] == 0x20 || all[start] == 0x0A || all[start] == 0x0D || all[start] == 0x09 {
                start += 1
            }
            while end > start,
                all[end - 1] == 0x20 || all[end - 1] == 0x0A || all[end - 1] == 0x0D || all[end - 1] == 0x09
            {
                end -= 1
            }
            return parse(UnsafeBufferPointer(rebasing: all[start..<end]))
        }
    }

    /// `parse` of trimmed UTF-8 bytes.
    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Parsed? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += count
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else {
            return nil
        }
        guard i < b.count, b[i] == 0x54 || b[i] == 0x20 || b[i] == 0x74 else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else {
            return nil
        }
        var fraction = 0.0
        if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 0.1
            var any = false
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        while i < b.count, b[i] == 0x20 { i += 1 }
        var offset: Int? = nil
        if i < b.count {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(0x3A)
                let om = digits(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        // The one calendar's civil-day arithmetic; the components are taken as they are (a day 31 of a 30-day month
        // is the next month's first, as before).
        let days = LocalDate(year: year, month: month, day: day).daysSinceEpoch
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Parsed(date: Date(timeIntervalSince1970: local - Double(offset ?? 0)), utcOffsetSeconds: offset)
    }
}
