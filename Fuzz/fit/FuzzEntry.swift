// libFuzzer entry for the WorkoutFiles readers: compiled together with Sources/WorkoutFiles/**/*.swift by
// Fuzz/fit/run.sh (`swiftc -sanitize=fuzzer,address`). Every input must run to completion without a trap; the
// invariants below trap (and so report a crash) when violated.

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
