import Foundation
import Testing

@testable import Pipeline

@Suite struct CronScheduleTests {
    static func utc(_ s: String) -> Date { ISO8601DateFormatter().date(from: s)! }
    static func iso(_ d: Date?) -> String? { d.map { ISO8601DateFormatter().string(from: $0) } }

    @Test(arguments: [
        // schedule, after (UTC), zone, expected next (UTC)
        ("30 2 * * *", "2026-11-22T02:30:00Z", "UTC", "2026-11-23T02:30:00Z"),
        ("30 2 * * *", "2026-11-22T02:29:59Z", "UTC", "2026-11-22T02:30:00Z"),
        ("5 * * * *", "2026-11-22T23:06:00Z", "UTC", "2026-11-23T00:05:00Z"),
        ("0 0 31 * *", "2026-04-01T00:00:00Z", "UTC", "2026-05-31T00:00:00Z"), // April has no 31st
        ("0 0 29 2 *", "2026-03-01T00:00:00Z", "UTC", "2028-02-29T00:00:00Z"), // next leap day
        (
            "0 12 L * *".replacingOccurrences(of: "L", with: "28-31"), "2026-02-27T13:00:00Z", "UTC",
            "2026-02-28T12:00:00Z"
        ),
        ("59 23 31 12 *", "2026-12-31T23:59:00Z", "UTC", "2027-12-31T23:59:00Z"), // year end
        ("0 18 * * sun", "2026-11-22T00:00:00Z", "Asia/Tokyo", "2026-11-22T09:00:00Z"), // Sunday 18:00 in Tokyo
        ("0 18 * * 0", "2026-11-22T00:00:00Z", "America/Los_Angeles", "2026-11-23T02:00:00Z"), // Sunday 18:00 in LA
        ("0 18 * * 7", "2026-11-22T00:00:00Z", "America/Los_Angeles", "2026-11-23T02:00:00Z"), // 7 is Sunday too
        ("*/15 9-10 * * mon-fri", "2026-11-20T10:50:00Z", "UTC", "2026-11-23T09:00:00Z"),
        ("0 0 1,15 * 1", "2026-11-02T00:00:00Z", "UTC", "2026-11-09T00:00:00Z"), // day-of-month OR day-of-week
        // Berlin, 29 March 2026: 02:00–03:00 does not exist; a 02:30 job runs at the first minute after the gap.
        ("30 2 * * *", "2026-03-28T12:00:00Z", "Europe/Berlin", "2026-03-29T01:30:00Z"),
        // Berlin, 25 October 2026: 02:30 happens twice; the job runs once, at the first (summer-time) occurrence.
        ("30 2 * * *", "2026-10-24T12:00:00Z", "Europe/Berlin", "2026-10-25T00:30:00Z"),
        ("30 2 * * *", "2026-10-25T00:30:00Z", "Europe/Berlin", "2026-10-26T01:30:00Z"),
    ])
    func nextRun(schedule: String, after: String, zone: String, expected: String) throws {
        let s = try CronSchedule(schedule)
        #expect(Self.iso(s.next(after: Self.utc(after), in: TimeZone(identifier: zone)!)) == expected)
    }

    @Test(arguments: [
        "", "* * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * * 13 *", "* * * * 8", "5-1 * * * *",
        "*/0 * * * *", "a * * * *", "1,,2 * * * *",
    ])
    func rejectsBadSchedules(text: String) {
        #expect(throws: CronSchedule.ParseError.self) { _ = try CronSchedule(text) }
    }

    @Test func impossibleScheduleHasNoNextRun() throws {
        #expect(
            try CronSchedule("0 0 30 2 *").next(
                after: Self.utc("2026-01-01T00:00:00Z"), in: TimeZone(identifier: "UTC")!) == nil)
    }
}
