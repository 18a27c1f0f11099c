import Foundation
import Testing

@testable import WorkoutFiles

/// The fast paths of issue 15's speed work against the general paths they replace: the same answers on inputs made
/// to hit their edge cases.
@Suite struct FastPathTests {
    /// Collects what the decoder delivers.
    struct Capture: FITSink {
        var messages: [FITMessage] = []
        var samples: [Sample] = []
        mutating func fileStart(_ index: Int) {}
        mutating func message(_ message: FITMessage) { messages.append(message) }
        mutating func record(_ sample: Sample) { samples.append(sample) }
        mutating func expectRecords(_ count: Int) {}
    }

    /// A record as the general path reads it (`FITDecoder.readData` into a `FITMessage`, then the reader's rules):
    /// what `readRecord` must give for the same bytes.
    static func expectedSample(_ m: FITMessage) -> Sample? {
        guard let t = m.timestamp else { return nil }
        var latitude: Double? = nil, longitude: Double? = nil
        if let lat = m.number(0), let lon = m.number(1) {
            let semicircle = 180.0 / 2_147_483_648.0
            let la = lat * semicircle, lo = lon * semicircle
            if abs(la) <= 90, abs(lo) <= 180 {
                latitude = la
                longitude = lo
            }
        }
        return Sample(
            time: FITReader.date(Double(t)), latitude: latitude, longitude: longitude,
            altitudeM: (m.number(78) ?? m.number(2)).map { $0 / 5 - 500 }, distanceM: m.number(5).map { $0 / 100 },
            speedMps: (m.number(73) ?? m.number(6)).map { $0 / 1000 }, powerW: m.number(7),
            heartRateBpm: m.number(3), cadenceRpm: m.number(4).map { $0 + (m.number(53).map { $0 / 128 } ?? 0) },
            temperatureC: m.number(13))
    }

    /// Random `record` definitions (every base type byte including unknown ones, sizes below, at and above the base
    /// type's, repeated fields, both byte orders) and data full of invalid values: each record decoded as a `record`
    /// (fast path) equals the same bytes decoded as another message (general path) turned into a sample.
    @Test func recordFastPathEqualsGeneralPath() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let numbers: [UInt8] = [253, 0, 1, 2, 78, 3, 4, 53, 5, 6, 73, 7, 13, 9, 100, 253, 3]
        let typeBytes: [UInt8] = [
            0x00, 0x01, 0x02, 0x83, 0x84, 0x85, 0x86, 0x07, 0x88, 0x89, 0x0A, 0x8B, 0x8C, 0x0D, 0x8E, 0x8F, 0x90, 0x1F,
            0x03, 0x04, 0x05, 0x06,
        ]
        var compared = 0
        for _ in 0..<3000 {
            let bigEndian = next(2) == 1
            var fields: [(number: UInt8, size: Int, type: UInt8)] = []
            for _ in 0..<(1 + next(10)) {
                let type = typeBytes[next(typeBytes.count)]
                let baseSize = FITBaseType(byte: type)?.size ?? 1
                let size = [baseSize, baseSize, baseSize * 2, max(1, baseSize - 1), 1, 3][next(6)]
                fields.append((numbers[next(numbers.count)], size, type))
            }
            var bytes: [UInt8] = []
            for (local, global) in [(0, 20), (1, 0xFF00)] as [(UInt8, UInt16)] {
                bytes += [0x40 | local, 0, bigEndian ? 1 : 0]
                bytes +=
                    bigEndian
                    ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
                bytes.append(UInt8(fields.count))
                for f in fields { bytes += [f.number, UInt8(f.size), f.type] }
            }
            for _ in 0..<4 {
                var payload: [UInt8] = []
                for f in fields {
                    for _ in 0..<f.size {
                        // Invalid patterns (0xFF, 0x7F then 0xFF, 0) often, else anything.
                        payload.append([0xFF, 0x7F, 0, UInt8(next(256)), UInt8(next(256))][next(5)])
                    }
                }
                if next(3) == 0, let i = fields.firstIndex(where: { $0.number == 253 }) {
                    // A plausible timestamp now and then, so that the record has one.
                    let offset = fields[..<i].reduce(0) { $0 + $1.size }
                    if fields[i].size >= 4 {
                        let t: [UInt8] = [0x40, 0x30, 0x20, 0x10]
                        for k in 0..<4 { payload[offset + k] = bigEndian ? t[k] : t[3 - k] }
                    }
                }
                bytes += [0] + payload + [1] + payload
            }
            var decoder = FITDecoder()
            var issues = IssueLog()
            var capture = Capture()
            bytes.withUnsafeBytes { raw in
                decoder.decodeRecords(raw, from: 0, to: raw.count, complete: true, issues: &issues, sink: &capture)
            }
            let expected = capture.messages.compactMap(Self.expectedSample)
            #expect(capture.samples == expected, "fields \(fields), big endian \(bigEndian)")
            compared += expected.count
        }
        #expect(compared > 1000)
    }

    /// `readRecord`'s branch-free loop (a definition of integer fields, each slot once, with 8 bytes readable from
    /// each field) against its general loop, which it takes for a record at the very end of the buffer: the same
    /// samples from the same records, both byte orders, every integer base type, arrays, invalid values.
    @Test func branchFreeRecordLoopEqualsTheGeneralLoop() {
        var seed: UInt64 = 0x0DDB_1A5E_5BAD_5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let numbers: [UInt8] = [253, 0, 1, 2, 78, 3, 4, 53, 5, 6, 73, 7, 13, 9, 100]
        let integerTypes: [UInt8] = [
            0x00, 0x01, 0x02, 0x83, 0x84, 0x85, 0x86, 0x0A, 0x8B, 0x8C, 0x0D, 0x8E, 0x03, 0x04,
        ]
        var compared = 0
        for _ in 0..<2000 {
            let bigEndian = next(2) == 1
            var fields: [(number: UInt8, size: Int, type: UInt8)] = []
            for number in numbers where next(3) != 0 {
                let type = integerTypes[next(integerTypes.count)]
                fields.append((number, FITBaseType(byte: type)!.size * [1, 1, 1, 2][next(4)], type))
            }
            if next(2) == 0 {
                var generator = Generator(state: seed)
                fields.shuffle(using: &generator)
            }
            var definition: [UInt8] = [0x40, 0, bigEndian ? 1 : 0] + (bigEndian ? [0, 20] : [20, 0])
            definition.append(UInt8(fields.count))
            for f in fields { definition += [f.number, UInt8(f.size), f.type] }
            var record: [UInt8] = [0]
            for f in fields {
                if f.number == 253, f.size >= 4, next(4) != 0 {
                    // A plausible timestamp most of the time (a record without one is dropped).
                    let t: [UInt8] = [0x40, 0x30, 0x20, 0x10]
                    record += (bigEndian ? t : t.reversed()) + [UInt8](repeating: 0, count: f.size - 4)
                    continue
                }
                for _ in 0..<f.size {
                    record.append([0xFF, 0x7F, 0, 0x80, UInt8(next(256)), UInt8(next(256))][next(6)])
                }
            }
            let definitions = FITDecoder.Definition(
                global: 20, bigEndian: bigEndian,
                fields: fields.map { .init(number: $0.number, size: $0.size, baseType: FITBaseType(byte: $0.type)) },
                developerFields: [], size: fields.reduce(0) { $0 + $1.size })
            let simple = FITDecoder.LocalType(
                size: definitions.size, isRecord: true, hasDeveloper: false, plan: UnsafeBufferPointer(definitions.plan)
            ).simple
            #expect(simple, "fields \(fields)")
            // The same records decoded up to the end of the buffer, and with bytes after it that are not decoded.
            func samples(padding: Int) -> [Sample] {
                let bytes = definition + record + record + [UInt8](repeating: 0xFF, count: padding)
                var decoder = FITDecoder()
                var issues = IssueLog()
                var capture = Capture()
                bytes.withUnsafeBytes { raw in
                    decoder.decodeRecords(
                        raw, from: 0, to: raw.count - padding, complete: true, issues: &issues, sink: &capture)
                }
                return capture.samples
            }
            let general = samples(padding: 0), branchFree = samples(padding: 16)
            #expect(general == branchFree, "fields \(fields), big endian \(bigEndian)")
            compared += general.count
        }
        #expect(compared > 1000)
    }

    /// A seeded generator for `shuffle(using:)`.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    /// The character references that a skipped attribute's check accepts without `decode` (`isValidCharacterReference`)
    /// and the others: a document is well formed with the attribute skipped exactly when it is with it decoded.
    @Test(arguments: [
        "&#8217;", "&#x2019;", "&#X2019;", "&#x;", "&#;", "&#65", "&#1114111;", "&#1114112;", "&#xD800;", "&#55296;",
        "&#x10FFFF;", "&#x110000;", "&#+65;", "&#-0;", "&#0;", "&#x0;", "&#00000065;", "&#x0000041;", "&#12345678;",
        "&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&lT;", "&ap;", "&bogus;", "&#x2G;", "&#9a;", "&;",
    ])
    func skippedAndDecodedReferencesAgree(reference: String) {
        let xml = "<r><e a=\"x\(reference)y\" b='1'/></r>"
        struct Skip: XMLHandler {
            func attributeFilter(for name: String) -> [[UInt8]]? { name == "e" ? [Array("b".utf8)] : nil }
            mutating func start(_ name: String, _ attributes: [XMLAttribute]) {}
            mutating func end(_ name: String) {}
            mutating func text(_ text: String) {}
        }
        var decoded = EventLog()
        var skipped = Skip()
        var a = MemoryChunks(Array(xml.utf8)), b = MemoryChunks(Array(xml.utf8))
        let decodedError = Result { () throws(WorkoutFileError) in try XMLStream.parse(&a, &decoded) }
        let skippedError = Result { () throws(WorkoutFileError) in try XMLStream.parse(&b, &skipped) }
        switch (decodedError, skippedError) {
        case (.success, .success): break
        case (.failure(let x), .failure(let y)): #expect(x.code == y.code && x.offset == y.offset)
        default: Issue.record("decoded \(decodedError), skipped \(skippedError)")
        }
    }

    /// A '<' in a quoted value, found by memchr: the same error at the same offset whatever the chunk size, also when
    /// the value is still open at the end of a chunk.
    @Test(arguments: [1, 2, 3, 5, 8, 64]) func lessThanInAValue(chunkSize: Int) throws {
        for (xml, offset) in [
            ("<r a='x<y'/>", 7), ("<r a=\"'<\"/>", 7), ("<r a='1' b=\"2<3\"/>", 13), ("<r><e a='>' b='<'/></r>", 15),
        ] {
            let error = #expect(throws: WorkoutFileError.self) { try tokenize(xml, chunkSize: chunkSize) }
            #expect(error?.code == .xmlNotWellFormed)
            #expect(error?.offset == offset)
            #expect(error?.detail == "'<' in an attribute value")
        }
        let (lines, issue) = try tokenize("<r a='>\"' b=\"'>'\">t</r>", chunkSize: chunkSize)
        #expect(issue == nil)
        #expect(lines == ["<r a=>\" b='>'", "#t", "/r"])
    }

    /// A '<' outside quotes inside a tag (found by the one memchr over the tag, told apart by the byte-by-byte scan),
    /// and values with and without references side by side (only those with an '&' are decoded or checked).
    @Test(arguments: [1, 2, 3, 5, 8, 64]) func lessThanInATagAndMixedReferences(chunkSize: Int) throws {
        for (xml, offset) in [
            ("<r a='1' <b/>", 9), ("<r><e a='x' b='y'<c/></r>", 17), ("<r><e a='x' b='<'<c/></r>", 15),
            ("<r a='x' </r>", 9),
        ] {
            let error = #expect(throws: WorkoutFileError.self) { try tokenize(xml, chunkSize: chunkSize) }
            #expect(error?.offset == offset, "\(xml)")
        }
        let (lines, issue) = try tokenize(
            "<r a='x' b='&amp;' c=\"y\" d='&#65;&lt;' e='z'><s p='&#x42;' q='w'/></r>", chunkSize: chunkSize)
        #expect(issue == nil)
        #expect(lines == ["<r a=x b=& c=y d=A< e=z", "<s p=B q=w", "/s", "/r"])
        let bad = #expect(throws: WorkoutFileError.self) {
            try tokenize("<r a='x' b='y' c='&nope;' d='z'/>", chunkSize: chunkSize)
        }
        #expect(bad?.detail == "unknown entity &nope;")
    }

    /// `Sample`'s compact storage behaves as nine `Double?`: what is set is read back (nil, 0, -0, values), setting
    /// nil clears, and two samples are equal exactly when all their optionals (and time, developer) are.
    @Test func compactSampleIsNineOptionals() {
        let keys: [WritableKeyPath<Sample, Double?>] = [
            \.latitude, \.longitude, \.altitudeM, \.distanceM, \.speedMps, \.powerW, \.heartRateBpm, \.cadenceRpm,
            \.temperatureC,
        ]
        let choices: [Double?] = [nil, 0, -0.0, 1.5, -7, .infinity]
        var seed: UInt64 = 7
        func pick() -> Double? {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return choices[Int((seed >> 33) % UInt64(choices.count))]
        }
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        for _ in 0..<2000 {
            let a = keys.map { _ in pick() }, b = keys.map { _ in pick() }
            var x = Sample(time: time), y = Sample(time: time)
            for k in keys { x[keyPath: k] = 5 }
            for (k, v) in zip(keys, a) { x[keyPath: k] = v }
            for (k, v) in zip(keys, b) { y[keyPath: k] = v }
            #expect(keys.map { x[keyPath: $0] } == a)
            #expect((x == y) == (a == b))
            let z = Sample(
                time: time, latitude: a[0], longitude: a[1], altitudeM: a[2], distanceM: a[3], speedMps: a[4],
                powerW: a[5], heartRateBpm: a[6], cadenceRpm: a[7], temperatureC: a[8])
            #expect(z == x)
        }
    }

    /// Names that share the name cache's slot (same length, first and last byte) stay apart.
    @Test(arguments: [1, 4, 64]) func nameCacheCollisions(chunkSize: Int) throws {
        let (lines, issue) = try tokenize("<abc><adc x='1'/><abc/><p:adc/></abc>", chunkSize: chunkSize)
        #expect(issue == nil)
        #expect(lines == ["<abc", "<adc x=1", "/adc", "<abc", "/abc", "<adc", "/adc", "/abc"])
        let error = #expect(throws: WorkoutFileError.self) { try tokenize("<abc></adc>", chunkSize: chunkSize) }
        #expect(error?.detail == "end tag </adc> does not match <abc>")
    }

    /// `trimmedXML` without Foundation where nothing needs trimming, with it otherwise: always Foundation's answer.
    @Test func trimmedEqualsFoundation() {
        for text in [
            "5", " 5", "5 ", "\t5\n", "", " ", "\u{A0}5", "5\u{85}", "\u{2028}7\u{2029}", "é", "1é", "é1", "\u{0B}3",
            "3\u{0C}", "\r\n", "a b", "\u{3000}x",
        ] {
            #expect(text.trimmedXML == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.utf8))")
        }
    }
}
