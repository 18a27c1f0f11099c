import CBase64
import Foundation
import Store
import SyntheticData
import Testing

@testable import Ingest

/// The Base64 decoder must accept exactly what `Data(base64Encoded:)` accepts, with the same bytes.
@Suite struct Base64Tests {
    func decode(_ text: String) -> [UInt8]? { Array(text.utf8).withUnsafeBytes { Base64.decode($0) } }
    func foundation(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map { [UInt8]($0) } }

    @Test(arguments: [
        ("", [UInt8]?.some([])),
        ("QQ==", [65]), ("QUI=", [65, 66]), ("QUJD", [65, 66, 67]), ("QUJDQQ==", [65, 66, 67, 65]),
        ("QR==", [65]), ("QUJ=", [65, 66]), // bits below the last byte are ignored (as Foundation does)
        ("+/+/", [0xFB, 0xFF, 0xBF]), ("////", [0xFF, 0xFF, 0xFF]), ("AAAA", [0, 0, 0]),
        ("Q===", nil), ("QU JD", nil), ("QUJD\n", nil), ("QQ==QUJD", nil), ("-_==", nil), ("QUJ", nil),
        ("QUJ\u{e9}", nil),
    ])
    func knownCases(text: String, expected: [UInt8]?) {
        #expect(decode(text) == expected)
        #expect(foundation(text) == expected, "the table agrees with Foundation")
    }

    @Test func foundationsOddCornersAreKept() {
        // Stray padding that Foundation accepts goes through its decoder, with its result.
        for text in ["====", "QQ=A", "QQ=="] { #expect(decode(text) == foundation(text)) }
        #expect(decode("====") == [0])
    }

    @Test func roundTripsRandomBytes() {
        var rng = SeededRandom(seed: 11)
        for length in 0..<600 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = Data(bytes).base64EncodedString()
            #expect(Array(text.utf8).withUnsafeBytes { Base64.decodeCanonical($0) } == bytes, "length \(length)")
        }
    }

    /// The AVX2 blocks (`CBase64`) against the table: every byte value at every position of the first two blocks of
    /// a long text, so each character's classification and six bits are checked in each lane, and a damaged text is
    /// refused by both.
    @Test func blocksAgreeWithTheTableForEveryByteAtEveryPosition() {
        var rng = SeededRandom(seed: 13)
        let bytes = (0..<150).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let text = Array(Data(bytes).base64EncodedString().utf8)
        #expect(text.count == 200)
        var accepted = 0
        for position in 0..<64 {
            for value in UInt8.min...UInt8.max {
                var damaged = text
                damaged[position] = value
                let table = damaged.withUnsafeBytes { Base64.decodeCanonical($0, blocks: false) }
                let blocks = damaged.withUnsafeBytes { Base64.decodeCanonical($0, blocks: true) }
                #expect(blocks == table, "byte \(value) at \(position)")
                if table != nil { accepted += 1 }
            }
        }
        // The alphabet's 64 characters at each position decode; everything else is refused.
        #expect(accepted == 64 * 64)
        #expect(text.withUnsafeBytes { Base64.decodeCanonical($0, blocks: true) } == bytes)
    }

    /// The blocks themselves, on a processor with AVX2 (the others decode with the table alone, which the tests above
    /// then compare with itself): whole blocks of 32 characters up to the limit, each to its 24 bytes.
    @Test func theBlocksDecodeWholeBlocksUpToTheLimit() throws {
        try #require(Base64.blocksAvailable, "this processor has no AVX2")
        var rng = SeededRandom(seed: 15)
        let bytes = (0..<150).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let text = Array(Data(bytes).base64EncodedString().utf8)
        var out = [UInt8](repeating: 0, count: 150 + 32)
        var invalid: Int32 = 0
        func blocks(_ text: [UInt8], _ length: Int) -> Int {
            out.withUnsafeMutableBufferPointer { o in
                text.withUnsafeBufferPointer {
                    Int(pipeline_base64_decode_blocks($0.baseAddress!, length, o.baseAddress!, &invalid))
                }
            }
        }
        let decoded = blocks(text, 199)
        #expect(decoded == 192 && invalid == 0)
        #expect(Array(out[0..<144]) == Array(bytes[0..<144]))
        var damaged = text
        damaged[70] = UInt8(ascii: "=")
        let upTo = blocks(damaged, 200)
        #expect(upTo == 64 && invalid == 1, "stops before the block holding the stray '='")
    }

    /// Every length around the blocks' edges (the last block stops 8 bytes before the output's end), padded or not.
    @Test func blocksAndTableAgreeOnEveryLength() {
        var rng = SeededRandom(seed: 14)
        for length in 0..<400 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            #expect(text.withUnsafeBytes { Base64.decodeCanonical($0, blocks: true) } == bytes, "length \(length)")
            #expect(text.withUnsafeBytes { Base64.decodeCanonical($0, blocks: false) } == bytes, "length \(length)")
        }
    }

    @Test func agreesWithFoundationOnRandomText() {
        var rng = SeededRandom(seed: 12)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let odd: [UInt8] = Array("= \n\r\t-_.*\"\\".utf8) + [0x00, 0x80, 0xC3, 0xA9, 0xFF]
        var accepted = 0
        for _ in 0..<20_000 {
            // Mostly short texts; one in four long enough for the AVX2 blocks (8 to 60 quads).
            let quads =
                Int.random(in: 0..<4, using: &rng) == 0
                ? Int.random(in: 8...60, using: &rng) : Int.random(in: 0...6, using: &rng)
            let length =
                4 * quads
                + (Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: 1...3, using: &rng) : 0)
            var bytes = (0..<length).map { _ in alphabet.randomElement(using: &rng)! }
            // Usually canonical padding, sometimes stray characters anywhere.
            if length >= 4, Bool.random(using: &rng) { bytes[length - 1] = UInt8(ascii: "=") }
            if length >= 4, Int.random(in: 0..<3, using: &rng) == 0 { bytes[length - 2] = UInt8(ascii: "=") }
            for _ in 0..<Int.random(in: 0...2, using: &rng) where length > 0 && Int.random(in: 0..<3, using: &rng) == 0
            {
                bytes[Int.random(in: 0..<length, using: &rng)] = odd.randomElement(using: &rng)!
            }
            let fast = bytes.withUnsafeBytes { Base64.decode($0) }
            let reference = bytes.withUnsafeBytes { raw -> [UInt8]? in
                guard let text = String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self) else { return nil }
                return Data(base64Encoded: text).map { [UInt8]($0) }
            }
            #expect(fast == reference, "\(bytes)")
            if fast != nil { accepted += 1 }
        }
        #expect(accepted > 5_000, "the random texts exercise the accepting path too")
    }
}

/// The batch reader against Foundation's `JSONDecoder`: whatever it accepts, Foundation accepts with the same
/// value; ordinary documents take the fast path.
@Suite struct BatchJSONReaderTests {
    func foundation(_ bytes: [UInt8]) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
    func fast(_ bytes: [UInt8]) -> JSONValue? { bytes.withUnsafeBytes { BatchJSONReader.parse($0) } }

    @Test func randomDocumentsGiveFoundationsValues() {
        var gen = RandomJSON(seed: 21)
        var fastCount = 0
        for _ in 0..<3_000 {
            let text = Bool.random(using: &gen.rng) ? "{\"v\":\(gen.value())}" : "[\(gen.value())]"
            let bytes = Array(text.utf8)
            let reference = foundation(bytes)
            if let value = fast(bytes) {
                fastCount += 1
                #expect(value == reference, "\(text)")
            }
        }
        // Left to Foundation among these: zeros with exponents and numbers that underflow.
        #expect(fastCount > 2_000)
    }

    @Test func mutatedDocumentsAreNeverAcceptedWhereFoundationRefuses() {
        var gen = RandomJSON(seed: 22)
        var refused = 0
        for _ in 0..<6_000 {
            let bytes = gen.mutate("{\"v\":\(gen.value())}")
            let reference = foundation(bytes)
            if reference == nil { refused += 1 }
            if let value = fast(bytes) {
                #expect(reference != nil, "accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self))")
                #expect(value == reference)
            }
        }
        #expect(refused > 1_000, "the mutations produce malformed documents")
    }

    @Test(arguments: [
        "\u{FEFF}{\"sessions\": []}", // byte-order mark: Foundation skips it
        "{\"sessions\": [], \"sessions\": [1]}", // duplicate keys: Foundation keeps the first
        "{\"sessions\": [{\"a\": 1, \"a\": 2}]}",
        "{\"sessions\": [],}", "{\"sessions\": [1,]}", // trailing commas: Foundation accepts them
        "{\"v\": 0e5}", "{\"v\": -0.0e1}", "{\"v\": 0e-1}", // zeros with exponents: Foundation refuses some
        "{\"v\": 1e400}", "{\"v\": 1e-400}", "3", "\"text\"", "{\"v\": \"\\udc00\"}", "{\"v\": \"\\ud800x\"}",
    ])
    func cornersAreLeftToFoundation(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { BatchJSONReader.read($0, maxDepth: 32) } == nil)
    }

    @Test(arguments: [
        "{\"sessions\": [", "{\"sessions\": [01]}", "{\"sessions\": [1.]}", "{\"sessions\": [.5]}",
        "{\"sessions\": [\"a\u{01}\"]}", "{\"sessions\": [\"\\x\"]}", "{\"sessions\": [tru]}", "{\"sessions\": []} x",
        "{'sessions': []}", "{\"sessions\": [NaN]}", "", "   ",
    ])
    func malformedIsNotAccepted(text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { BatchJSONReader.read($0, maxDepth: 32) } == nil)
        #expect(foundation(bytes) == nil)
    }

    /// The reader's depth limit is `nestingDepth`'s: a batch it reads is within the limit exactly when
    /// `nestingDepth` says so (brackets inside strings do not count).
    @Test func depthLimitAgreesWithNestingDepth() {
        for depth in 1...40 {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let text = "{\"sessions\": [{\"detail\": {\"x\": \"[[[[{{{{\", \"laps\": \(nested)}}]}"
            let bytes = Array(text.utf8)
            let within = JSONValue.nestingDepth(of: bytes) <= 32
            #expect(JSONValue.nestingDepth(of: bytes) == depth + 4)
            #expect(
                (bytes.withUnsafeBytes { BatchJSONReader.read($0, maxDepth: 32) } != nil) == within, "depth \(depth)")
        }
        // Far deeper than the stack would allow if the reader did not stop.
        let hostile = Array((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8)
        #expect(hostile.withUnsafeBytes { BatchJSONReader.read($0, maxDepth: 32) } == nil)
    }

    /// Batches: the sessions with their `raw` put back are Foundation's `sessions` array; the shape verdict agrees.
    @Test func randomBatchesMatchFoundation() {
        var gen = RandomJSON(seed: 23)
        var plainRaws = 0, fastBatches = 0
        for round in 0..<3_000 {
            let text = round % 3 == 0 ? String(decoding: gen.mutate(gen.batch()), as: UTF8.self) : gen.batch()
            let bytes = Array(text.utf8)
            let reference = foundation(bytes)
            guard let result = bytes.withUnsafeBytes({ BatchJSONReader.read($0, maxDepth: 32) }) else { continue }
            if round % 3 != 0 { fastBatches += 1 }
            guard let reference else { Issue.record("accepted what Foundation refuses: \(text)"); continue }
            switch result {
            case .otherShape:
                #expect(reference["sessions"]?.arrayValue == nil, "\(text)")
            case .sessions(let sessions):
                let whole = sessions.map { session -> JSONValue in
                    guard let range = session.rawRange, case .object(var object) = session.value else {
                        return session.value
                    }
                    #expect(object["raw"] == nil)
                    plainRaws += 1
                    object["raw"] = .string(String(decoding: bytes[range], as: UTF8.self))
                    return .object(object)
                }
                #expect(whole == reference["sessions"]?.arrayValue, "\(text)")
            }
        }
        #expect(plainRaws > 500)
        #expect(fastBatches > 1_000, "most well-formed batches take the fast path")
    }
}

/// The stored content hash keeps its definition: sessions stored by earlier versions are still recognised.
@Suite struct ContentHashTests {
    static let raw = Data(specExampleBlob).base64EncodedString()

    /// Hashes computed independently (Python's hashlib over the canonical text written out by hand).
    @Test func storedHashesAreThoseOfTheCanonicalText() async throws {
        let h = try await IngestHarness()
        _ = try await h.process(
            batch([sessionJSON(raw: Self.raw), sessionJSON(id: "0d9a7c1e-0000-4000-8000-000000000001")]))
        let withRaw = try #require(
            try await h.store.session(
                user: IngestHarness.user, id: SessionID(uuidString: "6f1c2a9e-3b7d-4c1e-9f0a-1b2c3d4e5f60")!))
        #expect(withRaw.contentHash == "871ef830399f117c6956b7e083525bc1ef8f72125aa95288b6264a76c2dfbecb")
        let upload = try SessionValidator().validate(
            try JSONDecoder().decode(JSONValue.self, from: Data(sessionJSON(raw: Self.raw).utf8)),
            receivedAt: IngestHarness.received)
        #expect(upload.contentHash == "871ef830399f117c6956b7e083525bc1ef8f72125aa95288b6264a76c2dfbecb")
        let noRaw = try SessionValidator().validate(
            try JSONDecoder().decode(JSONValue.self, from: Data(sessionJSON().utf8)), receivedAt: IngestHarness.received
        )
        #expect(noRaw.contentHash == "cdc644322d33fb1fe76d8fbfb796629c3145ecd749e942780384d6c0953b5252")
    }

    @Test func canonicalBytesAreTheCanonicalText() throws {
        var gen = RandomJSON(seed: 31)
        var rng = SeededRandom(seed: 32)
        for _ in 0..<300 {
            let detail = "{\"avg_hr\": 140, \"note\": \(gen.string()), \"laps\": \(gen.value(depth: 2))}"
            let raw =
                Bool.random(using: &rng)
                ? nil
                : Data(
                    specExampleBlob
                        + (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                ).base64EncodedString()
            let text = sessionJSON(energy: Double.random(in: 0...400, using: &rng), detail: detail, raw: raw)
            let upload = try SessionValidator().validate(
                try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), receivedAt: IngestHarness.received)
            #expect(upload.canonicalBytes == Array(upload.canonicalJSON.utf8), "\(text)")
            // The hash is taken over the same text in pieces (`contentHash`); the definition hashes it whole.
            #expect(upload.contentHash == sha256Hex(Array(upload.canonicalJSON.utf8)), "\(text)")
        }
    }

    /// Spellings of one recording's Base64: the standard one for each length modulo 3, with unused bits set in a
    /// padded last quad (the canonical decoder ignores them: "QR==" and "QQ==" both decode to "A"), and a stray `=` only
    /// Foundation's decoder takes.
    static func spellings(of bytes: [UInt8]) -> [(text: String, standard: Bool)] {
        let standard = Data(bytes).base64EncodedString()
        var out = [(standard, true)]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var chars = Array(standard)
        let pad = chars.reversed().prefix { $0 == "=" }.count
        if pad > 0 {
            // The last character before the padding carries 2 (one `=`) or 4 (two) unused low bits.
            let i = chars.count - pad - 1
            let value = alphabet.firstIndex(of: chars[i])!
            for unused in 1..<(pad == 1 ? 4 : 16) {
                chars[i] = alphabet[value | unused]
                out.append((String(chars), false))
            }
            // "yAA=" spelled "yA=A", which only Foundation's decoder takes (when it reads the same bytes from it).
            let stray = String(standard.dropLast(2)) + "=A"
            if pad == 1, Data(base64Encoded: stray).map({ [UInt8]($0) }) == bytes { out.append((stray, false)) }
        }
        return out
    }

    /// The payload a conflict quarantines is made again only when a conflict asks for it
    /// (`canonicalBytesOnDemand`): the same bytes as the canonical text of the upload as received, whatever the
    /// spelling of its recording.
    @Test func conflictPayloadMadeOnDemandIsTheCanonicalText() throws {
        var rng = SeededRandom(seed: 33)
        var cases = 0
        for n in 0..<60 {
            let bytes = specExampleBlob + (0..<(n % 7 + n / 7)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for (text, standard) in Self.spellings(of: bytes) {
                let value = try JSONDecoder().decode(
                    JSONValue.self, from: Data(sessionJSON(energy: n, raw: text).utf8))
                let upload = try SessionValidator().validate(value, receivedAt: IngestHarness.received)
                #expect(upload.raw == bytes)
                let definition = Array(upload.canonicalJSON.utf8)
                #expect(upload.canonicalBytesOnDemand()() == definition, "\(text)")
                #expect(
                    SessionUpload.encodesExactly(bytes, as: Array(text.utf8)[...]) == standard, "\(text)")
                cases += 1
            }
        }
        let noRaw = try SessionValidator().validate(
            try JSONDecoder().decode(JSONValue.self, from: Data(sessionJSON().utf8)), receivedAt: IngestHarness.received
        )
        #expect(noRaw.canonicalBytesOnDemand()() == Array(noRaw.canonicalJSON.utf8))
        #expect(cases > 300)
    }

    /// End to end: a conflicting copy is quarantined with its canonical text, recording included, for a recording
    /// spelled the standard way, with unused bits set, and with a stray `=`.
    @Test func conflictQuarantinesTheUploadAsReceived() async throws {
        let bytes = specExampleBlob // 32 bytes: "…yAA=", one `=` of padding
        let spellings = Self.spellings(of: bytes)
        #expect(spellings.map { String($0.text.suffix(4)) } == ["yAA=", "yAB=", "yAC=", "yAD=", "yA=A"])
        for (text, _) in spellings {
            let h = try await IngestHarness()
            _ = try await h.process(batch([sessionJSON(raw: text)]))
            let changed = sessionJSON(energy: 251, raw: text)
            _ = try await h.process(batch([changed]))
            let kept = try await h.store.quarantined(reason: .rejected(.conflict), offset: 0, limit: 10)
            let upload = try SessionValidator().validate(
                try JSONDecoder().decode(JSONValue.self, from: Data(changed.utf8)), receivedAt: IngestHarness.received)
            #expect(kept.map(\.payload) == [Array(upload.canonicalJSON.utf8)], "\(text)")
        }
    }

    /// Stray padding that only Foundation's decoder takes (`yA=A` for `yAA=`, the same bytes): the hash is still
    /// that of the canonical text, with the text as sent.
    @Test func foundationDecodedRawKeepsTheDefinition() throws {
        let odd = String(Self.raw.dropLast(4)) + "yA=A"
        #expect(Data(base64Encoded: odd).map { [UInt8]($0) } == specExampleBlob)
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(sessionJSON(raw: odd).utf8))
        let upload = try SessionValidator().validate(value, receivedAt: IngestHarness.received)
        #expect(upload.raw == specExampleBlob)
        #expect(!upload.rawTextIsPlain)
        #expect(upload.rawBase64 == odd)
        #expect(upload.canonicalBytes == Array(upload.canonicalJSON.utf8))
    }

    /// A `raw` with escaped slashes (a JSON encoder's habit) is the same content as the plain one.
    @Test func escapedRawIsTheSameSessionAsPlainRaw() async throws {
        let h = try await IngestHarness()
        let plain = sessionJSON(raw: Self.raw + "")
        let bytes = specExampleBlob + [0xFF, 0xFB] // Base64 with "/" and "+" in it
        let withSlash = Data(bytes).base64EncodedString()
        #expect(withSlash.contains("/"))
        let first = try await h.process(
            batch([plain, sessionJSON(id: "0d9a7c1e-0000-4000-8000-000000000002", raw: withSlash)]))
        guard case .processed(let a1, _) = first else { Issue.record("not processed"); return }
        #expect(a1.successCount == 2)
        let escaped = sessionJSON(
            id: "0d9a7c1e-0000-4000-8000-000000000002", raw: withSlash.replacingOccurrences(of: "/", with: "\\/"))
        guard case .processed(let a2, _) = try await h.process(batch([escaped])) else {
            Issue.record("not processed"); return
        }
        #expect(a2.duplicateCount == 1)
        #expect(a2.failedSessions.isEmpty)
    }

    /// Documents the fast reader leaves to Foundation are still ingested as before.
    @Test func byteOrderMarkAndDuplicateKeysGoThroughFoundation() async throws {
        let h = try await IngestHarness()
        guard case .processed(let a, _) = try await h.process("\u{FEFF}" + batch([sessionJSON(raw: Self.raw)])) else {
            Issue.record("BOM batch not processed"); return
        }
        #expect(a.successCount == 1)
        // Foundation keeps the first of duplicate keys: energy 250, the same content as the stored session.
        let duplicateKeys = sessionJSON(raw: Self.raw, extra: ", \"total_energy\": 999")
        guard case .processed(let b, _) = try await h.process(batch([duplicateKeys])) else {
            Issue.record("not processed"); return
        }
        #expect(b.duplicateCount == 1)
    }

    /// A rejected session is kept in quarantine whole, `raw` included, as before.
    @Test func quarantinedSessionKeepsItsRaw() async throws {
        let h = try await IngestHarness()
        _ = try await h.process(batch([sessionJSON(duration: 0, raw: Self.raw)]))
        let q = try #require(
            try await h.store.quarantined(reason: .rejected(.invalidDuration), offset: 0, limit: 1).first)
        let kept = try JSONDecoder().decode(JSONValue.self, from: Data(q.payload))
        #expect(kept["raw"]?.stringValue == Self.raw)
        #expect(kept["duration"]?.doubleValue == 0)
    }
}

/// `JSONValue.needsEscaping` (the vectorised check before a string is copied whole into canonical JSON) against the
/// plain definition, byte by byte: each escaped byte and its neighbours, at every position of strings around the vector
/// widths, in native and in bridged (non-contiguous) strings, and the canonical text it leads to.
@Suite struct EscapingScanTests {
    static func plain(_ s: String) -> Bool {
        s.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    @Test func agreesWithThePlainDefinitionAtEveryPosition() {
        let probes: [Character] = ["\u{0}", "\u{1f}", " ", "\"", "\\", "!", "#", "[", "]", "\u{7f}", "é", "😀", "\n"]
        for length in [0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200] {
            let base = String(repeating: "Q", count: length)
            #expect(JSONValue.needsEscaping(base) == false)
            for probe in probes {
                for position in Set([0, length / 2, max(0, length - 1), length]) where position <= length {
                    var s = base
                    s.insert(probe, at: s.index(s.startIndex, offsetBy: position))
                    #expect(
                        JSONValue.needsEscaping(s) == Self.plain(s),
                        "\(probe.unicodeScalars.first!.value) at \(position)")
                    let bridged = NSString(string: s) as String
                    #expect(JSONValue.needsEscaping(bridged) == Self.plain(s))
                }
            }
        }
    }

    @Test func randomStringsAndTheirCanonicalText() throws {
        var rng = SeededRandom(seed: 12)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...80, using: &rng)
            let s = String(
                String.UnicodeScalarView(
                    (0..<length).map { _ in
                        Unicode.Scalar(
                            UInt8.random(in: 0...3, using: &rng) == 0
                                ? UInt8.random(in: 0...0x7F, using: &rng) : UInt8.random(in: 0x20...0x7E, using: &rng))
                    }))
            #expect(JSONValue.needsEscaping(s) == Self.plain(s))
            // The canonical text reads back as the same string, escaped or not.
            let text = JSONValue.string(s).canonicalText
            let back = try JSONDecoder().decode(String.self, from: Data(text.utf8))
            #expect(back == s)
        }
    }
}
