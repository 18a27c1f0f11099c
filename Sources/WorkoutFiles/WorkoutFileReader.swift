import Foundation

/// The entry point: reads any supported workout file, recognising its format by content (the extension is only
/// checked, `extension_mismatch`). Throws `WorkoutFileError` with a reason code when nothing can be read.
public enum WorkoutFileReader {
    /// How many leading bytes `sniff` looks at.
    public static let sniffLength = 1 << 16

    /// The format of a file from its first bytes (up to `sniffLength`), or nil.
    public static func sniff(_ prefix: [UInt8]) -> FileFormat? {
        let head = prefix.prefix(sniffLength)
        if head.withUnsafeBytes({ FITDecoder.looksLikeFIT($0) }) { return .fit }
        if ZipArchive.looksLikeZip(Array(head.prefix(4))) { return .appleHealthZip }
        var i = head.startIndex
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i += 3 }
        while i < head.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.endIndex, head[i] == 0x3C else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<HealthData") || text.contains("<!DOCTYPE HealthData") { return .appleHealthXML }
        if text.contains("TrainingCenterDatabase") { return .tcx }
        if text.contains("<gpx") || text.contains(":gpx") { return .gpx }
        return nil
    }

    /// Reads the file at `url`. FIT files are read whole; XML and zip files are streamed.
    public static func read(url: URL) throws(WorkoutFileError) -> WorkoutFile {
        let source = try FileSource(url: url)
        guard source.size > 0 else { throw WorkoutFileError(code: .emptyFile, detail: "the file is empty") }
        let prefix = try source.read(at: 0, count: sniffLength)
        if Gzip.looksLikeGzip(prefix) {
            return try read(bytes: source.read(at: 0, count: source.size), fileName: url.lastPathComponent)
        }
        let format = try format(of: prefix)
        var file: WorkoutFile
        switch format {
        case .fit: file = try FITReader.read(try source.read(at: 0, count: source.size))
        case .tcx:
            var chunks = try FileChunks(url: url)
            file = try TCXReader.read(&chunks)
        case .gpx:
            var chunks = try FileChunks(url: url)
            file = try GPXReader.read(&chunks)
        case .appleHealthXML: file = try HealthExportReader.read(xmlURL: url)
        case .appleHealthZip: file = try HealthExportReader.read(zip: ZipArchive(source))
        }
        return try finish(file, fileName: url.lastPathComponent)
    }

    /// Reads a file held in memory; `fileName` (optional) is only used to flag a wrong extension.
    public static func read(bytes: [UInt8], fileName: String? = nil) throws(WorkoutFileError) -> WorkoutFile {
        guard !bytes.isEmpty else { throw WorkoutFileError(code: .emptyFile, detail: "the file is empty") }
        if Gzip.looksLikeGzip(bytes) {
            // A gzip-wrapped workout file (`ride.fit.gz`): read what is inside, under the inner name.
            let (inner, truncated) = try Gzip.inflate(bytes)
            let innerName = fileName.map { $0.lowercased().hasSuffix(".gz") ? String($0.dropLast(3)) : $0 }
            guard !Gzip.looksLikeGzip(inner) else {
                throw WorkoutFileError(code: .unknownFormat, detail: "gzip inside gzip")
            }
            do throws(WorkoutFileError) {
                var file = try read(bytes: inner, fileName: innerName)
                if truncated {
                    file.issues.append(ReadIssue(code: .gzipTruncated, detail: "the gzip stream stops before its end"))
                }
                return file
            } catch {
                if truncated, error.code != .gzipCorrupt {
                    throw WorkoutFileError(
                        code: .gzipTruncated, detail: "the gzip stream stops before its end; inside: \(error.code)")
                }
                throw error
            }
        }
        let file: WorkoutFile
        switch try format(of: Array(bytes.prefix(sniffLength))) {
        case .fit: file = try FITReader.read(bytes)
        case .tcx: file = try TCXReader.read(bytes: bytes)
        case .gpx: file = try GPXReader.read(bytes: bytes)
        case .appleHealthXML: file = try HealthExportReader.read(xmlBytes: bytes)
        case .appleHealthZip: file = try HealthExportReader.read(zipBytes: bytes)
        }
        return try finish(file, fileName: fileName)
    }

    static func format(of prefix: [UInt8]) throws(WorkoutFileError) -> FileFormat {
        guard !prefix.isEmpty else { throw WorkoutFileError(code: .emptyFile, detail: "the file is empty") }
        if prefix.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D, 0x00].contains($0) }) {
            throw WorkoutFileError(code: .emptyFile, detail: "the file holds only whitespace or zero bytes")
        }
        guard let format = sniff(prefix) else {
            if prefix.count >= 12, Array(prefix[8..<12]) == FITDecoder.headerSignature {
                throw WorkoutFileError(code: .fitBadHeader, detail: "FIT signature with a header size of \(prefix[0])")
            }
            throw WorkoutFileError(code: .unknownFormat, detail: "not FIT, TCX, GPX or a Health export")
        }
        return format
    }

    static let extensions: [FileFormat: Set<String>] = [
        .fit: ["fit"], .tcx: ["tcx"], .gpx: ["gpx"], .appleHealthXML: ["xml"], .appleHealthZip: ["zip"],
    ]

    static func finish(_ file: WorkoutFile, fileName: String?) throws(WorkoutFileError) -> WorkoutFile {
        var file = file
        if let name = fileName, let dot = name.lastIndex(of: ".") {
            let ext = name[name.index(after: dot)...].lowercased()
            if !(extensions[file.format]?.contains(ext) ?? true) {
                file.issues.append(
                    ReadIssue(code: .extensionMismatch, detail: "a .\(ext) file holds \(file.format.rawValue)"))
            }
        }
        if file.activities.isEmpty {
            // Nothing usable: the damage, if any, is the reason.
            if let damage = file.issues.first(where: { $0.code.isDamage }) {
                throw WorkoutFileError(
                    code: damage.code, detail: damage.detail + "; no complete activity", offset: damage.offset)
            }
            let why = file.issues.first { $0.code == .noActivity }.map { ": " + $0.description } ?? ""
            throw WorkoutFileError(code: .noActivity, detail: "no activity in the file" + why)
        }
        return file
    }
}

extension ImportedActivity {
    /// The distance the pipeline uses: the device's figure where there is one, else the GPS track's
    /// (docs/workout-files.md, "Where files disagree").
    public var distanceUsedM: Double? { distanceM ?? trackDistanceM }

    /// The time the pipeline counts as the workout's duration (`duration_s` of a workout record: moving time).
    public var durationUsedS: Double { movingTimeS ?? durationS }
}
