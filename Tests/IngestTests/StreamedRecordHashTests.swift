import Foundation
import Store
import Testing

@testable import Ingest

/// An imported record's canonical text is hashed as it is written, never kept whole (issue 40): its content hash, its
/// size and the first bytes the quarantine keeps are those of the whole text, and a refused record's quarantine row is
/// the one it was when the whole text was its payload.
@Suite struct StreamedRecordHashTests {
    /// Samples of `count` points with a seeded mix of channels, decimals, whole numbers and gaps (NaN).
    static func columns(count: Int, seed: UInt64) -> SampleColumns? {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var values: [SampleColumns.Channel: [Double]] = [:]
        values[.t] = (0..<count).map { Double($0) + (next() % 4 == 0 ? 0.5 : 0) }
        for channel in [SampleColumns.Channel.hrBpm, .powerW, .speedMps, .altitudeM, .distanceM] where next() % 5 != 0 {
            values[channel] = (0..<count).map { _ -> Double in
                switch next() % 6 {
                case 0: .nan
                case 1: Double(next() % 300)
                case 2: Double(Int64(next() % 2_000_000) - 1_000_000) / 1000
                case 3: Double(next()) / 7
                default: Double(next() % 100_000) / 10
                }
            }
        }
        return SampleColumns(count: count, values: values)
    }

    static func record(user: String = "rider-1") -> JSONValue {
        .object([
            "id": .string("fit-0123456789abcdef0123456789abcdef"), "user_id": .string(user), "source": .string("fit"),
            "updated_at": .string("2025-12-24T11:00:00Z"), "activity_type": .string("running"),
            "start": .string("2025-12-24T10:00:00Z"), "end": .string("2025-12-24T11:00:00Z"),
            "duration_s": .number(3600), "distance_m": .number(10_000.5), "avg_hr": .number(150),
        ])
    }

    @Test(arguments: [(0, 1), (1, 2), (3, 3), (700, 4), (5000, 5), (20_000, 6)])
    func theStreamedHashIsTheWholeTextsHash(_ count: Int, _ seed: Int) throws {
        let samples = try #require(Self.columns(count: count, seed: UInt64(seed)))
        let value = Self.record()
        var text: [UInt8] = []
        samples.writeCanonicalJSON(into: &text)
        let whole = value.canonicalBytes(adding: "samples", raw: text)
        for keep in [0, 1, 1000, whole.count - 1, whole.count, whole.count + 1, 1 << 20] {
            let digest = ImportedRecord.canonicalDigest(value, samples: samples, keep: keep)
            #expect(digest.hex() == Hashing.sha256Hex(whole))
            #expect(digest.size == whole.count)
            #expect(digest.prefix == Array(whole.prefix(keep)))
        }
        // The samples' text in pieces of any size is the text.
        for chunk in [1, 7, 4096] {
            var pieces: [UInt8] = []
            var out: [UInt8] = []
            samples.writeCanonicalJSON(into: &out, chunk: chunk) { piece in
                #expect(piece.count >= chunk)
                pieces += piece
                piece.removeAll()
            }
            #expect(pieces + out == text)
        }
    }

    /// A refused record: quarantined with its text's first bytes, its size and its hash, and attributed, exactly as
    /// when its whole text was its payload — for a record naming its user and for one whose user id is invalid (then
    /// attributed from its fields).
    @Test(arguments: ["rider-1", ""])
    func aRefusedRecordIsQuarantinedAsWithItsWholeText(_ user: String) async throws {
        let samples = try #require(Self.columns(count: 3000, seed: 9))
        guard case .object(var o) = Self.record(user: user) else { return }
        o["end"] = .string("2025-12-24T09:00:00Z") // before its start: refused
        let value = JSONValue.object(o)
        var limits = IngestLimits()
        limits.maxQuarantinePayloadBytes = 10_000
        let digest = ImportedRecord.canonicalDigest(value, samples: samples, keep: limits.maxQuarantinePayloadBytes)
        var text: [UInt8] = []
        samples.writeCanonicalJSON(into: &text)
        let whole = value.canonicalBytes(adding: "samples", raw: text)
        #expect(whole.count > limits.maxQuarantinePayloadBytes)

        func quarantined(payload: [UInt8], size: Int?) async throws -> [QuarantineRecord] {
            let h = try await IngestHarness()
            let rules = WorkoutValidator.FileRecordRules(
                samples: samples, contentHash: Hashing.sha256Hex(whole), payloadSize: size)
            let report = try await RecordProcessor(store: h.store, limits: limits, now: { IngestHarness.received })
                .process(
                    kind: .workouts, records: [(key: "import/x.fit#0", value: .success(value), payload: payload)],
                    source: "import", receivedAt: IngestHarness.received, ledgerKey: nil, ledgerHash: nil,
                    fileRules: [rules])
            #expect(report.workouts.stored == 0)
            return try await h.store.quarantined(reason: nil, offset: 0, limit: 10)
        }
        let before = try await quarantined(payload: whole, size: nil)
        let now = try await quarantined(payload: digest.prefix, size: digest.size)
        #expect(before.count == 1 && now.count == 1)
        #expect(before.map(\.payload) == now.map(\.payload))
        #expect(before.map(\.message) == now.map(\.message))
        #expect(before.map(\.userID) == now.map(\.userID))
        #expect(before.map(\.reasonCode) == now.map(\.reasonCode))
        #expect(now.first?.payload == Array(whole.prefix(limits.maxQuarantinePayloadBytes)))
        #expect(now.first?.message.contains("of \(whole.count) bytes kept; SHA-256 of all: \(digest.hex())") == true)
    }
}
