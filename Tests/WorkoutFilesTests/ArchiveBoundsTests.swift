import CZlib
import Foundation
import Testing

@testable import WorkoutFiles

/// A raw deflate stream (zip's method 8) of `blocks` copies of `block`: the block is deflated once with a full flush,
/// which leaves no reference to earlier data and ends on a byte boundary, so its bytes repeated are a valid stream of
/// the block repeated; a final empty block closes it. Builds a 2 GB bomb in milliseconds.
func deflateRepeated(_ block: [UInt8], blocks: Int, prefix: [UInt8] = []) throws -> [UInt8] {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
    let status = deflateInit2_(
        stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    try #require(status == Z_OK)
    func deflateOnce(_ input: [UInt8], _ flush: Int32) -> [UInt8] {
        var input = input
        var out = [UInt8](repeating: 0, count: input.count + 1024)
        let produced = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                stream.pointee.next_in = i.baseAddress
                stream.pointee.avail_in = uInt(i.count)
                stream.pointee.next_out = o.baseAddress
                stream.pointee.avail_out = uInt(o.count)
                _ = deflate(stream, flush)
                return o.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(out[0..<produced])
    }
    var result = prefix.isEmpty ? [] : deflateOnce(prefix, Z_FULL_FLUSH)
    let one = deflateOnce(block, Z_FULL_FLUSH)
    result.reserveCapacity(result.count + one.count * blocks + 16)
    for _ in 0..<blocks { result += one }
    result += deflateOnce([], Z_FINISH)
    return result
}

/// A zip holding one deflated entry `name` with the given (possibly false) declared sizes.
func zipOneEntry(name: String, deflated: [UInt8], declaredSize: Int, crc: UInt32 = 0) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
    let nameBytes = Array(name.utf8)
    let common = u16(20) + u16(0) + u16(8) + u16(0) + u16(0) + u32(Int(crc)) + u32(deflated.count) + u32(declaredSize)
    let local = u32(0x0403_4B50) + common + u16(nameBytes.count) + u16(0) + nameBytes
    let central =
        u32(0x0201_4B50) + u16(20) + common + u16(nameBytes.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0)
        + u32(0) + nameBytes
    let directoryOffset = local.count + deflated.count
    let end =
        u32(0x0605_4B50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(central.count) + u32(directoryOffset) + u16(0)
    return local + deflated + central + end
}

/// Feeds `bytes` to a tokenizer in chunks of `chunk` until it throws or ends; the error, the bytes fed and the work.
func feed(_ bytes: [UInt8], chunk: Int, maxTokenBytes: Int = XMLTokenizer.defaultMaxTokenBytes) -> (
    error: XMLTokenError?, fed: Int, examined: Int
) {
    var tokenizer = XMLTokenizer(maxTokenBytes: maxTokenBytes)
    var log = EventLog()
    var fed = 0
    do throws(XMLTokenError) {
        while fed < bytes.count {
            let end = min(bytes.count, fed + chunk)
            let start = fed
            fed = end // counted before the call: the chunk that makes it throw was fed too
            let fedChunk: Result<Void, XMLTokenError> = bytes[start..<end].withUnsafeBytes { raw in
                do throws(XMLTokenError) { return .success(try tokenizer.feed(raw, &log)) } catch {
                    return .failure(error)
                }
            }
            try fedChunk.get()
        }
        try tokenizer.finish(&log)
        return (nil, fed, tokenizer.bytesExamined)
    } catch {
        return (error, fed, tokenizer.bytesExamined)
    }
}

@Suite struct ArchiveBoundsTests {
    static let mebibyte = 1 << 20

    /// The issue's bomb: a 2 MB zip whose export.xml of zeros inflates to 2 GiB, headers honest. Refused from its
    /// declared sizes before a byte is inflated.
    @Test func zipBombOfZerosIsRefusedAtOnce() throws {
        let deflated = try deflateRepeated([UInt8](repeating: 0, count: Self.mebibyte), blocks: 2048)
        #expect(deflated.count < 3 * Self.mebibyte)
        let zip = zipOneEntry(name: "apple_health_export/export.xml", deflated: deflated, declaredSize: 2048 << 20)
        let started = ContinuousClock.now
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: zip, fileName: "e.zip") }
        #expect(error?.code == .archiveTooLarge)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    /// The same bomb made of well-formed records (so the XML reader would take it all) and with a header that lies
    /// (it declares the compressed size): refused by the ratio as it inflates, after about a megabyte of output.
    @Test func zipBombOfValidXMLWithLyingHeaderStopsEarly() throws {
        let record = Array(#"<Record type="HKQuantityTypeIdentifierHeartRate" value="72"/>"#.utf8) + [0x0A]
        var block: [UInt8] = []
        while block.count + record.count <= Self.mebibyte { block += record }
        let prefix = Array("<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n".utf8)
        let deflated = try deflateRepeated(block, blocks: 2048, prefix: prefix)
        let zip = zipOneEntry(name: "export.xml", deflated: deflated, declaredSize: deflated.count)

        let archive = try ZipArchive(MemorySource(zip))
        let chunks = try archive.chunks(archive.entries[0])
        var thrown: WorkoutFileError? = nil
        do {
            while try chunks.next() != nil {}
        } catch { thrown = error }
        #expect(thrown?.code == .archiveTooLarge)
        // Stopped by the ratio: past the floor (1 MiB) plus 200 × the few KiB consumed, by one 256 KiB chunk at most;
        // a few megabytes of the 2 GiB.
        let bound = (1 << 20) + 200 * chunks.consumed
        #expect(chunks.produced > bound)
        #expect(chunks.produced <= bound + ZipEntryChunks.chunkSize)
        #expect(chunks.produced <= 4 * Self.mebibyte)

        let started = ContinuousClock.now
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: zip, fileName: "e.zip") }
        #expect(error?.code == .archiveTooLarge)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    /// An entry that inflates past what its header declares is refused there (not read on to its end).
    @Test func entryLargerThanDeclaredIsRefused() throws {
        let text = Array("<HealthData>\n".utf8) + [UInt8](repeating: 0x20, count: 5000) + Array("</HealthData>\n".utf8)
        let deflated = try deflateRepeated(text, blocks: 1)
        let zip = zipOneEntry(name: "export.xml", deflated: deflated, declaredSize: 100)
        let error = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: zip) }
        #expect(error?.code == .archiveTooLarge)
    }

    /// Limits can be tightened: an entry declaring more than `maxEntryBytes` is refused before inflating.
    @Test func entrySizeLimit() throws {
        let text = Array("<HealthData>".utf8) + [UInt8](repeating: 0x20, count: 4000) + Array("</HealthData>".utf8)
        let deflated = try deflateRepeated(text, blocks: 1)
        let zip = zipOneEntry(name: "export.xml", deflated: deflated, declaredSize: text.count)
        let archive = try ZipArchive(MemorySource(zip), limits: ArchiveLimits(maxEntryBytes: 1000))
        let error = #expect(throws: WorkoutFileError.self) { try archive.chunks(archive.entries[0]) }
        #expect(error?.code == .archiveTooLarge)
        // Within the limits the same entry inflates to exactly its bytes.
        let open = try ZipArchive(MemorySource(zip))
        let chunks = try open.chunks(open.entries[0])
        var out: [UInt8] = []
        while let chunk = try chunks.next() { out += chunk }
        #expect(out == text)
    }

    /// A gzip bomb (256 MiB of zeros in 260 KB) is refused by the ratio after about a megabyte.
    @Test func gzipBombIsRefused() throws {
        let deflated = try deflateRepeated([UInt8](repeating: 0, count: Self.mebibyte), blocks: 256)
        let gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + deflated + [0, 0, 0, 0, 0, 0, 0, 0]
        let started = ContinuousClock.now
        let error = #expect(throws: WorkoutFileError.self) { try Gzip.inflate(gzip) }
        #expect(error?.code == .archiveTooLarge)
        #expect(ContinuousClock.now - started < .seconds(2))
        let whole = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: gzip, fileName: "a.gz") }
        #expect(whole?.code == .archiveTooLarge)
    }
}

@Suite struct XMLTokenBoundTests {
    static let bound = XMLTokenizer.defaultMaxTokenBytes

    /// The issue's case: an unterminated text run (and tag, comment, CDATA, DOCTYPE, processing instruction) is
    /// refused once it passes the bound, and the work done until then is linear in what was fed, in small chunks
    /// too (before, every chunk rescanned the whole run).
    @Test(arguments: [
        ("<r>", UInt8(ascii: "a")), ("<r><a b=\"", UInt8(ascii: "x")), ("<r><a b", UInt8(ascii: " ")),
        ("<r><!--", UInt8(ascii: "-")), ("<r><![CDATA[", UInt8(ascii: "]")), ("<!DOCTYPE r [", UInt8(ascii: "x")),
        ("<r><?pi ", UInt8(ascii: "?")), ("", UInt8(ascii: " ")),
    ])
    func unterminatedTokenIsRefusedAtTheBound(prefix: String, filler: UInt8) throws {
        let input = Array(prefix.utf8) + [UInt8](repeating: filler, count: 3 * Self.bound)
        let chunk = 4096
        let (error, fed, examined) = feed(input, chunk: chunk)
        guard case .tooLong(_, let offset)? = error else {
            Issue.record("expected tooLong, got \(String(describing: error))")
            return
        }
        #expect(offset <= prefix.utf8.count)
        // Refused as soon as the token passed the bound: not fed to its end.
        #expect(fed <= Self.bound + prefix.utf8.count + chunk)
        // Linear: each byte examined at most about twice (once scanned, once on completion).
        #expect(examined <= 2 * fed + 64)
    }

    /// Text outside the root that is not whitespace (a zip of zeros) is refused on its first chunk.
    @Test func zerosBeforeTheRootAreRefusedAtOnce() {
        let (error, fed, _) = feed([UInt8](repeating: 0, count: 4 << 20), chunk: 1 << 16)
        guard case .notWellFormed(let what, let offset)? = error else {
            Issue.record("expected notWellFormed, got \(String(describing: error))")
            return
        }
        #expect(what == "text before the root element")
        #expect(offset == 0)
        #expect(fed == 1 << 16)
    }

    /// Long tokens within the bound read the same in 1 KiB chunks as whole, with linear work (before: about
    /// 900 KiB × 450 rescans for this attribute).
    @Test func longTokensInSmallChunksAreLinear() throws {
        let value = String(repeating: "v", count: 900 * 1024)
        let text = String(repeating: "t", count: 900 * 1024)
        let xml = "<r><a b=\"\(value)\" c='1'>\(text)</a><!--\(text)--></r>"
        let input = Array(xml.utf8)
        let whole = try tokenize(xml, chunkSize: input.count)
        let split = try tokenize(xml, chunkSize: 1024)
        #expect(split.0 == whole.0)
        #expect(whole.0 == ["<r", "<a b=\(value) c=1", "#\(text)", "/a", "/r"])
        let (error, fed, examined) = feed(input, chunk: 1024)
        #expect(error == nil)
        #expect(fed == input.count)
        #expect(examined <= 2 * input.count)
    }

    /// A complete token longer than the bound is refused even when it arrives in one chunk; the reason code.
    @Test func completeTokenOverTheBound() throws {
        let xml = "<r>" + String(repeating: "a", count: 100) + "</r>"
        let (error, _, _) = feed(Array(xml.utf8), chunk: 1 << 16, maxTokenBytes: 64)
        guard case .tooLong(let what, let offset)? = error else {
            Issue.record("expected tooLong, got \(String(describing: error))")
            return
        }
        #expect(what == "a text run longer than 64 bytes")
        #expect(offset == 3)
        let tcx = "<TrainingCenterDatabase>" + String(repeating: " ", count: 2 << 20) + "</TrainingCenterDatabase>"
        let thrown = #expect(throws: WorkoutFileError.self) { try WorkoutFileReader.read(bytes: Array(tcx.utf8)) }
        #expect(thrown?.code == .xmlTokenTooLong)
    }
}
