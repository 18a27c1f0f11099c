import Dispatch

/// How a session's recording is kept in the `raw_blob` column, compressed (docs/raw-ble-blob.md, "How the store keeps
/// a recording").
///
/// Rows written since migration 0020 start with a 5-byte header: the magic `0x89 'R' 'E' 'C'` and a format byte:
/// - `0x03`: the recording split into columns (`RecordColumns`), the payloads' differences in byte columns
///   (`RecordColumns.PayloadOrder.byteColumns`), in one LZ4 frame (`LZ4Frame`: content size in the frame header, a
///   checksum after each block) — what the store writes for every recording of 16 bytes or more since 2026-12-03;
/// - `0x02`: the same with the payloads' differences record after record (`PayloadOrder.records`): what it wrote from
///   2026-11-30 (frames written that day carry a content checksum instead of the blocks');
/// - `0x01`: a zstd frame (`ZstdFrame`, level `zstdLevel`): what rows written before the columns read as, and what is
///   written for a recording the columns do not take (under 16 bytes) when it is smaller so;
/// - `0x00`: the recording as it is, when no frame would be smaller.
///
/// Rows written before 0020 carry the uploaded bytes alone and are read as they are. A recording FTMS wrote starts with
/// `SFRB`, so only an upload of arbitrary bytes that starts with this magic and a known format byte could be mistaken
/// for the new format; the store writes every new row with the header, so no row written since is ambiguous.
///
/// Why columns and LZ4 (Benchmarks/recordings-results.md, 2026-11-30 and 2026-12-03): on both recording shapes the
/// columns in LZ4 are about a third of the recording where zstd level 1 of the bytes as they are was about half, and
/// they are written 1.2–1.6× as fast. With the payloads in byte columns (format `03`) they are about a quarter, written
/// about 1.4× as fast again and read back faster (LZ4 finds long runs where the record order gave short matches).
public enum StoredRecording {
    public static let magic: [UInt8] = [0x89, 0x52, 0x45, 0x43]
    public static let formatStored: UInt8 = 0x00
    public static let formatZstd: UInt8 = 0x01
    public static let formatColumnsLZ4: UInt8 = 0x02
    public static let formatByteColumnsLZ4: UInt8 = 0x03
    /// The zstd level of `formatZstd` frames: level 1, as every such row was written (the frame says what it holds:
    /// rows written at another level read the same).
    public static let zstdLevel: Int32 = 1
    /// The largest recording a stored frame may claim (a corrupt header could claim any size).
    public static let maximumRecordingBytes = 1 << 30

    /// How a recording is written: the store's way, or zstd alone at a level (kept for the benchmark's comparison and
    /// for the tests of rows written before the columns).
    public enum Codec: Sendable, Equatable {
        /// The store's way: format `03`.
        case columnsLZ4
        /// Format `02`, as rows were written from 2026-11-30 to 2026-12-03 (for the benchmark and the tests).
        case recordColumnsLZ4
        case zstd(level: Int32)
    }

    /// The bytes to store for `recording` behind the header: its columns in an LZ4 frame, else (under 16 bytes, or
    /// `codec` says so) a zstd frame, else the recording itself when no frame is smaller. Made where sessions are
    /// validated, not in the store's writer (`SessionCandidate.storedRecording`).
    public static func encode(_ recording: [UInt8], codec: Codec = .columnsLZ4) -> [UInt8] {
        var level = zstdLevel
        switch codec {
        case .columnsLZ4, .recordColumnsLZ4:
            let (order, format): (RecordColumns.PayloadOrder, UInt8) =
                codec == .columnsLZ4 ? (.byteColumns, formatByteColumnsLZ4) : (.records, formatColumnsLZ4)
            if let columns = RecordColumns.split(recording, order: order),
                let frame = LZ4Frame.compress(columns, after: magic + [format]), frame.count < recording.count
            {
                return frame
            }
        case .zstd(let chosen): level = chosen
        }
        return ZstdFrame.compress(recording, level: level, after: magic + [formatZstd])
            ?? magic + [formatStored] + recording
    }

    /// The recording `stored` holds: the columns joined again, the zstd frame decompressed, the bytes after a stored
    /// header, or an old row as it is.
    public static func decode(_ stored: [UInt8]) throws(StoredRecordingError) -> [UInt8] {
        let header = magic.count + 1
        guard stored.count >= header, stored.starts(with: magic) else { return stored }
        switch stored[magic.count] {
        case formatStored: return Array(stored[header...])
        case formatZstd: return try ZstdFrame.decompress(stored, from: header, maximumBytes: maximumRecordingBytes)
        case formatColumnsLZ4, formatByteColumnsLZ4:
            let columns = try LZ4Frame.decompress(stored, from: header, maximumBytes: maximumRecordingBytes)
            return try RecordColumns.join(
                columns, order: stored[magic.count] == formatByteColumnsLZ4 ? .byteColumns : .records)
        default: return stored
        }
    }
}

/// A stored recording that cannot be read back.
public enum StoredRecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    case corruptFrame(String)

    public var description: String {
        switch self {
        case .corruptFrame(let why): "stored recording unreadable: \(why)"
        }
    }
}

/// A session whose stored recording cannot be read back: which one and why. Thrown by the stores' reads of sessions
/// with their recordings instead of handing over wrong bytes.
public struct UnreadableRecording: Error, Equatable, Sendable, CustomStringConvertible {
    public var userID: UserID
    public var sessionID: SessionID
    public var reason: StoredRecordingError

    public init(userID: UserID, sessionID: SessionID, reason: StoredRecordingError) {
        self.userID = userID; self.sessionID = sessionID; self.reason = reason
    }

    public var description: String {
        "session \(sessionID.rawValue) of user \(userID.rawValue): \(reason)"
    }
}

extension StoredRecording {
    /// Below this many stored bytes a batch of sessions is decoded on the calling thread: a split across cores costs
    /// more than it saves. (`@usableFromInline`: it is `decoding`'s default, and tests name it.)
    @usableFromInline static let parallelDecodeBytes = 512 * 1024

    /// `sessions` with each one's stored frame decoded into its `raw` (`decode`), a batch of several on every core
    /// (`DispatchQueue.concurrentPerform`): zstd's decoding of one recording runs at under 1 GB/s on one core here
    /// (Benchmarks/idle-nights-results.md, scale report of 2026-11-29), and re-analysis reads sessions in batches
    /// (`PipelineStore.sessions(keys:)`). The first session in order whose frame is corrupt is thrown as
    /// `UnreadableRecording`, as the one-at-a-time read would.
    ///
    /// `parallelAbove`: the stored bytes from which a batch is decoded on every core (tests choose either path).
    public static func decoding(
        _ sessions: [(session: StoredSession, stored: [UInt8]?)], parallelAbove: Int = parallelDecodeBytes
    ) throws(UnreadableRecording) -> [StoredSession] {
        var out = sessions.map(\.session)
        var failures = [StoredRecordingError?](repeating: nil, count: sessions.count)
        let frames = sessions.map(\.stored)
        let bytes = frames.reduce(0) { $0 + ($1?.count ?? 0) }
        out.withUnsafeMutableBufferPointer { out in
            failures.withUnsafeMutableBufferPointer { failures in
                // Each iteration writes its own elements only.
                nonisolated(unsafe) let out = out, failures = failures
                let decodeOne = { @Sendable (i: Int) in
                    guard let stored = frames[i] else { return }
                    do throws(StoredRecordingError) { out[i].raw = try decode(stored) } catch { failures[i] = error }
                }
                if frames.count < 2 || bytes < parallelAbove {
                    for i in frames.indices { decodeOne(i) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: frames.count, execute: decodeOne)
                }
            }
        }
        if let i = failures.firstIndex(where: { $0 != nil }), let reason = failures[i] {
            throw UnreadableRecording(userID: out[i].userID, sessionID: out[i].sessionID, reason: reason)
        }
        return out
    }
}
