import Foundation

/// Reads a file line by line in fixed-size chunks, so memory stays bounded whatever the file's size.
/// A line longer than `maxLineBytes` is not kept: it is reported as `.tooLong` with its first bytes as evidence.
public struct LineReader: Sequence, IteratorProtocol {
    public enum Line: Sendable, Equatable {
        case line(number: Int, bytes: [UInt8])
        case tooLong(number: Int, prefix: [UInt8], length: Int)
    }

    let handle: FileHandle
    let maxLineBytes: Int
    let chunkSize: Int
    var buffer: [UInt8] = []
    var position = 0
    var lineNumber = 0
    var eof = false

    public init(url: URL, maxLineBytes: Int, chunkSize: Int = 1 << 20) throws {
        handle = try FileHandle(forReadingFrom: url)
        self.maxLineBytes = maxLineBytes
        self.chunkSize = chunkSize
    }

    mutating func fill() -> Bool {
        guard !eof else { return false }
        let data = (try? handle.read(upToCount: chunkSize)) ?? nil
        guard let data, !data.isEmpty else {
            eof = true
            try? handle.close()
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: data)
        return true
    }

    public mutating func next() -> Line? {
        var overflow = 0
        var prefix: [UInt8] = []
        while true {
            if let nl = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
                let bytes = Array(buffer[position..<nl])
                position = nl + 1
                lineNumber += 1
                if overflow > 0 { return .tooLong(number: lineNumber, prefix: prefix, length: overflow + bytes.count) }
                if bytes.count > maxLineBytes {
                    return .tooLong(number: lineNumber, prefix: Array(bytes.prefix(4096)), length: bytes.count)
                }
                return .line(number: lineNumber, bytes: bytes)
            }
            if buffer.count - position > maxLineBytes {
                // Drop what we have of this over-long line; keep only evidence.
                if prefix.isEmpty { prefix = Array(buffer[position..<Swift.min(buffer.count, position + 4096)]) }
                overflow += buffer.count - position
                position = buffer.count
            }
            if !fill() {
                guard position < buffer.count || overflow > 0 else { return nil }
                let bytes = Array(buffer[position...])
                position = buffer.count
                lineNumber += 1
                if overflow > 0 { return .tooLong(number: lineNumber, prefix: prefix, length: overflow + bytes.count) }
                return .line(number: lineNumber, bytes: bytes)
            }
        }
    }
}
