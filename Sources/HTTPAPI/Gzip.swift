import CZlib

/// gzip (RFC 1952: a DEFLATE stream, RFC 1951, in a header with CRC-32 and length trailer),
/// the `gzip` content coding of RFC 9110 §8.4.1.3, through the system zlib.
enum Gzip {
    /// The compression level: bodies are compressed once, when they enter the response cache, and
    /// then sent many times, so zlib's best level costs little and saves bytes on every send.
    static let level: Int32 = Z_BEST_COMPRESSION

    /// The gzip member of `bytes`, or nil if zlib fails (it only does so on memory exhaustion;
    /// the caller then serves the identity body only).
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound: with Z_FINISH and this much room, one deflate call completes (zlib.h).
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                // zlib does not write through next_in; its type lacks `const` without ZLIB_CONST.
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(bound - Int(stream.total_out))
        return output
    }
}
