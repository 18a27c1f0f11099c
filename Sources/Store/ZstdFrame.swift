import CZstd

/// One zstd frame with its content size in the header and an XXH64 content checksum at its end: how the store
/// compresses a session's recording (`StoredRecording`) and a workout record's samples (`StoredSamples`).
/// Decoding refuses a frame without a size, one claiming more than a bound, and one whose checksum or
/// length does not match (a damaged byte is an error, never different data).
enum ZstdFrame {
    /// The most content a frame of n bytes can hold: every block has a 3-byte header and at least one byte after it
    /// (an RLE block: one byte repeated up to the 128 KiB block size), so at most 128 KiB per 4 bytes of frame.
    static let maximumRatio = 32_768

    /// `bytes` as a frame at `level` appended to `prefix`; nil when zstd fails, or (`onlyWhenSmaller`) when the frame
    /// would not be smaller than `bytes`.
    static func compress(
        _ bytes: [UInt8], level: Int32, after prefix: [UInt8], onlyWhenSmaller: Bool = true
    ) -> [UInt8]? {
        let bound = ZSTD_compressBound(bytes.count)
        var out = [UInt8](repeating: 0, count: prefix.count + bound)
        let written = out.withUnsafeMutableBytes { dst in
            bytes.withUnsafeBytes { src in
                guard let context = ZSTD_createCCtx() else { return Int.max }
                defer { ZSTD_freeCCtx(context) }
                _ = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
                _ = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
                return ZSTD_compress2(context, dst.baseAddress! + prefix.count, bound, src.baseAddress, src.count)
            }
        }
        guard ZSTD_isError(written) == 0, !onlyWhenSmaller || written < bytes.count else { return nil }
        out.replaceSubrange(0..<prefix.count, with: prefix)
        out.removeLast(bound - written)
        return out
    }

    /// The content of the frame that starts at `offset` of `stored` (and runs to its end), at most `maximumBytes`.
    static func decompress(
        _ stored: [UInt8], from offset: Int, maximumBytes: Int
    ) throws(StoredRecordingError) -> [UInt8] {
        let frameBytes = stored.count - offset
        let claimed = stored.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress! + offset, frameBytes) }
        // ZSTD_CONTENTSIZE_UNKNOWN (2^64 − 1) and ZSTD_CONTENTSIZE_ERROR (2^64 − 2): the store always writes the size.
        guard claimed < UInt64.max - 1 else {
            throw .corruptFrame("zstd frame header unreadable (\(frameBytes) bytes of frame)")
        }
        guard claimed <= UInt64(maximumBytes) else {
            throw .corruptFrame("zstd frame claims \(claimed) bytes, more than the \(maximumBytes) allowed")
        }
        // The buffer is allocated from the claim: a damaged header of a few bytes could claim the whole bound. No
        // frame holds more than `maximumRatio` times its own size, so a larger claim is corrupt (seen while
        // writing the WorkoutFiles fuzz target's samples mode: 20 bytes claimed 2 GiB).
        guard claimed <= UInt64(max(0, frameBytes)) * UInt64(maximumRatio) else {
            throw .corruptFrame("zstd frame claims \(claimed) bytes from \(frameBytes) bytes of frame")
        }
        let size = Int(claimed)
        var produced = 0
        // Not zero-filled first: zstd writes every byte it reports; a shorter frame is an error below.
        let out = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            produced = stored.withUnsafeBytes { src in
                ZSTD_decompress(buffer.baseAddress, size, src.baseAddress! + offset, frameBytes)
            }
            count = ZSTD_isError(produced) == 0 && produced <= size ? produced : 0
        }
        if ZSTD_isError(produced) != 0 {
            throw .corruptFrame("zstd: \(String(cString: ZSTD_getErrorName(produced)))")
        }
        guard produced == size else {
            throw .corruptFrame("zstd frame gave \(produced) bytes where its header says \(size)")
        }
        return out
    }
}
