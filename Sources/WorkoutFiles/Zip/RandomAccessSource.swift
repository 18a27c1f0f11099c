import Foundation

/// Bytes that can be read at any offset (a zip file on disk or in memory).
protocol RandomAccessSource: AnyObject {
    var size: Int { get }
    func read(at offset: Int, count: Int) throws(WorkoutFileError) -> [UInt8]
}

final class MemorySource: RandomAccessSource {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var size: Int { bytes.count }
    func read(at offset: Int, count: Int) throws(WorkoutFileError) -> [UInt8] {
        guard offset >= 0, offset <= bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + max(0, count))])
    }
}

final class FileSource: RandomAccessSource {
    let handle: FileHandle
    let size: Int

    init(url: URL) throws(WorkoutFileError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
            size = Int(try handle.seekToEnd())
        } catch {
            throw WorkoutFileError(code: .unreadable, detail: "cannot open the file")
        }
    }

    deinit { try? handle.close() }

    func read(at offset: Int, count: Int) throws(WorkoutFileError) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        do {
            try handle.seek(toOffset: UInt64(offset))
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        } catch {
            throw WorkoutFileError(code: .unreadable, detail: "read failed", offset: offset)
        }
    }
}
