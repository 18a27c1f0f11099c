import Foundation
import GRDB
import Store
import StoreSQLite

/// Compressed recordings (`StoredRecording`): what re-analysis pays to read a stored session's recording back.
///
/// `pipeline-bench recordings DB [--repetitions N] [--limit N]` over an SQLite store a nightly filled (the sessions
/// with a recording, in key order, up to `--limit`):
/// - `decode`: `StoredRecording.decode` of every stored frame, in memory — MB/s of recording produced; baseline in the
///   same process: copying the same recordings once (`memcpy` into fresh arrays);
/// - `decode on every core`: the same frames in chunks of 64 through `StoredRecording.decoding`, the decoding the
///   store read does after its fetch — MB/s of recording; what the read costs beyond it is the fetch;
/// - `store read`: `SQLiteStore.sessions(keys:)` in chunks of 64 keys, the call re-analysis makes — MB/s of recording
///   handed over; baseline: the same recordings read uncompressed, one `SELECT` a row, from a plain table
///   (`raw BLOB`, 16 KiB pages like the store) in a temporary file beside the store;
/// - the stored size: bytes of `raw_blob` against the recordings' bytes, and the store file per session;
/// - `encode` by codec: the store's (`columns-lz4`, `StoredRecording.encode`), then zstd alone at each of `--levels`
///   (default 1,2,3; `zstd-1` is how the store wrote recordings before the columns) — MB/s of recording compressed, in
///   memory, and the frames' bytes against the recordings' (what the store would hold written so).
///
/// Prints one JSON object; each timing is the median, min and max of `--repetitions` runs after a warm-up.
enum RecordingsBench {
    /// MB of recording per second of wall time, and per second of the process's CPU time (what the work cost when
    /// the shared machine's load makes wall time meaningless).
    struct Timing: Codable {
        var medianMBps: Double
        var minMBps: Double
        var maxMBps: Double
        var medianMBPerCPUSecond: Double
        var minMBPerCPUSecond: Double
        var maxMBPerCPUSecond: Double
        // The names Benchmarks/recordings.sh reads (what `JSONEncoder`'s `.convertToSnakeCase` made of them).
        enum CodingKeys: String, CodingKey {
            case medianMBps = "median_m_bps", minMBps = "min_m_bps", maxMBps = "max_m_bps"
            case medianMBPerCPUSecond = "median_mb_per_cpu_second", minMBPerCPUSecond = "min_mb_per_cpu_second"
            case maxMBPerCPUSecond = "max_mb_per_cpu_second"
        }
    }

    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func run(_ args: [String]) async throws {
        guard let path = args.first else {
            FileHandle.standardError.write(
                Data("usage: pipeline-bench recordings DB [--repetitions N] [--limit N] [--levels 1,2,3]\n".utf8))
            exit(64)
        }
        func option(_ name: String) -> Int? { args.firstIndex(of: name).flatMap { Int(args[safe: $0 + 1] ?? "") } }
        let repetitions = option("--repetitions") ?? 7
        let limit = option("--limit") ?? Int.max
        let levels =
            args.firstIndex(of: "--levels").flatMap { args[safe: $0 + 1] }
            .map { $0.split(separator: ",").compactMap { Int32($0) } } ?? [1, 2, 3]

        let store = try SQLiteStore(path: path)
        let pool = try DatabasePool(path: path)
        let rows = try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, session_id, raw_blob FROM sessions WHERE raw_blob IS NOT NULL
                    ORDER BY user_id, session_id LIMIT ?
                    """, arguments: [limit == Int.max ? -1 : limit])
        }
        let keys = rows.map { (UserID($0["user_id"] as String), SessionID(rawValue: $0["session_id"])) }
        let frames = rows.map { [UInt8]($0["raw_blob"] as Data) }
        let recordings = try frames.map { try StoredRecording.decode($0) }
        let recordingBytes = recordings.reduce(0) { $0 + $1.count }
        let storedBytes = frames.reduce(0) { $0 + $1.count }
        func rowCount(format: UInt8) -> Int {
            frames.filter { $0.starts(with: StoredRecording.magic + [format]) }.count
        }
        let columnsRows =
            rowCount(format: StoredRecording.formatByteColumnsLZ4) + rowCount(format: StoredRecording.formatColumnsLZ4)
        let compressedRows = columnsRows + rowCount(format: StoredRecording.formatZstd)
        let allSessions = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions") ?? 0 }
        try pool.close()
        let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0

        // The baseline table: the same recordings, uncompressed, in a plain table of a file of its own.
        let plainPath = path + ".plain-recordings"
        try? FileManager.default.removeItem(atPath: plainPath)
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: plainPath + suffix) }
        }
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = 16384") }
        let plain = try DatabasePool(path: plainPath, configuration: configuration)
        try await plain.write { db in
            try db.execute(sql: "CREATE TABLE plain (id INTEGER PRIMARY KEY, raw BLOB NOT NULL)")
            for (i, recording) in recordings.enumerated() {
                try db.execute(sql: "INSERT INTO plain (id, raw) VALUES (?, ?)", arguments: [i, Data(recording)])
            }
        }

        let megabytes = Double(recordingBytes) / 1e6
        func timed(_ body: () async throws -> Int) async throws -> Timing {
            let clock = ContinuousClock()
            _ = try await body()
            var rates: [Double] = []
            var cpuRates: [Double] = []
            for _ in 0..<repetitions {
                let start = clock.now
                let cpuStart = processCPUSeconds()
                let produced = try await body()
                let cpu = processCPUSeconds() - cpuStart
                let (seconds, attoseconds) = start.duration(to: clock.now).components
                precondition(produced == recordingBytes, "a run handed over \(produced) bytes, not \(recordingBytes)")
                rates.append(megabytes / (Double(seconds) + Double(attoseconds) / 1e18))
                cpuRates.append(megabytes / max(cpu, 1e-9))
            }
            rates.sort()
            cpuRates.sort()
            return Timing(
                medianMBps: rates[rates.count / 2], minMBps: rates.first!, maxMBps: rates.last!,
                medianMBPerCPUSecond: cpuRates[cpuRates.count / 2], minMBPerCPUSecond: cpuRates.first!,
                maxMBPerCPUSecond: cpuRates.last!)
        }

        let decode = try await timed {
            var n = 0
            for frame in frames { n += try StoredRecording.decode(frame).count }
            return n
        }
        let copy = try await timed {
            var n = 0
            for recording in recordings {
                let copied = [UInt8](unsafeUninitializedCapacity: recording.count) { buffer, count in
                    recording.withUnsafeBytes { source in
                        if let base = buffer.baseAddress, let from = source.baseAddress {
                            memcpy(base, from, source.count)
                        }
                    }
                    count = recording.count
                }
                n += copied.count
            }
            return n
        }
        // The summaries of the same sessions, without their recordings, for `decoding`'s input.
        let summaries = try await store.sessions(keys: keys).map { session in
            var summary = session
            summary.raw = nil
            return summary
        }
        precondition(summaries.count == frames.count, "\(summaries.count) sessions read for \(frames.count) keys")
        let decodeEveryCore = try await timed {
            var n = 0
            for start in stride(from: 0, to: frames.count, by: 64) {
                let batch = (start..<min(start + 64, frames.count)).map {
                    (session: summaries[$0], stored: Optional(frames[$0]))
                }
                for session in try StoredRecording.decoding(batch) { n += session.raw?.count ?? 0 }
            }
            return n
        }
        let storeRead = try await timed {
            var n = 0
            for start in stride(from: 0, to: keys.count, by: 64) {
                let chunk = Array(keys[start..<min(start + 64, keys.count)])
                for session in try await store.sessions(keys: chunk) { n += session.raw?.count ?? 0 }
            }
            return n
        }
        let plainRead = try await timed {
            try await plain.read { db in
                let statement = try db.cachedStatement(sql: "SELECT raw FROM plain WHERE id = ?")
                var n = 0
                for i in 0..<recordings.count {
                    if let data = try Data.fetchOne(statement, arguments: [i]) { n += [UInt8](data).count }
                }
                return n
            }
        }
        try plain.close()

        struct CodecStudy: Codable {
            var codec: String
            var storedBytes: Int
            var storedPercentOfRecording: Double
            var encode: Timing
            enum CodingKeys: String, CodingKey {
                case codec, storedBytes = "stored_bytes", storedPercentOfRecording = "stored_percent_of_recording"
                case encode
            }
        }
        var encodeByCodec: [CodecStudy] = []
        let codecs =
            [("columns-lz4", StoredRecording.Codec.columnsLZ4), ("record-columns-lz4", .recordColumnsLZ4)]
            + levels.map { ("zstd-\($0)", .zstd(level: $0)) }
        for (name, codec) in codecs {
            let stored = recordings.reduce(0) { $0 + StoredRecording.encode($1, codec: codec).count }
            let encode = try await timed {
                var n = 0
                for recording in recordings { n += StoredRecording.encode(recording, codec: codec).count }
                return stored == n ? recordingBytes : 0
            }
            encodeByCodec.append(
                CodecStudy(
                    codec: name, storedBytes: stored,
                    storedPercentOfRecording: 100 * Double(stored) / Double(max(1, recordingBytes)), encode: encode))
        }

        struct Result: Codable {
            var sessions: Int
            var sessionsWithRecording: Int
            var compressedRows: Int
            var columnsRows: Int
            var recordingBytes: Int
            var storedBytes: Int
            var storedPercentOfRecording: Double
            var storeFileBytes: Int
            var storeFileBytesPerSession: Double
            var recordingBytesPerSession: Double
            var decode: Timing
            var copyBaseline: Timing
            var decodeRatioToCopy: Double
            var decodeEveryCore: Timing
            var storeRead: Timing
            var plainReadBaseline: Timing
            var storeReadRatioToPlain: Double
            var codecInUse: String
            var encodeByCodec: [CodecStudy]
            var repetitions: Int
            enum CodingKeys: String, CodingKey {
                case sessions, sessionsWithRecording = "sessions_with_recording", compressedRows = "compressed_rows"
                case columnsRows = "columns_rows"
                case recordingBytes = "recording_bytes", storedBytes = "stored_bytes"
                case storedPercentOfRecording = "stored_percent_of_recording", storeFileBytes = "store_file_bytes"
                case storeFileBytesPerSession = "store_file_bytes_per_session"
                case recordingBytesPerSession = "recording_bytes_per_session", decode, copyBaseline = "copy_baseline"
                case decodeRatioToCopy = "decode_ratio_to_copy", decodeEveryCore = "decode_every_core"
                case storeRead = "store_read"
                case plainReadBaseline = "plain_read_baseline", storeReadRatioToPlain = "store_read_ratio_to_plain"
                case codecInUse = "codec_in_use", encodeByCodec = "encode_by_codec", repetitions
            }
        }
        let result = Result(
            sessions: allSessions, sessionsWithRecording: frames.count, compressedRows: compressedRows,
            columnsRows: columnsRows,
            recordingBytes: recordingBytes, storedBytes: storedBytes,
            storedPercentOfRecording: 100 * Double(storedBytes) / Double(max(1, recordingBytes)),
            storeFileBytes: fileBytes, storeFileBytesPerSession: Double(fileBytes) / Double(max(1, allSessions)),
            recordingBytesPerSession: Double(recordingBytes) / Double(max(1, frames.count)),
            decode: decode, copyBaseline: copy, decodeRatioToCopy: decode.medianMBps / copy.medianMBps,
            decodeEveryCore: decodeEveryCore, storeRead: storeRead, plainReadBaseline: plainRead,
            storeReadRatioToPlain: storeRead.medianMBps / plainRead.medianMBps, codecInUse: "columns-lz4",
            encodeByCodec: encodeByCodec, repetitions: repetitions)
        print(try SortedJSONEncoder.encode(result, numbers: .asEncoded).encoderText)
    }
}
