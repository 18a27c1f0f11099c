// libFuzzer entry for the WorkoutFiles readers: compiled together with Sources/WorkoutFiles/**/*.swift, the
// store's samples codec (Sources/Store/{SampleColumns,StoredSamples,ZstdFrame}.swift) and the primary choice among
// recordings of one activity (Sources/WorkoutMetrics/ActivityOverlap.swift) by Fuzz/fit/run.sh
// (`swiftc -sanitize=fuzzer,address`). Every input must run to completion without a trap; the invariants below trap
// (and so report a crash) when violated.

import CZlib
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = input.first else { return 0 }
    let body = Array(input.dropFirst())
    switch mode % 4 {
    case 0: fuzzFIT(body)
    case 1: fuzzFIT(framed(body, headerSize: mode & 0x10 != 0 ? 12 : 14))
    case 2: fuzzXML(body, chunkSize: Int(mode / 4) * 16 + 1)
    case 3 where mode >= 0x80: fuzzSamples(body)
    case 3 where mode >= 0x40: fuzzOverlap(body)
    default:
        // Whole-file entry point: sniffing and every reader behind it; what it read goes through the samples store.
        if let file = try? WorkoutFileReader.read(bytes: body, fileName: "fuzz.fit") {
            checkStoredSamples(file.activities)
        }
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
    checkStoredSamples(file.activities)
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
            checkDates(a)
        }
        if file.format == .gpx { checkGPX(file, bytes) }
        checkStoredSamples(file.activities)
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

// MARK: Issue 40's paths: dates, GPX outings and distances, the samples store

/// Dates (TCX and GPX): with samples, the start lies within their span (a header or lap start at most
/// `DateAgreement.toleranceS` before the first or after the last); no sample lies after the end (its `t` from the start
/// is within the duration, so a file the import takes, ≤ 7 days, has samples the metrics read, `t` ≤ 7 days); a lap
/// start outside the samples' span is flagged `dates_disagree`; an activity without samples is flagged
/// `partial_import`, saying which times were missing.
func checkDates(_ a: ImportedActivity) {
    guard let first = a.samples.first, let last = a.samples.last else {
        precondition(
            a.issues.contains { $0.code == .partialImport && $0.detail.lowercased().contains("time") },
            "an activity without samples is not flagged partial_import naming the missing times")
        return
    }
    let earliest = first.time.addingTimeInterval(-DateAgreement.toleranceS)
    let latest = last.time.addingTimeInterval(DateAgreement.toleranceS)
    precondition(a.start >= earliest && a.start <= latest, "start outside the samples' span")
    precondition(last.time.timeIntervalSince(a.start) <= a.durationS + 1e-6, "a sample after the end")
    if a.format == .tcx, a.laps.contains(where: { $0.start < earliest || $0.start > latest }) {
        precondition(a.issues.contains { $0.code == .datesDisagree }, "a lap start off the samples, unflagged")
    }
    if !a.durationKnown {
        precondition(
            a.issues.contains { $0.code == .partialImport && $0.detail.lowercased().contains("time") },
            "an unknown duration's flag does not name the missing times")
    }
}

/// GPX: the tracks of a file are one outing (one activity) unless their `type`s name different sports, so two
/// activities in a row have different types. A single-track file's distance is at least its timed part's: equal to it
/// when every point is timed; with untimed points (kept in the distance), at least the distance between its timed
/// points when there are at most two of them (more could have been sorted into time order, which the track's
/// document-order distance need not bound).
func checkGPX(_ file: WorkoutFile, _ bytes: [UInt8]) {
    for (x, y) in zip(file.activities, file.activities.dropFirst()) {
        guard let tx = x.sourceSport?.lowercased(), let ty = y.sourceSport?.lowercased(), tx != ty else {
            preconditionFailure("a GPX file's tracks as two activities without different types")
        }
    }
    guard file.activities.count == 1, trkStartTags(bytes) <= 1, let a = file.activities.first else { return }
    guard let timed = Geo.trackDistance(a.samples) else { return }
    guard let distance = a.trackDistanceM else { preconditionFailure("timed points with a distance, none kept") }
    if a.durationKnown {
        precondition(distance.bitPattern == timed.bitPattern, "distance differs from the timed track's")
    } else if a.samples.count(where: { $0.latitude != nil }) <= 2 {
        precondition(distance >= timed * (1 - 1e-9) - 1e-6, "distance below its timed part's")
    }
}

/// How many `<trk` start tags (not `trkpt`, `trkseg`, nor a prefixed name) the bytes could hold: an upper bound of the
/// tracks the reader saw, or `Int.max` when a namespace prefix makes it unknown.
func trkStartTags(_ bytes: [UInt8]) -> Int {
    let trk = Array("trk".utf8)
    var count = 0
    var i = 1
    while i + 3 < bytes.count {
        if bytes[i] == trk[0], bytes[i + 1] == trk[1], bytes[i + 2] == trk[2] {
            let next = bytes[i + 3]
            if next != UInt8(ascii: "p"), next != UInt8(ascii: "s") {
                if bytes[i - 1] == UInt8(ascii: ":") { return Int.max }
                if bytes[i - 1] == UInt8(ascii: "<") { count += 1 }
            }
        }
        i += 1
    }
    return count
}

/// The columns an import stores for `a`'s samples: Ingest's `WorkoutFileImport.columns`, copied (Ingest is not
/// compiled into this target): `t` seconds from the start, the channels where a sample has a finite value, samples
/// before the start or with none of the channels left out.
func sampleColumns(_ a: ImportedActivity) -> SampleColumns? {
    var t: [Double] = [], hr: [Double] = [], power: [Double] = [], cadence: [Double] = []
    var speed: [Double] = [], distance: [Double] = [], altitude: [Double] = []
    func value(_ v: Double?) -> Double { v.flatMap { $0.isFinite ? $0 : nil } ?? .nan }
    for s in a.samples {
        let time = s.time.timeIntervalSince(a.start)
        guard time >= 0, time.isFinite else { continue }
        let point = [s.heartRateBpm, s.powerW, s.cadenceRpm, s.speedMps, s.distanceM, s.altitudeM].map(value)
        guard point.contains(where: { !$0.isNaN }) else { continue }
        t.append(time)
        hr.append(point[0]); power.append(point[1]); cadence.append(point[2])
        speed.append(point[3]); distance.append(point[4]); altitude.append(point[5])
    }
    guard !t.isEmpty else { return nil }
    let columns = SampleColumns(
        count: t.count,
        values: [
            .t: t, .hrBpm: hr, .powerW: power, .cadenceRpm: cadence, .speedMps: speed, .distanceM: distance,
            .altitudeM: altitude,
        ])
    precondition(columns != nil, "a reader's finite samples are not valid columns")
    return columns
}

func checkStoredSamples(_ activities: [ImportedActivity]) {
    for a in activities { if let columns = sampleColumns(a) { checkColumns(columns) } }
}

/// The store's codec on `columns`: encode → decode gives the same columns bit for bit (every Double's bits, each
/// value's presence); every cut of the encoding is refused; the canonical JSON text parses back to the same columns
/// and is stored and read back byte for byte.
func checkColumns(_ columns: SampleColumns) {
    let stored = StoredSamples.encode(columns)
    precondition(stored.first == StoredSamples.formatColumns, "columns not stored as columns")
    guard case .columns(let back)? = try? StoredSamples.decode(stored) else {
        preconditionFailure("stored columns do not decode as columns")
    }
    precondition(back == columns, "columns differ after encode and decode")
    for (x, y) in zip(back.values, columns.values) {
        precondition(zip(x, y).allSatisfy { $0.isNaN == $1.isNaN }, "a value's presence changed")
    }
    for cut in Set([1, stored.count / 2, stored.count - 1]) where cut >= 1 && cut < stored.count {
        precondition((try? StoredSamples.decode(Array(stored.prefix(cut)))) == nil, "a cut encoding was read")
    }
    let json = columns.canonicalJSON
    precondition(SampleColumns(canonicalJSON: json) == columns, "canonical text does not parse to its columns")
    precondition(StoredSamples.read(StoredSamples.encode(json: json)).json == json, "text not read back")
}

/// Mode 3 with the high bit: the samples store on arbitrary bytes. As a stored row (format byte, then a frame or an
/// old row's text), as the columns' layout itself and in a frame made for it, and as JSON text handed to the store.
/// Decoding never traps: an error, or samples that re-encode to themselves; a byte of a valid encoding flipped is an
/// error or samples, never a trap; JSON text given to the store reads back byte for byte. The decoder's allocations
/// are bounded by its input (a frame's claim by 32,768× the frame, the samples by the layout's bytes); the fuzzer's
/// RSS and malloc limits catch a blow-up.
func fuzzSamples(_ body: [UInt8]) {
    if case .columns(let columns)? = try? StoredSamples.decode(body) { checkColumns(columns) }
    let layout = StoredSamples.columns(body)
    if let layout { checkColumns(layout) }
    guard
        let framed = ZstdFrame.compress(body, level: 1, after: [StoredSamples.formatColumns], onlyWhenSmaller: false)
    else { preconditionFailure("zstd failed") }
    switch try? StoredSamples.decode(framed) {
    case .columns(let c)?: precondition(layout == c, "the layout reads differently in a frame")
    default: precondition(layout == nil, "a readable layout refused in a frame")
    }
    if let layout, !body.isEmpty {
        var flipped = StoredSamples.encode(layout)
        flipped[Int(body[0]) % flipped.count] ^= body[body.count - 1] | 1
        _ = try? StoredSamples.decode(flipped)
    }
    let text = String(decoding: body, as: UTF8.self)
    let stored = StoredSamples.encode(json: text)
    guard let value = try? StoredSamples.decode(stored) else { preconditionFailure("stored text unreadable") }
    precondition(value.json == text, "text given to the store reads back differently")
}

/// Mode 3 with bit 6 set and bit 7 clear (0x43, 0x47, … 0x7F): up to 24 recordings of one user, 12 bytes each, whose
/// spans, durations, distances, sources and sample kinds the fuzzer chooses (starts within a few hours, so that they
/// overlap), grouped by `ActivityOverlap.groups`. Invariants of docs/workout-records.md's rule: every recording in
/// exactly one group; the primary precedes every recording linked to it; each linked recording is the same activity
/// as another member of its group; groups ordered by their primary's start; and the same groups whatever order the
/// recordings are passed in (reversed, and rotated by the first byte).
func fuzzOverlap(_ body: [UInt8]) {
    typealias O = ActivityOverlap
    let families = ActivityFamily.allCases, kinds = O.Recording.allCases
    let sources = O.sourceOrder + ["strava"]
    var candidates: [O.Candidate] = []
    var i = 0
    while i + 12 <= body.count, candidates.count < 24 {
        let b = Array(body[i..<i + 12])
        func u16(_ k: Int) -> Int { Int(b[k]) | Int(b[k + 1]) << 8 }
        // Bytes 0–1 the start (5 s steps: 0 … 91 h), 2–3 the span in seconds (up to 18 h; none when bit 0 of byte 10
        // is set), 4 the source, 5 the family, 6–7 `durationS`, 8–9 the distance in 4 m steps (none when 0), byte 10
        // (from bit 1) the sample kind.
        let start = Int64(u16(0)) * 5_000
        let span = b[10] & 1 != 0 ? 0 : Int64(u16(2)) * 1_000
        let distance = u16(8) == 0 ? nil : Double(u16(8)) * 4
        candidates.append(
            O.Candidate(
                id: "r\(candidates.count)", source: sources[Int(b[4]) % sources.count],
                family: families[Int(b[5]) % families.count], startMillis: start, endMillis: start + span,
                durationS: Double(u16(6)), distanceM: distance, recording: kinds[Int(b[10] >> 1) % kinds.count]))
        i += 12
    }
    guard !candidates.isEmpty else { return }
    func canonical(_ groups: [O.Group]) -> [String] {
        groups.map { ([$0.primary.id] + $0.linked.map(\.id).sorted()).joined(separator: ",") }.sorted()
    }
    let groups = O.groups(candidates)
    let ids = groups.flatMap { $0.members.map(\.id) }
    precondition(ids.sorted() == candidates.map(\.id).sorted(), "a recording in no group or in two")
    for g in groups {
        for m in g.linked {
            precondition(O.precedes(g.primary, m), "\(m.id) precedes its primary \(g.primary.id)")
            precondition(
                g.members.contains { $0.id != m.id && O.sameActivity($0, m) }, "\(m.id) is like no other member")
        }
    }
    for (a, b) in zip(groups, groups.dropFirst()) {
        precondition(
            (a.primary.startMillis, a.primary.id) < (b.primary.startMillis, b.primary.id), "groups out of order")
    }
    let expected = canonical(groups)
    precondition(canonical(O.groups(candidates.reversed())) == expected, "the groups depend on the order (reversed)")
    let k = Int(body[0]) % candidates.count
    precondition(
        canonical(O.groups(Array(candidates[k...] + candidates[..<k]))) == expected,
        "the groups depend on the order (rotated by \(k))")
}
