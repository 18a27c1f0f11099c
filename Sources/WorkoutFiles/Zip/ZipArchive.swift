import Foundation

/// A minimal zip reader: the central directory (with Zip64), and entries streamed out stored or deflated. Enough
/// for the Health export (`apple_health_export/export.xml`, `workout-routes/*.gpx`); no encryption, no spanning.
final class ZipArchive {
    struct Entry {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    let source: RandomAccessSource
    let limits: ArchiveLimits
    private(set) var entries: [Entry] = []

    static func looksLikeZip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x50 && prefix[1] == 0x4B
            && (prefix[2] == 3 && prefix[3] == 4 || prefix[2] == 5 && prefix[3] == 6)
    }

    init(_ source: RandomAccessSource, limits: ArchiveLimits = .standard) throws(WorkoutFileError) {
        self.source = source
        self.limits = limits
        let tailSize = min(source.size, 22 + 65_535)
        let tailStart = source.size - tailSize
        let tail = try source.read(at: tailStart, count: tailSize)
        var eocd: Int? = nil
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 5, tail[i + 3] == 6 { eocd = i; break }
            i -= 1
        }
        guard let e = eocd else { throw WorkoutFileError(code: .zipCorrupt, detail: "no end of central directory") }
        var count = Int(Self.u16(tail, e + 10))
        var directorySize = Int(Self.u32(tail, e + 12))
        var directoryOffset = Int(Self.u32(tail, e + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // Zip64: the locator sits just before the end record.
            guard e >= 20, Self.u32(tail, e - 20) == 0x0706_4B50 else {
                throw WorkoutFileError(code: .zipCorrupt, detail: "Zip64 locator missing")
            }
            let recordOffset = Int(Self.u64(tail, e - 20 + 8))
            let record = try source.read(at: recordOffset, count: 56)
            guard record.count == 56, Self.u32(record, 0) == 0x0606_4B50 else {
                throw WorkoutFileError(code: .zipCorrupt, detail: "Zip64 end record missing")
            }
            count = Int(Self.u64(record, 32))
            directorySize = Int(Self.u64(record, 40))
            directoryOffset = Int(Self.u64(record, 48))
        }
        guard directoryOffset >= 0, directorySize >= 0, directoryOffset + directorySize <= source.size,
            count <= directorySize / 46 + 1
        else {
            throw WorkoutFileError(code: .zipCorrupt, detail: "central directory outside the file")
        }
        let directory = try source.read(at: directoryOffset, count: directorySize)
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, Self.u32(directory, p) == 0x0201_4B50 else {
                throw WorkoutFileError(
                    code: .zipCorrupt, detail: "bad central directory entry", offset: directoryOffset + p)
            }
            let nameLength = Int(Self.u16(directory, p + 28))
            let extraLength = Int(Self.u16(directory, p + 30))
            let commentLength = Int(Self.u16(directory, p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw WorkoutFileError(
                    code: .zipCorrupt, detail: "central directory entry runs past its end", offset: directoryOffset + p)
            }
            var entry = Entry(
                name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                method: Self.u16(directory, p + 10), flags: Self.u16(directory, p + 8),
                crc32: Self.u32(directory, p + 16),
                compressedSize: Int(Self.u32(directory, p + 20)), uncompressedSize: Int(Self.u32(directory, p + 24)),
                localHeaderOffset: Int(Self.u32(directory, p + 42)))
            // Zip64 extended information (header 0x0001): the 64-bit values of the fields saturated above, in order.
            var x = p + 46 + nameLength
            let extraEnd = x + extraLength
            while x + 4 <= extraEnd {
                let id = Self.u16(directory, x), size = Int(Self.u16(directory, x + 2))
                if id == 1 {
                    var q = x + 4
                    if entry.uncompressedSize == 0xFFFF_FFFF, q + 8 <= extraEnd {
                        entry.uncompressedSize = Int(Self.u64(directory, q)); q += 8
                    }
                    if entry.compressedSize == 0xFFFF_FFFF, q + 8 <= extraEnd {
                        entry.compressedSize = Int(Self.u64(directory, q)); q += 8
                    }
                    if entry.localHeaderOffset == 0xFFFF_FFFF, q + 8 <= extraEnd {
                        entry.localHeaderOffset = Int(Self.u64(directory, q))
                    }
                }
                x += 4 + size
            }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
    }

    /// The entry whose path is `path` or ends with `/path`.
    func entry(endingWith path: String) -> Entry? {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return entries.first { $0.name == trimmed || $0.name.hasSuffix("/" + trimmed) }
    }

    /// The entry's uncompressed bytes, in chunks.
    func chunks(_ entry: Entry) throws(WorkoutFileError) -> ZipEntryChunks {
        let header = try source.read(at: entry.localHeaderOffset, count: 30)
        guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else {
            throw WorkoutFileError(
                code: .zipCorrupt, detail: "bad local header of \(entry.name)", offset: entry.localHeaderOffset)
        }
        let dataStart = entry.localHeaderOffset + 30 + Int(Self.u16(header, 26)) + Int(Self.u16(header, 28))
        guard entry.method == 0 || entry.method == 8 else {
            throw WorkoutFileError(
                code: .zipCorrupt, detail: "compression method \(entry.method) of \(entry.name) not supported")
        }
        guard entry.flags & 1 == 0 else {
            throw WorkoutFileError(code: .zipCorrupt, detail: "\(entry.name) is encrypted")
        }
        // Declared sizes that already break a bound: refused before inflating anything.
        if entry.uncompressedSize > limits.maxEntryBytes {
            throw WorkoutFileError(
                code: .archiveTooLarge,
                detail: "\(entry.name) declares \(entry.uncompressedSize) bytes, more than \(limits.maxEntryBytes)")
        }
        if entry.uncompressedSize > limits.ratioBound(compressed: entry.compressedSize) {
            throw WorkoutFileError(
                code: .archiveTooLarge,
                detail: """
                    \(entry.name) declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed, more than \
                    \(limits.maxRatio) times
                    """)
        }
        return try ZipEntryChunks(source: source, entry: entry, dataStart: dataStart, limits: limits)
    }

    static func u16(_ b: [UInt8], _ p: Int) -> UInt16 { UInt16(b[p]) | UInt16(b[p + 1]) << 8 }
    static func u32(_ b: [UInt8], _ p: Int) -> UInt32 { UInt32(u16(b, p)) | UInt32(u16(b, p + 2)) << 16 }
    static func u64(_ b: [UInt8], _ p: Int) -> UInt64 { UInt64(u32(b, p)) | UInt64(u32(b, p + 4)) << 32 }
}
