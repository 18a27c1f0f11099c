import Foundation

/// A sequential source of bytes in chunks (a file, memory, an inflated zip entry).
protocol ChunkSource {
    /// The next chunk, or nil at the end.
    mutating func next() throws(WorkoutFileError) -> [UInt8]?
}

struct MemoryChunks: ChunkSource {
    let bytes: [UInt8]
    var position = 0
    var chunkSize = 1 << 16

    init(_ bytes: [UInt8], chunkSize: Int = 1 << 16) {
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    mutating func next() throws(WorkoutFileError) -> [UInt8]? {
        guard position < bytes.count else { return nil }
        let end = min(bytes.count, position + chunkSize)
        defer { position = end }
        return Array(bytes[position..<end])
    }
}

struct FileChunks: ChunkSource {
    let handle: FileHandle
    var chunkSize = 1 << 18

    init(url: URL) throws(WorkoutFileError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw WorkoutFileError(code: .unreadable, detail: "cannot open the file")
        }
    }

    mutating func next() throws(WorkoutFileError) -> [UInt8]? {
        do {
            guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
            return [UInt8](data)
        } catch {
            throw WorkoutFileError(code: .unreadable, detail: "read failed")
        }
    }
}

enum XMLStream {
    /// Streams `source` through the tokenizer into `handler`. Returns an `xml_truncated` issue when the document
    /// stops half way (the handler has seen everything before the cut); throws `xml_not_well_formed` otherwise.
    static func parse<S: ChunkSource, H: XMLHandler>(_ source: inout S, _ handler: inout H) throws(WorkoutFileError)
        -> ReadIssue?
    {
        var tokenizer = XMLTokenizer()
        func map(_ error: XMLTokenError) throws(WorkoutFileError) -> ReadIssue {
            switch error {
            case .truncated(let what, let offset): return ReadIssue(code: .xmlTruncated, detail: what, offset: offset)
            case .notWellFormed(let what, let offset):
                throw WorkoutFileError(code: .xmlNotWellFormed, detail: what, offset: offset)
            case .tooLong(let what, let offset):
                throw WorkoutFileError(code: .xmlTokenTooLong, detail: what, offset: offset)
            }
        }
        while let chunk = try source.next() {
            let fed: Result<Void, XMLTokenError> = chunk.withUnsafeBytes { raw in
                do throws(XMLTokenError) {
                    try tokenizer.feed(raw, &handler)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            if case .failure(let error) = fed { return try map(error) }
        }
        do throws(XMLTokenError) {
            try tokenizer.finish(&handler)
        } catch {
            return try map(error)
        }
        return nil
    }
}
