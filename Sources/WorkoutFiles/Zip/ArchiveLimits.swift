/// How far a compressed input (a zip entry, a gzip file) may inflate: the bounds that refuse a decompression bomb
/// (`archive_too_large`) after inflating little of it, whatever its headers declare.
///
/// - The inflated bytes may never exceed `ratioFloorBytes + maxRatio × compressed bytes consumed so far`, checked as
///   they are produced: a zip entry of zeros (deflate reaches about 1,030:1) is refused after about a megabyte of
///   output, a lying header or not. Real workout files and Health exports deflate by 5–30×.
/// - A zip entry may not inflate past `maxEntryBytes`, nor past the size its central directory declares; an entry
///   whose declared sizes already break a bound is refused before any byte is inflated.
/// - A gzip file, inflated in memory, may not exceed `maxGzipBytes` (128 MiB: a day-long TCX is about 35 MB).
public struct ArchiveLimits: Sendable, Equatable {
    public var maxEntryBytes: Int
    public var maxRatio: Int
    public var ratioFloorBytes: Int
    public var maxGzipBytes: Int

    public init(
        maxEntryBytes: Int = 4 << 30, maxRatio: Int = 200, ratioFloorBytes: Int = 1 << 20,
        maxGzipBytes: Int = 128 << 20
    ) {
        self.maxEntryBytes = maxEntryBytes
        self.maxRatio = maxRatio
        self.ratioFloorBytes = ratioFloorBytes
        self.maxGzipBytes = maxGzipBytes
    }

    public static let standard = ArchiveLimits()

    /// The most bytes `compressed` bytes of input may inflate to, by the ratio (without overflow).
    func ratioBound(compressed: Int) -> Int {
        let (product, overflow) = max(0, compressed).multipliedReportingOverflow(by: maxRatio)
        return overflow
            ? Int.max
            : ratioFloorBytes.addingReportingOverflow(product).overflow
                ? Int.max : ratioFloorBytes + product
    }
}
