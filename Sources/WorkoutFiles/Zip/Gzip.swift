import CZlib

/// Gzip (RFC 1952) files, as Strava's bulk export ships activities (`.fit.gz`, `.tcx.gz`, `.gpx.gz`): inflated in
/// memory (every member of a multi-member file), within `ArchiveLimits` (at most `maxGzipBytes`, and at most the ratio
/// times the compressed bytes consumed, checked as it inflates: a bomb is refused after little work), then read as the
/// file inside.
enum Gzip {

    static func looksLikeGzip(_ prefix: [UInt8]) -> Bool { prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B }

    /// The inflated bytes, and whether the compressed stream stopped before its end (`gzip_truncated`).
    static func inflate(_ input: [UInt8], limits: ArchiveLimits = .standard) throws(WorkoutFileError) -> (
        bytes: [UInt8], truncated: Bool
    ) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard czlib_inflate_init_gzip(stream) == Z_OK else {
            throw WorkoutFileError(code: .unreadable, detail: "zlib inflateInit2 failed")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var input = input
        var consumed = 0
        var truncated = false
        var status: Int32 = Z_OK
        while true {
            status = input.withUnsafeMutableBufferPointer { inBuffer in
                chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.pointee.next_in = inBuffer.baseAddress! + consumed
                    stream.pointee.avail_in = uInt(inBuffer.count - consumed)
                    stream.pointee.next_out = outBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outBuffer.count)
                    let status = CZlib.inflate(stream, Z_NO_FLUSH)
                    consumed = inBuffer.count - Int(stream.pointee.avail_in)
                    return status
                }
            }
            let produced = chunk.count - Int(stream.pointee.avail_out)
            output.append(contentsOf: chunk[0..<produced])
            if output.count > limits.maxGzipBytes {
                throw WorkoutFileError(
                    code: .archiveTooLarge, detail: "gzip content larger than \(limits.maxGzipBytes) bytes")
            }
            if output.count > limits.ratioBound(compressed: consumed) {
                throw WorkoutFileError(
                    code: .archiveTooLarge,
                    detail: "gzip content more than \(limits.maxRatio) times its compressed size")
            }
            if status == Z_STREAM_END {
                // Another member may follow (concatenated gzip files); trailing zero padding is allowed.
                let rest = input[consumed...]
                if rest.count >= 2, rest.first == 0x1F, rest.dropFirst().first == 0x8B {
                    guard inflateReset(stream) == Z_OK else { break }
                    continue
                }
                break
            }
            if status == Z_BUF_ERROR || status == Z_OK {
                if consumed >= input.count && produced == 0 {
                    truncated = true
                    break
                }
                continue
            }
            throw WorkoutFileError(
                code: .gzipCorrupt, detail: "gzip data is corrupt (zlib \(status))", offset: consumed)
        }
        input = []
        return (output, truncated)
    }
}
