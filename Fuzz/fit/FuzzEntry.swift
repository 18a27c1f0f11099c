// libFuzzer entry for the WorkoutFiles readers: compiled together with Sources/WorkoutFiles/**/*.swift by
// Fuzz/fit/run.sh (`swiftc -sanitize=fuzzer,address`). Every input must run to completion without a trap; the
// invariants below trap (and so report a crash) when violated.

import CZlib

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = input.first else { return 0 }
    let body = Array(input.dropFirst())
    switch mode % 4 {
    case 0: fuzzFIT(body)
    case 1: fuzzFIT(framed(body, headerSize: mode & 0x10 != 0 ? 12 : 14))
    case 2: fuzzXML(body, chunkSize: Int(mode / 4) * 16 + 1)
    default:
        // Whole-file entry point: sniffing and every reader behind it.
        _ = try? WorkoutFileReader.read(bytes: body, fileName: "fuzz.fit")
        // The same bytes as the export.xml of a zip (stored), and as the deflated entry data of a zip declaring
        // them inflated to 4× their size: the zip reader, its bounds and the Health reader behind them.
        fuzzZip(body)
    }
    return 0
}

/// `records` behind a valid FIT header and followed by the right CRC, so the fuzzer spends its time in the records.
func framed(_ records: [UInt8], headerSize: Int) -> [UInt8] {
    let n = UInt32(records.count)
    var header: [UInt8] = [
        UInt8(headerSize), 0x20, 0x54, 0x08, UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF),
        UInt8(n >> 24), 0x2E, 0x46, 0x49, 0x54,
    ]
    if headerSize == 14 {
        let crc = FITCRC.checksum(header)
        header += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }
    var file = header + records
    let crc = FITCRC.checksum(file)
    file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    return file
}

func fuzzFIT(_ bytes: [UInt8]) {
    guard let file = try? FITReader.read(bytes) else { return }
    // No sample or lap without bytes behind it: a record needs at least its one-byte header.
    let samples = file.activities.reduce(0) { $0 + $1.samples.count }
    precondition(samples <= bytes.count, "more samples than bytes")
    precondition(file.activities.allSatisfy { $0.format == .fit })
    for activity in file.activities {
        precondition(
            zip(activity.samples, activity.samples.dropFirst()).allSatisfy { $0.time <= $1.time },
            "samples out of order")
        for s in activity.samples {
            // Positions are on Earth and come in pairs (found by this harness: a position field declared as
            // another base type decoded to any angle; the reader now drops those).
            precondition((s.latitude == nil) == (s.longitude == nil))
            if let lat = s.latitude, let lon = s.longitude { precondition(abs(lat) <= 90 && abs(lon) <= 180) }
        }
    }
    // Reading is a function of the bytes.
    precondition((try? FITReader.read(bytes)) == file, "two reads differ")
}

func fuzzXML(_ bytes: [UInt8], chunkSize: Int) {
    // TCX and GPX readers over the same bytes whole and in chunks must agree, thrown error included.
    func tcx(_ size: Int) -> Result<WorkoutFile, WorkoutFileError> {
        var source = MemoryChunks(bytes, chunkSize: size)
        do throws(WorkoutFileError) { return .success(try TCXReader.read(&source)) } catch { return .failure(error) }
    }
    func gpx(_ size: Int) -> Result<WorkoutFile, WorkoutFileError> {
        var source = MemoryChunks(bytes, chunkSize: size)
        do throws(WorkoutFileError) { return .success(try GPXReader.read(&source)) } catch { return .failure(error) }
    }
    // The tokenizer's work is linear in its input however it is cut (no rescanning of an unfinished token).
    var tokenizer = XMLTokenizer(maxTokenBytes: 1024)
    var handler = NullHandler()
    var fed = 0
    do throws(XMLTokenError) {
        while fed < bytes.count {
            let end = min(bytes.count, fed + chunkSize)
            let start = fed
            fed = end // the chunk that makes it throw counts as fed
            let fedChunk: Result<Void, XMLTokenError> = bytes[start..<end].withUnsafeBytes { raw in
                do throws(XMLTokenError) { return .success(try tokenizer.feed(raw, &handler)) } catch {
                    return .failure(error)
                }
            }
            try fedChunk.get()
        }
        try tokenizer.finish(&handler)
    } catch {
        // Refused within a chunk of the token passing the bound (`offset`: where the token starts).
        if case .tooLong(_, let offset) = error { precondition(fed <= offset + 1024 + chunkSize + 1, "refused late") }
    }
    precondition(tokenizer.bytesExamined <= 3 * fed + 64, "tokenizer work not linear")
    precondition(tcx(1 << 16) == tcx(chunkSize), "TCX differs by chunking")
    precondition(gpx(1 << 16) == gpx(chunkSize), "GPX differs by chunking")
    // Issue 40's paths (tracks joined into one outing, untimed points, dates the samples agree on): every activity
    // is in time order, lasts no less than 0 s, has a distance that is a number, and says where its dates came from.
    for result in [tcx(1 << 16), gpx(1 << 16)] {
        guard case .success(let file) = result else { continue }
        for a in file.activities {
            precondition(zip(a.samples, a.samples.dropFirst()).allSatisfy { $0.time <= $1.time }, "out of order")
            precondition(a.durationS >= 0 && a.durationS.isFinite, "negative duration")
            precondition(a.trackDistanceM.map { $0 >= 0 && $0.isFinite } ?? true, "bad track distance")
            precondition(!a.datesFrom.isEmpty, "no datesFrom")
            precondition(a.durationKnown || a.issues.contains { $0.code == .partialImport }, "unflagged partial")
        }
    }
    _ = try? HealthExportReader.read(xmlBytes: bytes)
}

struct NullHandler: XMLHandler {
    mutating func start(_ name: String, _ attributes: [XMLAttribute]) {}
    mutating func end(_ name: String) {}
    mutating func text(_ text: String) {}
}

/// A one-entry zip of `data` (method 0 stored, or 8 with `data` as the deflate stream), declaring `size` inflated.
func zipArchive(_ data: [UInt8], method: Int, size: Int, crc: UInt32) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
    let name = Array("apple_health_export/export.xml".utf8)
    let common = u16(20) + u16(0) + u16(method) + u16(0) + u16(0) + u32(Int(crc)) + u32(data.count) + u32(size)
    let local = u32(0x0403_4B50) + common + u16(name.count) + u16(0) + name
    let central =
        u32(0x0201_4B50) + u16(20) + common + u16(name.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0)
        + u32(0) + name
    let end =
        u32(0x0605_4B50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(central.count)
        + u32(local.count + data.count) + u16(0)
    return local + data + central + end
}

func fuzzZip(_ body: [UInt8]) {
    let crc = body.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    let stored = zipArchive(body, method: 0, size: body.count, crc: crc)
    let plain = try? HealthExportReader.read(xmlBytes: body)
    let zipped = try? WorkoutFileReader.read(bytes: stored, fileName: "export.zip")
    // A stored entry reads as the XML itself (the format aside).
    precondition((plain?.activities.count ?? 0) == (zipped?.activities.count ?? 0), "stored zip differs from XML")
    let deflated = zipArchive(body, method: 8, size: 4 * body.count, crc: 0)
    let archive = try? ZipArchive(MemorySource(deflated), limits: ArchiveLimits(ratioFloorBytes: 4096))
    if let archive, let chunks = try? archive.chunks(archive.entries[0]) {
        var handed = 0
        while let chunk = try? chunks.next(), !chunk.isEmpty { handed += chunk.count }
        // Never more handed out than declared, nor beyond the ratio of what was consumed (the chunk that breaks a
        // bound is refused, not handed out).
        precondition(handed <= 4 * body.count, "inflated past the declared size")
        precondition(handed <= 4096 + 200 * max(0, chunks.consumed), "inflated past the ratio")
    }
    _ = try? WorkoutFileReader.read(bytes: deflated, fileName: "export.zip")
}
