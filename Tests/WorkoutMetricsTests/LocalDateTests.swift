import Foundation
import Testing

@testable import WorkoutMetrics

@Suite struct LocalDateTests {
    @Test func epochAndKnownDays() {
        #expect(LocalDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(LocalDate(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
        // 2024-02-29 00:00 UTC is 1709164800 s after the epoch.
        #expect(LocalDate(year: 2024, month: 2, day: 29).daysSinceEpoch == 1_709_164_800 / 86_400)
    }

    @Test func roundTripsEveryDayOverFourCenturies() {
        // Reference: walk the calendar day by day with daysInMonth, independent of the
        // closed-form conversion.
        var y = 1900, m = 1, d = 1
        var n = LocalDate(year: 1900, month: 1, day: 1).daysSinceEpoch
        for _ in 0..<(400 * 366) {
            let date = LocalDate(daysSinceEpoch: n)
            #expect(date == LocalDate(year: y, month: m, day: d))
            if date != LocalDate(year: y, month: m, day: d) { return }
            #expect(date.daysSinceEpoch == n)
            d += 1
            if d > LocalDate.daysInMonth(year: y, month: m) { d = 1; m += 1 }
            if m > 12 { m = 1; y += 1 }
            n += 1
        }
    }

    @Test func leapDayArithmetic() {
        let feb28 = LocalDate(iso: "2024-02-28")!
        #expect(feb28.adding(days: 1).iso == "2024-02-29")
        #expect(feb28.adding(days: 2).iso == "2024-03-01")
        #expect(LocalDate(iso: "2023-02-28")!.adding(days: 1).iso == "2023-03-01")
        #expect(LocalDate(iso: "1900-02-28")!.adding(days: 1).iso == "1900-03-01")
        #expect(LocalDate(iso: "2000-02-28")!.adding(days: 1).iso == "2000-02-29")
        #expect(LocalDate(iso: "2024-12-31")!.adding(days: 1).iso == "2025-01-01")
        #expect(LocalDate(iso: "2025-01-01")!.adding(days: -1).iso == "2024-12-31")
    }

    @Test func isoParsing() {
        #expect(LocalDate(iso: "2024-02-29") == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate(iso: "2023-02-29") == nil)
        #expect(LocalDate(iso: "2024-13-01") == nil)
        #expect(LocalDate(iso: "2024-1-01") == nil)
        #expect(LocalDate(iso: "2024-01-01T00:00") == nil)
        #expect(LocalDate(iso: "abcd-01-01") == nil)
        #expect(LocalDate(year: 987, month: 6, day: 5).iso == "0987-06-05")
    }

    @Test func weekdays() {
        #expect(LocalDate(iso: "1970-01-01")!.weekday == 4) // Thursday
        #expect(LocalDate(iso: "2024-02-29")!.weekday == 4) // Thursday
        #expect(LocalDate(iso: "2024-03-04")!.weekday == 1) // Monday
        #expect(LocalDate(iso: "2024-03-10")!.weekday == 7) // Sunday
        #expect(LocalDate(iso: "1969-12-29")!.weekday == 1) // Monday before the epoch
        #expect(LocalDate(iso: "2024-03-10")!.startOfWeek.iso == "2024-03-04")
    }

    @Test func fromInstantHonoursZoneAndDST() throws {
        let ny = try #require(TimeZone(identifier: "America/New_York"))
        // 2024-03-10 06:30 UTC = 01:30 EST (before the spring-forward at 07:00 UTC).
        let beforeDST = Date(timeIntervalSince1970: 1_710_052_200)
        #expect(LocalDate.from(instant: beforeDST, in: ny).iso == "2024-03-10")
        #expect(LocalDate.from(instant: beforeDST, in: TimeZone(identifier: "UTC")!).iso == "2024-03-10")
        // 2024-03-10 03:59 UTC = 2024-03-09 22:59 EST.
        #expect(LocalDate.from(instant: Date(timeIntervalSince1970: 1_710_043_140), in: ny).iso == "2024-03-09")
        // 2024-11-03 04:30 UTC = 00:30 EDT on Nov 3 (offset −4 before the fall-back).
        #expect(LocalDate.from(instant: Date(timeIntervalSince1970: 1_730_608_200), in: ny).iso == "2024-11-03")
        // Same instant in Kiritimati (+14) is already Nov 3 18:30; in Pago Pago (−11) Nov 2.
        let kiritimati = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
        let pagoPago = try #require(TimeZone(identifier: "Pacific/Pago_Pago"))
        #expect(LocalDate.from(instant: Date(timeIntervalSince1970: 1_730_608_200), in: kiritimati).iso == "2024-11-03")
        #expect(LocalDate.from(instant: Date(timeIntervalSince1970: 1_730_608_200), in: pagoPago).iso == "2024-11-02")
        // Before the epoch.
        #expect(
            LocalDate.from(instant: Date(timeIntervalSince1970: -1), in: TimeZone(identifier: "UTC")!).iso
                == "1969-12-31")
    }

    @Test func codableAsISOString() throws {
        let date = LocalDate(year: 2024, month: 2, day: 29)
        let data = try JSONEncoder().encode([date])
        #expect(String(decoding: data, as: UTF8.self) == #"["2024-02-29"]"#)
        #expect(try JSONDecoder().decode([LocalDate].self, from: data) == [date])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDate].self, from: Data(#"["2024-02-30"]"#.utf8))
        }
    }

    @Test func ordering() {
        #expect(LocalDate(iso: "2023-12-31")! < LocalDate(iso: "2024-01-01")!)
        #expect(LocalDate(iso: "2024-01-31")! < LocalDate(iso: "2024-02-01")!)
        #expect(LocalDate(iso: "2024-01-01")!.days(to: LocalDate(iso: "2024-12-31")!) == 365)
    }
}
