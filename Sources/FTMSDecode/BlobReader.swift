/// Reads raw BLE session blobs, version 1 (`docs/raw-ble-blob.md`, "Layout" and
/// "Reading rules"). Nothing in a blob can make it crash: every length is checked before
/// it is used, and a bad record ends reading with `.truncated` or `.corrupted` instead.
public enum BlobReader {
    /// ASCII `SFRB`.
    public static let magic: [UInt8] = [0x53, 0x46, 0x52, 0x42]
    public static let version: UInt8 = 1
    public static let headerLength = 16
    public static let recordHeaderLength = 8
    /// Largest payload a record may carry ("Record", length 0…244).
    public static let maxPayloadLength = 244

    /// Reads a whole blob into owned records.
    ///
    /// Throws when the header is unusable (shorter than 16 bytes, another magic, another
    /// version). A truncated or corrupted tail is not an error: the complete records
    /// before it are returned and `end` says where and why reading stopped.
    /// Memory: one `BlobRecord` per record, at most a small multiple of the blob's size.
    public static func read(_ bytes: [UInt8]) throws(BlobError) -> Blob {
        let result: Result<Blob, BlobError> = bytes.withUnsafeBytes { raw in
            do throws(BlobError) {
                var records: [BlobRecord] = []
                let (header, end) = try scan(raw) { view in
                    records.append(
                        BlobRecord(
                            timeMillis: view.timeMillis, uuid: view.uuid, kindRaw: view.kindRaw,
                            payload: view.payload.isEmpty ? [] : Array(view.payload)))
                }
                return .success(Blob(header: header, records: records, end: end))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Validates the 16-byte header ("Header").
    public static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(BlobError) -> BlobHeader {
        guard bytes.count >= headerLength else { throw .tooShort(length: bytes.count) }
        guard bytes[0] == 0x53, bytes[1] == 0x46, bytes[2] == 0x52, bytes[3] == 0x42 else {
            throw .badMagic(Array(bytes[0..<4]))
        }
        guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
        let start = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        return BlobHeader(version: bytes[4], machineRaw: bytes[5], startMillis: start)
    }

    /// Zero-copy pass: validates the header, then calls `visit` once per trusted record
    /// with a view whose payload points into `bytes` (valid only during the call).
    /// Returns the header and how reading ended.
    @inlinable
    public static func scan(
        _ bytes: UnsafeRawBufferPointer, visit: (BlobRecordView) -> Void
    ) throws(BlobError) -> (header: BlobHeader, end: BlobEnd) {
        let header = try readHeader(bytes)
        let end = scanRecords(bytes, from: headerLength, visit: visit)
        return (header, end)
    }

    /// Walks the records starting at byte `from` ("Record" layout and "Reading rules"): `scan` without the header,
    /// for a caller that read it with `readHeader` (then `from` is `headerLength`).
    @inlinable @inline(__always)
    public static func scanRecords(
        _ bytes: UnsafeRawBufferPointer, from start: Int, visit: (BlobRecordView) -> Void
    ) -> BlobEnd {
        // Literals rather than the public constants: in inlined code a cross-module read of a
        // `static let` is an accessor call per record.
        let recordHeader = 8, maxPayload = 244 // recordHeaderLength, maxPayloadLength
        let count = bytes.count
        var offset = start
        var previousTime: UInt32 = 0
        while offset < count {
            // offset <= count throughout, so the differences cannot overflow.
            guard count &- offset >= recordHeader else { return .truncated(offset: offset) }
            let (time, uuid, kind, length) = readRecordHeader(bytes, at: offset)
            if time < previousTime { return timeWentBack(offset: offset, time: time, previous: previousTime) }
            if length > maxPayload { return tooLong(offset: offset, length: length) }
            let payloadStart = offset &+ recordHeader
            guard count &- payloadStart >= length else { return .truncated(offset: offset) }
            let payload = UnsafeRawBufferPointer(
                start: bytes.baseAddress.map { $0 + payloadStart }, count: length)
            visit(BlobRecordView(offset: offset, timeMillis: time, uuid: uuid, kindRaw: kind, payload: payload))
            previousTime = time
            offset = payloadStart &+ length
        }
        return .complete
    }

    /// The 8-byte record header at `offset` ("Record": uint32 time in ms, uint16 UUID, uint8 kind, uint8 payload
    /// length, little-endian); the caller has checked that 8 bytes are there.
    @inlinable @inline(__always)
    public static func readRecordHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (
        time: UInt32, uuid: UInt16, kind: UInt8, length: Int
    ) {
        let head = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        return (
            UInt32(truncatingIfNeeded: head), UInt16(truncatingIfNeeded: head >> 32),
            UInt8(truncatingIfNeeded: head >> 48),
            Int(head >> 56)
        )
    }

    @usableFromInline
    static func timeWentBack(offset: Int, time: UInt32, previous: UInt32) -> BlobEnd {
        .corrupted(offset: offset, reason: "record time \(time) ms is before the previous record's \(previous) ms")
    }

    @usableFromInline
    static func tooLong(offset: Int, length: Int) -> BlobEnd {
        .corrupted(offset: offset, reason: "record length \(length) exceeds \(maxPayloadLength)")
    }
}

/// A borrowed view of one record during `BlobReader.scan`: no copy, no allocation. The
/// payload points into the blob and must not escape the `visit` call (which is also why
/// this one public type is not `Sendable`).
public struct BlobRecordView {
    /// Byte offset of the record header in the blob.
    public let offset: Int
    public let timeMillis: UInt32
    public let uuid: UInt16
    public let kindRaw: UInt8
    public let payload: UnsafeRawBufferPointer

    @inlinable
    init(offset: Int, timeMillis: UInt32, uuid: UInt16, kindRaw: UInt8, payload: UnsafeRawBufferPointer) {
        self.offset = offset
        self.timeMillis = timeMillis
        self.uuid = uuid
        self.kindRaw = kindRaw
        self.payload = payload
    }

    public var kind: RecordKind? { RecordKind(rawValue: kindRaw) }

    /// An owned copy.
    public var record: BlobRecord {
        BlobRecord(timeMillis: timeMillis, uuid: uuid, kindRaw: kindRaw, payload: Array(payload))
    }
}
