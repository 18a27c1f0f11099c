import Testing

@testable import Ingest

@Suite struct RFC3339Tests {
    // Expected values computed independently: 2025-12-24T10:00:00Z = 1766570400 s (the blob spec's example start).
    @Test(arguments: [
        ("2025-12-24T10:00:00Z", Int64(1_766_570_400_000)),
        ("2025-12-24T10:00:00.000Z", 1_766_570_400_000),
        ("2025-12-24T11:00:00+01:00", 1_766_570_400_000),
        ("2025-12-24T04:30:00-05:30", 1_766_570_400_000),
        ("2025-12-24T10:00:00.5Z", 1_766_570_400_500),
        ("2025-12-24T10:00:00.123456Z", 1_766_570_400_123),
        ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("1969-12-31T23:59:59Z", -1000),
    ])
    func parsesValidTimestamps(text: String, millis: Int64) {
        #expect(RFC3339.parseMillis(text) == millis)
    }

    @Test(arguments: [
        "", "2025-12-24", "2025-12-24T10:00:00", "2025-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
        "2025-12-24T24:00:00Z", "2025-12-24T10:00:00+0100", "2025-12-24T10:00:00Zjunk", "yesterday",
        "2025-12-24T10:00:00.Z", "2025-04-31T10:00:00Z",
    ])
    func rejectsInvalidTimestamps(text: String) {
        #expect(RFC3339.parseMillis(text) == nil)
    }

    @Test func formatsAndParsesBack() {
        for millis: Int64 in [0, 1_766_570_400_123, 951_782_400_000, -86_400_000, 4_102_444_799_999] {
            #expect(RFC3339.parseMillis(RFC3339.format(millis: millis)) == millis)
        }
        #expect(RFC3339.format(millis: 1_766_570_400_000) == "2025-12-24T10:00:00.000Z")
    }
}
