import Foundation
import GRDB
import PostgresNIO
import PropertyBased
import Testing

@testable import Store
@testable import StorePostgres
@testable import StoreSQLite

/// Recordings stored compressed (migration 0020, `StoredRecording`): what is read back is what was stored, byte for
/// byte, on both backends; rows written before 0020 read as they are; a damaged frame is an error naming its session.
@Suite struct StoredRecordingTests {
    /// Bytes made of runs: a repeated byte (compresses), or pseudo-random bytes from a seed (does not).
    static var recordingGenerator: Generator<[UInt8], AnySequence<Any>> {
        zip(Gen.uint8(), Gen.int(in: 0...3_000), Gen.bool).array(of: 0...12)
            .map { runs in
                var bytes: [UInt8] = []
                for (byte, length, repeated) in runs {
                    if repeated {
                        bytes += [UInt8](repeating: byte, count: length)
                    } else {
                        var state = UInt64(byte) &+ 1
                        for _ in 0..<length {
                            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
                        }
                    }
                }
                return bytes
            }
            .eraseToAny()
    }

    /// The store's way (columns in LZ4), and zstd at every level the benchmarks compare (`pipeline-bench recordings
    /// --levels`; rows written before the columns are zstd level 1 frames): a row written either way reads back
    /// whatever way the binary reading it writes.
    @Test func anyRecordingReadsBackAsItWas() async {
        await propertyCheck(count: 300, input: zip(Self.recordingGenerator, Gen.int(in: 0...3))) {
            recording, level in
            let stored = StoredRecording.encode(recording, codec: level == 0 ? .columnsLZ4 : .zstd(level: Int32(level)))
            #expect(Array(stored.prefix(4)) == [0x89, 0x52, 0x45, 0x43])
            #expect(stored.count <= recording.count + 5)
            do {
                #expect(try StoredRecording.decode(stored) == recording)
            } catch {
                Issue.record("a stored recording did not decode: \(error)")
            }
        }
    }

    /// A candidate is made with its recording as the store will hold it (where ingest validates sessions, several at
    /// once, not in the store's single writer): the store's encoding (columns in an LZ4 frame: LZ4's magic 04 22 4D 18
    /// after the header; format byte 03, the payloads in byte columns), which reads back as the upload.
    @Test func aCandidateCarriesItsRecordingEncoded() throws {
        let candidate = SessionCandidate(
            session: Fixtures.session(raw: Self.compressible), conflictQuarantine: Fixtures.quarantine())
        let frame = try #require(candidate.storedRecording)
        #expect(frame == StoredRecording.encode(Self.compressible))
        #expect(Array(frame.prefix(9)) == [0x89, 0x52, 0x45, 0x43, 0x03, 0x04, 0x22, 0x4D, 0x18])
        #expect(try StoredRecording.decode(frame) == Self.compressible)
        let bare = SessionCandidate(session: Fixtures.session(raw: nil), conflictQuarantine: Fixtures.quarantine())
        #expect(bare.storedRecording == nil)
    }

    /// The format bytes: a compressible recording is its columns in an LZ4 frame (LZ4's magic 04 22 4D 18 after the
    /// header); one under 16 bytes, which has no columns, a zstd frame (zstd's magic 28 B5 2F FD) when that is
    /// smaller; an incompressible one is kept as it is behind the header; and an upload that itself starts with the
    /// header's bytes reads back whole (it is stored behind a header of its own).
    @Test func formatBytes() throws {
        let zeros = [UInt8](repeating: 0, count: 10_000)
        let compressed = StoredRecording.encode(zeros)
        #expect(Array(compressed.prefix(9)) == [0x89, 0x52, 0x45, 0x43, 0x03, 0x04, 0x22, 0x4D, 0x18])
        #expect(compressed.count < 100)
        #expect(try StoredRecording.decode(compressed) == zeros)
        // Rows written by zstd alone (every compressed row before the columns) read as they were written.
        let zstd = StoredRecording.encode(zeros, codec: .zstd(level: 1))
        #expect(Array(zstd.prefix(9)) == [0x89, 0x52, 0x45, 0x43, 0x01, 0x28, 0xB5, 0x2F, 0xFD])
        #expect(try StoredRecording.decode(zstd) == zeros)
        let tiny: [UInt8] = [9]
        #expect(StoredRecording.encode(tiny) == [0x89, 0x52, 0x45, 0x43, 0x00, 9])
        let lookalike: [UInt8] = [0x89, 0x52, 0x45, 0x43, 0x01, 1, 2, 3]
        #expect(try StoredRecording.decode(StoredRecording.encode(lookalike)) == lookalike)
        // Rows from before 0020: the uploaded bytes alone, read as they are (an FTMS recording starts with SFRB).
        let old: [UInt8] = Array("SFRB".utf8) + [1, 1, 0, 0] + [UInt8](repeating: 7, count: 500)
        #expect(try StoredRecording.decode(old) == old)
        #expect(try StoredRecording.decode([]) == [])
    }

    /// In every frame (the store's, the record-order columns of the rows written before 2026-12-03, zstd), a flipped
    /// byte, a frame cut short, a frame with bytes after its end, and a frame whose magic is gone are errors.
    @Test(arguments: [StoredRecording.Codec.columnsLZ4, .recordColumnsLZ4, .zstd(level: 1)])
    func aDamagedFrameIsAnErrorNotOtherBytes(_ codec: StoredRecording.Codec) throws {
        let recording = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 / 7) }
        let stored = StoredRecording.encode(recording, codec: codec)
        let format: UInt8 =
            switch codec {
            case .columnsLZ4: StoredRecording.formatByteColumnsLZ4
            case .recordColumnsLZ4: StoredRecording.formatColumnsLZ4
            case .zstd: StoredRecording.formatZstd
            }
        #expect(stored[4] == format)
        #expect(try StoredRecording.decode(stored) == recording)
        for at in [stored.count / 3, stored.count / 2, stored.count - 1] {
            var flipped = stored
            flipped[at] ^= 0x40
            #expect(throws: StoredRecordingError.self) { try StoredRecording.decode(flipped) }
        }
        #expect(throws: StoredRecordingError.self) { try StoredRecording.decode(Array(stored.dropLast(9))) }
        if codec != .zstd(level: 1) {
            #expect(throws: StoredRecordingError.self) { try StoredRecording.decode(stored + [0]) }
        }
        var header = stored
        header[5] = 0 // the frame's magic gone
        #expect(throws: StoredRecordingError.self) { try StoredRecording.decode(header) }
    }

    /// The store's LZ4 frames carry a checksum after each compressed block and none over the content (the frame
    /// format's FLG byte, lz4_Frame_format.md: bit 4 block checksum, bit 2 content checksum, bit 3 content size), and a
    /// damaged byte anywhere in the frame is an error, whichever byte it is. Frames written with a content checksum
    /// instead (2026-11-30) still read; a frame with neither checksum is refused.
    @Test func theFramesChecksumsCoverEveryByte() throws {
        let recording = Self.compressible
        let header = StoredRecording.magic + [StoredRecording.formatColumnsLZ4]
        let stored = StoredRecording.encode(recording)
        #expect(Array(stored[5..<9]) == [0x04, 0x22, 0x4D, 0x18]) // the LZ4 frame's magic number
        let flags = stored[9]
        #expect(flags & 0x10 != 0 && flags & 0x04 == 0 && flags & 0x08 != 0)
        #expect(try StoredRecording.decode(stored) == recording)
        for at in 5..<stored.count {
            var damaged = stored
            damaged[at] ^= 0x40
            #expect(throws: StoredRecordingError.self, "byte \(at) of \(stored.count)") {
                try StoredRecording.decode(damaged)
            }
        }
        let columns = try #require(RecordColumns.split(recording, order: .records))
        let contentChecked = try #require(LZ4Frame.compress(columns, after: header, checksums: .content))
        #expect(contentChecked[9] & 0x14 == 0x04)
        #expect(try StoredRecording.decode(contentChecked) == recording)
        let unchecked = try #require(LZ4Frame.compress(columns, after: header, checksums: .none))
        #expect(unchecked[9] & 0x14 == 0)
        let refusal = "lz4 frame without a checksum (neither its blocks' nor its content's)"
        #expect(throws: StoredRecordingError.corruptFrame(refusal)) {
            try StoredRecording.decode(unchecked)
        }
    }

    // MARK: - Both backends

    /// The stored bytes of a session's recording, as the backend holds them.
    static func storedBytes(_ t: TestStore, _ session: StoredSession) async throws -> [UInt8]? {
        switch t.kind {
        case .sqlite(let store, _):
            return try await store.writer.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT raw_blob FROM sessions WHERE user_id = ? AND session_id = ?",
                    arguments: [session.userID.rawValue, session.sessionID.rawValue])
            }.map { [UInt8]($0) }
        case .postgres(let store, _):
            return try await store.read("test") { db in
                try await db.rows(
                    """
                    SELECT raw_blob FROM sessions
                    WHERE user_id = \(session.userID.rawValue) AND session_id = \(session.sessionID.rawValue)
                    """
                ).first.flatMap { try $0.get("raw_blob", as: Data?.self) }.map { [UInt8]($0) }
            }
        }
    }

    /// Replaces a session's stored bytes and its recorded size as a binary from before 0020 would have left them
    /// (`rawSize` nil) or as damage would.
    static func overwrite(_ t: TestStore, _ session: StoredSession, bytes: [UInt8], rawSize: Int?) async throws {
        switch t.kind {
        case .sqlite(let store, _):
            try await store.writer.write { db in
                try db.execute(
                    sql: "UPDATE sessions SET raw_blob = ?, raw_size = ? WHERE user_id = ? AND session_id = ?",
                    arguments: [Data(bytes), rawSize, session.userID.rawValue, session.sessionID.rawValue])
            }
        case .postgres(let store, _):
            try await store.write("test") { db in
                try await db.execute(
                    """
                    UPDATE sessions SET raw_blob = \(Data(bytes)), raw_size = \(rawSize.map(Int64.init))
                    WHERE user_id = \(session.userID.rawValue) AND session_id = \(session.sessionID.rawValue)
                    """)
            }
        }
    }

    static let compressible = (0..<60_000).map { UInt8(truncatingIfNeeded: ($0 / 11) % 40 + 60) }
    /// 3,000 records of 20 bytes shaped like a recording's: a constant header, a counter, slow fields and a noisy
    /// one; zstd finds other matches at each level, so the levels' frames differ.
    static let recordLike: [UInt8] = {
        var state: UInt64 = 43
        var bytes: [UInt8] = []
        for i in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = UInt16(truncatingIfNeeded: state >> 55)
            let slow = UInt16(truncatingIfNeeded: 200 + i / 37)
            bytes += [0x53, 0x46, 0x52, 0x42, UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8)]
            bytes += [0x44, 0x02, UInt8(truncatingIfNeeded: slow), UInt8(truncatingIfNeeded: slow >> 8)]
            bytes += [UInt8(truncatingIfNeeded: 180 + noise % 40), 0, 0x5A, UInt8(truncatingIfNeeded: i / 60)]
            bytes += [UInt8(truncatingIfNeeded: noise), UInt8(truncatingIfNeeded: noise >> 8), 0x8C, 0, 0, 0]
        }
        return bytes
    }()

    @Test(arguments: Backend.available) func sessionsStoreCompressedAndReadBackWhole(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let session = Fixtures.session(raw: Self.compressible)
            let bare = Fixtures.session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a11", raw: nil)
            _ = try await t.store.apply(
                IngestUnit(
                    sessions: [session, bare].map {
                        SessionCandidate(session: $0, conflictQuarantine: Fixtures.quarantine())
                    }))
            let stored = try #require(try await Self.storedBytes(t, session))
            #expect(Array(stored.prefix(5)) == [0x89, 0x52, 0x45, 0x43, 0x03])
            // These bytes are no recording (the columns follow whatever lengths fall where a record's would be): under
            // a fifth of them all the same.
            #expect(stored.count * 5 < Self.compressible.count)
            #expect(try await t.store.session(user: Fixtures.alice, id: session.sessionID) == session)
            #expect(try await t.store.sessions(keys: [(Fixtures.alice, session.sessionID)]) == [session])
            #expect(try await t.store.session(user: Fixtures.alice, id: bare.sessionID)?.raw == nil)
            // The quota counts the uploaded bytes, not the stored ones.
            #expect(
                try await t.store.storageUsage(user: Fixtures.alice)
                    == StorageUsage(sessions: 2, recordingBytes: Int64(Self.compressible.count)))
        }
    }

    /// The writer stores the candidate's bytes as they are, on every insert path (one session; a unit of several, which
    /// PostgreSQL inserts in one multi-row statement; a group of units): what it is handed is what the row holds.
    /// Candidates whose frame is not the encoding of their recording (zstd level-9 frames, which the store never makes
    /// itself) prove the writer does not compress again.
    @Test(arguments: Backend.available) func theWriterStoresTheCandidatesBytesAsTheyAre(_ backend: Backend)
        async throws
    {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let ids = (0..<5).map { String(format: "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1c%02d", $0) }
            let sessions = ids.enumerated().map { n, id in
                Fixtures.session(
                    id, start: 1_766_570_400_000 + Int64(n) * 7_200_000,
                    raw: Self.recordLike.map { $0 &+ UInt8(n) })
            }
            let otherLevel = sessions.map {
                SessionCandidate(
                    session: $0, storedRecording: StoredRecording.encode($0.raw!, codec: .zstd(level: 9)),
                    conflictQuarantine: { Fixtures.quarantine() })
            }
            #expect(otherLevel[0].storedRecording != StoredRecording.encode(sessions[0].raw!))
            _ = try await t.store.apply(IngestUnit(sessions: [otherLevel[0]]))
            _ = try await t.store.apply(IngestUnit(sessions: [otherLevel[1], otherLevel[2]]))
            _ = try await t.store.apply([IngestUnit(sessions: [otherLevel[3]]), IngestUnit(sessions: [otherLevel[4]])])
            for (session, candidate) in zip(sessions, otherLevel) {
                #expect(try await Self.storedBytes(t, session) == candidate.storedRecording)
                #expect(try await t.store.session(user: Fixtures.alice, id: session.sessionID) == session)
            }
        }
    }

    /// A row written the old way (the uploaded bytes, no header, no recorded size), as a zstd frame (how every
    /// compressed row was written before the columns), or as record-order columns (format 02, written from 2026-11-30
    /// to 2026-12-03), reads back identically, counts its length in the quota, and
    /// digests as the same session stored the new way.
    @Test(arguments: Backend.available) func aRowWrittenTheOldWayReadsBackIdentically(_ backend: Backend) async throws {
        let session = Fixtures.session(raw: Array("SFRB".utf8) + Self.compressible)
        var digests: [String] = []
        for way in ["columns", "record-columns", "zstd", "old"] {
            let old = way == "old"
            try await withTestStore(backend) { t in
                try await t.store.upsertUser(Fixtures.user())
                _ = try await t.store.apply(
                    IngestUnit(sessions: [SessionCandidate(session: session, conflictQuarantine: Fixtures.quarantine())]
                    ))
                // What 0020 leaves of a row stored before it: SQLite's rebuild records its length, PostgreSQL's added
                // column is empty.
                if old {
                    let size: Int? = backend == .sqlite ? session.raw!.count : nil
                    try await Self.overwrite(t, session, bytes: session.raw!, rawSize: size)
                } else if way != "columns" {
                    let codec: StoredRecording.Codec = way == "zstd" ? .zstd(level: 1) : .recordColumnsLZ4
                    try await Self.overwrite(
                        t, session, bytes: StoredRecording.encode(session.raw!, codec: codec),
                        rawSize: session.raw!.count)
                }
                let stored = try #require(try await Self.storedBytes(t, session))
                let format: UInt8 = way == "zstd" ? 0x01 : way == "record-columns" ? 0x02 : 0x03
                #expect(old ? stored == session.raw! : Array(stored.prefix(5)) == [0x89, 0x52, 0x45, 0x43, format])
                #expect(try await t.store.session(user: Fixtures.alice, id: session.sessionID) == session)
                #expect(
                    try await t.store.storageUsage(user: Fixtures.alice)
                        == StorageUsage(sessions: 1, recordingBytes: Int64(session.raw!.count)))
                digests.append(try await t.store.contentDigest())
            }
        }
        #expect(digests.count == 4 && Set(digests).count == 1)
    }

    /// The real way on SQLite: a session stored by the schema of 0019, then the store opened by this binary (0020
    /// rebuilds the table): the recording reads back identically, its size is recorded, and the row keeps its bytes.
    @Test func aSQLiteRowStoredBefore0020ReadsBackIdenticallyAfterTheMigration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recordings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        let pool = try DatabasePool(path: path, configuration: config)
        try SQLiteStore.migrator().migrate(pool, upTo: "0019_sync_log_from_inserts")
        let recording = Array("SFRB".utf8) + Self.compressible
        let id = "0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a10"
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO users (user_id, time_zone, created_at_ms) VALUES ('alice', 'UTC', 1)")
            try db.execute(
                sql: """
                    INSERT INTO sessions (user_id, session_id, started_at_text, ended_at_text, started_at_ms, ended_at_ms,
                        duration_s, total_energy_kcal, total_distance_m, detail_json, raw_blob, machine, blob_status,
                        content_sha256, source, received_at_ms)
                    VALUES ('alice', ?, 'a', 'b', 1000, 3601000, 3600, 500, 30000, '{}', ?, 'indoorBike', 'complete', ?,
                        'app', 5000)
                    """, arguments: [id, Data(recording), String(repeating: "c", count: 64)])
        }
        try pool.close()
        let store = try SQLiteStore(path: path)
        let read = try #require(try await store.session(user: Fixtures.alice, id: SessionID(uuidString: id)!))
        #expect(read.raw == recording)
        #expect(
            try await store.storageUsage(user: Fixtures.alice)
                == StorageUsage(sessions: 1, recordingBytes: Int64(recording.count)))
        let (stored, size) = try await store.writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT raw_blob, raw_size FROM sessions")
            return (row.map { [UInt8]($0["raw_blob"] as Data) }, row?["raw_size"] as Int?)
        }
        #expect(stored == recording)
        #expect(size == recording.count)
    }

    /// A damaged frame: reading that session throws `UnreadableRecording` naming it and the codec's reason; the
    /// user's other sessions, and the list without recordings, still read.
    @Test(arguments: Backend.available) func aDamagedFrameIsAnErrorForThatSessionOnly(_ backend: Backend) async throws {
        try await withTestStore(backend) { t in
            try await t.store.upsertUser(Fixtures.user())
            let damaged = Fixtures.session(raw: Self.compressible)
            let intact = Fixtures.session("0b7e6a52-5b0e-4f5e-9a43-2d7f0c6f1a11", raw: Self.compressible.reversed())
            _ = try await t.store.apply(
                IngestUnit(
                    sessions: [damaged, intact].map {
                        SessionCandidate(session: $0, conflictQuarantine: Fixtures.quarantine())
                    }))
            var bytes = try #require(try await Self.storedBytes(t, damaged))
            bytes[bytes.count / 2] ^= 0x5A
            try await Self.overwrite(t, damaged, bytes: bytes, rawSize: Self.compressible.count)
            do {
                _ = try await t.store.session(user: Fixtures.alice, id: damaged.sessionID)
                Issue.record("a damaged frame was read")
            } catch let error as UnreadableRecording {
                #expect(error.userID == Fixtures.alice && error.sessionID == damaged.sessionID)
                guard case .corruptFrame(let why) = error.reason else { return }
                #expect(why.hasPrefix("lz4"))
                #expect("\(error)".contains(damaged.sessionID.rawValue))
            }
            #expect(try await t.store.session(user: Fixtures.alice, id: intact.sessionID) == intact)
            #expect(try await t.store.sessionSummaries(user: Fixtures.alice, offset: 0, limit: 10).count == 2)
            // The batch read (re-analysis) names the damaged session too, and reads the intact one alone.
            do {
                _ = try await t.store.sessions(keys: [
                    (Fixtures.alice, intact.sessionID), (Fixtures.alice, damaged.sessionID),
                ])
                Issue.record("a batch with a damaged frame was read")
            } catch let error as UnreadableRecording {
                #expect(error.sessionID == damaged.sessionID)
            }
            #expect(try await t.store.sessions(keys: [(Fixtures.alice, intact.sessionID)]) == [intact])
        }
    }

    /// `StoredRecording.decoding`, the batch read's decoding: each session's recording as `decode` alone gives it, in
    /// order, a session without a frame left without one, and with damaged frames the first damaged one in order
    /// named — on the calling thread (`parallelAbove` `.max`) and on every core (0), and at the store's threshold. The
    /// frames here are small (these recordings compress well): the threshold alone would keep them on one thread.
    @Test(arguments: [(3, Int.max), (3, 0), (64, 0), (64, Int.max), (64, StoredRecording.parallelDecodeBytes)])
    func aBatchDecodesAsEachAloneAndNamesItsFirstDamagedFrame(_ count: Int, _ parallelAbove: Int) throws {
        func decoding(_ pairs: [(StoredSession, [UInt8]?)]) throws(UnreadableRecording) -> [StoredSession] {
            try StoredRecording.decoding(pairs.map { (session: $0, stored: $1) }, parallelAbove: parallelAbove)
        }
        let recordings = (0..<count).map { n in
            (0..<20_000).map { i in UInt8(truncatingIfNeeded: (i / (n % 7 + 1)) &* 31 &+ n) }
        }
        let sessions = recordings.indices.map { n in
            Fixtures.session(String(format: "00000000-0000-4000-8000-%012d", n), raw: nil)
        }
        var frames: [[UInt8]?] = recordings.map { StoredRecording.encode($0) }
        frames[1] = nil
        let decoded = try decoding(Array(zip(sessions, frames)))
        #expect(decoded.map(\.sessionID) == sessions.map(\.sessionID))
        for n in recordings.indices {
            #expect(decoded[n].raw == (n == 1 ? nil : recordings[n]), "session \(n)")
        }

        // Two damaged frames: the first in order is named, whichever thread met it first.
        var damaged = frames
        let damagedAt = [count - 1, count / 2 - 1] // 3: [2, 0]; 64: [63, 31]
        for n in damagedAt {
            var frame = try #require(damaged[n])
            frame[frame.count / 2] ^= 0x5A
            damaged[n] = frame
        }
        #expect(throws: UnreadableRecording.self) { try decoding(Array(zip(sessions, damaged))) }
        do {
            _ = try decoding(Array(zip(sessions, damaged)))
        } catch {
            #expect(error.sessionID == sessions[damagedAt[1]].sessionID)
            #expect(error.userID == sessions[damagedAt[1]].userID)
        }
    }
}
