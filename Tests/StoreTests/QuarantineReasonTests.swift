import Foundation
import Store
import Testing

/// `QuarantineReason`: the typed reason of a quarantined record, with its stable code unchanged in the database and
/// in JSON, and codes from elsewhere (workout file readers, newer builds) kept as they are.
@Suite struct QuarantineReasonTests {
    @Test func everyRejectionCodeRoundTripsAsItsStableString() throws {
        for code in RejectionCode.allCases {
            let reason = QuarantineReason(rawValue: code.rawValue)
            #expect(reason == .rejected(code))
            #expect(reason.rejection == code)
            #expect(reason.rawValue == code.rawValue)
            // JSON: the plain string, as before the type existed.
            let json = String(decoding: try JSONEncoder().encode(reason), as: UTF8.self)
            #expect(json == "\"\(code.rawValue)\"")
            #expect(try JSONDecoder().decode(QuarantineReason.self, from: Data(json.utf8)) == reason)
        }
        // The codes the apps and the database already hold, spelled out (not derived from the enum).
        #expect(RejectionCode.conflict.rawValue == "conflict")
        #expect(RejectionCode.malformedJSON.rawValue == "malformed_json")
        #expect(RejectionCode.invalidDuration.rawValue == "invalid_duration")
        #expect(RejectionCode.unknownUser.rawValue == "unknown_user")
        #expect(RejectionCode.payloadTooLarge.rawValue == "payload_too_large")
    }

    @Test func otherCodesAreKeptAndCompareByTheirString() {
        let file = QuarantineReason(rawValue: "fit_truncated")
        #expect(file == .other("fit_truncated"))
        #expect(file.rejection == nil)
        #expect(file.rawValue == "fit_truncated")
        // However it was built, a known code is the same reason (and the same set member).
        #expect(QuarantineReason.other("conflict") == .rejected(.conflict))
        #expect(Set([QuarantineReason.other("conflict"), .rejected(.conflict)]).count == 1)
        #expect(QuarantineReason.rejected(.conflict) < .other("fit_truncated"))
    }

    @Test func countsByReasonAreAJSONObjectKeyedByTheCode() throws {
        let counts: [QuarantineReason: Int] = [.rejected(.unknownUser): 2, .other("fit_truncated"): 1]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(counts), as: UTF8.self)
        // The same bytes as the string-keyed map it replaces (not an array of alternating keys and values).
        #expect(json == #"{"fit_truncated":1,"unknown_user":2}"#)
        #expect(try encoder.encode(counts) == encoder.encode(["unknown_user": 2, "fit_truncated": 1]))
        let read = try JSONDecoder().decode([QuarantineReason: Int].self, from: Data(json.utf8))
        #expect(read == counts)
        // Each code is read back as the case it names.
        #expect(read.keys.contains { if case .rejected(.unknownUser) = $0 { true } else { false } })
        #expect(read.keys.contains { if case .other("fit_truncated") = $0 { true } else { false } })
        #expect(try encoder.encode([QuarantineReason: Int]()) == Data("{}".utf8))
    }

    @Test(arguments: Backend.available) func aCodeThisBuildDoesNotKnowIsReadBackAsItIs(_ backend: Backend) async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let records = [
                Fixtures.quarantine(key: "a", reason: "conflict"),
                Fixtures.quarantine(key: "b", reason: "fit_bad_crc"),
                Fixtures.quarantine(key: "c", reason: "from_a_newer_build"),
            ]
            #expect(try await t.store.apply(IngestUnit(quarantine: records)).quarantineAdded == 3)
            let read = try await t.store.quarantined(reason: nil, offset: 0, limit: 10).sorted {
                $0.sourceKey < $1.sourceKey
            }
            #expect(
                read.map(\.reasonCode) == [.rejected(.conflict), .other("fit_bad_crc"), .other("from_a_newer_build")])
            #expect(
                try await t.store.quarantined(reason: .other("from_a_newer_build"), offset: 0, limit: 10).count == 1)
            #expect(
                try await t.store.quarantineCountsByReason() == [
                    .rejected(.conflict): 1, .other("fit_bad_crc"): 1, .other("from_a_newer_build"): 1,
                ])
        }
    }
}
