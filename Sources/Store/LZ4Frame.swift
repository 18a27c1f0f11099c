import CLZ4

/// One LZ4 frame with its content size in the header and an XXH32 checksum after each compressed block: how the store
/// compresses a session's recording once it is split into columns (`StoredRecording.formatByteColumnsLZ4`,
/// `formatColumnsLZ4`).
/// Decoding refuses a frame without a size, one without any checksum, one claiming more than a bound, one with bytes
/// after its end, and one whose checksum or length does not match (a damaged byte is an error, never different data),
/// like `ZstdFrame`.
///
/// Why the blocks' checksums and not the content's (docs/raw-ble-blob.md, Benchmarks/recordings-results.md,
/// 2026-12-01): both make every damaged stored byte an error, but the block checksum runs over the compressed bytes (a
/// third as many) where the content checksum runs over the decoded ones, and liblz4's XXH32 over the content took as
/// long as decoding itself. Frames written with a content checksum (2026-11-30 until this change) read as before.
enum LZ4Frame {
    /// The most content a frame of n bytes can hold: an LZ4 sequence adds at most 255 bytes of match for each byte
    /// of its length field, so no block expands its input more than 255 times; 256 leaves the frame's header.
    static let maximumRatio = 256

    /// Which XXH32 checksums a frame carries. The store writes `blocks`; `content` is how frames were written from
    /// migration 0022 until 2026-12-01, and `none` is only for the tests of a frame the reader must refuse.
    enum Checksums: Sendable {
        case blocks, content, none
    }

    /// `bytes` as a frame (the fastest setting, 64 KiB linked blocks) appended to `prefix`; nil when LZ4 fails or
    /// the input is empty (a frame's content size of 0 means "unknown").
    static func compress(_ bytes: [UInt8], after prefix: [UInt8], checksums: Checksums = .blocks) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.contentSize = UInt64(bytes.count)
        switch checksums {
        case .blocks: preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        case .content: preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        case .none: break
        }
        let bound = LZ4F_compressFrameBound(bytes.count, &preferences)
        var written = 0
        let out = [UInt8](unsafeUninitializedCapacity: prefix.count + bound) { buffer, count in
            for (i, byte) in prefix.enumerated() { buffer[i] = byte }
            written = bytes.withUnsafeBytes { src in
                LZ4F_compressFrame(buffer.baseAddress! + prefix.count, bound, src.baseAddress, src.count, &preferences)
            }
            count = LZ4F_isError(written) == 0 ? prefix.count + written : 0
        }
        guard LZ4F_isError(written) == 0 else { return nil }
        return out
    }

    /// The content of the frame that starts at `offset` of `stored` (and runs to its end), at most `maximumBytes`.
    static func decompress(
        _ stored: [UInt8], from offset: Int, maximumBytes: Int
    ) throws(StoredRecordingError) -> [UInt8] {
        var context: OpaquePointer?
        guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
            throw .corruptFrame("lz4: no decompression context")
        }
        defer { LZ4F_freeDecompressionContext(context) }
        let frameBytes = stored.count - offset
        var info = LZ4F_frameInfo_t()
        var headerBytes = frameBytes
        let infoResult = stored.withUnsafeBytes {
            LZ4F_getFrameInfo(context, &info, $0.baseAddress! + offset, &headerBytes)
        }
        if LZ4F_isError(infoResult) != 0 {
            throw .corruptFrame("lz4 frame header unreadable: \(String(cString: LZ4F_getErrorName(infoResult)))")
        }
        guard info.contentSize > 0 else { throw .corruptFrame("lz4 frame without its content size") }
        guard
            info.contentChecksumFlag == LZ4F_contentChecksumEnabled
                || info.blockChecksumFlag == LZ4F_blockChecksumEnabled
        else {
            throw .corruptFrame("lz4 frame without a checksum (neither its blocks' nor its content's)")
        }
        guard info.contentSize <= UInt64(maximumBytes) else {
            throw .corruptFrame("lz4 frame claims \(info.contentSize) bytes, more than the \(maximumBytes) allowed")
        }
        // The buffer is allocated from the claim: no frame holds more than `maximumRatio` times its own size.
        guard info.contentSize <= UInt64(frameBytes) * UInt64(maximumRatio) else {
            throw .corruptFrame("lz4 frame claims \(info.contentSize) bytes from \(frameBytes) bytes of frame")
        }
        let size = Int(info.contentSize)
        var produced = 0
        var consumed = headerBytes
        var failure: String?
        // Not zero-filled first: only the bytes LZ4 reports written are kept, and a short frame is an error below.
        let out = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            stored.withUnsafeBytes { src in
                var options = LZ4F_decompressOptions_t()
                options.stableDst = 1
                while true {
                    var dstSize = size - produced
                    var srcSize = frameBytes - consumed
                    let hint = LZ4F_decompress(
                        context, buffer.baseAddress! + produced, &dstSize, src.baseAddress! + offset + consumed,
                        &srcSize, &options)
                    if LZ4F_isError(hint) != 0 {
                        failure = "lz4: \(String(cString: LZ4F_getErrorName(hint)))"
                        return
                    }
                    produced += dstSize
                    consumed += srcSize
                    if hint == 0 { return } // the frame is complete, its checksums verified
                    if srcSize == 0 && dstSize == 0 {
                        failure = "lz4 frame cut short after \(consumed) of \(frameBytes) bytes"
                        return
                    }
                }
            }
            count = failure == nil && produced <= size ? produced : 0
        }
        if let failure { throw .corruptFrame(failure) }
        guard consumed == frameBytes else {
            throw .corruptFrame("\(frameBytes - consumed) bytes after the lz4 frame's end")
        }
        guard produced == size else {
            throw .corruptFrame("lz4 frame gave \(produced) bytes where its header says \(size)")
        }
        return out
    }
}
