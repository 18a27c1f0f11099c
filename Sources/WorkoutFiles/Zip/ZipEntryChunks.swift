import CZlib
import Foundation

/// A zip entry's bytes, inflated (raw deflate through zlib) or copied as stored, in chunks; the CRC-32 is checked at
/// the end (`crcMismatch`), and a compressed stream that stops early ends the bytes (`truncated`). The output is
/// bounded as it is produced (`ArchiveLimits`): never more than the entry declares, than `maxEntryBytes`, or than the
/// ratio allows for the compressed bytes consumed so far (`archive_too_large`).
final class ZipEntryChunks: ChunkSource {
    let source: RandomAccessSource
    let entry: ZipArchive.Entry
    let limits: ArchiveLimits
    private let dataStart: Int
    private var inputOffset: Int
    private let inputEnd: Int
    private var stream: UnsafeMutablePointer<z_stream>?
    private var input: [UInt8] = []
    private var finished = false
    private var crc: uLong = 0
    private(set) var produced = 0
    private(set) var crcMismatch = false
    private(set) var truncated = false
    static let chunkSize = 1 << 18

    init(source: RandomAccessSource, entry: ZipArchive.Entry, dataStart: Int, limits: ArchiveLimits = .standard)
        throws(WorkoutFileError)
    {
        self.source = source
        self.entry = entry
        self.limits = limits
        self.dataStart = dataStart
        inputOffset = dataStart
        inputEnd = min(source.size, dataStart + entry.compressedSize)
        if entry.method == 8 {
            let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            s.initialize(to: z_stream())
            // windowBits −15: raw deflate, no zlib header (zip's method 8).
            guard inflateInit2_(s, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                s.deallocate()
                throw WorkoutFileError(code: .unreadable, detail: "zlib inflateInit2 failed")
            }
            stream = s
        }
    }

    deinit {
        if let s = stream {
            inflateEnd(s)
            s.deinitialize(count: 1)
            s.deallocate()
        }
    }

    func next() throws(WorkoutFileError) -> [UInt8]? {
        guard !finished else { return nil }
        var out: [UInt8]
        if let s = stream {
            out = try inflateChunk(s)
        } else {
            out = try source.read(at: inputOffset, count: min(Self.chunkSize, inputEnd - inputOffset))
            inputOffset += out.count
            if out.isEmpty { finished = true }
        }
        if !out.isEmpty {
            produced += out.count
            try checkBounds()
            crc = out.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, uInt($0.count)) }
        }
        if finished {
            if stream == nil, produced < entry.uncompressedSize { truncated = true }
            if !truncated, UInt32(truncatingIfNeeded: crc) != entry.crc32 { crcMismatch = true }
        }
        return out.isEmpty ? nil : out
    }

    /// Compressed bytes consumed so far (read, less what zlib has not taken yet).
    var consumed: Int { inputOffset - dataStart - Int(stream?.pointee.avail_in ?? 0) }

    private func checkBounds() throws(WorkoutFileError) {
        if produced > entry.uncompressedSize {
            throw WorkoutFileError(
                code: .archiveTooLarge,
                detail: "\(entry.name) inflates to more than the \(entry.uncompressedSize) bytes it declares")
        }
        if produced > limits.maxEntryBytes {
            throw WorkoutFileError(
                code: .archiveTooLarge, detail: "\(entry.name) inflates to more than \(limits.maxEntryBytes) bytes")
        }
        if produced > limits.ratioBound(compressed: consumed) {
            throw WorkoutFileError(
                code: .archiveTooLarge,
                detail: "\(entry.name) inflates more than \(limits.maxRatio) times (\(produced) bytes from \(consumed))"
            )
        }
    }

    private func inflateChunk(_ s: UnsafeMutablePointer<z_stream>) throws(WorkoutFileError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.chunkSize)
        var written = 0
        while written < out.count && !finished {
            if s.pointee.avail_in == 0 {
                input = try source.read(at: inputOffset, count: min(Self.chunkSize, inputEnd - inputOffset))
                inputOffset += input.count
                if input.isEmpty {
                    truncated = true
                    finished = true
                    break
                }
            }
            let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    if s.pointee.avail_in == 0 {
                        s.pointee.next_in = inBuffer.baseAddress
                        s.pointee.avail_in = uInt(inBuffer.count)
                    } else {
                        // Continue where the last call stopped in the same input array.
                        s.pointee.next_in = inBuffer.baseAddress! + (inBuffer.count - Int(s.pointee.avail_in))
                    }
                    s.pointee.next_out = outBuffer.baseAddress! + written
                    s.pointee.avail_out = uInt(outBuffer.count - written)
                    let status = inflate(s, Z_NO_FLUSH)
                    written = outBuffer.count - Int(s.pointee.avail_out)
                    return status
                }
            }
            switch status {
            case Z_STREAM_END: finished = true
            case Z_OK: break
            case Z_BUF_ERROR: break // needs more input (read above) or output (next chunk)
            default:
                throw WorkoutFileError(
                    code: .zipCorrupt, detail: "deflate data of \(entry.name) is corrupt", offset: inputOffset)
            }
        }
        out.removeSubrange(written...)
        return out
    }
}
