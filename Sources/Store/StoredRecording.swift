import Dispatch

/// How a session's recording is kept in the `raw_blob` column, zstd-compressed (see `ZstdFrame`).
///
/// Rows written since migration 0020 start with a 5-byte header: the magic `0x89 'R' 'E' 'C'` and a format byte,
/// `0x01` for a zstd frame (level `level`, content size in the frame header, content checksum at its end) or `0x00` for
/// the recording as it is (when the frame would not be smaller). Rows written before carry the uploaded bytes alone and
/// are read as they are. A recording FTMS wrote starts with `SFRB`, so only an upload of arbitrary bytes that starts
/// with this magic and a known format byte could be mistaken for the new format; the store writes every new row with
/// the header, so no row written since is ambiguous.
public enum StoredRecording {
    public static let magic: [UInt8] = [0x89, 0x52, 0x45, 0x43]
    public static let formatStored: UInt8 = 0x00
    public static let formatZstd: UInt8 = 0x01
    /// zstd level 1: the stored frame is 47.8 % of the recording on the mixed shape and 48.9 % on one-hour 1 Hz
    /// recordings (level 3: 45.4 % and 50.3 %), compressed 1.6–1.8× faster than at level 3 (Benchmarks/
    /// recordings-results.md, the level study); decompression speed barely depends on the level. Rows written at
    /// another level read the same: the frame says what it holds.
    public static let level: Int32 = 1
    /// The largest recording a stored frame may claim (a corrupt header could claim any size).
    public static let maximumRecordingBytes = 1 << 30

    /// The bytes to store for `recording`: a zstd frame (at `level`) behind the header, or the recording behind the
    /// header when the frame is not smaller. Made where sessions are validated, not in the store's writer
    /// (`SessionCandidate.storedRecording`).
    public static func encode(_ recording: [UInt8], level: Int32 = level) -> [UInt8] {
        ZstdFrame.compress(recording, level: level, after: magic + [formatZstd]) ?? magic + [formatStored] + recording
    }

    /// The recording `stored` holds: the frame decompressed, the bytes after a stored header, or an old row as it is.
    public static func decode(_ stored: [UInt8]) throws(StoredRecordingError) -> [UInt8] {
        let header = magic.count + 1
        guard stored.count >= header, stored.starts(with: magic),
            stored[magic.count] == formatStored || stored[magic.count] == formatZstd
        else { return stored }
        if stored[magic.count] == formatStored { return Array(stored[header...]) }
        return try ZstdFrame.decompress(stored, from: header, maximumBytes: maximumRecordingBytes)
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
